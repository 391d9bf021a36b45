"""One fuzzed game: drive an engine through the protocol, check the invariants after every step, and
(in lock-step mode) compare it with the reference engine fed the same inputs.

Every choice comes from a :class:`Chooser` (Hypothesis when fuzzing, ``random.Random`` in benchmarks):
three draws fix the set-up, then one draw per decision picks the action and which illegal action (if
any) to try first, and one per reshuffle fixes the new order. The game raises :class:`Violation` at
the first broken invariant or divergence.
"""

from __future__ import annotations

import contextlib
import copy
import marshal
import random

from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.protocol import DecisionKind
from oracle.core.undrivable import UNDRIVABLE, undrivable_reason
from oracle.engines.legal_share import LegalSampler
from oracle.engines.play import ADVANCED_TILES, adopt_deck, deal_difference, random_deck
from oracle.reference import ReferenceEngine
from vale_invariants import checks
from vale_invariants.actions import (
    PROBE_CORRUPT,
    PROBE_PROTOCOL,
    PROBE_UNLISTED,
    action_key,
    greedy,
)
from vale_invariants.catalog import ENGINE_FAULT, INVARIANTS, LOCKSTEP
from vale_invariants.checks import Finding
from vale_invariants.game_choices import Chooser, RandomChooser, ReplayChooser
from vale_invariants.game_core import StopGame
from vale_invariants.game_guards import DecisionGuards
from vale_invariants.game_invariants import InvariantChecks
from vale_invariants.game_lockstep import LockstepComparison
from vale_invariants.game_position import random_position
from vale_invariants.game_probes import Probes
from vale_invariants.game_settings import SEED_MAX, GameSettings, Stats
from vale_invariants.lockstep import first_state_difference
from vale_invariants.trace import Trace

__all__ = ["Chooser", "GameRunner", "GameSettings", "RandomChooser", "ReplayChooser", "Stats"]


PROBE_SLOTS = 8


