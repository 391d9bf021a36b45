"""What the site's templates show for an outcome or a verdict (symbol and class), anchors and links, the JSON
embedded in a page, and the stylesheet and script every page inlines (nothing is fetched when a page is viewed)."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from urllib.parse import quote

from oracle.core.results import Outcome
from oracle.reports.html.load import Verdict

OUTCOME_SYMBOLS: dict[Outcome, str] = {
    Outcome.PASS: "✓",
    Outcome.FAIL: "✗",
    Outcome.WRONGLY_REJECTED: "⊘",
    Outcome.ILLEGAL_ACCEPTED: "⚠",
    Outcome.ERROR: "‼",
    Outcome.TIMEOUT: "◷",
    Outcome.INCOMPLETE: "…",
    Outcome.UNSUPPORTED: "–",
    Outcome.NOT_APPLICABLE: "∅",
    Outcome.EXPECTED_FAILURE: "≈",
    Outcome.UNEXPECTED_PASS: "★",
}
LATER_OUTCOME_SYMBOL = "?"


def outcome_symbol(outcome: Outcome) -> str:
    """The outcome's symbol; an outcome added after this table gets :data:`LATER_OUTCOME_SYMBOL`."""
    return OUTCOME_SYMBOLS.get(outcome, LATER_OUTCOME_SYMBOL)


def outcome_class(outcome: Outcome) -> str:
    if outcome is Outcome.PASS:
        return "s-pass"
    if outcome is Outcome.UNSUPPORTED:
        return "s-unsupported"
    if outcome is Outcome.NOT_APPLICABLE:
        return "s-not-applicable"
    return "s-known" if outcome.ok else "s-fail"


_SCRIPT_JSON_ESCAPES = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                                      "\u2028": "\\u2028", "\u2029": "\\u2029"})


def script_json(data: object) -> str:
    """``data`` as JSON to embed in a ``<script>`` element (issue 21): ``<``, ``>``, ``&``, U+2028 and U+2029
    are written as ``\\u`` escapes, so no text (``</script>``, ``<!--``, ``-->``) can end the script data or
    switch the tokenizer into an escaped state, and ``JSON.parse`` reads back the same strings."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_SCRIPT_JSON_ESCAPES)


def anchor_id(prefix: str, name: str) -> str:
    """An ``id`` attribute value: HTML allows any character but whitespace."""
    return f"{prefix}-{'_'.join(name.split())}"


def href(page: str, prefix: str, name: str) -> str:
    return f"{page}#{quote(anchor_id(prefix, name), safe='/:-_.~()+,;=@!$')}"


VERDICT_LOOKS: dict[Verdict, tuple[str, str]] = {
    Verdict.PASSED: ("✓", "s-pass"),
    Verdict.FAILED: ("✗", "s-fail"),
    Verdict.INCOMPLETE: ("…", "s-known"),
    Verdict.NOTHING_CHECKED: ("◌", "s-unsupported"),
}
"""The symbol and the class of each verdict: ``✓ PASSED``, ``✗ FAILED``, ``… INCOMPLETE``, ``◌ NOTHING CHECKED``."""


@cache
def asset(name: str) -> str:
    return files("oracle.reports.html").joinpath("assets", name).read_text(encoding="utf-8")
