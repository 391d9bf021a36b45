"""The colours of ``oracle check``'s console on a terminal (rich): each headline's outcome word and the verdict in
the colour of what it means; plain text, unchanged, where rich shows no colour (not a terminal, ``NO_COLOR``)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from rich.text import Text

from oracle.core.results import Outcome
from oracle.reports.common import VERDICTS
from oracle.run.colour import console_on, in_colour

FAILED_STYLE = "bold red"
OUTCOME_STYLES: dict[Outcome, str] = {
    Outcome.PASS: "green",
    Outcome.FAIL: FAILED_STYLE,
    Outcome.WRONGLY_REJECTED: FAILED_STYLE,
    Outcome.ILLEGAL_ACCEPTED: FAILED_STYLE,
    Outcome.ERROR: FAILED_STYLE,
    Outcome.TIMEOUT: FAILED_STYLE,
    Outcome.INCOMPLETE: "yellow",
    Outcome.UNSUPPORTED: "dim",
    Outcome.NOT_APPLICABLE: "dim",
    Outcome.EXPECTED_FAILURE: "yellow",
    Outcome.UNEXPECTED_PASS: FAILED_STYLE,
}
VERDICT_STYLES: dict[str, str] = {"PASSED": "bold green", "FAILED": FAILED_STYLE, "INCOMPLETE": "bold yellow",
                                  "NOTHING CHECKED": "bold yellow"}
LINE_STYLES: dict[str, str] = {
    **{outcome.value.upper() + " ": style for outcome, style in OUTCOME_STYLES.items()},
    **{verdict + ":": VERDICT_STYLES[verdict] for verdict in VERDICTS.values()},
    "NOTE ": "cyan",
    "UNDRIVABLE ": "yellow",
}
"""The style of the word that opens a line, by that word (a check's headline, a note, the verdict)."""


def styled(line: str) -> Text:
    """``line`` with the word that opens it in its style (the rest as it is)."""
    text = Text(line)
    opening = next((word for word in LINE_STYLES if line.startswith(word)), None)
    if opening is not None:
        text.stylize(LINE_STYLES[opening], 0, len(opening.rstrip(" :")))
    return text


def check_echo(err: bool = False) -> Callable[[str], None]:
    """How ``oracle check`` prints a line to stdout (or stderr): coloured where rich shows colour, else as it is."""
    console = console_on(sys.stderr if err else sys.stdout)
    if not in_colour(console):
        return lambda line: console.out(line, highlight=False)
    return lambda line: console.print(styled(line), soft_wrap=True)
