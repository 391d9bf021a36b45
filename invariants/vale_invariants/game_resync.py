"""Going on past a known cause in a fuzzed game: a divergence set aside, then both engines brought to one position
again (the engine back to where it was, the reference to the engine's state, or the engine to the reference's), or
the game ended with the reason it cannot go on (docs/invariants.md, "Known causes")."""

from __future__ import annotations

from typing import NoReturn

from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.reference import ReferenceEngine
from vale_invariants.actions import action_key
from vale_invariants.game_core import RunnerCore, StopGame
from vale_invariants.lockstep import decision_difference, first_state_difference
from vale_invariants.trace import Divergence, Signature, show_decision


class Resynchronising(RunnerCore):
    """What the checks of a game do with a divergence of a known cause."""

    def cannot_undo(self, signature: Signature, rules: tuple[str, ...]) -> bool:
        """Whether an illegal action must not be sent: the engine would accept it as a known cause, and without
        'load' it could not go back to the position before it (the game would end there)."""
        return not self.subject.handshake.can("load") and self.known(signature, rules)

    def diverged(self, divergence: Divergence, before: JSON | None = None) -> None:
        """Raise the divergence, unless it is set aside (a known cause, the reported set-up deviation, or a cause
        before the step a replay is after). Then the engines are re-synchronised and the comparison goes on: after
        an illegal action the engine accepted or a rejection that changed its state (``probe``, ``changed``), the
        engine goes back to the position before it (``before``); after any other divergence the reference takes
        the engine's state, or else the engine the reference's. Where neither can be done the game ends, and
        the run counts why (``Stats.ended``)."""
        settings = self.settings
        replaying = (settings.setup_known and divergence.cause < 0) or divergence.cause < settings.resync_until - 1
        if replaying:
            self.stats.set_aside[divergence.rules[0] if divergence.rules else divergence.kind] += 1
        elif not self.aside(divergence.signature, divergence.rules):
            raise self.diverge(divergence)
        if divergence.kind == "legal":
            return
        what = f"the set-aside divergence at step {divergence.step} ({divergence.signature})"
        if divergence.kind in ("probe", "changed") or (divergence.kind == "rejected"
                                                       and self.subject.handshake.can("load")):
            self.go_back(before, divergence.reference_decision, what, undone=divergence.kind == "rejected")
        else:
            self.adopt(what)

    def go_back(self, position: JSON | None, pending: JSON | None, what: str, undone: bool = False) -> None:
        """Resume from the last position both engines share, after the engine accepted a set-aside illegal action
        (or changed its state rejecting it): the engine loads ``position`` (its own snapshot from before, or the
        reference's) and must ask ``pending`` again. The game ends when it cannot. ``undone``: the action was one of
        the game's steps (in the trace), which a replay of the trace can no longer follow past this point.

        The engine goes back rather than the reference taking the engine's state: that state is one the rules
        forbid (a card too many in an area, stones gained from a negative payment), and going on from it only shows
        the same deviation again in other places."""
        if position is None and self.reference is not None:
            position = self.reference.export()
        if position is None:
            self.end(f"{what}: the engine moved on, and without 'export' there is no position to go back to")
        if not self.subject.handshake.can("load"):
            self.end(f"{what}: the engine moved on and cannot load the position before it (no 'load' capability)")
        try:
            self.subject.load_snapshot(position)
            back = self.subject.decision()
        except EngineFault as fault:
            self.end(f"{what}: loading the position before it failed: {fault}")
        if pending is not None and decision_difference(pending, back) is not None:
            self.end(f"{what}: after loading the position before it the engine asks {show_decision(back)}, "
                     f"not {show_decision(pending)}")
        self.stats.restored += 1
        if undone:
            self.resync_point = (len(self.trace.actions), position)
            self.reloaded = True
            if self.replayable is None:
                self.replayable = len(self.history)
            self.undone.add(action_key(self.trace.actions[-1]))
            self.undone_now = True

    def adopt(self, what: str) -> None:
        """After a set-aside divergence in the game's own steps: the reference takes the engine's state (export,
        then the reference's load); where the engine cannot export, or the reference refuses that state or reads
        another position from it (another pending decision), the engine takes the reference's position (the
        engine's load) and the game goes on from there. The game ends when neither gives both the same position."""
        reference = self.reference
        if reference is None:
            return
        why = "the engine cannot export its state"
        if self.can_export:
            try:
                snapshot = self.subject.export()
                reference.load(snapshot)
                why = self.apart(reference)
            except EngineFault as fault:
                why = f"the engine's export failed ({fault})"
            except Exception as exc:
                why = f"the reference refuses the engine's state ({type(exc).__name__}: {exc})"
            if not why:
                self.reference_snapshot = reference.export()
                self.resync_point = (len(self.trace.actions), snapshot)
                return
            why = f"the reference, loaded with the engine's state, {why}" if why.startswith("differs") else why
        if not self.subject.handshake.can("load"):
            self.end(f"{what}: {why}, and the engine cannot load the reference's position (no 'load' capability)")
        position = reference.export()
        try:
            self.subject.load_snapshot(position)
            apart = self.apart(reference)
        except EngineFault as fault:
            self.end(f"{what}: {why}, and loading the reference's position failed: {fault}")
        if apart:
            self.end(f"{what}: {why}, and the engine, loaded with the reference's position, {apart}")
        self.reference_snapshot = position
        self.resync_point = (len(self.trace.actions), position)
        self.reloaded = True
        if self.replayable is None:
            self.replayable = len(self.history)
        self.stats.restored += 1

    def apart(self, reference: ReferenceEngine) -> str:
        """How the engine and the reference differ right after one was loaded with the other's position ('' when
        they agree on the canonical snapshot and the pending decision)."""
        if self.can_export:
            where = first_state_difference(reference.export(), self.subject.export())
            if where is not None:
                return f"differs at {where}"
        expected, actual = reference.decision(), self.subject.decision()
        if decision_difference(expected, actual) is not None:
            return f"differs in the pending decision: {show_decision(expected)} against {show_decision(actual)}"
        return ""

    def end(self, why: str) -> NoReturn:
        """The game cannot go on past a set-aside cause: it ends here, and the run counts why."""
        self.stats.ended[why.split(": ", 1)[-1]] += 1
        raise StopGame(why)
