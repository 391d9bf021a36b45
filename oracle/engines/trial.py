"""A decision judged without the engine's complete legal set (issue 25): the chosen action and a few probes, drawn
from the reference's legal actions and its illegal candidates, judged by the engine in one ``try_actions`` call
and set against the reference's verdicts (:mod:`oracle.engines.legal_share` picks the decisions judged so).

A verdict of the engine that differs from the reference's is confirmed on a copy of the engine before it counts:
the copy's ``apply`` decides what the engine does, and a copy that contradicts the verdict is a protocol error
(PROTO-2, :func:`oracle.engines.harness.check_verdict`), not a difference in the rules.
"""

from __future__ import annotations

import marshal
import random
from dataclasses import dataclass
from typing import Protocol

from oracle.core.json_types import JSON
from oracle.engines.candidates import candidate_actions
from oracle.engines.harness import Subject, check_verdict

PROBES = 2
"""Probes of each sort beside the chosen action: other legal actions, and illegal candidates."""


class Judge(Protocol):
    """The reference's side: its verdicts on actions at the same position."""

    def try_actions(self, candidates: list[JSON]) -> list[JSON]: ...


@dataclass(frozen=True)
class Listed:
    """The engine's own listing as the judge: an action is accepted when it is listed (the verdicts a ``try_actions``
    of the same engine must give where the listing is right)."""

    legal: list[JSON]

    def try_actions(self, candidates: list[JSON]) -> list[JSON]:
        listed = {_key(a) for a in self.legal}
        return [{"accepted": _key(c) in listed} for c in candidates]


@dataclass(frozen=True)
class Disagreement:
    """An action the engine judges otherwise than the reference, its ``apply`` on a copy agreeing with its verdict."""

    action: JSON
    engine: JSON
    reference: JSON

    @property
    def accepts_illegal(self) -> bool:
        return bool(self.engine.get("accepted"))

    @property
    def rejection(self) -> JSON:
        """The refusal at stake: the reference's of an illegal action the engine accepts, else the engine's."""
        refusal = (self.reference if self.accepts_illegal else self.engine).get("rejection")
        return refusal if isinstance(refusal, dict) else {}

    @property
    def rule(self) -> str:
        """The rule of that refusal (DEC-2 when it names none)."""
        return str(self.rejection.get("rule", "")) or "DEC-2"


def _key(action: JSON) -> bytes:
    """An action's bytes: the reference writes its legal actions and its candidates alike, key order included (an
    action taken for another only moves it between the legal and the illegal probes: both sides judge it)."""
    return marshal.dumps(action)


def trial_actions(chosen: JSON, legal: list[JSON], pending: JSON, snapshot: JSON | None, seed: object) -> list[JSON]:
    """The chosen action, then up to :data:`PROBES` other legal actions and :data:`PROBES` illegal candidates, drawn
    from ``seed``."""
    rng = random.Random(f"trial-{seed}")
    chosen_key = _key(chosen)
    others = [a for a in legal if _key(a) != chosen_key]
    picked = [chosen, *rng.sample(others, min(PROBES, len(others)))]
    try:
        candidates = candidate_actions(pending, snapshot)
    except (KeyError, TypeError, ValueError, IndexError):
        candidates = []
    legal_keys = {_key(a) for a in legal}
    illegal = [c for c in candidates if _key(c) not in legal_keys]
    return picked + rng.sample(illegal, min(PROBES, len(illegal)))


def first_disagreement(subject: Subject, reference: Judge, actions: list[JSON]) -> Disagreement | None:
    """The first action whose verdict (accepted or not) the engine's ``try_actions`` and the reference give
    differently, confirmed on a copy of the engine; None when they agree on all."""
    engine_verdicts = subject.try_actions(actions)
    reference_verdicts = reference.try_actions(actions)
    for action, ours, theirs in zip(actions, engine_verdicts, reference_verdicts, strict=True):
        if bool(ours.get("accepted")) != bool(theirs.get("accepted")):
            check_verdict(action, ours, subject.clone().apply(action))
            return Disagreement(action, ours, theirs)
    return None
