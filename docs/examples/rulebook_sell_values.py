"""The reference engine with another reading of SELL-1: the base rulebook transcription's sale values.

The sources disagree on what selling a Water or a Wind card gives (``oracle rules``, SELL-1): the project reads
Water 1 blue and Wind 1 red and 1 blue; the base rulebook transcription swaps them. This engine is the reference
with the transcription's values, to see what that reading changes. From this folder::

    oracle check --impl rulebook_sell_values --suite scenarios --select 'SELL-*'

``docs/protocol.md`` ("Trying another reading of a rule") walks through it; ``tests/test_protocol_example.py`` runs it.
"""

from __future__ import annotations

import dataclasses

from oracle.core.json_types import JSON
from oracle.core.model import Family
from oracle.reference import ReferenceEngine


class RulebookSellValues(ReferenceEngine):
    """The reference, except that a Water card sells for a red and a blue stone and a Wind card for a blue one."""

    def handshake(self) -> JSON:
        shake = super().handshake()
        shake["engine"] = "reference with the rulebook transcription's sale values"
        return shake

    def new_game(self, setup: JSON) -> list[JSON]:
        events = super().new_game(setup)
        self._swap_water_and_wind()
        return events

    def load(self, snapshot: JSON) -> None:
        super().load(snapshot)
        self._swap_water_and_wind()

    def _swap_water_and_wind(self) -> None:
        """Every game starts with ``new_game`` or ``load``: the table they build reads its sale values from here."""
        table = self.table
        assert table is not None
        values = dict(table.cards.sell_values)
        values[Family.WATER], values[Family.WIND] = values[Family.WIND], values[Family.WATER]
        table.cards = dataclasses.replace(table.cards, sell_values=values)


def create() -> RulebookSellValues:
    return RulebookSellValues()
