"""The invariant checks of a fuzzed game: the legal list, the state after each step, round trips, replays."""

from __future__ import annotations

from typing import NoReturn

from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.protocol import ANSWERS, DecisionKind, decision_contract, snapshot_contract
from oracle.core.results import Outcome
from vale_invariants import checks
from vale_invariants.checks import Finding, ReferenceView
from vale_invariants.game_core import StopGame, dedupe_rules
from vale_invariants.game_resync import Resynchronising
from vale_invariants.lockstep import (
    first_state_difference,
    missing_rules,
)
from vale_invariants.trace import Divergence, compact


class InvariantChecks(Resynchronising):
    """Checks of the engine under test alone, each counted under its invariant's name when it is active."""

    def _check_listed(self, pending: JSON, legal: list[JSON], step: int, snapshot: JSON | None = None) -> None:
        """INV-LEGAL-APPLIES: every listed action answers the pending decision for its player; a decision with no
        legal answer stalls the game (a cause of its own, no rule)."""
        if not self.on("INV-LEGAL-APPLIES"):
            if not legal:
                raise StopGame()
            return
        if not legal:
            finding = Finding("INV-LEGAL-APPLIES", "", f"no legal action is listed for the pending decision "
                              f"{pending}", "at least one legal action", "none")
            if not self.aside(finding.known_as, finding.rules):
                raise self.stall(finding, snapshot, pending, step)
            raise StopGame()
        try:
            answers = ANSWERS[DecisionKind(pending.get("kind"))]
        except ValueError:
            self._raise(Finding("INV-LEGAL-APPLIES", "DEC-2", f"unknown decision kind {pending.get('kind')!r}",
                                "a protocol decision kind", str(pending.get("kind"))), step)
            return
        kinds = {a.value for a in answers}
        for action in legal:
            if not isinstance(action, dict) or action.get("type") not in kinds:
                self._raise(Finding("INV-LEGAL-APPLIES", "DEC-2", f"the listed action {action} does not answer a "
                                    f"{pending.get('kind')} decision", f"one of {sorted(kinds)}", str(action)), step)
            if action.get("player") != pending.get("player"):
                self._raise(Finding("INV-LEGAL-APPLIES", "DEC-1", f"the listed action {compact(action)} is for "
                                    f"another player than the decision's", str(pending.get("player")),
                                    str(action.get("player"))), step)

    def _rejected_legal(self, action: JSON, result: JSON, step: int) -> NoReturn:
        rejection = result.get("rejection") or {}
        if self.listed and self.on("INV-LEGAL-APPLIES"):
            rule = str(rejection.get("rule", ""))
            self._raise(Finding("INV-LEGAL-APPLIES", "DEC-2", f"the engine listed {compact(action)} as legal, then "
                                f"rejected it: {rejection}", "accepted", f"rejected {rejection.get('code')}",
                                Outcome.WRONGLY_REJECTED, (rule,)), step)
        if self.reference is not None and "LOCKSTEP" in self.active:
            reference = self.reference
            verdict = self._reference(step, "apply", lambda: reference.apply(action))
            if verdict.get("accepted"):
                self.diverged(Divergence("accepted", step - 1, action, rejection=rejection,
                                         rules=missing_rules(action, rejection)))
            else:
                self._both_rejected(action, verdict.get("rejection") or {}, rejection, step)
        self.end(f"the engine rejected {compact(action)}, which it listed as legal: the game does not go on past it")

    def _both_rejected(self, action: JSON, expected: JSON, rejection: JSON, step: int) -> None:
        """Lock-step: both engines reject ``action``; the engine's state must be what it was (DEC-4)."""
        try:
            where = self.rejection_changed(self.reference_snapshot if self.can_export else None, None, exact=False)
        except EngineFault as fault:
            raise self.fault("LOCKSTEP", fault, step) from None
        if where is not None:
            self.diverged(Divergence("changed", step - 1, action, field=where, rejection=expected,
                                     engine_rejection=rejection,
                                     rules=dedupe_rules([str(expected.get("rule", "")), "DEC-4"])))

    def _check_state(self, before: JSON | None, snapshot: JSON | None, pending: JSON | None, step: int) -> None:
        if snapshot is None:
            return
        if self.on("INV-LIMIT"):
            self._raise(checks.check_limit(snapshot, pending, ReferenceView(snapshot)), step)
        if self.on("INV-AREA"):
            self._raise(checks.check_area(snapshot), step)
        if self.on("INV-CONSERVATION"):
            self._raise(checks.check_conservation(snapshot, self.deck), step)
        if self.on("INV-SCORE-FLOOR"):
            self._raise(checks.check_score_floor(snapshot), step)
        if self.on("INV-TURN-ORDER"):
            self._raise(checks.check_turn_order(before, snapshot, pending), step)

    def _check_step(self, before: JSON | None, action: JSON, after: JSON | None, pending: JSON | None,
                    step: int) -> None:
        if before is None or after is None:
            return
        if action.get("type") in ("summon", "remove") and self.on("INV-PAYMENT"):
            self._raise(checks.check_payment_step(before, action, after, ReferenceView(before)), step)
        self._check_state(before, after, pending, step)
        if self.on("INV-PROGRESS"):
            self._raise(checks.check_progress(before, after, pending), step)

    def _roundtrip(self, snapshot: JSON | None, step: int) -> None:
        if snapshot is None or not self.on("INV-ROUNDTRIP"):
            return
        try:
            if self._twin is None:
                self._twin = self._new_subject()
            twin = self._twin
            twin.load_snapshot(snapshot)
            again = twin.export()
        except EngineFault as fault:
            raise self.fault("INV-ROUNDTRIP", fault, step, " while loading its own snapshot") from None
        if snapshot_contract(again) != snapshot_contract(snapshot):
            where = first_state_difference(snapshot, again) or "private"
            self._raise(Finding("INV-ROUNDTRIP", "PROTO-1", f"load(export(s)) exports a different snapshot (first "
                                f"difference at {where})", "the same snapshot", f"{where} differs"), step)

    def _determinism(self, step: int) -> None:
        if not self.on("INV-DETERMINISM"):
            return
        try:
            twin = self._new_subject()
            if self.trace.start is None:
                twin.new_game(self.trace.setup)
            else:
                twin.load_snapshot(self.trace.start)
            replayed = [None, *self.trace.actions]
            for index, action in enumerate(replayed if self.replayable is None else replayed[:self.replayable]):
                self._arm("replay")
                if action is not None and not twin.apply(action)["accepted"]:
                    self._raise(Finding("INV-DETERMINISM", "SETUP-1", f"replaying the game, action {index} "
                                        f"({compact(action)}) was rejected", "accepted as before", "rejected"), step)
                seen = twin.export() if self.can_export else twin.decision()
                if _contract(seen, self.can_export) != _contract(self.history[index], self.can_export):
                    where = first_state_difference(self.history[index] or {}, seen or {}) if self.can_export \
                        else "decision"
                    self._raise(Finding("INV-DETERMINISM", "SETUP-1", f"replaying the same inputs gave a different "
                                        f"state after {index} action(s) (first difference at {where})",
                                        "the same state", f"{where} differs", extra_rules=("DECK-1",)), step)
        except EngineFault as fault:
            raise self.fault("INV-DETERMINISM", fault, step, " while replaying the game") from None


def _contract(seen: JSON | None, exported: bool) -> JSON | None:
    """What a replay must give again: the snapshot (``exported``), else the decision, without the prompt (free text,
    never compared)."""
    if seen is None:
        return None
    return snapshot_contract(seen) if exported else decision_contract(seen)
