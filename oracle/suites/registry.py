"""The conformance suites of ``oracle check``: their registry, the units of work they plan, and an in-process runner.

A suite has two halves. ``plan`` runs in the supervisor and touches no engine code: from the engine's
handshake and the run's options it lists :class:`Unit` s, each naming in advance exactly the checks it will
produce (so check ids and counts never depend on how an engine fails), or saying why they are unsupported.
``run`` executes one unit against the engine, in a worker process under ``oracle check``
(:mod:`oracle.run`) or inline through :func:`run_check` for the library and the tests.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from oracle.core.defaults import DEFAULT_MAX_CAUSES
from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.results import UNLOCKED_BY_LOAD, CheckResult, Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.engines.harness import DEFAULT_START_TIMEOUT, Handshake
from oracle.engines.legal_share import DEFAULT_SHARE
from oracle.scenarios.reach.way import Way
from oracle.scenarios.runner import DEFAULT_SCENARIO_TIMEOUT

DEFAULT_UNIT_TIMEOUT = 120.0


@dataclass(frozen=True)
class ScenarioOptions:
    """What the ``scenarios`` suite reads: the directory asked for (None: the bundled suite), seconds per scenario,
    and how each ``[given]`` position is reached."""

    directory: Path | None = None
    timeout: float = DEFAULT_SCENARIO_TIMEOUT
    reach: Way = Way.AUTO
    """``--reach``: how a scenario's ``[given]`` position is reached (loaded, or played by its preamble)."""


@dataclass(frozen=True)
class Z3Options:
    """What the ``z3`` suite reads: the whole domain or a sample, each row's budget, the sample's scale."""

    full: bool = False
    budget: float = 20.0
    sample_scale: float = 1.0


@dataclass(frozen=True)
class FuzzOptions:
    """What the ``invariants`` suite reads: games per game mode, the time budget, the mode, and how many games
    shrinking each failure may replay (a count, so the failure reported never depends on the machine's load)."""

    games: int = 2
    seconds: float = 60.0
    mode: str = "both"
    shrink_examples: int = 50
    causes: int = DEFAULT_MAX_CAUSES
    """``--max-causes``: the failures (each of another cause: the ones found are set aside) the run looks for."""


@dataclass(frozen=True)
class CheckOptions:
    games: int = 2
    roundtrip_games: int = 1
    seed: int = 1
    timeout: float = 5.0
    start_timeout: float = DEFAULT_START_TIMEOUT
    """``--start-timeout``: seconds an engine may take to start (``create`` and the handshake)."""
    players: tuple[int, ...] = (2, 3, 4)
    select: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    unit_timeout: float = DEFAULT_UNIT_TIMEOUT
    """Wall-clock seconds the supervisor allows one unit with no budget of its own (a whole game)."""
    scenarios: ScenarioOptions = ScenarioOptions()
    z3: Z3Options = Z3Options()
    fuzz: FuzzOptions = FuzzOptions()
    save_failures: Path | None = None
    """``--save-failures``: where the z3 and invariants suites (and the games) write their counterexamples."""
    variants: tuple[tuple[str, str], ...] = ()
    """``--variant``: the rule variants the reference under check declares and plays (its ``--impl`` is then
    ``oracle.reference.declared:RULE=VALUE,...``)."""
    budget_scale: float = 1.0
    """What every fixed wall-clock budget is multiplied by (never below 1): the engine's measured slowness next to
    the reference, or ``--budget-scale`` (:mod:`oracle.engines.speed`). Per-call timeouts are not scaled."""

    legal_share: float = DEFAULT_SHARE
    """The share of decisions at which random play and the lock-step compare the engine's complete legal set
    (:mod:`oracle.engines.legal_share`): set from the engine's measured speed, or ``--legal-share``."""

    def scaled(self, seconds: float) -> float:
        """A fixed budget of ``seconds`` (a scenario's, a Z3 row's, the fuzz run's, a game's) for this run."""
        return seconds * self.budget_scale
    set_aside: tuple[str, ...] = ()
    """``--set-aside``: rules of known causes, which the invariants suite and random play go on past."""


@dataclass(frozen=True)
class PlannedCheck:
    """A check a unit promises to report: its stable id, and the rules and cards it pins (for filtering)."""

    id: str
    title: str
    rules: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()


P = TypeVar("P")


