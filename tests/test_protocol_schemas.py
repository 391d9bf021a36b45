"""The protocol: the reference engine's snapshots, decisions, actions and results fit the shipped schemas."""

from __future__ import annotations

import random

from oracle.play import new_setup
from oracle.reference import ReferenceEngine
from oracle.validation import validation_errors


def test_reference_output_fits_the_protocol_schemas_through_a_whole_game() -> None:
    engine = ReferenceEngine()
    assert [] == validation_errors("handshake", engine.handshake())
    engine.new_game(new_setup(3, seed=7))
    rng = random.Random(7)
    steps = 0
    while (pending := engine.decision()) is not None:
        if steps % 10 == 0:
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
        result = engine.apply(action)
        assert [] == validation_errors("apply-result", result)
        steps += 1
    assert [] == validation_errors("snapshot", engine.export())


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
