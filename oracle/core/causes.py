"""Cause facts: what a failing check knows about why it failed, independent of the check that saw it
(docs/reports.md, Causes); the suites record them, the reports group failures by them."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from oracle.core.json_types import JSON
from oracle.core.protocol import ANSWERS

CAUSE_KEY = "cause"

UNCHANGED_BY_REJECTION = "DEC-4"
"""The rule a rejection that changed the engine's state breaks: a rejected action leaves the state as it was."""
"""The key of a result's ``details`` that holds its :class:`CauseFacts` (as JSON)."""

_INDEX = re.compile(r"\[\d+\]")


class Verdict(str, Enum):
    """The engine's verdict set against the reference's."""

    ACCEPTS = "accepts"
    """The engine accepts (or lists as legal) an action the reference rejects with ``code``."""
    REJECTS = "rejects"
    """The engine rejects with ``code`` (or does not list) an action the reference accepts."""
    DIFFERS = "differs"
    """After an action of kind ``kind`` the state or pending decision differs at ``field``."""
    FAULT = "fault"
    """The engine raised, hung or answered outside the protocol in method ``field``."""
    CONTRADICTS = "contradicts"
    """The engine contradicts a capability (``field``) its handshake declares (PROTO-2): it answered the call
    ``unsupported``, or (``try_actions``) its ``apply`` did other than the verdict it gave the same action."""
    OTHER_CODE = "other-code"
    """Both reject, the engine with ``code``, the reference with ``reference_code``."""
    STALLS = "stalls"
    """The game makes no progress in the phase ``kind`` at a decision of kind ``field``: it has not ended within the
    step limit, or no one can answer that decision. Its rule is '': the oracle sees that the game stops going
    forward, not which rule keeps it there (``engine_does`` says who holds the decision and why it stalls)."""
    CHANGED_THEN_REJECTED = "changed-then-rejected"
    """Both reject an answer to a ``kind`` decision, the reference with ``code``, but the engine changed its state (at
    ``field``) before rejecting it; ``rule`` is DEC-4, ``engine_message`` the engine's own rejection."""
    OTHER = "other"
    """A failure the oracle cannot place more precisely (grouped by suite and rule)."""


_SUBJECTS: dict[Verdict, Callable[[CauseFacts], str]] = {
    Verdict.ACCEPTS: lambda f: f.code,
    Verdict.REJECTS: lambda f: f.reference_code,
    Verdict.DIFFERS: lambda f: _decision_as_one(field_pattern(f.field)),
    Verdict.FAULT: lambda f: f.field,
    Verdict.CONTRADICTS: lambda f: f.field,
    Verdict.OTHER_CODE: lambda f: f.reference_code,
    Verdict.STALLS: lambda f: f"{f.kind}/{f.field}",
    Verdict.CHANGED_THEN_REJECTED: lambda f: f.code,
    Verdict.OTHER: lambda f: f.field,
}
"""The part of a cause's key beside its verdict and blamed rule (docs/reports.md, Causes): the reference's rejection
code where the reference rejects (``accepts``, ``other-code``; none for ``rejects``, where the reference accepts),
the field pattern for ``differs``, the method for ``fault``, the capability for ``contradicts``."""

_ENGINE_CODES = frozenset({Verdict.REJECTS, Verdict.OTHER_CODE})
"""The verdicts whose ``code`` is the engine's rejection code (for ``accepts`` it is the reference's)."""


def _decision_as_one(pattern: str) -> str:
    """The pending decision is one field of the key (its kind, player, limit or options differing alike): an engine
    that asks another decision, or the same with another limit, under one rule is one cause."""
    return "decision" if pattern == "decision" or pattern.startswith(("decision.", "decision[")) else pattern


def decision_kind(action_type: object) -> str:
    """The decision kind an action of this type answers (``summon`` answers ``actions``); the type itself when
    no single kind takes it."""
    kinds = [kind.value for kind, answers in ANSWERS.items() if any(a.value == action_type for a in answers)]
    return kinds[0] if len(kinds) == 1 else str(action_type)


def field_pattern(path: str) -> str:
    """A snapshot path without its indices: ``players[1].score`` becomes ``players[*].score``."""
    return _INDEX.sub("[*]", path)


