"""The fuzzer: Hypothesis drives whole games through :class:`~vale_invariants.game.GameRunner` and shrinks
the choices behind the first failure to a minimal trace.

How the search is made deterministic and bounded:

* each Hypothesis run uses ``@seed`` derived from ``--seed``, ``database=None``, ``deadline=None`` and no
  health checks, so the same options give the same games and the same shrunk trace;
* every choice is one integer draw (see :mod:`vale_invariants.game`), inside one ``st.composite`` strategy
  (``data.draw`` pretty-prints every value and is about twice as slow);
* shrinking is bounded by a count, never by time (``shrink_examples``: the games replayed while shrinking one
  failure; Hypothesis has no public budget of shrink calls, so the games are counted here and the smallest
  failure seen is kept when the count runs out, and its own time limit is lifted): which games fail, the
  invariant and rule of each failure, and how far its trace is shrunk never depend on the machine or its load;
* while shrinking, only the failing invariant (or lock-step comparison) is checked, so attempts are
  cheap and the shrinker cannot wander to another bug; the choices drawn are the same either way.

After a failure the run goes on, up to ``max_failures``: its cause is set aside (:class:`Known`), so the games that
follow count it and look for the next cause; a property of the engine as a program (a snapshot that changes, a
round trip, a replay) and a fault of the reference switch their check off instead.
"""

from __future__ import annotations

import dataclasses
import random
import shlex
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar
from unittest import mock

from oracle.core.causes import CAUSE_KEY
from oracle.core.faults import EngineFault, PositionRefused
from oracle.core.json_types import JSON
from oracle.core.protocol import SHUFFLES_INSIDE
from oracle.core.results import FURTHER_FAILURES, CheckResult, Outcome
from oracle.core.shards import Shard
from oracle.engines.harness import DEFAULT_START_TIMEOUT, Subject
from oracle.engines.play import new_setup
from oracle.scenarios.blame import MIN_REPLAY_SECONDS, StepKind, TraceStep, first_divergence
from oracle.scenarios.blame import Trace as ReplayTrace
from vale_invariants.catalog import ALL_NAMES, ENGINE_FAULT, INVARIANTS, LOCKSTEP, REFERENCE_FAULT, describe
from vale_invariants.forcing import force_missing_kinds, unprobed
from vale_invariants.game import GameRunner, GameSettings, ReplayChooser, Stats
from vale_invariants.game_guards import GUARDS
from vale_invariants.game_position import random_position
from vale_invariants.trace import Divergence, Failure, Signature, Violation

if TYPE_CHECKING:
    from hypothesis import strategies as st
# Hypothesis itself is imported where games are played (_hunt, _DrawChooser): planning a run, or a process that
# only reads this module's configuration (``oracle check`` before its workers start), does not pay for it.

MODES = ("both", "invariants", "lockstep")
ALL_MODES = ("base", "expansion", "artifacts")
# Properties of the engine as a program, not rules of the game: no scenario can show them.
ENGINE_PROPERTIES = frozenset({"INV-SNAPSHOT-STABLE", "INV-ROUNDTRIP", "INV-DETERMINISM"})
SWITCHED_OFF = ENGINE_PROPERTIES | {REFERENCE_FAULT.name, ENGINE_FAULT.name}
"""The checks a failure switches off for the rest of the run (the others set its cause aside and go on)."""
SUITE = "invariants"
WHOLE = Shard()
"""The shard of a run without ``--shard``: every batch of games."""