class GameRunner(InvariantChecks, Probes, DecisionGuards, LockstepComparison):
    """Plays one game; :meth:`play` returns the trace or raises :class:`Violation`."""

    def play(self) -> Trace:
        try:
            with contextlib.suppress(StopGame), self._alarms():
                self._play()
        finally:
            self.stats.saw(self.active, self.decisions_played, self.positions_reached)
        return self.trace

    def _play(self) -> None:
        settings = self.settings
        players = settings.players[self.draw(0, len(settings.players) - 1)]
        first = self.draw(0, players - 1)
        mode = settings.modes[self.draw(0, len(settings.modes) - 1)] if len(settings.modes) > 1 else settings.modes[0]
        deck_seed = self.draw(0, SEED_MAX)
        self.sampler = LegalSampler(settings.legal_share, deck_seed)
        setup: JSON = {"players": players, "first_player": first, "deck": random_deck(deck_seed, mode != "base")}
        if mode != "base":
            setup["expansion"] = True
        if mode == "artifacts":
            setup["artifacts"] = True
            setup["advanced_tiles"] = sorted(random.Random(f"tiles-{deck_seed}").sample(ADVANCED_TILES, 3))
        self.trace.setup = setup
        self.mode = mode
        self.deck = frozenset(setup["deck"])
        self.trace.positions = settings.positions
        self.trace.modes = settings.modes
        self.trace.scarce = settings.scarce
        if settings.scarce:
            self.trace.start = random_position(setup, self.draw, scarce=True)
        elif settings.positions and self.draw(0, 1):
            self.trace.start = random_position(setup, self.draw)
        start = self.trace.start
        step = 0
        self._arm("new_game")
        snapshot, pending = self._start(setup, start)
        subject, setup = self.subject, self.trace.setup
        if snapshot is not None and start is None and self.on("INV-SETUP"):
            self._raise(checks.check_setup(snapshot, setup), 0)
        undrivable, pending = undrivable_reason(pending), drivable(pending)
        self._check_state(None, snapshot, pending, 0)
        if self.reference is not None:
            self._compare_after(None, None, snapshot, pending, 0)
            if self.reloaded:
                snapshot, pending, undrivable = self._reread(0)
        self._roundtrip(snapshot, 0)
        self.positions_reached = 1
        self.history.append(snapshot if snapshot is not None else pending)
        while pending is not None:
            if undrivable:
                self._stop_undrivable(pending, undrivable)
            self._arm("apply")
            if step >= settings.max_steps:
                if self.on("INV-PROGRESS"):
                    raise self.stall(Finding("INV-PROGRESS", "", f"no end after {step} decisions",
                                             "game over by round 10", f"still going at round {_round(snapshot)}"),
                                     snapshot, pending, step)
                self.stats.truncated += 1
                return
            try:
                action, legal, probe_slot, salt = self._choose(pending, snapshot, step)
                self._guard(pending, snapshot, legal, step)
                if probe_slot:
                    self._probe(probe_slot, pending, snapshot, legal, salt, step)
                step += 1
                self.stats.decisions += 1
                result = subject.apply(action)
                if not result["accepted"]:
                    self._rejected_legal(action, result, step)
                self.trace.actions.append(action)
                after = self._export(step)
                pending_after = subject.decision()
                undrivable, pending_after = undrivable_reason(pending_after), drivable(pending_after)
            except EngineFault as fault:
                raise self.fault(ENGINE_FAULT.name, fault, step) from None
            self._check_step(snapshot, action, after, pending_after, step)
            if self.reference is not None:
                self._compare_after(action, snapshot, after, pending_after, step, result["events"])
                if self.reloaded:
                    after, pending_after, undrivable = self._reread(step)
            self._roundtrip(after, step)
            self.decisions_played, self.positions_reached = step, step + 1
            if not self.undone_now:
                self.undone.clear()
            self.undone_now = False
            if self.keep_copies:
                self.history.append(after if after is not None else pending_after)
            snapshot, pending = after, pending_after
        self._arm("replay")
        self._determinism(step)

    def _start(self, setup: JSON, start: JSON | None) -> tuple[JSON | None, JSON | None]:
        """A new engine set up with ``setup`` (or loaded with ``start``), and in lock-step the reference beside it
        with the same set-up: the engine's first snapshot and decision. An engine that deals by itself
        (``internal_shuffle``) has its deal checked and adopted as the trace's set-up."""
        settings = self.settings
        try:
            subject = self._new_subject()
            self._subject = subject
            self.can_export = subject.handshake.can("export")
            # Snapshots kept across steps are copied, unless only the lock-step comparison runs (it compares
            # each snapshot at once; copying would cost 5% of a lock-step decision).
            self.keep_copies = any(name != LOCKSTEP.name for name in settings.active)
            self.active = frozenset(
                name for name in settings.active
                if name not in INVARIANTS or all(subject.handshake.can(c) for c in INVARIANTS[name].needs)
            )
            if start is None:
                subject.new_game(setup)
                if subject.handshake.can("internal_shuffle") and self.can_export:
                    dealt = subject.export()
                    self._check_deal(setup, dealt)
                    setup = adopt_deck(setup, dealt)
                    self.trace.setup = setup
                    self.deck = frozenset(setup["deck"])
            else:
                subject.load_snapshot(start)
            if settings.lockstep:
                reference = ReferenceEngine(subject.handshake.variants)
                self.reference = reference
                if start is None:
                    self._reference(0, "new_game", lambda: reference.new_game(setup))
                else:
                    self._reference(0, "load", lambda: reference.load(start))
            return self._export(), subject.decision()
        except EngineFault as fault:
            raise self.fault(ENGINE_FAULT.name, fault, 0) from None

    def _reread(self, step: int) -> tuple[JSON | None, JSON | None, str]:
        """The engine's snapshot and decision after it was loaded with another position
        (:mod:`vale_invariants.game_resync`), and why the decision is undrivable ('' if it is not)."""
        self.reloaded = False
        try:
            snapshot = self._export(step)
            pending = self.subject.decision()
        except EngineFault as fault:
            raise self.fault(ENGINE_FAULT.name, fault, step) from None
        return snapshot, drivable(pending), undrivable_reason(pending)
    def _check_deal(self, setup: JSON, dealt: JSON) -> None:
        """INV-SETUP with an engine that deals by itself (``internal_shuffle``): it dealt exactly the given deck,
        in an order of its own (SETUP-1); only then is its order adopted."""
        if not self.on("INV-SETUP"):
            return
        wrong = deal_difference(list(setup["deck"]), dealt)
        if wrong:
            self._raise(Finding("INV-SETUP", "SETUP-1", "an engine that shuffles the set-up deck by itself deals "
                                "exactly its cards", f"the {len(setup['deck'])} cards of the deck", wrong), 0)

    def _stop_undrivable(self, pending: JSON, reason: str) -> None:
        """The adapter cannot answer ``pending`` (docs/protocol.md, "Decisions an adapter cannot drive"): the game
        ends here as unsupported for this game, counted by decision kind, and the run goes on with the next game."""
        self.stats.undrivable[str(pending.get("kind"))] += 1
        self.stats.undrivable_reasons.setdefault(str(pending.get("kind")), reason)
        raise StopGame()

    def _export(self, step: int = 0) -> JSON | None:
        """The engine's snapshot, copied (the engine may keep changing what it returned: see INV-SNAPSHOT-STABLE)."""
        if not self.can_export:
            return None
        if self._exported is not None and self.on("INV-SNAPSHOT-STABLE"):
            returned, copied = self._exported
            if returned != copied:
                where = first_state_difference(copied, returned) or _private_difference(copied, returned)
                self._raise(Finding("INV-SNAPSHOT-STABLE", "PROTO-1", f"a snapshot export() returned earlier "
                                    f"changed while the game went on (at {where}): it shares mutable state with "
                                    "the engine", "the snapshot as returned", f"{where} changed"), step)
        returned = self.subject.export()
        if not self.keep_copies:
            return returned
        copied = freeze(returned)
        self._exported = (returned, copied)
        return copied

    def _choose(self, pending: JSON, snapshot: JSON | None, step: int) -> tuple[JSON, list[JSON], int, int]:
        """The action to take, the legal list, the probe category (0 for none) and a salt for the probe."""
        if pending.get("kind") == DecisionKind.SHUFFLE.value:
            seed = self.draw(0, SEED_MAX)
            cards = pending.get("cards")
            if not isinstance(cards, list) and snapshot is not None:
                cards = snapshot.get("discard_pile", [])
            order = sorted(cards or [])
            random.Random(f"shuffle-{seed}").shuffle(order)
            action: JSON = {"type": "shuffle", "player": None, "order": order}
            slot = _probe_category(seed % PROBE_SLOTS)
            return action, [action], slot, seed
        reference = self.reference
        self.listed = reference is None or LOCKSTEP.name not in self.active \
            or self.sampler.full(pending.get("kind"), step)
        if self.listed:
            legal = self.subject.legal_actions()
            self._check_listed(pending, legal, step, snapshot)
            if reference is not None:
                self._compare_legal(pending, legal, step)
        else:
            assert reference is not None
            legal = self._reference(step, "legal_actions", reference.legal_actions)
        if self.undone:
            legal = [a for a in legal if action_key(a) not in self.undone]
            if not legal:
                self.end("every listed action was an illegal one the engine accepted, already set aside")
        n = len(legal)
        x = self.draw(0, 2 * n * PROBE_SLOTS - 1)
        c = x % (2 * n)
        action = greedy(pending, legal, snapshot) if c < n else legal[c - n]
        if not self.listed:
            self._trial(pending, snapshot, action, legal, x, step)
        return action, legal, _probe_category(x // (2 * n)), x


def drivable(pending: JSON | None) -> JSON | None:
    """The decision without the adapter's ``undrivable`` marker, as the reference (which drives everything) asks it."""
    if pending is None or UNDRIVABLE not in pending:
        return pending
    return {key: value for key, value in pending.items() if key != UNDRIVABLE}


def freeze(data: JSON) -> JSON:
    """A deep copy of JSON data (marshal is several times faster than copy.deepcopy)."""
    try:
        copied: JSON = marshal.loads(marshal.dumps(data))
        return copied
    except ValueError:
        return copy.deepcopy(data)


def _private_difference(a: JSON, b: JSON) -> str:
    from oracle.core.diff import first_difference as _first_difference

    where = _first_difference(a.get("private"), b.get("private"), "private")
    return where or "private"


def _probe_category(slot: int) -> int:
    if slot in (3, 4):
        return PROBE_UNLISTED
    if slot in (5, 6):
        return PROBE_CORRUPT
    if slot == 7:
        return PROBE_PROTOCOL
    return 0


def _round(snapshot: JSON | None) -> object:
    return snapshot.get("round") if snapshot is not None else "?"
