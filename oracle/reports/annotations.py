"""GitHub Actions annotations of a run: one ``::error`` workflow command per failing cause, so that each shows in the
pull request's summary, at most :data:`MOST_ERRORS` of them, then one ``::notice`` counting the rest.

A workflow command is one line; its message escapes ``%``, carriage returns and newlines, and its properties (the
title) escape ``:`` and ``,`` too, as GitHub's runner reads them. Engine text reaches a title already made inert by
the oracle's sanitizer; the escaping here keeps it on its own line and out of the command's syntax.
"""

from __future__ import annotations

from collections.abc import Sequence

from oracle.reports.html.load import Cause

MOST_ERRORS = 10
"""GitHub shows at most ten error annotations of a step; the rest are counted in one notice."""
TITLE = "Vale Oracle"


def escape_data(text: str) -> str:
    """A workflow command's message, kept on one line."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value (``title=``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _blame(cause: Cause) -> str:
    return cause.rule or ", ".join(cause.rules) or "no rule"


def cause_annotation(cause: Cause) -> str:
    """``::error title=PAY-3::<title> (…)`` for one cause: its blamed rule as the annotation's title, then what
    diverged, how many checks show it and the smallest to replay."""
    checks = f"{cause.count} check" + ("" if cause.count == 1 else "s")
    message = f"{cause.title} ({checks}; smallest: {cause.smallest})" if cause.smallest else f"{cause.title} ({checks})"
    return f"::error title={escape_property(_blame(cause))}::{escape_data(message)}"


def workflow_commands(causes: Sequence[Cause]) -> list[str]:
    """A run's annotations: an error per cause (the first :data:`MOST_ERRORS`), then a notice for the rest."""
    lines = [cause_annotation(cause) for cause in causes[:MOST_ERRORS]]
    rest = causes[MOST_ERRORS:]
    if rest:
        rules = ", ".join(dict.fromkeys(_blame(cause) for cause in rest))
        lines.append(f"::notice title={escape_property(TITLE)}::"
                     + escape_data(f"{len(rest)} more failing causes ({rules}): see the job summary and report.json"))
    return lines
