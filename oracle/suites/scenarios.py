"""The ``scenarios`` suite: every scenario file under the bundled suite (or ``--scenarios DIR``), one unit each,
run by :mod:`oracle.scenarios.runner`.

Options read from :class:`~oracle.suites.registry.CheckOptions` ``extra``: ``scenarios_dir`` (a directory; default
:func:`~oracle.scenarios.loader.default_dir`) and ``scenario_timeout`` (seconds of wall clock per scenario,
default 10). Invalid files are refused before the run (``oracle check`` exits 2 naming file and line).
"""

from __future__ import annotations

from pathlib import Path

from oracle.core.results import CheckResult
from oracle.scenarios.loader import default_dir, load_dir
from oracle.scenarios.runner import (
    DEFAULT_SCENARIO_TIMEOUT,
    SUITE,
    not_applicable_reason,
    reproduce_command,
    run_scenario,
    unsupported_reason,
)
from oracle.suites.registry import CheckOptions, PlanContext, PlannedCheck, RunContext, Unit, register

# Seconds the supervisor allows a scenario past its own budget (engine start-up, the result's trip back).
GRACE = 10.0


def scenarios_dir(options: CheckOptions) -> tuple[Path, bool]:
    """The directory to run, and whether it was asked for explicitly."""
    given = options.extra.get("scenarios_dir")
    return (Path(given), True) if given else (default_dir(), False)


def _plan(context: PlanContext) -> list[Unit]:
    directory, explicit = scenarios_dir(context.options)
    if not directory.is_dir():
        return []
    budget = float(context.options.extra.get("scenario_timeout", DEFAULT_SCENARIO_TIMEOUT))
    shown_dir = str(directory) if explicit else None
    return [
        Unit(SUITE, scenario.id, (PlannedCheck(scenario.id, scenario.title, scenario.rules, scenario.cards),),
             payload=(scenario, budget, shown_dir), deadline=budget + GRACE + context.options.start_timeout,
             not_applicable=not_applicable_reason(scenario, context.handshake),
             unsupported=unsupported_reason(scenario, context.handshake),
             reproduce=reproduce_command(context.impl, scenario.id, shown_dir))
        for scenario in load_dir(directory).scenarios
    ]


def _run(unit: Unit, context: RunContext) -> list[CheckResult]:
    scenario, budget, shown_dir = unit.payload
    return [run_scenario(context.eut, scenario, budget, shown_dir)]


register(SUITE, _plan, _run, "every scenario file: positions, scripted actions, expected outcomes")
