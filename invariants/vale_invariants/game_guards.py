"""Guard probes in a fuzzed game: the first decision of each kind is sent every illegal answer of its battery."""

from __future__ import annotations

from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.protocol import DecisionKind, answer_is_ordered
from oracle.core.results import Outcome
from oracle.reference import ReferenceEngine
from vale_invariants.actions import action_key, keys_of
from vale_invariants.catalog import LOCKSTEP
from vale_invariants.checks import Finding, ReferenceView
from vale_invariants.game_core import dedupe_rules
from vale_invariants.game_probes import KNOWN_CODES, accepted_signature, changed_finding
from vale_invariants.game_resync import Resynchronising
from vale_invariants.guards import Probe, applicable, guard_probes, stone_values
from vale_invariants.lockstep import reference_rejection
from vale_invariants.trace import Divergence, compact

GUARDS = "INV-DECISION-GUARDS"
KINDS = {k.value: k for k in DecisionKind}


class DecisionGuards(Resynchronising):
    """DEC-1, DEC-2, DEC-4 for every decision kind: each illegal answer is rejected with a known code, and the state
    and the pending decision stay as they were. Every probe of the battery is sent: a failure of a known cause is
    counted and the engine goes back to the position before it, so the probes after it still run."""

    def _guard(self, pending: JSON, snapshot: JSON | None, legal: list[JSON], step: int) -> None:
        """Send each guard probe the decision's kind has not yet been sent in this game (a kind's first decision
        may offer no payment, so the stone probes wait for one that does)."""
        kind = KINDS.get(str(pending.get("kind")))
        if kind is None or self.guarded[kind] >= applicable(kind):
            return
        checking = GUARDS in self.active
        comparing = self.reference is not None and LOCKSTEP.name in self.active
        if not checking and not comparing:
            return
        sent = self.guarded[kind]
        view = None if comparing else ReferenceView(snapshot)
        judge = self.reference if view is None else view.engine
        battery = [p for p in guard_probes(kind, pending, legal, snapshot, self._players(snapshot), self.deck,
                                           _values(judge, pending))
                   if p.what not in sent]
        if not battery:
            return
        ordered = answer_is_ordered(pending)
        legal_keys = keys_of(legal, ordered)
        sent.update(p.what for p in battery)
        for probe in battery:
            if action_key(probe.action, ordered) in legal_keys:
                continue
            expected = reference_rejection(judge, probe.action) if judge is not None else None
            if judge is not None and expected is None:
                continue
            if self.cannot_undo(accepted_signature(expected), (str((expected or {}).get("rule", "")),)):
                continue
            if checking:
                self.stats.checks[GUARDS] += 1
            self.stats.probes[kind] += 1
            self._send_guard(probe, expected, pending, snapshot, step, checking)

    def _players(self, snapshot: JSON | None) -> int:
        return len(snapshot["players"]) if snapshot is not None else int(self.trace.setup["players"])

    def _send_guard(self, probe: Probe, expected: JSON | None, pending: JSON, snapshot: JSON | None, step: int,
                    checking: bool) -> None:
        what = f"the probe ({probe.what.value}) {compact(probe.action)}"
        self.trace.probe = probe.action
        try:
            result = self.subject.apply(probe.action)
        except EngineFault as fault:
            raise self.fault(GUARDS if checking else LOCKSTEP.name, fault, step, f" on {what}") from None
        if result["accepted"]:
            self._accepted_guard(what, probe, expected, pending, snapshot, step, checking)
        elif checking:
            self._check_guard_rejection(what, result, expected, pending, snapshot, step)
        else:
            self._compare_guard_rejection(probe, result, expected, pending, step)
        self.trace.probe = None

    def _accepted_guard(self, what: str, probe: Probe, expected: JSON | None, pending: JSON, snapshot: JSON | None,
                        step: int, checking: bool) -> None:
        rule = str((expected or {}).get("rule", "")) or "DEC-2"
        if not checking:
            self.diverged(Divergence("probe", step, probe.action, rejection=expected, reference_decision=pending,
                                     rules=dedupe_rules([rule, "DEC-2"])), before=self.position(snapshot))
            return
        self._raise(Finding(GUARDS, rule, f"the engine accepted {what} while a {pending.get('kind')} "
                            f"decision was pending" + (f": {expected.get('message')}" if expected else ""),
                            f"rejected {(expected or {}).get('code', '')}".rstrip(), "accepted",
                            Outcome.ILLEGAL_ACCEPTED, dedupe_rules(["DEC-2", "DEC-1"]), accepted_signature(expected)),
                    step + 1)
        self.go_back(self.position(snapshot), pending, f"the engine accepted {what}")

    def _check_guard_rejection(self, what: str, result: JSON, expected: JSON | None, pending: JSON,
                               snapshot: JSON | None, step: int) -> None:
        code = (result.get("rejection") or {}).get("code")
        if code not in KNOWN_CODES:
            self._raise(Finding(GUARDS, "DEC-2", f"{what} was rejected with the unknown code {code!r}",
                                "a protocol rejection code", str(code)), step + 1)
        try:
            where = self.rejection_changed(snapshot, pending, exact=True)
        except EngineFault as fault:
            raise self.fault(GUARDS, fault, step) from None
        if where is not None:
            self._raise(changed_finding(GUARDS, what, result, expected, where), step + 1)
            self.go_back(self.position(snapshot), pending, f"rejecting {what} changed the engine's state")

    def _compare_guard_rejection(self, probe: Probe, result: JSON, expected: JSON | None, pending: JSON,
                                 step: int) -> None:
        """Lock-step: both engines reject the probe; the engine's state must be what it was (DEC-4)."""
        try:
            where = self.rejection_changed(self.reference_snapshot if self.can_export else None, pending, exact=False)
        except EngineFault as fault:
            raise self.fault(LOCKSTEP.name, fault, step) from None
        if where is not None:
            rejection = expected or {}
            self.diverged(Divergence("changed", step, probe.action, field=where, rejection=rejection,
                                     engine_rejection=result.get("rejection") or {}, reference_decision=pending,
                                     rules=dedupe_rules([str(rejection.get("rule", "")), "DEC-4"])))


def _values(judge: ReferenceEngine | None, pending: JSON) -> dict[str, int]:
    """The stone values in force for the deciding player (RUL-16), as the reference reads the position."""
    player = pending.get("player")
    if judge is None or judge.table is None or not isinstance(player, int) or isinstance(player, bool):
        return stone_values(None)
    try:
        return stone_values(judge.table.stone_values(player))
    except (IndexError, KeyError, ValueError):
        return stone_values(None)
