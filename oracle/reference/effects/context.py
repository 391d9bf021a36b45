"""What an effect stage sees: the table, the frame it belongs to, and a few named helpers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oracle.cards import Card
from oracle.model import Family
from oracle.reference.state import Frame
from oracle.reference.table import Table


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

    @property
    def memo(self) -> dict[str, Any]:
        return self.frame.memo

    def card(self, card_id: str) -> Card:
        return self.table.card(card_id)

    def area(self, player: int | None = None) -> list[Card]:
        return self.table.summoned(self.owner if player is None else player)

    def count_in_area(self, family: Family | None = None) -> int:
        return len(self.table.summoned(self.owner, family))

    def hand(self) -> list[str]:
        return self.table.hand(self.owner)

    def opponents(self) -> list[int]:
        return [p for p in range(self.table.state.n) if p != self.owner]


def area_as_if_summoned(table: Table, owner: int, acting: str) -> list[Card]:
    """SUM-5: the owner's area with ``acting`` counted in it (for can-resolve tests made before placing)."""
    area = list(table.state.players[owner].area)
    if acting not in area:
        area.append(acting)
    return [table.card(c) for c in area]


def hand_as_if_summoned(table: Table, owner: int, acting: str) -> list[str]:
    """SUM-5: the owner's hand without ``acting``."""
    return [c for c in table.state.players[owner].hand if c != acting]
