"""The ``invariants`` suite of ``oracle check``: a small, seeded fuzzing run in both modes (invariants and
lock-step with the reference), a few seconds at most on a conforming engine.

Options read from :class:`~oracle.check.CheckOptions`: ``seed``, ``players``, ``timeout``, and in ``extra``:

* ``fuzz_games`` (default 4): games to play;
* ``fuzz_seconds`` (default none): a time budget instead of (or besides) the games;
* ``fuzz_mode`` (``both``, ``invariants`` or ``lockstep``; default ``both``);
* ``save_failures`` (a directory): each shrunk failure is written there as a scenario file, under ``invariants/``.
"""

from __future__ import annotations

from pathlib import Path

from oracle.check import CheckOptions, EngineUnderTest, suite
from oracle.results import CheckResult
from vale_invariants.fuzz import SUITE, FuzzConfig, run_fuzz

DEFAULT_GAMES = 4
DEFAULT_SHRINK_SECONDS = 3.0


def fuzz_config(options: CheckOptions) -> FuzzConfig:
    extra = options.extra
    save = extra.get("save_failures")
    seconds = extra.get("fuzz_seconds")
    games = extra.get("fuzz_games", None if seconds is not None else DEFAULT_GAMES)
    return FuzzConfig(
        games=int(str(games)) if games is not None else None,
        seconds=float(str(seconds)) if seconds is not None else None,
        seed=options.seed,
        players=options.players,
        mode=str(extra.get("fuzz_mode", "both")),
        shrink_seconds=float(str(extra.get("fuzz_shrink_seconds", DEFAULT_SHRINK_SECONDS))),
        timeout=options.timeout,
        save_failures=Path(str(save)) / "invariants" if save else None,
    )


@suite(SUITE)
def invariants_suite(eut: EngineUnderTest, options: CheckOptions) -> list[CheckResult]:
    """Fuzzed games: every invariant after every step, and lock-step agreement with the reference."""
    return run_fuzz(eut.factory, eut.impl, fuzz_config(options)).results()