@dataclass(frozen=True)
class FuzzConfig:
    """What to fuzz and for how long. ``games`` (per game mode) and ``seconds`` are both limits (None: no limit)."""

    games: int | None = 20
    """Games per game mode played (the modes the engine declares, among ``modes``)."""
    seconds: float | None = None
    seed: int = 0
    players: tuple[int, ...] = (2, 3, 4)
    mode: str = "both"
    invariants: tuple[str, ...] = ALL_NAMES
    shrink_examples: int = 300
    """Games replayed to shrink each failure (0: report it as found); a count, so the shrunk failure is the same
    on any machine under any load."""
    max_failures: int = 3
    batch: int = 25
    timeout: float = 5.0
    start_timeout: float = DEFAULT_START_TIMEOUT
    save_failures: Path | None = None
    positions: bool = True
    modes: tuple[str, ...] = ("base", "expansion", "artifacts")
    set_aside: tuple[str, ...] = ()
    """Rules of known causes: their divergences and findings (blamed on the rule: their first rule) are counted, the
    engines are re-synchronised, and the games go on to the next cause."""
    legal_share: float = 1.0
    """The share of decisions at which the lock-step compares the engine's complete legal set
    (:mod:`oracle.engines.legal_share`)."""
    shard: Shard = WHOLE
    """``--shard K/N``: the batches of games this run plays (:meth:`Shard.batch_number`), each shard with the whole
    budget; no two shards of one seed play a batch of the same seed."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        unknown = [n for n in self.invariants if n not in INVARIANTS]
        if unknown:
            raise ValueError(f"unknown invariant(s) {unknown}; known: {', '.join(ALL_NAMES)}")
        if self.games is None and self.seconds is None:
            raise ValueError("give a number of games, a time budget, or both")

    @property
    def checked(self) -> tuple[str, ...]:
        """The invariant names and LOCKSTEP, as this mode checks them."""
        names = list(self.invariants) if self.mode in ("both", "invariants") else []
        if self.mode in ("both", "lockstep"):
            names.append(LOCKSTEP.name)
        return tuple(names)


@dataclass
class FuzzReport:
    impl: str
    engine: str
    config: FuzzConfig
    version: str = ""
    stats: Stats = field(default_factory=Stats)
    failures: list[Failure] = field(default_factory=list)
    unsupported: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    out_of_time: bool = False
    """The time budget ended the run before the games asked for were played."""
    stopped: str = ""
    """Why the run ended before the games asked for were played ("" when it played them all)."""
    planned_games: int | None = None
    """The games asked for: ``games`` for each game mode played (None under a time budget alone)."""
    unprobed: tuple[str, ...] = ()
    """Decision kinds the declared modes can ask that no guard probe reached (not even a forcing game)."""

    @property
    def ok(self) -> bool:
        return not self.failures

    def reproduce(self) -> str:
        config = self.config
        players = ",".join(str(p) for p in config.players)
        budget = f"--games {config.games}" if config.games is not None else f"--time {config.seconds:g}"
        extra = f" --game-modes {','.join(config.modes)}" if set(config.modes) != set(ALL_MODES) else ""
        if set(config.invariants) != set(ALL_NAMES) and config.mode != "lockstep":
            extra += "".join(f" --invariant {name}" for name in config.invariants)
        if not config.positions:
            extra += " --no-positions"
        extra += "".join(f" --set-aside {rule}" for rule in config.set_aside)
        if config.legal_share < 1:
            extra += f" --legal-share {config.legal_share:g}"
        extra += f" --shard {config.shard.text}" if not config.shard.whole else ""
        return (f"oracle fuzz --impl {shlex.quote(self.impl)} {budget} --seed {config.seed} --players {players} "
                f"--check {config.mode}{extra}")

    def results(self) -> list[CheckResult]:
        """Exactly one result per id of :func:`result_ids`, whatever happened: a check that was cut short by
        the time budget or by an engine fault, or that saw no decision (every game ended at its first step), is
        ``incomplete`` with the count it checked, never a pass. Each says how many decisions and positions it saw
        (``decisions_seen``, ``positions_seen``)."""
        out: list[CheckResult] = []
        failed: dict[str, Failure] = {}
        further: dict[str, list[Failure]] = {}
        for failure in self.failures:
            name = LOCKSTEP.name if failure.invariant == REFERENCE_FAULT.name else failure.invariant
            if name in failed:
                further.setdefault(name, []).append(failure)
            else:
                failed[name] = failure
        base = {"games": self.stats.games, "decisions": self.stats.decisions, "seed": self.config.seed,
                "mode": self.config.mode, "forcing_games": self.stats.forcing_games,
                "kinds_not_probed": list(self.unprobed),
                "undrivable_games": sum(self.stats.undrivable.values()),
                "undrivable_by_kind": dict(sorted(self.stats.undrivable.items())),
                "undrivable_reasons": dict(sorted(self.stats.undrivable_reasons.items())),
                "probes_by_kind": {kind.value: n for kind, n in sorted(self.stats.probes.items(),
                                                                       key=lambda item: item[0].value)},
                "set_aside": dict(sorted(self.stats.set_aside.items())), "restored": self.stats.restored,
                "games_ended_at_a_known_cause": dict(sorted(self.stats.ended.items()))}
        fault = failed.get(ENGINE_FAULT.name)
        cut_short = ""
        if fault is not None:
            cut_short = f"the engine fault at step {fault.step} ended the run after {self.stats.games} game(s)"
        elif self.out_of_time:
            cut_short = (f"the time budget of {self.config.seconds:g} s ran out after {self.stats.games} of "
                         f"{self.planned_games} game(s)")
        for name in (*self.config.checked, ENGINE_FAULT.name):
            invariant = describe(name)
            check_id = f"{SUITE}/{name}"
            checks = self.stats.checks.get(name, 0)
            decisions, positions = self._seen(name)
            seen = {**base, "checks": checks, "decisions_seen": decisions, "positions_seen": positions}
            if name in failed:
                out.append(self._failure_result(failed[name], further.get(name, ())))
            elif name in self.unsupported:
                out.append(CheckResult(SUITE, check_id, invariant.text, Outcome.UNSUPPORTED, rules=invariant.rules,
                                       message=self.unsupported[name], details=seen))
            elif cut_short and name != ENGINE_FAULT.name:
                out.append(CheckResult(SUITE, check_id, invariant.text, Outcome.INCOMPLETE, rules=invariant.rules,
                                       message=f"checked {checks} time(s) before {cut_short}",
                                       reproduce=self.reproduce(), duration=self.seconds, details=seen))
            elif not decisions:
                out.append(CheckResult(SUITE, check_id, invariant.text, Outcome.INCOMPLETE, rules=invariant.rules,
                                       message=f"saw 0 decisions ({positions} position(s)) in {self.stats.games} "
                                               "game(s): no game got past its first step, so this check exercised "
                                               "nothing", reproduce=self.reproduce(), duration=self.seconds,
                                       details=seen))
            else:
                out.append(CheckResult(SUITE, check_id, invariant.text, Outcome.PASS, rules=invariant.rules,
                                       duration=self.seconds, details=seen))
        reported = {*self.config.checked, ENGINE_FAULT.name}
        out.extend(self._failure_result(f, further.get(name, ())) for name, f in failed.items()
                   if name not in reported)
        return out

    def _seen(self, name: str) -> tuple[int, int]:
        """The decisions and positions a check saw: an invariant's own, every game's for ENGINE-FAULT."""
        if name == ENGINE_FAULT.name:
            return self.stats.decisions, self.stats.positions
        return self.stats.decisions_seen.get(name, 0), self.stats.positions_seen.get(name, 0)

    def _failure_result(self, failure: Failure, further: Sequence[Failure] = ()) -> CheckResult:
        """A check's first failure, under its invariant's id; the ones it found after it, each of another cause, are
        members of the same result (``further_failures`` in its details), never ids of their own."""
        invariant = describe(failure.invariant)
        reproduce = self.reproduce()
        if failure.scenario:
            reproduce += f"; saved scenario: {failure.scenario}"
        elif failure.trace_file:
            reproduce += f"; saved trace: {failure.trace_file} (no scenario: {failure.scenario_note})"
        message = f"{failure.message} [{failure.mode} mode; trace: {failure.trace.summary()}"
        message += f", shrunk over {failure.shrink_games} games]" if failure.shrunk else "]"
        if failure.divergence is not None and failure.mode != "lockstep":
            message += f"; against the reference: {failure.divergence.describe()}"
        cards = tuple(sorted({str(a["card"]) for a in failure.trace.actions[-1:] if isinstance(a.get("card"), str)}))
        if further:
            message += f" (and {len(further)} further failure(s) of other causes: {FURTHER_FAILURES} in the details)"
        more = {FURTHER_FAILURES: [self._failure_result(f).to_json() for f in further]} if further else {}
        return CheckResult(
            SUITE, f"{SUITE}/{failure.invariant}", invariant.text, failure.outcome, rules=failure.rules,
            cards=cards, step=failure.step, expected=failure.expected, actual=failure.actual, message=message,
            reproduce=reproduce, duration=self.seconds,
            details={"mode": failure.mode, "invariant": failure.invariant, "games": self.stats.games,
                     "decisions": self.stats.decisions, "seed": self.config.seed, **failure.to_json(),
                     **failure.fault_details, **({CAUSE_KEY: failure.cause} if failure.cause else {}),
                     **dict(zip(("decisions_seen", "positions_seen"), self._seen(failure.invariant), strict=True)),
                     **more},
        )

    def summary(self) -> str:
        rate = self.stats.decisions / self.seconds if self.seconds > 0 else 0.0
        verdict = "PASSED" if self.ok else f"FAILED ({len(self.failures)} failure(s))"
        unsupported = f", {len(self.unsupported)} unsupported" if self.unsupported else ""
        by_mode = ", ".join(f"{mode} {self.stats.games_by_mode[mode]}" for mode in ALL_MODES
                            if self.stats.games_by_mode[mode])
        games = f"{self.stats.games} games" + (f" ({by_mode})" if by_mode else "")
        if self.stats.forcing_games:
            games += f" and {self.stats.forcing_games} forcing game(s) for the rare decision kinds"
        if self.unprobed:
            games += f" (decision kinds not probed: {', '.join(self.unprobed)})"
        set_aside = ", ".join(f"{rule} {n}" for rule, n in sorted(self.stats.set_aside.items()))
        aside = f", known causes set aside: {set_aside}" if set_aside else ""
        if self.stats.restored:
            aside += f" (the engine went back to a shared position {self.stats.restored} time(s))"
        ended = sum(self.stats.ended.values())
        if ended:
            why, _ = self.stats.ended.most_common(1)[0]
            aside += f", {ended} game(s) could not go on past a known cause (e.g. {why})"
        stopped = f"; {self.stopped}" if self.stopped else ""
        undrivable = sum(self.stats.undrivable.values())
        if undrivable:
            kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(self.stats.undrivable.items()))
            stopped = f", {undrivable} game(s) stopped as unsupported at an undrivable decision ({kinds}){stopped}"
        return (f"{verdict}: {games}, {self.stats.decisions} decisions in {self.seconds:.1f} s "
                f"({rate:.0f} decisions/s), {len(self.config.checked)} checks{unsupported}{aside}{stopped}")


Progress = Callable[[Stats], None]


# ---------------------------------------------------------------------------------------------- Hypothesis


class _DrawChooser:
    """Choices drawn from Hypothesis (one integer strategy per range, cached)."""

    _strategies: ClassVar[dict[tuple[int, int], st.SearchStrategy[int]]] = {}

    def __init__(self, draw: Callable[[st.SearchStrategy[int]], int]) -> None:
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        strategy = self._strategies.get((low, high))
        if strategy is None:
            from hypothesis import strategies as st

            strategy = self._strategies[(low, high)] = st.integers(low, high)
        return self.draw(strategy)


class _Abort(BaseException):
    """Ends a Hypothesis run at once (an engine that hangs is not worth replaying while shrinking)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


