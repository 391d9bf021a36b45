"""The ``invariants`` suite of ``oracle check``: one small, seeded fuzzing run in both modes (invariants and
lock-step with the reference), a few seconds at most on a conforming engine, as one unit of work.

Options read from :class:`~oracle.suites.registry.CheckOptions`: ``seed``, ``players``, ``timeout``, and in ``extra``:

* ``fuzz_games`` (default 2): games per game mode the engine declares;
* ``fuzz_seconds`` (default 60): the time budget; checks cut short by it are ``incomplete``;
* ``fuzz_mode`` (``both``, ``invariants`` or ``lockstep``; default ``both``);
* ``save_failures`` (a directory): each shrunk failure is written there as a scenario file, under ``invariants/``.

``oracle fuzz`` runs the same unit with a configuration of its own (:func:`fuzz_unit`).
"""

from __future__ import annotations

from pathlib import Path

from oracle.core.results import CheckResult
from oracle.suites.registry import CheckOptions, PlanContext, PlannedCheck, RunContext, Unit, register
from vale_invariants.catalog import describe
from vale_invariants.fuzz import SUITE, FuzzConfig, result_ids, run_fuzz

DEFAULT_GAMES = 2
DEFAULT_SECONDS = 60.0
DEFAULT_SHRINK_SECONDS = 3.0
# Seconds the supervisor allows past the fuzz budget and the shrinking (engine start-up, saving scenarios).
GRACE = 60.0


def fuzz_config(options: CheckOptions) -> FuzzConfig:
    extra = options.extra
    save = extra.get("save_failures")
    return FuzzConfig(
        games=int(str(extra.get("fuzz_games", DEFAULT_GAMES))),
        seconds=float(str(extra.get("fuzz_seconds", DEFAULT_SECONDS))),
        seed=options.seed,
        players=options.players,
        mode=str(extra.get("fuzz_mode", "both")),
        shrink_seconds=float(str(extra.get("fuzz_shrink_seconds", DEFAULT_SHRINK_SECONDS))),
        timeout=options.timeout,
        start_timeout=options.start_timeout,
        save_failures=Path(str(save)) / "invariants" if save else None,
    )


def fuzz_unit(config: FuzzConfig, reproduce: str = "") -> Unit:
    """The unit of one fuzz run; its deadline follows the run's budget (none when it only counts games)."""
    checks = tuple(PlannedCheck(cid, describe(cid.partition("/")[2]).text, describe(cid.partition("/")[2]).rules)
                   for cid in result_ids(config))
    budget = config.seconds if config.seconds is not None else float("inf")
    return Unit(SUITE, "fuzz", checks, payload=config,
                deadline=budget + config.shrink_seconds * (config.max_failures + 1) + GRACE,
                silence=max(60.0, config.shrink_seconds + 30.0, 4 * config.timeout), reproduce=reproduce)


def _plan(context: PlanContext) -> list[Unit]:
    return [fuzz_unit(fuzz_config(context.options))]


def _run(unit: Unit, context: RunContext) -> list[CheckResult]:
    """Fuzzed games: every invariant after every step, and lock-step agreement with the reference."""
    config: FuzzConfig = unit.payload
    report = run_fuzz(context.eut.factory, context.eut.impl, config, progress=context.heartbeat)
    context.attachment = report
    return report.results()


register(SUITE, _plan, _run, "Hypothesis-driven play: invariants and lock-step comparison with the reference")
