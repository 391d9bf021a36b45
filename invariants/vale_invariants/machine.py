"""A Hypothesis ``RuleBasedStateMachine`` to subclass with an engine: the fuzzer's invariants and lock-step comparison
with the reference, played by rules.

The machine and ``oracle fuzz`` share one definition of every invariant and of the comparison: the machine plays
through the same :class:`~vale_invariants.game.GameRunner` checks (``_start``, ``_check_listed``, ``_check_step``,
``_compare_legal``, ``_compare_after``, ``_roundtrip``, ``_probe``, ``_determinism``) that the fuzzer's game loop
calls; only the driver differs. Its rules play any legal action (``play``) and try illegal ones (``probe``), the
reference beside the engine comparing every step unless ``lockstep`` is False; its ``@invariant`` s check the state
after every rule. Use it from your own test file::

    from vale_invariants.machine import ValeMachine

    class MyEngineMachine(ValeMachine):
        impl = "mypkg.adapter"          # or set factory = staticmethod(make_engine)

    TestMyEngine = MyEngineMachine.TestCase

Hypothesis shrinks a failing program and prints it as the rule calls that lead to the failure; with
``save_failures`` set to a directory, the machine also writes the failure as a scenario file there (the file
of the shrunk program is the one left, see :func:`vale_invariants.scenario.write_scenario`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from hypothesis import strategies as st
from hypothesis.control import current_build_context
from hypothesis.errors import InvalidArgument
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.rules import rules as rules_catalogue
from oracle.engines.connect import resolve_impl
from oracle.engines.play import random_deck
from vale_invariants import checks
from vale_invariants.actions import PROBE_CORRUPT, PROBE_PROTOCOL, PROBE_UNLISTED
from vale_invariants.catalog import ENGINE_FAULT, LOCKSTEP, describe
from vale_invariants.catalog import INVARIANTS as CATALOGUE
from vale_invariants.game import PROBE_SLOTS, GameRunner, GameSettings
from vale_invariants.game_choices import ReplayChooser
from vale_invariants.game_core import StopGame
from vale_invariants.game_settings import MAX_STEPS, SEED_MAX
from vale_invariants.machine_report import TrimmedTestCase
from vale_invariants.trace import Failure, Violation

__all__ = ["ValeMachine"]


class LockstepOff(UserWarning):
    """A machine whose engine cannot be played beside the reference: it checks its invariants only."""


class _PlayChooser:
    """The one draw of :meth:`GameRunner._choose`, fixed by the rule's ``pick``, with its probe slot left empty
    (the machine probes in a rule of its own)."""

    def __init__(self, pick: int) -> None:
        self.pick = pick

    def integer(self, low: int, high: int) -> int:
        if high == SEED_MAX:
            return (self.pick * PROBE_SLOTS) % (SEED_MAX + 1)
        return low + self.pick % max(1, (high - low + 1) // PROBE_SLOTS)


class ValeMachine(RuleBasedStateMachine):
    """One game of the engine under test, played by rules, with the fuzzer's invariants checked after each."""

    impl: ClassVar[str] = "oracle.reference"
    """The engine, as ``--impl`` takes it; used unless ``factory`` is set."""
    factory: ClassVar[Callable[[], Any] | None] = None
    players: ClassVar[tuple[int, ...]] = (2, 3, 4)
    checked_invariants: ClassVar[tuple[str, ...]] = tuple(CATALOGUE)
    """The catalogue's invariants to check (those the engine's capabilities allow)."""
    lockstep: ClassVar[bool] = True
    """Play the reference beside the engine, fed the same set-up and actions, and compare them after every step
    (LOCKSTEP: the decision, the legal actions or the chosen action's verdict, the canonical snapshot)."""
    timeout: ClassVar[float] = 5.0
    save_failures: ClassVar[Path | str | None] = None
    """A directory to write each failure into as a scenario file (None: do not save)."""
    _saved: ClassVar[dict[str, Path]] = {}

    TestCase = TrimmedTestCase()  # type: ignore[assignment, unused-ignore]  # typed only since Hypothesis 6.170.6
    """The machine as a ``unittest.TestCase``, its failures trimmed to the user's frames
    (:mod:`~vale_invariants.machine_report`)."""

    def __init__(self) -> None:
        super().__init__()
        factory = type(self).factory or resolve_impl(self.impl)
        self._factory = factory
        checked = frozenset(self.checked_invariants) | ({LOCKSTEP.name} if self.lockstep else set())
        settings = GameSettings(factory, self.impl, self.players, checked, lockstep=self.lockstep,
                                timeout=self.timeout)
        self.game = GameRunner(settings, ReplayChooser([]))
        self.snapshot: JSON | None = None
        self.pending: JSON | None = None
        self.step = 0
        self.last_step: tuple[JSON | None, JSON | None] | None = None
        """The state before the latest step and its action ((None, None) after set-up; None before it)."""
        self._checked_at: dict[str, int] = {}
        """The step each invariant method last checked."""
        self.failed = False

    # ------------------------------------------------------------------ the game

    @initialize(players=st.runner().flatmap(lambda machine: st.sampled_from(machine.players)),
                first=st.integers(0, 3), deck_seed=st.integers(0, SEED_MAX))
    def new_game(self, players: int, first: int, deck_seed: int) -> None:
        """Set up a base game of ``players`` players (one of the class's ``players``), ``first`` (modulo the count)
        first, choices recorded in the order the fuzzer draws them (so it can replay them). An engine that shuffles
        inside without ``export`` is played without the reference (its orders cannot be adopted: ``oracle fuzz``
        reports LOCKSTEP unsupported for it)."""
        game = self.game
        setup: JSON = {"players": players, "first_player": first % players, "deck": random_deck(deck_seed, False)}
        game.trace.setup = setup
        game.trace.choices.extend([self.players.index(players), first % players, deck_seed])
        game.deck = frozenset(setup["deck"])
        with self._checked():
            self.snapshot, self.pending = game._start(setup, None)
            if game.reference is not None and game.subject.handshake.reshuffles_inside and not game.can_export:
                game.reference, game.active = None, game.active - {LOCKSTEP.name}
                warnings.warn(LockstepOff(f"{self.impl or type(self).__name__} shuffles inside and cannot export: "
                                          "this machine checks its invariants only, not lock-step with the "
                                          "reference (declare export to be compared)"), stacklevel=1)
            if self.snapshot is not None and game.on("INV-SETUP"):
                game._raise(checks.check_setup(self.snapshot, game.trace.setup), 0)
            self._compare(None, None, 0)
            game.history.append(self.snapshot if self.snapshot is not None else self.pending)
            self.last_step = (None, None)

    @precondition(lambda self: self.pending is not None and self.step < MAX_STEPS)
    @rule(pick=st.integers(0, 2**16))
    def play(self, pick: int) -> None:
        """Play the legal action ``pick`` chooses (the fuzzer's own choice: the greedy one or any listed)."""
        game, pending = self.game, self.pending
        assert pending is not None
        with self._checked():
            game.chooser = _PlayChooser(pick)
            try:
                action, _, _, _ = game._choose(pending, self.snapshot, self.step)
                self.step += 1
                result = game.subject.apply(action)
                if not result["accepted"]:
                    game._rejected_legal(action, result, self.step)
                game.trace.actions.append(action)
                after = game._export(self.step)
                pending_after = game.subject.decision()
            except EngineFault as fault:
                raise game.fault(ENGINE_FAULT.name, fault, self.step) from None
            before, self.snapshot, self.pending = self.snapshot, after, pending_after
            self._compare(action, before, self.step, result["events"])
            self.last_step = (before, action)
            game.history.append(self.snapshot if self.snapshot is not None else self.pending)

    def _compare(self, action: JSON | None, before: JSON | None, step: int, events: list[object] | None = None) -> None:
        """LOCKSTEP: the reference applies the same action, and both engines' snapshots and decisions must agree (the
        fuzzer's comparison, :meth:`~vale_invariants.game_lockstep.LockstepComparison._compare_after`; the legal
        actions are compared as the action is chosen)."""
        game = self.game
        if game.reference is None:
            return
        game._compare_after(action, before, self.snapshot, self.pending, step, events)
        if game.reloaded:
            self.snapshot, self.pending, _ = game._reread(step)

    @precondition(lambda self: self.pending is not None)
    @rule(category=st.sampled_from((PROBE_UNLISTED, PROBE_CORRUPT, PROBE_PROTOCOL)), salt=st.integers(0, 2**16))
    def probe(self, category: int, salt: int) -> None:
        """Try one illegal action: it must be rejected with a known code and leave the state unchanged."""
        game, pending = self.game, self.pending
        assert pending is not None
        with self._checked():
            try:
                legal = game.subject.legal_actions()
            except EngineFault as fault:
                raise game.fault(ENGINE_FAULT.name, fault, self.step) from None
            game._probe(category, pending, self.snapshot, legal, salt, self.step)

    # ------------------------------------------------------------------ the invariants

    @invariant()
    def state_invariants_hold(self) -> None:
        """INV-LIMIT, INV-AREA, INV-CONSERVATION, INV-SCORE-FLOOR, INV-TURN-ORDER, INV-PAYMENT, INV-PROGRESS."""
        if not self._fresh("state"):
            return
        assert self.last_step is not None
        before, action = self.last_step
        with self._checked():
            if action is None:
                self.game._check_state(None, self.snapshot, self.pending, self.step)
            else:
                self.game._check_step(before, action, self.snapshot, self.pending, self.step)

    @invariant()
    def snapshot_round_trips(self) -> None:
        """INV-ROUNDTRIP: loading the exported snapshot into a fresh engine exports the same snapshot."""
        if not self._fresh("roundtrip"):
            return
        with self._checked():
            self.game._roundtrip(self.snapshot, self.step)

    def _fresh(self, name: str) -> bool:
        """Whether the state changed since the invariant method ``name`` last checked it (and mark it checked)."""
        if self.last_step is None or self._checked_at.get(name) == self.step:
            return False
        self._checked_at[name] = self.step
        return True

    def teardown(self) -> None:
        """INV-DETERMINISM: replaying the game's set-up and actions in a fresh engine gives the same states."""
        if self.failed or self.game._subject is None:
            return
        with self._checked():
            self.game._determinism(self.step)

    # ------------------------------------------------------------------ failures

    def _checked(self) -> _Checking:
        return _Checking(self)

    def _failure(self, failure: Failure) -> AssertionError:
        """The failure as the assertion Hypothesis reports (saved as a scenario file if asked)."""
        self.failed = True
        lines = [f"{failure.outcome.value.upper()} {failure.invariant} "
                 f"({', '.join(failure.rules) or 'no rule'}), step {failure.step}: {failure.message}"]
        facts = self._blame(failure)
        blamed = rules_catalogue().get(str(facts.get("rule", "")) or failure.rule)
        if blamed is not None:
            lines.append(f"blamed on {blamed.id}: {blamed.text}")
        if facts.get("reference_does") and facts.get("engine_does"):
            lines.append(f"the reference {facts['reference_does']}; the engine {facts['engine_does']}")
        lines.append(f"{'checked' if failure.invariant == LOCKSTEP.name else 'invariant'}: "
                     f"{describe(failure.invariant).text}")
        if failure.expected or failure.actual:
            lines += [f"expected: {failure.expected}", f"actual:   {failure.actual}"]
        lines.append(f"trace: {failure.trace.summary()}")
        if self.save_failures is not None:
            lines.append(self._save(failure))
        return AssertionError("\n".join(lines))

    def _blame(self, failure: Failure) -> JSON:
        """The facts of the failure's first divergence from the reference, as ``oracle check`` blames it (its trace
        replayed beside the reference, :func:`~vale_invariants.fuzz.blame_failure`); only for the failure Hypothesis
        reports (not for each one it meets while shrinking), and none for a fault or a hang."""
        from vale_invariants.fuzz import blame_failure

        if not reported() or failure.invariant == ENGINE_FAULT.name:
            return {}
        return blame_failure(failure, self._factory, self.impl, self.timeout) or {}

    def _save(self, failure: Failure) -> str:
        from vale_invariants.fuzz import replay_divergence
        from vale_invariants.scenario import write_scenario

        if failure.divergence is None and failure.invariant != LOCKSTEP.name:
            try:
                failure.divergence = replay_divergence(failure, self._factory, self.impl, self.timeout)
            except Exception as exc:
                return f"no scenario saved: replaying the game against the reference failed ({exc})"
        assert self.save_failures is not None
        path, why_not = write_scenario(Path(self.save_failures), failure, self.impl, self._factory, self.timeout)
        key = f"{type(self).__qualname__}/{failure.invariant}"
        earlier = self._saved.get(key)
        if path is None:
            return f"no scenario saved: {why_not}"
        if earlier is not None and earlier != path and earlier.exists():
            earlier.unlink()
        self._saved[key] = path
        return f"scenario: {path}"


def reported() -> bool:
    """Whether this run of the machine is the one Hypothesis reports (its final replay of the failing example), or
    a run outside Hypothesis."""
    try:
        return bool(current_build_context().is_final)
    except InvalidArgument:
        return True


class _Checking:
    """Turns a broken invariant into the machine's failure; a game that cannot go on ends quietly."""

    def __init__(self, machine: ValeMachine) -> None:
        self.machine = machine

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, traceback: object) -> bool:
        if isinstance(value, Violation):
            raise self.machine._failure(value.failure) from None
        if isinstance(value, StopGame):
            self.machine.pending = None
            return True
        return False
