"""``oracle fuzz --corpus DIR``: the corpus's saved scenarios replayed before any new game, and the causes they show
set aside so the new games look for other ones (:mod:`oracle.scenarios.corpus`).

Each scenario of the corpus runs as a check of the ``scenarios`` suite in the fuzz run's report (its id, its
outcome, its cause); a failing one's blamed rule is added to ``--set-aside`` for the games that follow, and the new
counterexamples are saved into the corpus, which keeps one per cause. Raw traces (``*.trace.json``, the failures no
scenario could show) are kept and joined with the rest but not replayed.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import typer

from oracle.core.exits import bad_input
from oracle.core.results import CheckResult
from oracle.engines.harness import Handshake
from oracle.reports.causes import blame_of
from oracle.reports.common import failed_results
from oracle.reports.sanitize import clean_result
from oracle.run.supervisor import Supervisor
from oracle.suites.registry import CheckOptions, PlanContext, ScenarioOptions
from vale_invariants.fuzz import FuzzConfig


def refuse_invalid_corpus(corpus: Path) -> None:
    """Bad input (each problem printed, file and line) when a scenario of the corpus is invalid."""
    from oracle.scenarios.loader import load_dir

    if not corpus.is_dir():
        return
    loaded = load_dir(corpus)
    for error in loaded.errors:
        typer.echo(f"error: {error}", err=True)
    if loaded.errors:
        raise bad_input(f"--corpus {corpus}: {len(loaded.errors)} invalid scenario file(s); see `oracle scenarios "
                        "lint`")


def replay_corpus(supervisor: Supervisor, impl: str, handshake: Handshake, config: FuzzConfig,
                  options: CheckOptions) -> tuple[list[CheckResult], FuzzConfig]:
    """Run every scenario of the corpus (``config.save_failures``) under the supervisor; their results, and the
    fuzz run with the rules they are blamed on set aside."""
    from oracle.suites.scenarios import SCENARIOS

    corpus = config.save_failures
    if corpus is None or not corpus.is_dir():
        return [], config
    replayed = dataclasses.replace(options, scenarios=ScenarioOptions(corpus))
    units = SCENARIOS.plan(PlanContext(impl, handshake, replayed))
    results: list[CheckResult] = []

    def collect(index: int, found: list[CheckResult]) -> bool:
        results.extend(clean_result(r) for r in found)
        return True

    supervisor.run(list(units), collect)
    blamed = tuple(dict.fromkeys(rule for rule in map(blame_of, failed_results(results)) if rule))
    typer.echo(f"corpus {corpus}: {len(units)} saved scenario(s) replayed first, {len(failed_results(results))} "
               f"failing" + (f"; their rules set aside for the new games: {', '.join(blamed)}" if blamed else ""))
    return results, dataclasses.replace(config, set_aside=tuple(dict.fromkeys((*config.set_aside, *blamed))))


def compact_corpus(config: FuzzConfig) -> None:
    """Keep one counterexample per cause in the corpus, and say how many were dropped."""
    from oracle.scenarios.corpus import compact

    if config.save_failures is None:
        return
    removed = compact(config.save_failures)
    if removed:
        typer.echo(f"corpus {config.save_failures}: {len(removed)} counterexample(s) of a cause already saved "
                   "removed (one per cause is kept)")
