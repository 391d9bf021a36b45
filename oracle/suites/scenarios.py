"""The ``scenarios`` suite: every scenario file under the bundled suite (or ``--scenarios DIR``), one unit each,
run by :mod:`oracle.scenarios.runner`.

Options read from :class:`~oracle.suites.registry.ScenarioOptions`: ``directory`` (default
:func:`~oracle.scenarios.loader.default_dir`) and ``timeout`` (seconds of wall clock per scenario, default 10).
Invalid files are refused before the run (``oracle check`` exits 2 naming file and line).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from oracle.core.results import CheckResult
from oracle.scenarios.loader import default_dir, load_dir
from oracle.scenarios.model import Scenario
from oracle.scenarios.reach.preamble import EMPTY, Preamble, read_preambles
from oracle.scenarios.reach.way import Way
from oracle.scenarios.runner import (
    SUITE,
    not_applicable_reason,
    reproduce_command,
    run_scenario,
    unsupported_reason,
)
from oracle.suites.registry import CheckOptions, PlanContext, PlannedCheck, RunContext, SuiteSpec, Unit

# Seconds the supervisor allows a scenario past its own budget (engine start-up, the result's trip back).
GRACE = 10.0


@dataclass(frozen=True)
class ScenarioRun:
    """A ``scenarios`` unit's work: the scenario, its budget in seconds, the directory its reproduction names, its
    preamble and the ``--reach`` asked."""

    scenario: Scenario
    budget: float
    shown_dir: str | None
    preamble: Preamble | None = None
    """How the scenario's ``[given]`` position is reached by playing (issue 39), when the suite stores one."""
    way: Way = Way.AUTO


def scenarios_dir(options: CheckOptions) -> tuple[Path, bool]:
    """The directory to run, and whether it was asked for explicitly."""
    given = options.scenarios.directory
    return (given, True) if given is not None else (default_dir(), False)


def _plan(context: PlanContext) -> list[Unit[ScenarioRun]]:
    directory, explicit = scenarios_dir(context.options)
    if not directory.is_dir():
        return []
    budget = context.options.scaled(context.options.scenarios.timeout)
    shown_dir = str(directory) if explicit else None
    way = context.options.scenarios.reach
    loads = context.handshake.can("load") and way in (Way.AUTO, Way.LOAD)
    stored = EMPTY if loads else read_preambles(directory)  # an engine that loads never reads them: no slower
    return [
        Unit(SUITE, scenario.id, (PlannedCheck(scenario.id, scenario.title, scenario.rules, scenario.cards),),
             payload=ScenarioRun(scenario, budget, shown_dir, stored.reached.get(scenario.id), way),
             deadline=(budget * (2 if way is Way.BOTH else 1)) + GRACE + context.options.start_timeout,
             not_applicable=not_applicable_reason(scenario, context.handshake),
             unsupported=unsupported_reason(scenario, context.handshake, stored.reached.get(scenario.id),
                                            stored.unreached.get(scenario.id, ""), way),
             reproduce=reproduce_command(context.impl, scenario.id, shown_dir))
        for scenario in load_dir(directory).scenarios
    ]


def _run(unit: Unit[ScenarioRun], context: RunContext) -> list[CheckResult]:
    run = unit.payload
    return [run_scenario(context.eut, run.scenario, run.budget, run.shown_dir, run.preamble, run.way)]


SCENARIOS = SuiteSpec(SUITE, _plan, _run, "every scenario file: positions, scripted actions, expected outcomes")
