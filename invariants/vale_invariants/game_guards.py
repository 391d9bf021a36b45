"""Guard probes in a fuzzed game: the first decision of each kind is sent every illegal answer of its battery."""

from __future__ import annotations

from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.protocol import DecisionKind, answer_is_ordered
from oracle.core.results import Outcome
from vale_invariants.actions import action_key, keys_of
from vale_invariants.catalog import LOCKSTEP
from vale_invariants.checks import Finding, ReferenceView
from vale_invariants.game_core import RunnerCore, dedupe_rules
from vale_invariants.game_probes import KNOWN_CODES
from vale_invariants.guards import Probe, applicable, guard_probes
from vale_invariants.lockstep import first_state_difference, reference_rejection
from vale_invariants.trace import Divergence, compact

GUARDS = "INV-DECISION-GUARDS"
KINDS = {k.value: k for k in DecisionKind}


class DecisionGuards(RunnerCore):
    """DEC-1, DEC-2, DEC-4 for every decision kind: each illegal answer is rejected with a known code, and the state
    and the pending decision stay as they were."""

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
        battery = [p for p in guard_probes(kind, pending, legal, snapshot, self._players(snapshot), self.deck)
                   if p.what not in sent]
        if not battery:
            return
        view = None if comparing else ReferenceView(snapshot)
        ordered = answer_is_ordered(pending)
        legal_keys = keys_of(legal, ordered)
        for probe in battery:
            if action_key(probe.action, ordered) in legal_keys:
                continue
            judge = self.reference if view is None else view.engine
            expected = reference_rejection(judge, probe.action) if judge is not None else None
            if judge is not None and expected is None:
                continue
            if checking:
                self.stats.checks[GUARDS] += 1
            self.stats.probes[kind] += 1
            self._send_guard(probe, expected, pending, snapshot, step, checking)
        sent.update(p.what for p in battery)

    def _players(self, snapshot: JSON | None) -> int:
        return len(snapshot["players"]) if snapshot is not None else int(self.trace.setup["players"])

    def _send_guard(self, probe: Probe, expected: JSON | None, pending: JSON, snapshot: JSON | None, step: int,
                    checking: bool) -> None:
        what = f"the probe ({probe.what.value}) {compact(probe.action)}"
        try:
            result = self.subject.apply(probe.action)
        except EngineFault as fault:
            self.trace.probe = probe.action
            raise self.fault(GUARDS if checking else LOCKSTEP.name, fault, step, f" on {what}") from None
        if result["accepted"]:
            self.trace.probe = probe.action
            rule = str((expected or {}).get("rule", "")) or "DEC-2"
            if checking:
                raise self.fail(Finding(GUARDS, rule, f"the engine accepted {what} while a {pending.get('kind')} "
                                        f"decision was pending" + (f": {expected.get('message')}" if expected else ""),
                                        f"rejected {(expected or {}).get('code', '')}".rstrip(), "accepted",
                                        Outcome.ILLEGAL_ACCEPTED, dedupe_rules(["DEC-2", "DEC-1"])), step + 1)
            raise self.diverge(Divergence("probe", step, probe.action, rejection=expected,
                                          rules=dedupe_rules([rule, "DEC-2"])))
        if not checking:
            return
        code = (result.get("rejection") or {}).get("code")
        if code not in KNOWN_CODES:
            self.trace.probe = probe.action
            self._raise(Finding(GUARDS, "DEC-2", f"{what} was rejected with the unknown code {code!r}",
                                "a protocol rejection code", str(code)), step + 1)
        try:
            where = None
            if snapshot is not None:
                again = self.subject.export()
                where = None if again == snapshot else first_state_difference(snapshot, again) or "private"
            if where is None and self.subject.decision() != pending:
                where = "the pending decision"
        except EngineFault as fault:
            raise self.fault(GUARDS, fault, step) from None
        if where is not None:
            self.trace.probe = probe.action
            self._raise(Finding(GUARDS, "DEC-4", f"rejecting {what} changed the state (first difference at {where})",
                                "state and pending decision unchanged", f"{where} changed"), step + 1)
