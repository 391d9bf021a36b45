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
import importlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.results import CheckResult, Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.engines.harness import DEFAULT_START_TIMEOUT, Handshake

DEFAULT_UNIT_TIMEOUT = 120.0


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
    extra: dict[str, Any] = field(default_factory=dict)
    variants: tuple[tuple[str, str], ...] = ()
    """``--variant``: the rule variants the reference under check declares and plays (its ``--impl`` is then
    ``oracle.reference.declared:RULE=VALUE,...``)."""


@dataclass(frozen=True)
class PlannedCheck:
    """A check a unit promises to report: its stable id, and the rules and cards it pins (for filtering)."""

    id: str
    title: str
    rules: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Unit:
    """One piece of work a worker runs on its own, producing exactly the results of ``checks``.

    ``deadline`` is the wall-clock limit the supervisor keeps from outside; ``silence`` (for long units that
    report progress) the longest it waits between two signs of progress. A unit with ``not_applicable`` or
    ``unsupported`` set is not run: each of its checks is not-applicable (it pins another reading of a rule
    variant than the engine declares) or unsupported (the engine lacks what it needs) for that reason.
    """

    suite: str
    key: str
    checks: tuple[PlannedCheck, ...]
    payload: Any = None
    deadline: float = DEFAULT_UNIT_TIMEOUT
    silence: float | None = None
    unsupported: str = ""
    not_applicable: str = ""
    reproduce: str = ""
    selected: frozenset[str] | None = None
    """The ids ``--select``/``--rule``/``--card`` keep (None: all); the unit still runs as a whole."""

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


Planner = Callable[[PlanContext], list[Unit]]
Runner = Callable[[Unit, RunContext], list[CheckResult]]


@dataclass(frozen=True)
class SuiteSpec:
    """A registered suite. Calling it runs the whole suite inline (no worker) and returns its results."""

    name: str
    plan: Planner
    run: Runner
    summary: str

    def __call__(self, eut: EngineUnderTest, options: CheckOptions) -> list[CheckResult]:
        return run_check(eut, options, [self.name])


SUITES: dict[str, SuiteSpec] = {}
SUITE_MODULES = ("oracle.suites.games", "oracle.suites.scenarios", "oracle.suites.z3.suite", "oracle.suites.invariants")


def register(name: str, plan: Planner, run: Runner, summary: str) -> SuiteSpec:
    spec = SuiteSpec(name, plan, run, summary)
    SUITES[name] = spec
    return spec


def load_suites() -> dict[str, SuiteSpec]:
    """Import the modules that register the suites (in the order they run)."""
    for module in SUITE_MODULES:
        importlib.import_module(module)
    return {name: SUITES[name] for name in _ORDER if name in SUITES} | SUITES


_ORDER = ("setup", "random-play", "roundtrip", "scenarios", "z3", "invariants")


# ---------------------------------------------------------------------------------------------- results


def fault_result(suite_name: str, check_id: str, title: str, fault: EngineFault, **kw: Any) -> CheckResult:
    """The result of a check ended by an engine fault (its outcome and the rule a protocol error breaks)."""
    rules = tuple(dict.fromkeys((*kw.pop("rules", ()), *fault.rules)))
    details = {**fault.details, **kw.pop("details", {})}
    return CheckResult(suite_name, check_id, title, fault.outcome, rules=rules, message=str(fault), details=details,
                       **kw)


def skipped_results(unit: Unit) -> list[CheckResult]:
    """The results of a unit that is not run: not-applicable before unsupported, each with the unit's reason."""
    outcome, reason = ((Outcome.NOT_APPLICABLE, unit.not_applicable) if unit.not_applicable
                       else (Outcome.UNSUPPORTED, unit.unsupported))
    return [CheckResult(unit.suite, c.id, c.title, outcome, rules=c.rules, cards=c.cards, message=reason)
            for c in unit.wanted]


def lost_results(unit: Unit, outcome: Outcome, message: str, details: JSON | None = None) -> list[CheckResult]:
    """Every check of a unit that ended without results (its worker died, hung or was stopped)."""
    return [CheckResult(unit.suite, c.id, c.title, outcome, rules=c.rules, cards=c.cards, message=message,
                        reproduce=unit.reproduce, details=dict(details or {})) for c in unit.wanted]


def align(unit: Unit, results: Iterable[CheckResult]) -> list[CheckResult]:
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


def narrowed(unit: Unit, options: CheckOptions) -> Unit | None:
    """The unit with only the checks the filters select, or None when none is."""
    kept = frozenset(c.id for c in unit.checks if matches(c, options.select, options.rules, options.cards))
    if not kept:
        return None
    return unit if len(kept) == len(unit.checks) else dataclasses.replace(unit, selected=kept)


def plan_suites(context: PlanContext, names: Iterable[str], filtered: bool = True) -> dict[str, list[Unit]]:
    """The units of each named suite, narrowed to the checks the options select."""
    planned: dict[str, list[Unit]] = {}
    for name in names:
        units = SUITES[name].plan(context)
        if filtered:
            units = [u for u in (narrowed(unit, context.options) for unit in units) if u is not None]
        planned[name] = units
    return planned


def run_unit(unit: Unit, context: RunContext) -> list[CheckResult]:
    """Run one unit and return exactly its planned checks' results (skipped units are not run)."""
    if unit.skipped:
        return skipped_results(unit)
    started = time.perf_counter()
    try:
        results = SUITES[unit.suite].run(unit, context)
    except EngineFault as fault:
        results = [fault_result(unit.suite, c.id, c.title, fault, duration=time.perf_counter() - started)
                   for c in unit.checks]
    return align(unit, results)


def run_check(eut: EngineUnderTest, options: CheckOptions, suites: list[str]) -> list[CheckResult]:
    """Plan and run the named suites inline, in this process (no supervisor): for the library and tests."""
    load_suites()
    handshake = eut.fresh().handshake
    context = PlanContext(eut.impl, handshake, options)
    results: list[CheckResult] = []
    for units in plan_suites(context, suites).values():
        for unit in units:
            results.extend(run_unit(unit, RunContext(eut, options)))
    return results