NO_SHRINK_TIME_LIMIT = 10**9
"""Hypothesis's own shrinking time limit while the count of :attr:`FuzzConfig.shrink_examples` bounds it."""


@contextmanager
def _no_shrink_time_limit() -> Iterator[None]:
    """Lift Hypothesis's shrinking time limit (300 s), so only the count of games bounds shrinking and the shrunk
    failure never depends on the machine's load."""
    from hypothesis.internal.conjecture import engine

    if not hasattr(engine, "MAX_SHRINKING_SECONDS"):
        yield
        return
    with mock.patch.object(engine, "MAX_SHRINKING_SECONDS", NO_SHRINK_TIME_LIMIT):
        yield


@contextmanager
def _no_local_constants() -> Iterator[None]:
    """Keep the games a seed draws independent of what the process imported: Hypothesis mixes literal constants
    of the loaded local modules into some draws, so the same seed played different games in an editable
    checkout and in a wheel, or after another module was imported."""
    try:
        from hypothesis.internal.conjecture import providers  # type: ignore[attr-defined, unused-ignore]
        from hypothesis.internal.constants_ast import Constants  # type: ignore[import-not-found, unused-ignore]
    except ImportError:  # a Hypothesis from before local constants
        yield
        return
    if not hasattr(providers, "_get_local_constants"):
        yield
        return
    empty = Constants()
    with mock.patch.object(providers, "_get_local_constants", lambda: empty):
        yield


