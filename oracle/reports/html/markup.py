"""HTML building blocks of the site: escaping, a symbol per outcome, anchors, and the page shell with the
stylesheet and script inlined (nothing is fetched when a page is viewed)."""

from __future__ import annotations

import json
from functools import cache
from html import escape
from importlib.resources import files
from urllib.parse import quote

from oracle.core.results import Outcome
from oracle.reports.html.load import Verdict
from oracle.reports.html.tally import Status, Tally

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


def esc(text: object) -> str:
    return escape(str(text), quote=True)


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


def outcome_badge(outcome: Outcome) -> str:
    return (f'<span class="sym {outcome_class(outcome)}" title="{esc(outcome.value)}">'
            f'{outcome_symbol(outcome)}</span>')


VERDICT_LOOKS: dict[Verdict, tuple[str, str]] = {
    Verdict.PASSED: ("✓", "s-pass"),
    Verdict.FAILED: ("✗", "s-fail"),
    Verdict.INCOMPLETE: ("…", "s-known"),
    Verdict.NOTHING_CHECKED: ("◌", "s-unsupported"),
}


def verdict_badge(verdict: Verdict) -> str:
    """``✓ PASSED``, ``✗ FAILED``, ``… INCOMPLETE`` or ``◌ NOTHING CHECKED``, in the verdict's colour."""
    symbol, css = VERDICT_LOOKS[verdict]
    return f'<span class="{css}"><span class="sym">{symbol}</span> {esc(verdict.value)}</span>'


def status_badge(status: Status) -> str:
    return f'<span class="sym s-{status.value}" title="{esc(status.label)}">{status.symbol}</span>'


def tally_text(t: Tally) -> str:
    """The symbol and the figure of a tally, e.g. ``✗ 3/5``."""
    return f"{status_badge(t.status)} <span class=\"fig\">{esc(t.figure)}</span>"


def copy_button(command: str) -> str:
    return (f'<span class="repro"><code>{esc(command)}</code> '
            f'<button type="button" class="copy" data-copy="{esc(command)}" hidden>Copy</button></span>')


@cache
def asset(name: str) -> str:
    return files("oracle.reports.html").joinpath("assets", name).read_text(encoding="utf-8")


def page(title: str, body: str, nav: str = "") -> str:
    """A whole page: the stylesheet and the script inline; the body is readable with the script off."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<style>\n{asset('site.css')}</style>\n</head>\n"
        f'<body>\n<nav class="top">{nav}</nav>\n<main>\n{body}\n</main>\n'
        '<div id="panel" role="dialog" aria-labelledby="panel-title" hidden></div>\n'
        f"<script>\n{asset('site.js')}</script>\n</body>\n</html>\n"
    )