@dataclass(frozen=True)
class CauseFacts:
    """What a failing check knows about why it failed, independent of the check (docs/reports.md, Causes).

    ``kind`` is the decision kind answered for accept/reject verdicts, the action type done before a
    difference, or the fault kind; ``code`` the engine's rejection code (the reference's for ACCEPTS).
    """

    verdict: Verdict
    kind: str
    code: str = ""
    reference_code: str = ""
    field: str = ""
    rule: str = ""
    """The blamed rule: the reference's rule at the first divergent step (the rule of its rejection, or of the event
    that produced the differing field); '' when the blame is not known."""
    step: int | None = None
    """The step of the check at which the engine first diverges from the reference (None when not known)."""
    cards: tuple[str, ...] = ()
    """Card and tile ids involved at that step (a facet, not part of the key)."""
    engine_message: str = ""
    """The engine's own words at that step (its rejection message), when it gave any."""
    reference_does: str = ""
    """What the reference does at that step, in words."""
    engine_does: str = ""
    """What the engine does at that step, in words."""

    @property
    def subject(self) -> str:
        """What the key holds beside the verdict and the rule (:data:`_SUBJECTS`)."""
        return _SUBJECTS[self.verdict](self)

    @property
    def engine_code(self) -> str:
        """The engine's rejection code, where the engine rejected ('' otherwise)."""
        return self.code if self.verdict in _ENGINE_CODES else ""

    @property
    def signature(self) -> str:
        """The cause's key (docs/reports.md, Causes): ``VERDICT/SUBJECT/RULE`` when the blame is known; without it,
        the key of before the blame, ``VERDICT/KIND/CODE-OR-FIELD[/REFERENCE-CODE]``, where the kind stands in for
        the rule so that unrelated deviations are not merged."""
        if self.rule:
            return "/".join((self.verdict.value, self.subject or "-", self.rule))
        parts = [self.verdict.value, self.kind, self.code or self.field]
        if self.verdict is Verdict.OTHER_CODE:
            parts.append(self.reference_code)
        return "/".join(p or "-" for p in parts)

    @property
    def rank(self) -> int:
        """Accept/reject mismatches first, code-only differences last."""
        return {Verdict.ACCEPTS: 0, Verdict.REJECTS: 0, Verdict.OTHER_CODE: 2}.get(self.verdict, 1)

    def to_json(self) -> JSON:
        return {"verdict": self.verdict.value, "kind": self.kind, "code": self.code,
                "reference_code": self.reference_code, "field": self.field, "rule": self.rule, "step": self.step,
                "cards": list(self.cards), "engine_message": self.engine_message,
                "reference_does": self.reference_does, "engine_does": self.engine_does}

    @staticmethod
    def from_json(data: object) -> CauseFacts | None:
        if not isinstance(data, dict):
            return None
        try:
            verdict = Verdict(data.get("verdict"))
        except ValueError:
            return None
        step = data.get("step")
        cards = data.get("cards")
        return CauseFacts(verdict, str(data.get("kind", "")), str(data.get("code", "")),
                          str(data.get("reference_code", "")), str(data.get("field", "")),
                          rule=str(data.get("rule", "")), step=step if isinstance(step, int) else None,
                          cards=tuple(str(c) for c in cards) if isinstance(cards, list) else (),
                          engine_message=str(data.get("engine_message", "")),
                          reference_does=str(data.get("reference_does", "")),
                          engine_does=str(data.get("engine_does", "")))


def accepted_illegal(action: JSON, reference_code: str) -> CauseFacts:
    return CauseFacts(Verdict.ACCEPTS, decision_kind(action.get("type")), reference_code)


def rejected_legal(action: JSON, engine_code: str) -> CauseFacts:
    return CauseFacts(Verdict.REJECTS, decision_kind(action.get("type")), engine_code)


def other_code(action: JSON, engine_code: str, reference_code: str) -> CauseFacts:
    return CauseFacts(Verdict.OTHER_CODE, decision_kind(action.get("type")), engine_code, reference_code)


def stalled(phase: str, pending: JSON | None, why: str) -> CauseFacts:
    """A game that makes no progress (``why``: not ended within the step limit, or no answer to ``pending``):
    keyed by the phase and the decision kind, with who holds the decision in ``engine_does``, and no rule."""
    decision = str(pending.get("kind")) if pending is not None else "no"
    holder = "no one" if pending is None else "chance" if pending.get("player") is None else f"P{pending['player']}"
    return CauseFacts(Verdict.STALLS, phase or "unknown", field=decision,
                      engine_does=f"stalls: {why}; {holder} holds the {decision} decision in the "
                                  f"{phase or 'unknown'} phase")
def changed_then_rejected(action: JSON, reference: JSON, engine: JSON, path: str) -> CauseFacts:
    """Both rejected ``action``, ``reference`` and ``engine`` their rejections, but the engine's state changed at
    ``path``: blamed on DEC-4 (a rejected action leaves the state exactly as it was), with the reference's code and
    the engine's own message."""
    return CauseFacts(Verdict.CHANGED_THEN_REJECTED, decision_kind(action.get("type")), str(reference.get("code", "")),
                      field=field_pattern(path), rule=UNCHANGED_BY_REJECTION,
                      engine_message=str(engine.get("message", "")))


def differs_after(action: JSON | None, path: str) -> CauseFacts:
    kind = str(action.get("type")) if action is not None else "new_game"
    return CauseFacts(Verdict.DIFFERS, kind, field=field_pattern(path))