@dataclass
class _Hunt:
    settings: GameSettings
    stats: Stats
    progress: Progress | None
    shrink_examples: int = 0
    first: Failure | None = None
    focus: GameSettings | None = None
    best: Failure | None = None
    """The smallest failure seen while shrinking (fewest choices, then the smallest ones)."""
    replayed: int = 0
    """Games replayed while shrinking."""

    def shrinking(self, failure: Failure | None) -> None:
        """Count one game replayed while shrinking; keep ``failure`` if it is the smallest yet; end the run with
        the smallest failure once :attr:`shrink_examples` games have been replayed."""
        self.replayed += 1
        if failure is not None and (self.best is None or _size(failure) < _size(self.best)):
            self.best = failure
        if self.replayed >= self.shrink_examples and self.best is not None:
            self.best.shrunk = True
            raise _Abort(self.best)


def _size(failure: Failure) -> tuple[int, list[int]]:
    """How big a failing game is, for shrinking: how many choices it drew, then the choices themselves."""
    return len(failure.trace.choices), failure.trace.choices


def _focus(settings: GameSettings, failure: Failure) -> GameSettings:
    """Only what failed is checked while shrinking (the choices drawn do not depend on it)."""
    if failure.invariant in (LOCKSTEP.name, REFERENCE_FAULT.name):
        return dataclasses.replace(settings, active=frozenset({LOCKSTEP.name}), lockstep=True)
    if failure.invariant == ENGINE_FAULT.name:
        return dataclasses.replace(settings, active=frozenset(), lockstep=False)
    return dataclasses.replace(settings, active=frozenset({failure.invariant}), lockstep=False)


