"""Small helpers for tests that drive the reference engine from a given position."""

from __future__ import annotations

from typing import Any

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.reference import ReferenceEngine
from oracle.scenarios.given import complete_snapshot


def cid(name: str) -> str:
    """The card id of a card name ("Ember" -> "base-dragon-03")."""
    card = catalogue().by_name(name)
    assert card is not None, f"no card named {name!r}"
    return card.id


def engine_at(**partial: Any) -> ReferenceEngine:
    """A reference engine loaded at a partial snapshot completed with the documented defaults."""
    engine = ReferenceEngine()
    engine.load(complete_snapshot(partial))
    return engine


def act(engine: ReferenceEngine, action: JSON) -> list[JSON]:
    """Apply an action that must be accepted; returns its events."""
    result = engine.apply(action)
    assert result["accepted"], f"rejected: {result.get('rejection')} for {action}"
    events: list[JSON] = result["events"]
    return events


def reject(engine: ReferenceEngine, action: JSON) -> JSON:
    """Apply an action that must be rejected with the state unchanged; returns the rejection."""
    before = engine.export()
    result = engine.apply(action)
    assert not result["accepted"], f"accepted: {action}"
    assert before == engine.export(), "a rejected action changed the state"
    rejection: JSON = result["rejection"]
    return rejection


def summon(engine: ReferenceEngine, player: int, name: str, red: int = 0, blue: int = 0, purple: int = 0) -> list[JSON]:
    return act(engine, {"type": "summon", "player": player, "card": cid(name),
                        "payment": {"red": red, "blue": blue, "purple": purple}})


def score(engine: ReferenceEngine, player: int) -> int:
    value: int = engine.export()["players"][player]["score"]
    return value


def stones(engine: ReferenceEngine, player: int) -> JSON:
    value: JSON = engine.export()["players"][player]["stones"]
    return value


def decision(engine: ReferenceEngine) -> JSON:
    pending = engine.decision()
    assert pending is not None, "the game is over"
    return pending

CALL_SECONDS = 60.0
"""The per-call deadline of tests that are not about time: far above any call on a loaded machine, so a busy
CI runner cannot fail them (a test about a deadline sets its own)."""
