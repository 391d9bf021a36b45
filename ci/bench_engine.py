"""Benchmarks of the reference engine (pytest-benchmark; not part of the default test run).

Run: python3 -m pytest ci/bench_engine.py --benchmark-enable --benchmark-only
Target: a random 4-player game in 5 ms median on one core (the project's goal since issue 11; issue 2 asked 10 ms).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from oracle.engines.play import play_random_game
from oracle.reference import ReferenceEngine

_seeds = itertools.count(1)


@pytest.mark.parametrize("players", [2, 4])
def test_random_full_game(benchmark: Any, players: int) -> None:
    def one_game() -> None:
        play_random_game(ReferenceEngine(), players, next(_seeds), keep_log=False)

    benchmark.pedantic(one_game, rounds=60, iterations=1, warmup_rounds=3)


def test_legal_action_listing(benchmark: Any) -> None:
    """Listing the legal actions at every Action-phase decision of one 4-player game."""
    engine = ReferenceEngine()
    log = play_random_game(engine, 4, seed=3)
    positions = []
    replay = ReferenceEngine()
    replay.new_game(log.setup)
    for step in log.steps:
        if step.decision["kind"] == "action":
            positions.append(replay.export())
        replay.apply(step.action)
    engines = []
    for snapshot in positions:
        loaded = ReferenceEngine()
        loaded.load(snapshot)
        engines.append(loaded)

    def list_all() -> int:
        return sum(len(e.legal_actions()) for e in engines)

    total = benchmark(list_all)
    benchmark.extra_info["positions"] = len(engines)
    benchmark.extra_info["actions_listed"] = total