def _hunt(settings: GameSettings, seed: int, games: int, shrink_examples: int, stats: Stats,
          progress: Progress | None) -> Failure | None:
    """One Hypothesis run of up to ``games`` games; the first failure, if any, shrunk by replaying at most
    ``shrink_examples`` games."""
    import hypothesis
    from hypothesis import HealthCheck, Phase, Verbosity, given
    from hypothesis import strategies as st

    hunt = _Hunt(settings, stats, progress, shrink_examples)

    @st.composite
    def played(draw: Callable[[st.SearchStrategy[int]], int]) -> Failure | None:
        generating = hunt.first is None
        runner = GameRunner(hunt.focus or hunt.settings, _DrawChooser(draw), hunt.stats if generating else Stats())
        failure: Failure | None = None
        try:
            runner.play()
        except Violation as violation:
            failure = violation.failure
        if generating:
            hunt.stats.games += 1
            hunt.stats.games_by_mode[runner.mode] += 1
            if hunt.progress is not None:
                hunt.progress(hunt.stats)
        if failure is not None and failure.outcome is Outcome.TIMEOUT:
            raise _Abort(failure)
        if not generating and hunt.shrink_examples > 0:
            hunt.shrinking(failure)
        return failure

    @hypothesis.settings(
        max_examples=max(1, games), database=None, deadline=None, derandomize=False,
        suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
        phases=(Phase.generate, Phase.shrink) if shrink_examples > 0 else (Phase.generate,),
        verbosity=Verbosity.quiet, print_blob=False,
    )
    @hypothesis.seed(seed)
    @given(played())
    def game(found: Failure | None) -> None:
        if found is not None:
            if hunt.first is None:
                hunt.first = found
                hunt.focus = _focus(hunt.settings, found)
            raise Violation(found)

    found = _found(game, hunt, shrink_examples > 0)
    if found is not None:
        found.shrink_games = hunt.replayed
    return found


