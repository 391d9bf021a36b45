"""The ``invariants`` suite of ``oracle check``: one small, seeded fuzzing run in both modes (invariants and
lock-step with the reference), a few seconds at most on a conforming engine, as one unit of work.

Options read from :class:`~oracle.suites.registry.CheckOptions`: ``seed``, ``players``, ``timeout``,
``save_failures`` (each shrunk failure is written there as a scenario file, under ``invariants/``), and its
:class:`~oracle.suites.registry.FuzzOptions`:

* ``games`` (default 2): games per game mode the engine declares;
* ``seconds`` (default 60, times the run's budget scale): the time budget; checks cut short by it are
  ``incomplete``;
* ``mode`` (``both``, ``invariants`` or ``lockstep``; default ``both``);
* ``shrink_examples`` (default 50): the games shrinking each failure may replay;
* ``causes`` (``--max-causes``, default 20): the failures the run looks for, each of another cause (the ones
  found are set aside, and the games go on past them).

and ``set_aside`` (``--set-aside``): rules of known causes, set aside from the start.

``oracle fuzz`` runs the same unit with a configuration of its own (:func:`fuzz_unit`).
"""

from __future__ import annotations

from oracle.core.results import CheckResult
from oracle.suites.registry import CheckOptions, FuzzOptions, PlanContext, PlannedCheck, RunContext, SuiteSpec, Unit
from vale_invariants.catalog import describe
from vale_invariants.fuzz import SUITE, FuzzConfig, result_ids, run_fuzz

DEFAULT_GAMES = FuzzOptions.games
DEFAULT_SECONDS = FuzzOptions.seconds
DEFAULT_SHRINK_EXAMPLES = FuzzOptions.shrink_examples
# Seconds the supervisor allows past the fuzz budget and the shrinking (engine start-up, saving scenarios).
GRACE = 60.0
SHRINK_GAME_SECONDS = 0.1
"""Seconds the supervisor allows for each game shrinking replays (the reference replays about 16 a second), times
the run's budget scale."""


def fuzz_config(options: CheckOptions) -> FuzzConfig:
    """The fuzz run the options ask for."""
    fuzz = options.fuzz
    return FuzzConfig(
        games=fuzz.games,
        seconds=options.scaled(fuzz.seconds),
        seed=options.seed,
        players=options.players,
        mode=fuzz.mode,
        shrink_examples=fuzz.shrink_examples,
        max_failures=fuzz.causes,
        set_aside=options.set_aside,
        timeout=options.timeout,
        start_timeout=options.start_timeout,
        save_failures=options.save_failures / "invariants" if options.save_failures is not None else None,
        legal_share=options.legal_share,
    )


def fuzz_unit(config: FuzzConfig, reproduce: str = "", scale: float = 1.0) -> Unit[FuzzConfig]:
    """The unit of one fuzz run; its deadline follows the run's budget (none when it only counts games) and the
    games its shrinking may replay, at ``scale`` times the reference's pace."""
    checks = tuple(PlannedCheck(cid, describe(cid.partition("/")[2]).text, describe(cid.partition("/")[2]).rules)
                   for cid in result_ids(config))
    budget = config.seconds if config.seconds is not None else float("inf")
    shrinking = config.shrink_examples * (config.max_failures + 1) * SHRINK_GAME_SECONDS * scale
    return Unit(SUITE, "fuzz", checks, payload=config, deadline=budget + shrinking + GRACE,
                silence=max(60.0, 4 * config.timeout), reproduce=reproduce)


def _plan(context: PlanContext) -> list[Unit[FuzzConfig]]:
    return [fuzz_unit(fuzz_config(context.options), scale=context.options.budget_scale)]


def _run(unit: Unit[FuzzConfig], context: RunContext) -> list[CheckResult]:
    """Fuzzed games: every invariant after every step, and lock-step agreement with the reference."""
    report = run_fuzz(context.eut.factory, context.eut.impl, unit.payload, progress=context.heartbeat)
    context.attachment = report
    return report.results()


INVARIANTS = SuiteSpec(SUITE, _plan, _run,
                       "Hypothesis-driven play: invariants and lock-step comparison with the reference")
