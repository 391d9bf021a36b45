"""The actions of a conformance case the engine allows: judged in one ``try_actions`` batch, or read from its listing.

A row compares the engine's legal actions of one kind with the set the Z3 model enumerates. An engine that lists
its legal actions by trying candidates pays for a whole listing at every case (issue 25); one with the capability
``try_actions`` is instead asked its verdict on the case's *candidates*: every action the model allows, every action
of the compared kind the decision offers from the stones held (:func:`oracle.engines.candidates.candidate_actions`,
a superset of the legal ones: superfluous, short and other payments), each payment of all the stones held with one
stone more (PAY-5), and every upgrade of up to two stones of any colours (STONE-2: one stone upgraded twice, a
purple one "upgraded"). The ones it accepts stand for its legal set: a legal action refused is one the model allows
and the engine would not list, an illegal one accepted is one it would (the row's diagnosis is the same). As in
:mod:`oracle.engines.trial`, a verdict that differs from the model is confirmed on a copy of the engine first.

A listing that leaves out an action ``apply`` accepts is found by the lock-step's and the invariants' comparisons of
the complete legal set; each row still compares the engine's full listing at the first case it checks
(:func:`oracle.suites.z3.conformance.run_row`).
"""

from __future__ import annotations

from collections.abc import Hashable

from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.core.protocol import DecisionKind
from oracle.engines.candidates import UPGRADE_STEPS, candidate_actions
from oracle.engines.harness import Subject, check_verdict
from oracle.reference.engine import ReferenceEngine
from oracle.suites.z3.conform_actions import action_key, payment_of
from oracle.suites.z3.conform_types import Case, Row


def position_after_prelude(case: Case, snapshot: JSON) -> JSON:
    """The case's position once its prelude is played, as the reference reaches it (the snapshot itself without
    one): the stones and cards the candidates are drawn from."""
    if not case.prelude:
        return snapshot
    reference = ReferenceEngine()
    reference.load(snapshot)
    for action in case.prelude:
        reference.apply(action)
    return reference.export()


_ONE_STONE = (Stones(red=1), Stones(blue=1), Stones(purple=1))
_ANY_UPGRADE = tuple(Stones(r, b, p) for r in range(UPGRADE_STEPS + 1) for b in range(UPGRADE_STEPS + 1)
                     for p in range(UPGRADE_STEPS + 1) if 1 <= r + b + p <= UPGRADE_STEPS)


def _beyond_offer(pending: JSON, position: JSON, offered: list[JSON]) -> list[JSON]:
    """Candidates the decision's offer leaves out: each payment of all the stones held with one stone more of each
    colour, and at an upgrade decision every upgrade of up to :data:`UPGRADE_STEPS` stones, held or not."""
    player = pending.get("player")
    if pending.get("kind") == DecisionKind.UPGRADE_STONES.value:
        return [{"type": "upgrade_stones", "player": player, "stones": s.to_json()} for s in _ANY_UPGRADE]
    if not isinstance(player, int):
        return []
    held = Stones.from_json(position["players"][player]["stones"])
    return [{**action, "payment": (held + one).to_json()} for action in offered if "payment" in action
            and payment_of(action) == held for one in _ONE_STONE]


def case_candidates(row: Row, case: Case, pending: JSON, position: JSON) -> list[JSON]:
    """The model's legal actions, then every other candidate of the compared kind, each once (by
    :func:`action_key`)."""
    seen = {action_key(a) for a in case.expected}
    candidates = list(case.expected)
    offered = candidate_actions(pending, position)
    for action in [*offered, *_beyond_offer(pending, position, offered)]:
        key = action_key(action)
        if row.compared(action) and key not in seen:
            seen.add(key)
            candidates.append(action)
    return candidates


def allowed_actions(subject: Subject, row: Row, case: Case, pending: JSON, snapshot: JSON, listed: bool) -> list[JSON]:
    """The compared actions the engine allows at the case's decision: its own listing when ``listed`` or when it
    lacks ``try_actions``, else the candidates its ``try_actions`` accepts."""
    if listed or not subject.handshake.can("try_actions"):
        return [a for a in subject.legal_actions() if isinstance(a, dict) and row.compared(a)]
    candidates = case_candidates(row, case, pending, position_after_prelude(case, snapshot))
    verdicts = subject.try_actions(candidates)
    _confirm(subject, {action_key(a) for a in case.expected}, candidates, verdicts)
    return [action for action, verdict in zip(candidates, verdicts, strict=True) if verdict.get("accepted")]


def _confirm(subject: Subject, legal: set[Hashable], candidates: list[JSON], verdicts: list[JSON]) -> None:
    """The first illegal candidate accepted and the first legal one refused, each applied to a copy of the engine:
    an ``apply`` that contradicts the verdict is a protocol error (PROTO-2), not a difference in the rules."""
    for accepted in (True, False):
        for action, verdict in zip(candidates, verdicts, strict=True):
            if bool(verdict.get("accepted")) is accepted and (action_key(action) in legal) is not accepted:
                check_verdict(action, verdict, subject.clone().apply(action))
                break