def _found(game: Callable[[], None], hunt: _Hunt, shrinking: bool) -> Failure | None:
    """Run the Hypothesis test ``game``: the failure it ends with, shrunk when ``shrinking``, or None."""
    from hypothesis.errors import Flaky

    try:
        with _no_shrink_time_limit(), _no_local_constants():
            game()
    except _Abort as abort:
        return abort.failure
    except Violation as violation:
        violation.failure.shrunk = shrinking
        return violation.failure
    except Flaky:
        if hunt.first is not None:
            hunt.first.message += " (the failure did not reproduce when replayed: is the engine deterministic?)"
        return hunt.first
    return hunt.first


# ---------------------------------------------------------------------------------------------- the run


@dataclass
class Known:
    """What a run knows after its failures: the checks switched off, whether the set-up deviation was reported, and
    the causes reported (each set aside in the games after it, so the run looks for the next)."""

    disabled: set[str]
    setup_known: bool = False
    causes: set[Signature] = field(default_factory=set)

    def settings(self, factory: Callable[[], Any], impl: str, config: FuzzConfig, players: tuple[int, ...],
                 positions: bool, modes: tuple[str, ...]) -> GameSettings:
        active = frozenset(n for n in config.checked if n not in self.disabled)
        return GameSettings(factory, impl, players, active, LOCKSTEP.name in active, config.timeout,
                            config.start_timeout, positions=positions, modes=modes,
                            set_aside=frozenset(config.set_aside), setup_known=self.setup_known,
                            known=frozenset(self.causes), legal_share=config.legal_share)

    def learn(self, failure: Failure) -> None:
        """After ``failure`` is reported: the set-up deviation is known once (lock-step then goes on from the engine's
        state); a fault of the reference or a property of the engine as a program switches its check off; any other
        failure's cause is set aside (:attr:`~vale_invariants.trace.Failure.known_as`)."""
        divergence = failure.divergence
        if failure.invariant in SWITCHED_OFF:
            self.disabled.add(LOCKSTEP.name if failure.invariant == REFERENCE_FAULT.name else failure.invariant)
            return
        if failure.invariant == LOCKSTEP.name and divergence is not None and divergence.cause < 0:
            self.setup_known = True
        self.causes.add(failure.known_as)


def replay_divergence(failure: Failure, factory: Callable[[], Any], impl: str,
                      timeout: float = 5.0) -> Divergence | None:
    """Replay a failure's choices in lock-step with the reference: the divergence behind it, if any. For an invariant
    failure, divergences caused by earlier actions are set aside, of every kind (the engines are re-synchronised), so
    the scenario pins what broke at the failing step, not the first difference on the way (a cause the run had set
    aside, there, included); one at the failing step is found even when its cause is known."""
    settings = GameSettings(factory, impl, (failure.trace.setup["players"],), frozenset({LOCKSTEP.name}), True,
                            timeout, max_steps=len(failure.trace.actions) + 1,
                            positions=failure.trace.positions, modes=failure.trace.modes, scarce=failure.trace.scarce,
                            resync_until=failure.step if failure.mode != "lockstep" else 0)
    choices = list(failure.trace.choices)
    choices[0] = 0
    runner = GameRunner(settings, ReplayChooser(choices))
    try:
        runner.play()
    except Violation as violation:
        return violation.failure.divergence
    return None


def result_ids(config: FuzzConfig) -> tuple[str, ...]:
    """The check ids a fuzz run reports: one per invariant checked, LOCKSTEP in lock-step mode, and ENGINE-FAULT."""
    return tuple(f"{SUITE}/{name}" for name in (*config.checked, ENGINE_FAULT.name))


