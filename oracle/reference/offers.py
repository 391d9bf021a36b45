"""What a pending decision offers, as the candidate generators of :mod:`oracle.reference.actions` read it.

An :class:`Offer` is read two ways: :class:`TableOffer` from the reference's own decision and table (payments
already legal, summons only with a free area), and the oracle's offer for an engine without ``legal_actions``
from the decision and the canonical snapshot alone (:mod:`oracle.engines.candidates`, every payment from the
stones held). The generators are the same for both.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from oracle.core.model import Stones
from oracle.reference.decisions import DecisionSpec
from oracle.reference.payment import StoneValues, legal_payments
from oracle.reference.state import PlayerState
from oracle.reference.table import Table


class Offer(Protocol):
    """The pools a decision's answers are drawn from; a superset of the legal answers is fine."""

    @property
    def player(self) -> int | None: ...

    @property
    def cards(self) -> Sequence[str]:
        """The cards (or tiles) on offer: to mark, to resolve, to choose, to take."""

    @property
    def players(self) -> Sequence[int]: ...

    @property
    def options(self) -> Sequence[str]: ...

    @property
    def least(self) -> int: ...

    @property
    def most(self) -> int: ...

    @property
    def ordered(self) -> bool: ...

    @property
    def limit(self) -> int: ...

    @property
    def held(self) -> Stones: ...

    @property
    def upgradable(self) -> Stones: ...

    @property
    def markers(self) -> Sequence[str]: ...

    @property
    def area(self) -> Sequence[str]: ...

    @property
    def artifact(self) -> bool:
        """The player holds a tile (whether its Action ability can be used is the check's question)."""

    def summons(self) -> Sequence[tuple[str, Sequence[Stones]]]:
        """The cards worth trying to summon, each with the payments worth trying."""


    def removal_payments(self) -> Sequence[Stones]: ...

    def price_payments(self) -> Sequence[Stones]: ...

    def shuffles(self) -> Sequence[tuple[str, ...]]: ...


class TableOffer:
    """The reference's own offer: the decision as asked and the table's legal payments (PAY-1..PAY-5).

    The deciding player's seat is looked up once and the legal payments are remembered by cost: an offer lives
    only while one position's answers are listed, and the state does not change meanwhile.
    """

    __slots__ = ("_payments", "_player", "_seat", "_values", "spec", "table")

    def __init__(self, table: Table, spec: DecisionSpec) -> None:
        self.table = table
        self.spec = spec
        self._player = spec.player
        self._seat = _CHANCE_SEAT if spec.player is None else table.state.players[spec.player]
        self._values: StoneValues | None = None
        self._payments: dict[int, tuple[Stones, ...]] = {}

    @property
    def player(self) -> int | None:
        return self._player

    @property
    def cards(self) -> Sequence[str]:
        return self.spec.cards

    @property
    def players(self) -> Sequence[int]:
        return self.spec.players

    @property
    def options(self) -> Sequence[str]:
        return self.spec.options

    @property
    def least(self) -> int:
        return self.spec.min

    @property
    def most(self) -> int:
        return self.spec.max

    @property
    def ordered(self) -> bool:
        return self.spec.ordered

    @property
    def limit(self) -> int:
        return self.spec.limit

    @property
    def upgradable(self) -> Stones:
        return self.spec.eligible or Stones()

    def _payments_of(self, cost: int) -> tuple[Stones, ...]:
        found = self._payments.get(cost)
        if found is None:
            values = self._values
            if values is None:
                values = self._values = self.table.stone_values(self.spec.decider)
            found = self._payments[cost] = legal_payments(self._seat.stones, values, cost)
        return found

    @property
    def held(self) -> Stones:
        return self._seat.stones

    @property
    def markers(self) -> Sequence[str]:
        return sorted(self._seat.markers)

    @property
    def area(self) -> Sequence[str]:
        return sorted(self._seat.area)

    @property
    def artifact(self) -> bool:
        return self._seat.artifact is not None

    def summons(self) -> Sequence[tuple[str, Sequence[Stones]]]:
        """SUM-1, SUM-2: each card of the hand (none into a full area) with the legal payments of its summon cost."""
        table, player, payments_of = self.table, self.spec.decider, self._payments_of
        if not table.area_free(player):
            return ()
        return [(c, payments_of(table.summon_cost(player, table.card(c)))) for c in sorted(set(self._seat.hand))]

    def removal_payments(self) -> Sequence[Stones]:
        """REM-1: the legal payments of the round number."""
        return self._payments_of(self.table.state.round)

    def price_payments(self) -> Sequence[Stones]:
        return self._payments_of(self.spec.cost)

    def shuffles(self) -> Sequence[tuple[str, ...]]:
        """DECK-1: chance's order is never listed."""
        return ()


_CHANCE_SEAT = PlayerState()
"""Chance's seat at a shuffle: it holds nothing (only the order of the discard pile is asked)."""
