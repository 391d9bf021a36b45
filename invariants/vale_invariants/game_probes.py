"""Illegal probes in a fuzzed game: one illegal action tried before a step must be rejected and change nothing."""

from __future__ import annotations

from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.protocol import RejectionCode, answer_is_ordered
from oracle.core.results import Outcome
from vale_invariants.actions import (
    keys_of,
    pick_probe,
    probe_pool,
)
from vale_invariants.checks import Finding, ReferenceView
from vale_invariants.game_core import RunnerCore, StopGame, dedupe_rules
from vale_invariants.lockstep import (
    first_state_difference,
    missing_rules,
    reference_rejection,
)
from vale_invariants.trace import Divergence, compact

KNOWN_CODES = frozenset(c.value for c in RejectionCode)


class Probes(RunnerCore):
    """Trying an illegal action on the engine under test (and on the reference, in lock-step mode)."""

    def _probe(self, category: int, pending: JSON, snapshot: JSON | None, legal: list[JSON], salt: int,
               step: int) -> None:
        """Try one illegal action: it must be rejected with a known code and change nothing (invariants
        mode), and the reference must reject it too (lock-step mode)."""
        checking = "INV-ILLEGAL-REJECTED" in self.active
        comparing = self.reference is not None and "LOCKSTEP" in self.active
        if not checking and not comparing:
            return
        players = len(snapshot["players"]) if snapshot is not None else self.trace.setup["players"]
        pool = probe_pool(category, pending, snapshot, legal, players, salt)
        if not pool:
            return
        ordered = answer_is_ordered(pending)
        probe = pick_probe(pool, keys_of(legal, ordered), salt * 7919 + step, ordered)
        if probe is None:
            return
        if checking:
            self.stats.checks["INV-ILLEGAL-REJECTED"] += 1
        try:
            result = self.subject.apply(probe)
        except EngineFault as fault:
            self.trace.probe = probe
            raise self.fault("INV-ILLEGAL-REJECTED", fault, step, f" on the illegal action {compact(probe)}") \
                from None
        expected = reference_rejection(self.reference, probe) if comparing and self.reference is not None else None
        if result["accepted"]:
            self.trace.probe = probe
            if checking:
                view = ReferenceView(snapshot).engine
                rejection = reference_rejection(view, probe) if view is not None else None
                raise self.fail(self._accepted_probe(probe, rejection), step + 1)
            if expected is not None:
                raise self.diverge(Divergence("probe", step, probe, rejection=expected,
                                              rules=dedupe_rules([str(expected.get("rule", "")), "DEC-2"])))
            raise StopGame()
        if comparing and expected is None and self.reference is not None:
            self.trace.probe = probe
            rejection = result.get("rejection") or {}
            raise self.diverge(Divergence("accepted", step, probe, rejection=rejection,
                                          rules=missing_rules(probe, rejection)))
        if checking:
            self._check_rejection(probe, result, pending, snapshot, step)

    def _accepted_probe(self, probe: JSON, rejection: JSON | None) -> Finding:
        if rejection is not None:
            return Finding("INV-ILLEGAL-REJECTED", str(rejection.get("rule", "")),
                           f"the engine accepted {compact(probe)}, which the rules forbid: {rejection.get('message')}",
                           f"rejected {rejection.get('code')}", "accepted", Outcome.ILLEGAL_ACCEPTED, ("DEC-2",))
        return Finding("INV-ILLEGAL-REJECTED", "DEC-2", f"the engine accepted {compact(probe)}, which its "
                       "legal_actions() does not list", "rejected (not listed as legal)", "accepted",
                       Outcome.ILLEGAL_ACCEPTED)

    def _check_rejection(self, probe: JSON, result: JSON, pending: JSON, snapshot: JSON | None, step: int) -> None:
        code = result["rejection"].get("code")
        if code not in KNOWN_CODES:
            self.trace.probe = probe
            self._raise(Finding("INV-ILLEGAL-REJECTED", "DEC-2", f"{compact(probe)} was rejected with the unknown "
                                f"code {code!r}", "a protocol rejection code", str(code)), step + 1)
        try:
            if snapshot is not None:
                again = self.subject.export()
                where = None if again == snapshot else first_state_difference(snapshot, again) or "private"
            else:
                where = None if self.subject.decision() == pending else "decision"
        except EngineFault as fault:
            raise self.fault("INV-ILLEGAL-REJECTED", fault, step) from None
        if where is not None:
            self.trace.probe = probe
            self._raise(Finding("INV-ILLEGAL-REJECTED", "DEC-4", f"rejecting {compact(probe)} changed the state "
                                f"(first difference at {where})", "state unchanged", f"{where} changed"), step + 1)
