"""The reference engine with a misreading of LIMIT-1 (Hestia): each Hestia raises the holding limit by 1, not 2.

The holding limit is computed by a method of the reference's table, not stored in its data, so the reading is a
subclass of :class:`~oracle.reference.table.Table` that overrides that one method, and an engine whose
``table_class`` is it. From this folder::

    oracle check --impl hestia_limit_five --suite scenarios --rule LIMIT-1

``docs/protocol.md`` ("Trying another reading of a rule") walks through it; ``tests/test_protocol_example.py`` runs it.
"""

from __future__ import annotations

from oracle.reference import ReferenceEngine
from oracle.reference.table import BASE_HOLDING_LIMIT, Table


class HestiaRaisesByOne(Table):
    """LIMIT-1 misread: 4 stones, and 1 more for each card in force that raises the limit."""

    def holding_limit(self, player: int) -> int:
        return BASE_HOLDING_LIMIT + sum(1 for _, effect in self.in_force(player) if effect.limit_bonus)


class HestiaLimitFive(ReferenceEngine):
    table_class = HestiaRaisesByOne


def create() -> HestiaLimitFive:
    return HestiaLimitFive()
