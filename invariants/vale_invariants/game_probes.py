"""Illegal probes in a fuzzed game: one illegal action tried before a step must be rejected and change nothing."""

from __future__ import annotations

from oracle.core.causes import Verdict
from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.protocol import RejectionCode, answer_is_ordered
from oracle.core.results import Outcome
from vale_invariants.actions import (
    keys_of,
    pick_probe,
    probe_pool,
)
from vale_invariants.catalog import LOCKSTEP
from vale_invariants.checks import Finding, ReferenceView
from vale_invariants.game_core import StopGame, dedupe_rules
from vale_invariants.game_resync import Resynchronising
from vale_invariants.lockstep import (
    missing_rules,
    reference_rejection,
)
from vale_invariants.trace import Divergence, Signature, changed_signature, compact

KNOWN_CODES = frozenset(c.value for c in RejectionCode)
ILLEGAL = "INV-ILLEGAL-REJECTED"


def accepted_signature(rejection: JSON | None) -> Signature:
    """The cause of an illegal action accepted: the reference's rejection code and rule (DEC-2 when the reference's
    judgement is not known: the action is not listed)."""
    rejection = rejection or {}
    return Signature(Verdict.ACCEPTS, str(rejection.get("code", "")), str(rejection.get("rule", "")) or "DEC-2")


def judgement(action: JSON, expected: JSON | None, view: ReferenceView | None) -> JSON | None:
    """The reference's rejection of ``action``: ``expected`` in lock-step, else the reference's reading of the
    engine's snapshot (``view``); None when it accepts it or cannot read the snapshot."""
    if view is None:
        return expected
    engine = view.engine
    return reference_rejection(engine, action) if engine is not None else None


def changed_finding(invariant: str, what: str, result: JSON, rejection: JSON | None, where: str) -> Finding:
    """DEC-4: the engine rejected ``what`` (the reference rejects it with ``rejection``) but changed ``where`` first;
    filed under the reference's rejection rule, with the engine's own rejection message."""
    engine = result.get("rejection") or {}
    reference = rejection or {}
    rule = str(reference.get("rule", "")) or "DEC-4"
    code = reference.get("code")
    return Finding(invariant, rule, f"the engine changed its state (first difference at {where}), then rejected "
                   f"{what} with {engine.get('code')}: {engine.get('message', '')!r}",
                   f"rejected{f' {code}' if code else ''}, the state unchanged (DEC-4)",
                   f"rejected {engine.get('code')} after {where} changed", extra_rules=("DEC-4",),
                   signature=changed_signature(where))


class Probes(Resynchronising):
    """Trying an illegal action on the engine under test (and on the reference, in lock-step mode)."""

    def _probe(self, category: int, pending: JSON, snapshot: JSON | None, legal: list[JSON], salt: int,
               step: int) -> None:
        """Try one illegal action: it must be rejected with a known code and change nothing (invariants
        mode), and the reference must reject it too, with the engine's state unchanged (lock-step mode)."""
        checking = ILLEGAL in self.active
        comparing = self.reference is not None and LOCKSTEP.name in self.active
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
        view = None if comparing else ReferenceView(snapshot)
        expected = reference_rejection(self.reference, probe) if comparing and self.reference is not None else None
        if self.settings.known or self.settings.set_aside:
            judged = judgement(probe, expected, view)
            if judged is not None and self.cannot_undo(accepted_signature(judged), (str(judged.get("rule", "")),)):
                return
        if checking:
            self.stats.checks[ILLEGAL] += 1
        try:
            result = self.subject.apply(probe)
        except EngineFault as fault:
            self.trace.probe = probe
            raise self.fault(ILLEGAL, fault, step, f" on the illegal action {compact(probe)}") from None
        if result["accepted"]:
            self._accepted(probe, expected, view, pending, snapshot, step, checking)
            return
        if comparing and expected is None and self.reference is not None:
            rejection = result.get("rejection") or {}
            self.trace.probe = probe
            self.diverged(Divergence("accepted", step, probe, rejection=rejection,
                                     rules=missing_rules(probe, rejection)))
            self.trace.probe = None
            return
        if checking:
            self._check_rejection(probe, result, pending, snapshot, step, expected, view)
        elif comparing:
            self._compare_rejection(probe, result, expected, pending, step)

    def _accepted(self, probe: JSON, expected: JSON | None, view: ReferenceView | None, pending: JSON,
                  snapshot: JSON | None, step: int, checking: bool) -> None:
        """The engine accepted the illegal ``probe``: a failure, or (a known cause) back to the position before it."""
        self.trace.probe = probe
        what = f"the engine accepted the illegal action {compact(probe)}"
        if checking:
            self._raise(self._accepted_probe(probe, judgement(probe, expected, view)), step + 1)
        elif expected is not None:
            self.diverged(Divergence("probe", step, probe, rejection=expected, reference_decision=pending,
                                     rules=dedupe_rules([str(expected.get("rule", "")), "DEC-2"])),
                          before=self.position(snapshot))
            self.trace.probe = None
            return
        else:
            raise StopGame()
        self.trace.probe = None
        self.go_back(self.position(snapshot), pending, what)

    def _accepted_probe(self, probe: JSON, rejection: JSON | None) -> Finding:
        signature = accepted_signature(rejection)
        if rejection is not None:
            return Finding(ILLEGAL, str(rejection.get("rule", "")),
                           f"the engine accepted {compact(probe)}, which the rules forbid: {rejection.get('message')}",
                           f"rejected {rejection.get('code')}", "accepted", Outcome.ILLEGAL_ACCEPTED, ("DEC-2",),
                           signature)
        return Finding(ILLEGAL, "DEC-2", f"the engine accepted {compact(probe)}, which its "
                       "legal_actions() does not list", "rejected (not listed as legal)", "accepted",
                       Outcome.ILLEGAL_ACCEPTED, signature=signature)

    def _check_rejection(self, probe: JSON, result: JSON, pending: JSON, snapshot: JSON | None, step: int,
                         expected: JSON | None, view: ReferenceView | None) -> None:
        code = result["rejection"].get("code")
        if code not in KNOWN_CODES:
            self.trace.probe = probe
            self._raise(Finding(ILLEGAL, "DEC-2", f"{compact(probe)} was rejected with the unknown "
                                f"code {code!r}", "a protocol rejection code", str(code)), step + 1)
            self.trace.probe = None
        try:
            where = self.rejection_changed(snapshot, pending if snapshot is None else None, exact=True)
        except EngineFault as fault:
            raise self.fault(ILLEGAL, fault, step) from None
        if where is None:
            return
        self.trace.probe = probe
        self._raise(changed_finding(ILLEGAL, compact(probe), result, judgement(probe, expected, view), where),
                    step + 1)
        self.trace.probe = None
        self.go_back(self.position(snapshot), pending, f"rejecting {compact(probe)} changed the engine's state")

    def _compare_rejection(self, probe: JSON, result: JSON, expected: JSON | None, pending: JSON,
                           step: int) -> None:
        """Lock-step: both engines reject ``probe``; the engine's state must be what it was (DEC-4)."""
        try:
            where = self.rejection_changed(self.reference_snapshot if self.can_export else None, pending, exact=False)
        except EngineFault as fault:
            raise self.fault(LOCKSTEP.name, fault, step) from None
        if where is None:
            return
        rejection = expected or {}
        self.trace.probe = probe
        self.diverged(Divergence("changed", step, probe, field=where, rejection=rejection,
                                 engine_rejection=result.get("rejection") or {}, reference_decision=pending,
                                 rules=dedupe_rules([str(rejection.get("rule", "")), "DEC-4"])))
        self.trace.probe = None
