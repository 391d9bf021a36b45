"""The protocol: the reference engine's snapshots, decisions, actions and results fit the shipped schemas."""

from __future__ import annotations

import random
from typing import Any

from oracle.core.validation import validation_errors
from oracle.engines.play import new_setup
from oracle.reference import ReferenceEngine


def _play_checking_schemas(setup: dict[str, Any], seed: int) -> set[str]:
    """Play a random game, checking every snapshot (every 10 steps), legal action and result; returns the
    decision kinds and action types seen."""
    engine = ReferenceEngine()
    assert [] == validation_errors("handshake", engine.handshake())
    engine.new_game(setup)
    rng = random.Random(seed)
    steps = 0
    seen: set[str] = set()
    while (pending := engine.decision()) is not None:
        seen.add(pending["kind"])
        if steps % 10 == 0 or pending["kind"] in ("artifact_pick", "pay", "upgrade_stones"):
            assert [] == validation_errors("snapshot", engine.export())
        if pending["kind"] == "shuffle":
            order = sorted(pending["cards"])
            rng.shuffle(order)
            action = {"type": "shuffle", "player": None, "order": order}
        else:
            legal = engine.legal_actions()
            for candidate in legal:
                assert [] == validation_errors("action", candidate)
            action = rng.choice(legal)
        seen.add(str(action["type"]))
        result = engine.apply(action)
        assert [] == validation_errors("apply-result", result)
        steps += 1
    assert [] == validation_errors("snapshot", engine.export())
    return seen


def test_reference_output_fits_the_protocol_schemas_through_a_whole_game() -> None:
    _play_checking_schemas(new_setup(3, seed=7), seed=7)


def test_an_artifacts_game_fits_the_protocol_schemas() -> None:
    seen: set[str] = set()
    for seed in (3, 11):
        seen |= _play_checking_schemas(new_setup(4, seed=seed, artifacts=True), seed=seed)
    assert {"artifact_pick", "take_artifact", "use_artifact", "pay", "upgrade_stones"} <= seen


def test_artifact_rejections_fit_the_schema() -> None:
    engine = ReferenceEngine()
    engine.new_game(new_setup(2, seed=1, artifacts=True))
    pending = engine.decision()
    assert pending is not None and "artifact_pick" == pending["kind"]
    result = engine.apply({"type": "take_artifact", "player": pending["player"], "tile": "tile-golden-fleece"})
    assert [] == validation_errors("apply-result", result)
    assert ("ARTIFACT_NOT_AVAILABLE", "ART-3") == (result["rejection"]["code"], result["rejection"]["rule"])


def test_artifact_fields_only_with_the_tiles() -> None:
    engine = ReferenceEngine()
    engine.new_game(new_setup(2, seed=1))
    snapshot = engine.export()
    snapshot["players"][0]["shelter"] = []
    snapshot["artifacts"] = {"display": [], "square_markers": {}}
    assert validation_errors("snapshot", snapshot)
    engine.new_game(new_setup(2, seed=1, artifacts=True))
    snapshot = engine.export()
    assert [] == validation_errors("snapshot", snapshot)
    del snapshot["players"][1]["artifact"]
    assert validation_errors("snapshot", snapshot)


def test_rejections_fit_the_schema() -> None:
    engine = ReferenceEngine()
    engine.new_game(new_setup(2, seed=1))
    result = engine.apply({"type": "end_turn", "player": 1})
    assert [] == validation_errors("apply-result", result)
    assert ("NOT_YOUR_DECISION", "DEC-1") == (result["rejection"]["code"], result["rejection"]["rule"])


def test_schema_catches_a_bad_snapshot() -> None:
    engine = ReferenceEngine()
    engine.new_game(new_setup(2, seed=1))
    snapshot = engine.export()
    snapshot["players"][0]["score"] = -1
    assert ["players[0].score: -1 is less than the minimum of 0"] == validation_errors("snapshot", snapshot)
