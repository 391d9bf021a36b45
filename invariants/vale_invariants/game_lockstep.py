"""Lock-step comparison in a fuzzed game: the engine under test and the reference, fed the same inputs."""

from __future__ import annotations

from typing import Any

from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.protocol import answer_is_ordered
from oracle.engines.events import event_difference
from oracle.engines.trial import first_disagreement, trial_actions
from oracle.reference import ReferenceEngine
from oracle.reference.rulings import Ruled
from vale_invariants.catalog import LOCKSTEP
from vale_invariants.game_core import dedupe_rules
from vale_invariants.game_resync import Resynchronising
from vale_invariants.lockstep import (
    cost_rules,
    decision_difference,
    decision_rules,
    first_state_difference,
    legal_difference,
    missing_rules,
    option_rules,
    reference_rejection,
    state_rules,
)
from vale_invariants.reshuffles import DRAW_PILE, Adopted, DeckFault, adopt_reshuffles
from vale_invariants.trace import Divergence


class LockstepComparison(Resynchronising):
    """The legal lists, the states and the pending decisions of both engines must be the same at every step."""

    def _compare_legal(self, pending: JSON, legal: list[JSON], step: int) -> None:
        if not self.on("LOCKSTEP"):
            return
        reference = self.reference
        assert reference is not None
        expected = self._reference(step, "legal_actions", reference.legal_actions)
        missing, extra = legal_difference(expected, legal, answer_is_ordered(pending))
        if not missing and not extra:
            return
        extra_rejections = [reference_rejection(reference, a) or {} for a in extra]
        rules: list[str] = option_rules({str(o) for a in missing + extra for o in a.get("options", []) or []})
        rules += [str(r.get("rule", "")) for r in extra_rejections]
        if missing:
            engine_rejection = None
            try:
                [verdict] = self.subject.judge([missing[0]])
                engine_rejection = None if verdict["accepted"] else verdict.get("rejection")
            except EngineFault:
                pass
            if engine_rejection is not None:
                rules.append(str(engine_rejection.get("rule", "")))
        if any(str(r.get("rule", "")).startswith("PAY-") for r in extra_rejections) or any(
                a.get("type") in ("summon", "remove", "pay") for a in missing):
            rules.extend(cost_rules(reference, missing + extra))
        if missing:
            rules.extend(missing_rules(missing[0], None))
        self.diverged(self._located(Divergence("legal", step, None, missing=missing, extra=extra,
                                               rejection=extra_rejections[0] if extra_rejections else None,
                                               extra_rejections=extra_rejections,
                                               reference_decision=pending, rules=dedupe_rules(rules))))

    def _trial(self, pending: JSON, snapshot: JSON | None, action: JSON, legal: list[JSON], seed: int,
               step: int) -> None:
        """A decision sampled out of the full comparison (:mod:`oracle.engines.legal_share`): the chosen action and a
        few probes judged by the engine in one ``try_actions`` call, where it has it, against the reference; an
        action judged otherwise (and so applied on a copy) is the legal-set difference it makes."""
        reference = self.reference
        if reference is None or not self.subject.handshake.can("try_actions") or not self.on(LOCKSTEP.name):
            return
        actions = trial_actions(action, legal, pending, snapshot, seed)
        found = first_disagreement(self.subject, reference, actions)
        if found is None:
            return
        implied = [*legal, found.action] if found.accepts_illegal else [a for a in legal if a is not found.action]
        self.listed = True
        self._compare_legal(pending, implied, step)

    def _compare_after(self, action: JSON | None, before: JSON | None, after: JSON | None, pending: JSON | None,
                       step: int, events: list[object] | None = None) -> None:
        """After ``action`` (None: the start), which the engine accepted with ``events``: the reference applies it, and
        the states, the pending decisions and (from an engine that declares ``events``) the events must agree."""
        if not self.on("LOCKSTEP"):
            return
        reference = self.reference
        assert reference is not None
        previous = self.reference_snapshot
        compares_events = action is not None and events is not None and self.subject.handshake.can("events")
        emitted: list[Ruled] = []
        root = ""
        if action is not None:
            verdict = self._reference(step, "apply", lambda: reference.apply(action))
            if not verdict.get("accepted"):
                rejection = verdict.get("rejection") or {}
                self.diverged(self._located(Divergence("rejected", step - 1, action, rejection=rejection,
                                                       reference_decision=reference.decision(),
                                                       rules=dedupe_rules([str(rejection.get("rule", "")),
                                                                           "DEC-2"]))))
                return
            if compares_events:
                account = reference.account
                emitted, root = list(account.events), account.root
        if after is not None and self.subject.handshake.reshuffles_inside:
            adopted: Adopted = self._reference(step, "shuffle", lambda: adopt_reshuffles(reference, after))
            if adopted.fault is not None:
                self._deck_fault(adopted.fault, step)
                return
            emitted.extend(adopted.events)
        expected = self._reference(step, "export", reference.export)
        self.reference_snapshot = expected
        expected_pending = reference.decision()
        if after is not None:
            where = first_state_difference(expected, after)
            if where is not None:
                before_engine = _reference_at(previous)
                rules = state_rules(where, action, before_engine, before, expected,
                                    previous if action is not None else self.trace.start, after)
                self.diverged(self._located(Divergence("state", step, action, field=where,
                                                       expected=_at(expected, where), actual=_at(after, where),
                                                       reference_snapshot=expected,
                                                       reference_decision=expected_pending, rules=rules)))
                return
        where = decision_difference(expected_pending, pending)
        if where is not None:
            rules = decision_rules(expected_pending, pending, action, _reference_at(previous), reference)
            self.diverged(self._located(Divergence("decision", step, action, field=where, expected=expected_pending,
                                                   actual=pending, reference_snapshot=expected,
                                                   reference_decision=expected_pending, rules=rules)))
            return
        found = event_difference(events or [], emitted, root, self.subject.handshake.reshuffles_inside) \
            if compares_events else None
        if found is not None:
            self.diverged(self._located(Divergence("events", step, action, field=found.field, expected=found.reference,
                                                   actual=found.engine, reference_snapshot=expected,
                                                   reference_decision=expected_pending, rules=(found.rule,))))

    def _deck_fault(self, fault: DeckFault, step: int) -> None:
        """DECK-1: the engine's own reshuffle did not hold exactly the discard pile (the adopted reshuffle is the
        step's action, so the cause is the reshuffle whatever action led to it)."""
        reference = self.reference
        assert reference is not None
        expected = self._reference(step, "export", reference.export)
        self.reference_snapshot = expected
        self.diverged(self._located(Divergence("state", step, fault.shuffle, field=DRAW_PILE,
                                               expected=fault.reference_does, actual=fault.engine_does,
                                               reference_snapshot=expected,
                                               reference_decision=reference.decision(), rules=("DECK-1",))))

    def _located(self, divergence: Divergence) -> Divergence:
        """The divergence with the position the reference was last re-synchronised from, if it was."""
        if self.resync_point is not None:
            divergence.given_step, divergence.given = self.resync_point
        return divergence


def _reference_at(snapshot: JSON | None) -> ReferenceEngine | None:
    if snapshot is None:
        return None
    engine = ReferenceEngine()
    try:
        engine.load(snapshot)
    except Exception:
        return None
    return engine


def _at(snapshot: JSON, path: str) -> Any:
    """The value at a difference path like ``players[1].stones.red`` (the whole list for list paths)."""
    value: Any = snapshot
    for part in path.split(" ")[0].split("."):
        name, _, index = part.partition("[")
        if name:
            if not isinstance(value, dict) or name not in value:
                return None
            value = value[name]
        if index and isinstance(value, list):
            i = int(index.rstrip("]"))
            if name != "players":
                return value
            value = value[i] if i < len(value) else None
    return value