def run_fuzz(factory: Callable[[], Any], impl: str, config: FuzzConfig, progress: Progress | None = None) -> FuzzReport:
    """Fuzz one engine; every failure is shrunk, compared with the reference, and (optionally) saved."""
    started = time.perf_counter()
    report = FuzzReport(impl, impl, config)
    try:
        subject = Subject(factory, impl, config.timeout, config.start_timeout)
    except EngineFault as fault:
        report.failures.append(Failure(ENGINE_FAULT.name, "invariants", (), f"engine {fault.kind} in "
                                       f"{fault.method}(): {fault.message}", 0, _empty_trace(),
                                       outcome=Outcome.TIMEOUT if fault.kind == "timeout" else Outcome.ERROR))
        report.seconds = time.perf_counter() - started
        return report
    handshake = subject.handshake
    report.engine, report.version = handshake.engine, handshake.version
    players = tuple(p for p in config.players if p in handshake.players)
    for name in config.checked:
        needs = INVARIANTS[name].needs if name in INVARIANTS else ()
        missing = [c for c in needs if not handshake.can(c)]
        if missing:
            report.unsupported[name] = f"the engine does not declare {' and '.join(repr(c) for c in missing)}"
    if handshake.reshuffles_inside:
        own = f"the engine shuffles inside ({' and '.join(c for c in SHUFFLES_INSIDE if handshake.can(c))})"
        if "INV-DETERMINISM" in config.checked:
            report.unsupported["INV-DETERMINISM"] = f"{own}: the same inputs need not give the same game"
        if LOCKSTEP.name in config.checked and not handshake.can("export"):
            report.unsupported[LOCKSTEP.name] = f"{own}, and without 'export' its orders cannot be adopted"
    if not players:
        for name in config.checked:
            report.unsupported[name] = f"the engine supports none of the player counts {list(config.players)}"
        report.seconds = time.perf_counter() - started
        return report
    positions = config.positions and handshake.can("load") and loads_positions(subject, players[0], config.seed)
    modes = tuple(m for m, declared in (("base", True), ("expansion", handshake.expansion),
                                        ("artifacts", handshake.artifacts)) if declared and m in config.modes)
    if not modes:
        report.unsupported.update({n: f"the engine plays none of the modes {list(config.modes)}"
                                   for n in config.checked})
        report.seconds = time.perf_counter() - started
        return report
    deadline = started + config.seconds if config.seconds is not None else None
    known = Known(set(report.unsupported))
    batch_index = 0
    report.planned_games = None if config.games is None else config.games * len(modes)
    while True:
        playing, remaining = _next_modes(report, modes)
        if remaining is not None and remaining <= 0:
            break
        if len(report.failures) >= config.max_failures:
            report.stopped = _stopped(f"after {len(report.failures)} failure(s)", report)
            break
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            report.out_of_time = remaining is not None
            if remaining is not None:
                report.stopped = _stopped(f"by the time budget of {config.seconds:g} s", report)
            break
        size = config.batch if remaining is None else min(config.batch, remaining)
        if deadline is not None and report.stats.games:
            per_game = (now - started) / report.stats.games
            size = max(1, min(size, int((deadline - now) / per_game)))
        settings = known.settings(factory, impl, config, players, positions, playing)
        if not settings.active:
            report.stopped = _stopped("with nothing left to check (every check failed or is unsupported)", report)
            break
        before = report.stats.games
        failure = _hunt(settings, config.seed * 1009 + config.shard.batch_number(batch_index), size,
                        config.shrink_examples, report.stats, progress)
        batch_index += 1
        if failure is not None:
            _record(report, failure, factory, impl, known)
            if failure.invariant == ENGINE_FAULT.name:
                report.stopped = _stopped(f"by the engine fault at step {failure.step}", report)
                break
        elif report.stats.games == before:
            break
    _force(report, factory, impl, players, known, positions, modes, deadline)
    report.seconds = time.perf_counter() - started
    return report


def loads_positions(subject: Subject, players: int, seed: int) -> bool:
    """Whether the engine loads a random position the fuzz builds: one whose ``load`` refuses it
    (:class:`~oracle.core.faults.PositionRefused`) plays new games only, rather than ending the run on a protocol
    error (issue 36, item 10). Any other fault is left to the games to find."""
    rng = random.Random(f"positions-{seed}")
    try:
        subject.load_position(random_position(new_setup(players, seed, first_player=0), rng.randint))
    except PositionRefused:
        return False
    except EngineFault:
        return True
    return True