@dataclass(frozen=True)
class Unit(Generic[P]):
    """One piece of work a worker runs on its own, producing exactly the results of ``checks``.

    ``deadline`` is the wall-clock limit the supervisor keeps from outside; ``silence`` (for long units that
    report progress) the longest it waits between two signs of progress. A unit with ``not_applicable`` or
    ``unsupported`` set is not run: each of its checks is not-applicable (it pins another reading of a rule
    variant than the engine declares) or unsupported (the engine lacks what it needs) for that reason.
    ``payload`` is the suite's own description of the work (each suite has a frozen dataclass of its own).
    """

    suite: str
    key: str
    checks: tuple[PlannedCheck, ...]
    payload: P
    deadline: float = DEFAULT_UNIT_TIMEOUT
    silence: float | None = None
    unsupported: str = ""
    not_applicable: str = ""
    reproduce: str = ""
    selected: frozenset[str] | None = None
    """The ids ``--select``/``--rule``/``--card`` keep (None: all); the unit still runs as a whole."""
    unlocked_by_load: bool = False
    """Unsupported only because the engine does not declare ``load``: with it, the unit would run."""

    @property
    def name(self) -> str:
        return f"{self.suite}/{self.key}"

    @property
    def skipped(self) -> bool:
        """The unit is not run (its checks are not-applicable or unsupported)."""
        return bool(self.not_applicable or self.unsupported)

    @property
    def wanted(self) -> tuple[PlannedCheck, ...]:
        """The checks this run reports."""
        if self.selected is None:
            return self.checks
        return tuple(c for c in self.checks if c.id in self.selected)


AnyUnit = Unit[Any]
"""A unit of any suite, as the supervisor and the workers pass it around."""


@dataclass(frozen=True)
class PlanContext:
    """What a suite plans from: the engine's handshake and the run's options (no engine calls)."""

    impl: str
    handshake: Handshake
    options: CheckOptions


Heartbeat = Callable[[object], None]


@dataclass
class RunContext:
    """What a unit runs with: the engine, the options, a way to signal progress and to hand back extra data."""

    eut: EngineUnderTest
    options: CheckOptions
    heartbeat: Heartbeat = lambda _: None
    attachment: object = None


@dataclass(frozen=True)
class SuiteSpec(Generic[P]):
    """A suite: its name, its two halves and a one-line summary. Calling it runs the whole suite inline (no worker)
    and returns its results. :mod:`oracle.suites.all` lists every suite, in the order they run."""

    name: str
    plan: Callable[[PlanContext], list[Unit[P]]]
    run: Callable[[Unit[P], RunContext], list[CheckResult]]
    summary: str

    def __call__(self, eut: EngineUnderTest, options: CheckOptions) -> list[CheckResult]:
        return run_suites(eut, options, [self])


AnySuite = SuiteSpec[Any]


# ---------------------------------------------------------------------------------------------- results


def fault_result(suite_name: str, check_id: str, title: str, fault: EngineFault, **kw: Any) -> CheckResult:
    """The result of a check ended by an engine fault (its outcome and the rule a protocol error breaks)."""
    rules = tuple(dict.fromkeys((*kw.pop("rules", ()), *fault.rules)))
    details = {**fault.details, **kw.pop("details", {})}
    return CheckResult(suite_name, check_id, title, fault.outcome, rules=rules, message=str(fault), details=details,
                       **kw)


def skipped_results(unit: AnyUnit) -> list[CheckResult]:
    """The results of a unit that is not run: not-applicable before unsupported, each with the unit's reason."""
    outcome, reason = ((Outcome.NOT_APPLICABLE, unit.not_applicable) if unit.not_applicable
                       else (Outcome.UNSUPPORTED, unit.unsupported))
    details: JSON = {UNLOCKED_BY_LOAD: True} if outcome is Outcome.UNSUPPORTED and unit.unlocked_by_load else {}
    return [CheckResult(unit.suite, c.id, c.title, outcome, rules=c.rules, cards=c.cards, message=reason,
                        details=dict(details)) for c in unit.wanted]


def lost_results(unit: AnyUnit, outcome: Outcome, message: str, details: JSON | None = None) -> list[CheckResult]:
    """Every check of a unit that ended without results (its worker died, hung or was stopped)."""
    return [CheckResult(unit.suite, c.id, c.title, outcome, rules=c.rules, cards=c.cards, message=message,
                        reproduce=unit.reproduce, details=dict(details or {})) for c in unit.wanted]


