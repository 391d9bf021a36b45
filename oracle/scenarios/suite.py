"""The ``scenarios`` suite: every scenario file under ``scenarios/`` (or ``--scenarios DIR``), run by
:mod:`oracle.scenarios.runner`.

Options read from :class:`~oracle.check.CheckOptions`: ``select`` (id globs), ``rules`` (rule ids the
scenario pins), ``cards`` (card names or ids the scenario pins), and in ``extra``: ``scenarios_dir``
(a directory; default :func:`~oracle.scenarios.loader.default_dir`) and ``scenario_timeout`` (seconds
of wall clock per scenario, default 10).
"""

from __future__ import annotations

from pathlib import Path

from oracle.check import CheckOptions, EngineUnderTest, suite
from oracle.results import CheckResult, Outcome
from oracle.scenarios.loader import default_dir, load_dir, select
from oracle.scenarios.runner import DEFAULT_SCENARIO_TIMEOUT, SUITE, run_scenario


def scenarios_dir(options: CheckOptions) -> tuple[Path, bool]:
    """The directory to run, and whether it was asked for explicitly."""
    given = options.extra.get("scenarios_dir")
    return (Path(given), True) if given else (default_dir(), False)


@suite(SUITE)
def scenarios_suite(eut: EngineUnderTest, options: CheckOptions) -> list[CheckResult]:
    """Run the selected scenarios; an invalid scenario file is an error result naming its file and line."""
    directory, explicit = scenarios_dir(options)
    if not directory.is_dir() and not explicit:
        return []
    loaded = load_dir(directory)
    results = [
        CheckResult(SUITE, f"scenario-file:{err.file}", "a scenario file is invalid", Outcome.ERROR,
                    message=str(err), details={"file": err.file, "line": err.line})
        for err in loaded.errors
    ]
    budget = float(options.extra.get("scenario_timeout", DEFAULT_SCENARIO_TIMEOUT))
    shown_dir = str(directory) if explicit else None
    for scenario in select(loaded.scenarios, options.select, options.rules, options.cards):
        results.append(run_scenario(eut, scenario, budget, shown_dir))
    return results
