"""Causes in words: a cause's title says where it happened (cards or tile, step), what the engine does, what the
reference does and the blamed rule, from its facts alone (docs/reports.md, Causes)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from oracle.core.causes import CauseFacts, Verdict
from oracle.reports.common import card_name

ENGINE = "the engine"
REFERENCE = "the reference"

_FAULTS = {"error": "raises or answers outside the protocol in {field}",
           "timeout": "does not answer {field} in time",
           "incomplete": "is cut short in {field}"}
"""What the engine does, by fault kind, when the facts have no words of their own."""

_ENGINE_SAYS: dict[Verdict, Callable[[CauseFacts], str]] = {
    Verdict.ACCEPTS: lambda f: f"accepts {_answer(f)}",
    Verdict.REJECTS: lambda f: f"rejects {_answer(f)}{_with(f.code)}",
    Verdict.DIFFERS: lambda f: f"ends with another {f.field or 'state'} after {_kind(f)}",
    Verdict.FAULT: lambda f: _FAULTS.get(f.kind, "fails ({kind}) in {field}").format(kind=f.kind,
                                                                                   field=f.field or "the run"),
    Verdict.CONTRADICTS: lambda f: f"declares the capability {f.field} but answers it unsupported",
    Verdict.OTHER_CODE: lambda f: f"rejects {_answer(f)}{_with(f.code)}",
    Verdict.CHANGED_THEN_REJECTED: lambda f: f"changes {f.field or 'its state'} before rejecting {_answer(f)}",
    Verdict.STALLS: lambda f: f"stalls at a {f.field} decision in the {f.kind} phase",
    Verdict.OTHER: lambda f: f"fails a {f.kind or 'check'} check ({f.field or 'no detail'})",
}
"""What the engine does, by verdict, when the facts do not say it (``engine_does`` empty)."""

_REFERENCE_SAYS: dict[Verdict, Callable[[CauseFacts], str]] = {
    Verdict.ACCEPTS: lambda f: f"rejects it{_with(f.code)}",
    Verdict.REJECTS: lambda f: "accepts it",
    Verdict.OTHER_CODE: lambda f: f"rejects it{_with(f.reference_code)}",
    Verdict.CHANGED_THEN_REJECTED: lambda f: f"rejects it{_with(f.code)} and leaves the state as it was",
}
"""What the reference does, by verdict, when the facts do not say it; a verdict absent here says nothing of it."""


def _kind(facts: CauseFacts) -> str:
    return f"an action of kind {facts.kind}" if facts.kind else "an action"


def _answer(facts: CauseFacts) -> str:
    return f"an answer to the {facts.kind} decision" if facts.kind else "an action"


def _with(code: str) -> str:
    return f" with {code}" if code else ""


def clause(subject: str, words: str) -> str:
    """``words`` as a clause of ``subject``: words that already name a subject (``the reference's limit is 6``) are
    kept as they are, others (``asks which stones to keep``) get the subject in front."""
    text = " ".join(words.split())
    if not text:
        return ""
    named = text.casefold().startswith((ENGINE, REFERENCE))
    return text if named else f"{subject} {text}"


def names(cards: Sequence[str]) -> str:
    """``Hestia``, ``Ember and Gust``, ``Ember, Gust and Leviathan``: card or tile names, ids the catalogue lacks as
    they are."""
    shown = [card_name(c) for c in dict.fromkeys(cards)]
    if len(shown) < 2:
        return "".join(shown)
    return ", ".join(shown[:-1]) + f" and {shown[-1]}"


def where(facts: CauseFacts) -> str:
    """``Hestia, step 5``, ``step 5`` or ``Hestia``; '' when the facts know neither."""
    parts = [names(facts.cards), f"step {facts.step}" if facts.step is not None else ""]
    return ", ".join(p for p in parts if p)


def cause_title(facts: CauseFacts) -> str:
    """The title of a cause, e.g. ``Hestia, step 5: the engine asks which stones to keep at 5 stones; the reference's
    limit is 6 (LIMIT-1)``: where, what the engine does, what the reference does, and the blamed rule. What the
    facts do not say is told from the verdict, code and field (``the engine accepts an answer to the pay decision; the
    reference rejects it with PAYMENT_SHORT``)."""
    reference_default = _REFERENCE_SAYS.get(facts.verdict)
    what = "; ".join(c for c in (
        clause(ENGINE, facts.engine_does or _ENGINE_SAYS[facts.verdict](facts)),
        clause(REFERENCE, facts.reference_does or (reference_default(facts) if reference_default else "")),
    ) if c)
    rule = f" ({facts.rule})" if facts.rule and not what.endswith(f"({facts.rule})") else ""
    place = where(facts)
    text = f"{place}: {what}{rule}" if place else f"{what}{rule}"
    return text[:1].upper() + text[1:]
