"""Lock-step throughput: decisions per second with the engine under test and the reference fed the same
inputs, in-process (the engine under test is the reference itself, so nothing diverges).

A decision here is one step of the game: both engines list their legal actions, the sets are compared,
both apply the chosen action, and their canonical snapshots and pending decisions are compared; with
probes (the default of lock-step mode) some steps also try one illegal action on both. Times are CPU
seconds of this process (``time.process_time``), so a busy machine does not lower the figure much.

Run as a script for the figures::

    python ci/bench_lockstep.py            # a table of decisions/s

or as a benchmark (collected only when asked for, the default addopts disable benchmarks)::

    python -m pytest ci/bench_lockstep.py --benchmark-enable
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from oracle.engines.play import play_random_game
from oracle.reference import ReferenceEngine, create
from vale_invariants.catalog import ALL_NAMES
from vale_invariants.game import GameRunner, GameSettings, RandomChooser, Stats

GAMES = 20
TARGET = 5000.0


def _lockstep(games: int = GAMES, probes: bool = True, seed: int = 0) -> Stats:
    import vale_invariants.game as game

    settings = GameSettings(create, "oracle.reference", (2, 3, 4), frozenset({"LOCKSTEP"}), lockstep=True)
    stats = Stats()
    original = game._probe_category
    if not probes:
        game._probe_category = lambda slot: 0
    try:
        for index in range(games):
            GameRunner(settings, RandomChooser(f"bench-{seed}-{index}"), stats).play()
    finally:
        game._probe_category = original
    return stats


def _both(games: int = GAMES, seed: int = 0) -> Stats:
    settings = GameSettings(create, "oracle.reference", (2, 3, 4), frozenset({*ALL_NAMES, "LOCKSTEP"}) -
                            {"INV-SNAPSHOT-STABLE"}, lockstep=True, positions=True)
    stats = Stats()
    for index in range(games):
        GameRunner(settings, RandomChooser(f"bench-{seed}-{index}"), stats).play()
    return stats


def _reference_alone(games: int = GAMES) -> Stats:
    stats = Stats()
    for index in range(games):
        stats.decisions += len(play_random_game(ReferenceEngine(), 2 + index % 3, index, keep_log=True).steps)
    return stats


def _hypothesis(mode: str, games: int = GAMES) -> Stats:
    from vale_invariants.fuzz import FuzzConfig, run_fuzz

    invariants = tuple(n for n in ALL_NAMES if n != "INV-SNAPSHOT-STABLE")
    report = run_fuzz(create, "oracle.reference", FuzzConfig(games=games, seed=0, mode=mode, invariants=invariants,
                                                              shrink_examples=0))
    return report.stats


def rate(run: Callable[[], Stats], repeats: int = 3) -> float:
    """The best of ``repeats`` runs, in decisions per CPU second."""
    best = 0.0
    for _ in range(repeats):
        started = time.process_time()
        stats = run()
        best = max(best, stats.decisions / max(time.process_time() - started, 1e-9))
    return best


def test_lockstep_throughput(benchmark: Any) -> None:
    stats: Stats = benchmark.pedantic(_lockstep, kwargs={"games": 5}, rounds=3, iterations=1)
    assert stats.decisions > 0
    benchmark.extra_info["decisions"] = stats.decisions


def main() -> int:
    rows = [
        ("reference alone (legal_actions + apply)", lambda: _reference_alone()),
        ("lock-step, with illegal probes (the mode as shipped)", lambda: _lockstep(probes=True)),
        ("lock-step, without probes", lambda: _lockstep(probes=False)),
        ("both modes (every invariant + lock-step)", lambda: _both()),
        ("lock-step under Hypothesis (oracle fuzz --mode lockstep)", lambda: _hypothesis("lockstep")),
        ("both modes under Hypothesis (oracle fuzz)", lambda: _hypothesis("both")),
    ]
    width = max(len(label) for label, _ in rows)
    for label, run in rows:
        print(f"{label:<{width}}  {rate(run):>7.0f} decisions/s (CPU)", flush=True)
    print(f"target for lock-step: {TARGET:.0f} decisions/s on one core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
