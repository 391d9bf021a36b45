"""Notes: the typed results an effect's stages leave on their frame for the stages after them.

A :class:`Note` names one result and fixes its type (a card choice, a chosen player, a flag, stones...) and how
it is written in the ``private`` part of a snapshot. Stages are given the note to fill or read, so no stage
names another by a string.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from oracle.core.model import Family, Stones

T = TypeVar("T")


@dataclass(frozen=True, eq=False)
class Note(Generic[T]):
    """One named result of a stage; ``empty`` is its value before the stage has run (or when it chose nothing)."""

    name: str
    empty: T
    to_json: Callable[[T], object]
    from_json: Callable[[Any], T]


NOTES: dict[str, Note[Any]] = {}


def _note(name: str, empty: T, to_json: Callable[[T], object], from_json: Callable[[Any], T]) -> Note[T]:
    if name in NOTES:  # pragma: no cover - a note declared twice is a bug of this module, caught on import
        raise ValueError(f"note {name!r} declared twice")
    note = Note(name, empty, to_json, from_json)
    NOTES[name] = note
    return note


def _cards(name: str) -> Note[tuple[str, ...]]:
    """A choice of cards (or of options), in the order the answer gave them."""
    return _note(name, (), list, lambda data: tuple(str(c) for c in data))


def _card(name: str) -> Note[str | None]:
    return _note(name, None, lambda value: value, lambda data: None if data is None else str(data))


def _player(name: str) -> Note[int | None]:
    return _note(name, None, lambda value: value, lambda data: None if data is None else int(data))


def _count(name: str) -> Note[int]:
    return _note(name, 0, lambda value: value, int)


def _family(name: str) -> Note[Family | None]:
    return _note(name, None, lambda value: None if value is None else value.value,
                 lambda data: None if data is None else Family(data))


def _stones(name: str) -> Note[Stones]:
    return _note(name, Stones(), Stones.to_json, Stones.from_json)


PAID = _stones("paid")
"""A summon frame: what the summon paid (summon triggers read it, RUL-1)."""
RECEIVED = _stones("received")
"""What a sale gave (Duduri King upgrades one of them)."""
SOLD = _card("sold")
"""The card a sale discarded (the Gem of Kukulkan may take it back)."""

TARGET = _player("target")
"""The player chosen to act on ('choose a player', yourself allowed)."""
VICTIM = _player("victim")
"""The opponent chosen to lose points (Goblin)."""

OPTIONS = _cards("choice")
"""The options chosen at the effect's option stage."""
DISCARD = _cards("discard")
RECOVER = _cards("recover")
COPY = _cards("copy")
TAKE = _cards("take")
SWAP = _cards("swap")
TO_DRAW_PILE = _cards("top")
SUMMON = _cards("summon")
"""Cards chosen to be summoned for free (from the hand or the discard pile)."""
ACTIVATE = _cards("activate")
"""A card whose Active effect is chosen to resolve now."""
ACTIVATED = _cards("activated")
"""Every card whose Active effect this effect has resolved so far (Genie)."""
SHELTER = _cards("shelter")
RETRIEVE = _cards("retrieve")

DRAWN = _card("drawn")
"""The card the draw stage drew (None: the draw pile and the discard pile were empty)."""
SUMMONED = _card("summoned")
"""The card the free-summon stage summoned."""
SHELTERED = _count("sheltered")
"""How many cards the stage has sheltered from the draw pile so far."""
LOOK_FAMILY = _family("look_family")
"""ART-11: the family Loki's owner chose for Loki in this effect's look at the families of their area."""