def _force(report: FuzzReport, factory: Callable[[], Any], impl: str, players: tuple[int, ...], known: Known,
           positions: bool, modes: tuple[str, ...], deadline: float | None) -> None:
    """The forcing games of the decision kinds no sampled game probed (:mod:`vale_invariants.forcing`), unless the
    run stopped early; the kinds still unprobed are reported (``kinds_not_probed``)."""
    config = report.config
    settings = known.settings(factory, impl, config, players, positions, modes)
    probing = bool({GUARDS, LOCKSTEP.name} & settings.active)
    out_of_time = deadline is not None and time.perf_counter() >= deadline
    if probing and positions and not report.stopped and not out_of_time \
            and len(report.failures) < config.max_failures:
        seed = str(config.seed) if config.shard.whole else f"{config.seed}-shard-{config.shard.text}"
        failure = force_missing_kinds(settings, seed, report.stats)
        if failure is not None:
            _record(report, failure, factory, impl, known)
    if probing:
        report.unprobed = tuple(sorted(k.value for k in unprobed(modes, report.stats)))


def _record(report: FuzzReport, failure: Failure, factory: Callable[[], Any], impl: str, known: Known) -> None:
    """Compare a failure with the reference, save it, add it to the report, and set its cause aside
    (:meth:`Known.learn`)."""
    from vale_invariants.scenario import save_counterexample

    config = report.config
    if failure.divergence is None and failure.outcome not in (Outcome.ERROR, Outcome.TIMEOUT) \
            and failure.invariant not in ENGINE_PROPERTIES:
        failure.divergence = _safe_replay(failure, factory, impl, config.timeout)
    if failure.outcome is not Outcome.TIMEOUT:
        failure.cause = blame_failure(failure, factory, impl, config.timeout, config.start_timeout)
    if config.save_failures is not None:
        saved = save_counterexample(config.save_failures, failure, impl, factory, config.timeout, config.seed)
        failure.scenario, failure.trace_file = ("", str(saved.path)) if not saved.scenario else (str(saved.path), "")
        failure.scenario_note = saved.why_not
    report.failures.append(failure)
    known.learn(failure)


def _next_modes(report: FuzzReport, modes: tuple[str, ...]) -> tuple[tuple[str, ...], int | None]:
    """The game modes the next batch draws from and how many games are left of it: with a number of games, the
    first mode that has not played its ``games`` yet (``--games`` counts games per mode), one mode at a time;
    under a time budget alone, every mode (each game draws its own)."""
    games = report.config.games
    if games is None:
        return modes, None
    for mode in modes:
        if report.stats.games_by_mode[mode] < games:
            return (mode,), games - report.stats.games_by_mode[mode]
    return modes, 0


def _stopped(why: str, report: FuzzReport) -> str:
    """"stopped after 5 failures at game 17 of 20" (or of an open number of games, under a time budget)."""
    total = f" of {report.planned_games}" if report.planned_games is not None else ""
    return f"stopped {why} at game {report.stats.games}{total}"


def _safe_replay(failure: Failure, factory: Callable[[], Any], impl: str, timeout: float) -> Divergence | None:
    if not failure.trace.setup:
        return None
    try:
        return replay_divergence(failure, factory, impl, timeout)
    except Exception:
        return None


def blame_failure(failure: Failure, factory: Callable[[], Any], impl: str, timeout: float,
                  start_timeout: float = DEFAULT_START_TIMEOUT) -> JSON | None:
    """The facts of the failure's first divergence from the reference: its actions replayed from its start, then
    the illegal action it tried (or, for legal lists that differ, the lists compared), issue 24."""
    trace = failure.trace
    if not trace.setup:
        return None
    steps = [TraceStep(StepKind.APPLY, a, n) for n, a in enumerate(trace.actions, 1)]
    if trace.probe is not None:
        steps.append(TraceStep(StepKind.APPLY, trace.probe, len(steps) + 1))
    elif failure.divergence is not None and failure.divergence.kind == "legal":
        steps.append(TraceStep(StepKind.LEGAL, None, len(steps) + 1))
    start = ReplayTrace(tuple(steps), snapshot=trace.start) if trace.start is not None \
        else ReplayTrace(tuple(steps), setup=trace.setup)
    facts = first_divergence(lambda: Subject(factory, impl, timeout, start_timeout), start,
                             MIN_REPLAY_SECONDS)
    return facts.to_json() if facts is not None else None


def _empty_trace() -> Any:
    from vale_invariants.trace import Trace

    return Trace(setup={})
