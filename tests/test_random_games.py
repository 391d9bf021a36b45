"""Random legal play: hundreds of seeded games end cleanly, and snapshots round-trip at every step.

The default budget (200 games per player count, about 6 s of CPU in all) is for the test run; set
VALE_RANDOM_GAMES for a longer one (for instance 5000 before a release).
"""

from __future__ import annotations

import os
import random

import pytest

from oracle.engines.play import chance_action, new_setup, play_random_game
from oracle.reference import ReferenceEngine

GAMES_PER_PLAYER_COUNT = int(os.environ.get("VALE_RANDOM_GAMES", "200"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_cleanly(players: int) -> None:
    rounds_seen = set()
    for seed in range(GAMES_PER_PLAYER_COUNT):
        engine = ReferenceEngine()
        play_random_game(engine, players, seed=seed * 7919 + players, keep_log=False)
        final = engine.export()
        assert "game_over" == final["phase"]
        assert final["winners"], f"seed {seed}: no winner"
        assert all(p["score"] >= 0 for p in final["players"])
        assert 60 <= max(p["score"] for p in final["players"]) or 10 == final["round"]
        rounds_seen.add(final["round"])
    assert 10 in rounds_seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_snapshot_round_trips_at_every_step(players: int) -> None:
    for seed in range(4):
        engine = ReferenceEngine()
        engine.new_game(new_setup(players, seed))
        rng = random.Random(seed)
        while True:
            snapshot = engine.export()
            twin = ReferenceEngine()
            twin.load(snapshot)
            assert snapshot == twin.export()
            assert engine.legal_actions() == twin.legal_actions()
            pending = engine.decision()
            if pending is None:
                break
            action = chance_action(pending, rng) if pending["kind"] == "shuffle" else rng.choice(engine.legal_actions())
            assert engine.apply(action)["accepted"]


def test_same_inputs_give_the_same_game() -> None:
    first = play_random_game(ReferenceEngine(), 4, seed=11)
    second = play_random_game(ReferenceEngine(), 4, seed=11)
    assert [s.action for s in first.steps] == [s.action for s in second.steps]
    assert [s.events for s in first.steps] == [s.events for s in second.steps]