def align(unit: AnyUnit, results: Iterable[CheckResult]) -> list[CheckResult]:
    """The unit's results in the order of its wanted checks; a wanted check with no result is an error.

    Results of checks the filters left out are dropped; a result the plan did not name is kept after the
    others, so nothing the unit found is ever lost.
    """
    by_id: dict[str, CheckResult] = {}
    unplanned: list[CheckResult] = []
    wanted = {c.id for c in unit.wanted}
    filtered_out = {c.id for c in unit.checks} - wanted
    for result in results:
        if result.id in filtered_out:
            continue
        if result.id in wanted and result.id not in by_id:
            by_id[result.id] = result
        else:
            unplanned.append(result)
    out = []
    for check in unit.wanted:
        found = by_id.get(check.id)
        if found is None:
            found = CheckResult(unit.suite, check.id, check.title, Outcome.ERROR, rules=check.rules,
                                cards=check.cards, message="the unit ended without a result for this check "
                                "(an oracle bug: please report it)")
        out.append(found)
    return out + unplanned


# ---------------------------------------------------------------------------------------------- planning


def players_unsupported(handshake: Handshake, players: int) -> str:
    """Why a game of ``players`` is unsupported by this engine ('' when it is not)."""
    if players in handshake.players:
        return ""
    declared = ", ".join(str(p) for p in handshake.players)
    return f"the engine does not declare {players}-player games (it declares {declared})"



def matches(check: PlannedCheck, selects: tuple[str, ...], rules: tuple[str, ...], cards: tuple[str, ...]) -> bool:
    """``--select`` globs on the id, ``--rule`` on the rules, ``--card`` on the cards (all that are given)."""
    return (
        (not selects or any(fnmatch.fnmatchcase(check.id, p) for p in selects))
        and (not rules or bool(set(rules) & set(check.rules)))
        and (not cards or bool(set(cards) & set(check.cards)))
    )


def narrowed(unit: Unit[P], options: CheckOptions) -> Unit[P] | None:
    """The unit with only the checks the filters select, or None when none is."""
    kept = frozenset(c.id for c in unit.checks if matches(c, options.select, options.rules, options.cards))
    if not kept:
        return None
    return unit if len(kept) == len(unit.checks) else dataclasses.replace(unit, selected=kept)


@dataclass(frozen=True)
class Plan:
    """The units each suite planned, made once (unfiltered): what the run's filters keep, and every check id."""

    units: Mapping[str, tuple[AnyUnit, ...]]

    def known(self) -> frozenset[str]:
        """Every check id the planned suites can report, whatever the filters (for the expectations)."""
        return frozenset(c.id for units in self.units.values() for unit in units for c in unit.checks)

    def narrowed(self, names: Iterable[str], options: CheckOptions) -> dict[str, list[AnyUnit]]:
        """The units of each named suite, narrowed to the checks the options select."""
        return {name: [u for u in (narrowed(unit, options) for unit in self.units[name]) if u is not None]
                for name in names}


def plan(context: PlanContext, suites: Iterable[AnySuite]) -> Plan:
    """Plan each suite once, unfiltered; for an engine without ``load``, mark the units it alone keeps from running."""
    chosen = tuple(suites)
    planned = {suite.name: tuple(suite.plan(context)) for suite in chosen}
    if context.handshake.can("load"):
        return Plan(planned)
    shake = context.handshake
    with_load = dataclasses.replace(context, handshake=dataclasses.replace(
        shake, capabilities=shake.capabilities | {"load"}))
    would_run = {unit.name for suite in chosen for unit in suite.plan(with_load) if not unit.skipped}
    return Plan({name: tuple(dataclasses.replace(unit, unlocked_by_load=True)
                             if unit.unsupported and not unit.not_applicable and unit.name in would_run else unit
                             for unit in units)
                 for name, units in planned.items()})


def run_unit(suite: AnySuite, unit: AnyUnit, context: RunContext) -> list[CheckResult]:
    """Run one unit of ``suite`` and return exactly its planned checks' results (skipped units are not run)."""
    if unit.skipped:
        return skipped_results(unit)
    started = time.perf_counter()
    try:
        results = suite.run(unit, context)
    except EngineFault as fault:
        results = [fault_result(unit.suite, c.id, c.title, fault, duration=time.perf_counter() - started)
                   for c in unit.checks]
    return align(unit, results)


def run_suites(eut: EngineUnderTest, options: CheckOptions, suites: Sequence[AnySuite]) -> list[CheckResult]:
    """Plan and run the suites inline, in this process (no supervisor): for the library and tests."""
    handshake = eut.fresh().handshake
    context = PlanContext(eut.impl, handshake, options)
    planned = plan(context, suites).narrowed([s.name for s in suites], options)
    return [result for suite in suites for unit in planned[suite.name]
            for result in run_unit(suite, unit, RunContext(eut, options))]
