"""Tests pinning the reference engine's typed notes and frame kinds: what stages leave on a frame survives a
snapshot exactly, and a bad ``private`` stack is refused with a one-line error."""

from __future__ import annotations

import random

import pytest

from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.engines.play import chance_action, new_setup
from oracle.reference import ReferenceEngine
from oracle.reference.notes import NOTES, PAID, TARGET
from oracle.reference.snapshot import SnapshotError
from oracle.reference.state import EffectKind, Frame, FrameKind


def _positions_with_notes(games: int) -> list[ReferenceEngine]:
    """Engines paused with a note on some frame of the stack, from seeded random expansion games."""
    found = []
    for seed in range(games):
        engine = ReferenceEngine()
        engine.new_game(new_setup(3, seed, expansion=True, artifacts=seed % 2 == 1))
        rng = random.Random(seed)
        while (pending := engine.decision()) is not None:
            if engine.table is not None and any(f.memo for f in engine.table.state.stack):
                found.append(engine)
                break
            legal = engine.legal_actions()
            engine.apply(chance_action(pending, rng) if pending["player"] is None else rng.choice(legal))
    return found


# ---------------------------------------------------------------- notes in snapshots


def test_a_position_in_the_middle_of_an_effect_round_trips_exactly() -> None:
    positions = _positions_with_notes(12)
    assert len(positions) >= 5
    for engine in positions:
        snapshot = engine.export()
        again = ReferenceEngine()
        again.load(snapshot)
        assert snapshot == again.export()
        assert engine.table is not None and again.table is not None
        assert [f.memo for f in engine.table.state.stack] == [f.memo for f in again.table.state.stack]


def test_notes_are_written_in_private_under_their_names_with_json_values() -> None:
    frame = Frame(FrameKind.SUMMON, 1, "base-fire-05", memo={PAID: Stones(red=2)})
    assert {"kind": "summon", "player": 1, "card": "base-fire-05", "source": "", "effect": "", "stage": 0,
            "memo": {"paid": {"red": 2, "blue": 0, "purple": 0}}} == frame.to_json()
    effect = Frame(FrameKind.EFFECT, 0, "base-water-11", effect=EffectKind.INSTANT, stage=2, memo={TARGET: 2})
    assert effect == Frame.from_json(effect.to_json())


def test_every_note_round_trips_its_empty_value() -> None:
    assert NOTES, "no note registered"
    for name, note in NOTES.items():
        assert name == note.name
        assert note.empty == note.from_json(note.to_json(note.empty))


# ---------------------------------------------------------------- a bad private stack


def _with_frame(frame: JSON) -> JSON:
    engine = ReferenceEngine()
    engine.new_game(new_setup(2, 1))
    snapshot = engine.export()
    snapshot["private"]["stack"] = [frame]
    return snapshot


@pytest.mark.parametrize("frame, message", [
    ({"kind": "summon", "player": 0, "memo": {"nonsense": 1}}, "private.stack[0]: unknown or missing 'nonsense'"),
    ({"kind": "dance", "player": 0}, "private.stack[0]: 'dance' is not a valid FrameKind"),
    ({"player": 0}, "private.stack[0]: unknown or missing 'kind'"),
])
def test_a_bad_frame_in_private_is_refused_naming_it(frame: JSON, message: str) -> None:
    with pytest.raises(SnapshotError) as caught:
        ReferenceEngine().load(_with_frame(frame))
    assert message == str(caught.value)
