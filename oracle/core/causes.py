"""Cause facts: what a failing check knows about why it failed, independent of the check that saw it
(docs/reports.md, Causes); the suites record them, the reports group failures by them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from oracle.core.json_types import JSON
from oracle.core.protocol import ANSWERS

CAUSE_KEY = "cause"
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
    """The engine answered ``unsupported`` to the call of a capability (``field``) its handshake declares (PROTO-2)."""
    OTHER_CODE = "other-code"
    """Both reject, the engine with ``code``, the reference with ``reference_code``."""
    CHANGED_THEN_REJECTED = "changed-then-rejected"
    """Both reject an answer to a ``kind`` decision, the reference with ``code``, but the engine changed its state (at
    ``field``) before rejecting it (DEC-4); ``rule`` is the reference's rejection rule, ``engine_message`` the
    engine's own rejection."""
    OTHER = "other"
    """A failure the oracle cannot place more precisely (grouped by suite and rule)."""


_TITLES = {
    Verdict.ACCEPTS: "accepted where the reference rejects with {code} ({kind})",
    Verdict.REJECTS: "rejected with {code} where the reference accepts ({kind})",
    Verdict.DIFFERS: "{field} differs after an action of kind {kind}",
    Verdict.FAULT: "engine {kind} in {field}",
    Verdict.CONTRADICTS: "declares the capability {field} but answers it unsupported",
    Verdict.OTHER_CODE: "rejected with {code} where the reference rejects with {reference_code} ({kind})",
    Verdict.CHANGED_THEN_REJECTED: "changed {field} before rejecting where the reference rejects with {code} ({kind})",
    Verdict.OTHER: "{kind}: {field}",
}


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
    def signature(self) -> str:
        parts = [self.verdict.value, self.kind, self.code or self.field]
        if self.verdict is Verdict.OTHER_CODE:
            parts.append(self.reference_code)
        return "/".join(p or "-" for p in parts)

    @property
    def title(self) -> str:
        return _TITLES[self.verdict].format(kind=self.kind or "any", code=self.code or "no code",
                                            reference_code=self.reference_code or "no code",
                                            field=self.field or "the state")

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


def changed_then_rejected(action: JSON, reference: JSON, engine: JSON, path: str) -> CauseFacts:
    """Both rejected ``action``, ``reference`` and ``engine`` their rejections, but the engine's state changed at
    ``path`` (DEC-4): under the reference's rejection rule, with the engine's own message."""
    return CauseFacts(Verdict.CHANGED_THEN_REJECTED, decision_kind(action.get("type")), str(reference.get("code", "")),
                      field=field_pattern(path), rule=str(reference.get("rule", "")),
                      engine_message=str(engine.get("message", "")))


def differs_after(action: JSON | None, path: str) -> CauseFacts:
    kind = str(action.get("type")) if action is not None else "new_game"
    return CauseFacts(Verdict.DIFFERS, kind, field=field_pattern(path))
