"""What an effect stage sees: the table, the frame it belongs to, its notes, and a few named helpers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from oracle.core.cards import Card
from oracle.core.model import Family
from oracle.reference.effects import loki
from oracle.reference.notes import LOOK_FAMILY, Note
from oracle.reference.state import Frame
from oracle.reference.table import Table

T = TypeVar("T")


@dataclass
class EffectContext:
    table: Table
    frame: Frame

    @property
    def owner(self) -> int:
        return self.frame.player

    @property
    def card_id(self) -> str:
        """The card acting as 'this card' (the copier, for copied effects: RUL-12)."""
        return self.frame.card

    @property
    def source_id(self) -> str:
        """The card whose printed effect is resolving."""
        return self.frame.source or self.frame.card

    def note(self, note: Note[T]) -> T:
        """What an earlier stage left under ``note`` (its empty value if it left nothing)."""
        value: T = self.frame.memo.get(note, note.empty)
        return value

    def chosen(self, note: Note[tuple[str, ...]]) -> str | None:
        """The one card (or option) chosen under ``note``, if one was."""
        chosen = self.note(note)
        return chosen[0] if chosen else None

    def the_chosen(self, note: Note[tuple[str, ...]]) -> str:
        """The one card chosen under ``note`` by a choice that must have been asked: the effect's SUM-4 test or the
        tile's use requires a card to choose (EFF-2 never skips it then)."""
        (card_id,) = self.note(note) or ()
        return card_id

    def remember(self, note: Note[T], value: T) -> None:
        self.table.note(self.frame, note, value)

    def card(self, card_id: str) -> Card:
        return self.table.card(card_id)

    def area(self, player: int | None = None) -> list[Card]:
        return self.table.summoned(self.owner if player is None else player)

    def count_in_area(self, family: Family | None = None) -> int:
        """The owner's summoned cards (of ``family``, Loki taken as the family chosen for this look: ART-11)."""
        if family is None:
            return len(self.table.summoned(self.owner))
        return loki.count_family(self.table, self.owner, family, self.note(LOOK_FAMILY))

    def families_in_area(self) -> int:
        """How many different families the owner's area has (Loki taken as the family chosen for this look)."""
        return len(loki.families_in_area(self.table, self.owner, self.note(LOOK_FAMILY)))

    def hand(self) -> list[str]:
        return list(self.table.hand(self.owner))

    def opponents(self) -> list[int]:
        return [p for p in range(self.table.state.n) if p != self.owner]


def area_as_if_summoned(table: Table, owner: int, acting: str) -> list[Card]:
    """SUM-5: the owner's area with ``acting`` counted in it (for can-resolve tests made before placing)."""
    placed = list(table.state.players[owner].area)
    if acting not in placed:
        placed.append(acting)
    return [table.card(c) for c in placed]


def hand_as_if_summoned(table: Table, owner: int, acting: str) -> list[str]:
    """SUM-5: the owner's hand without ``acting``."""
    return [c for c in table.state.players[owner].hand if c != acting]
