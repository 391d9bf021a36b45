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
from oracle.reference.payment import legal_payments
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
    def hand(self) -> Sequence[str]:
        """The cards worth trying to summon."""

    @property
    def area(self) -> Sequence[str]: ...

    @property
    def artifact(self) -> bool:
        """The player holds a tile (whether its Action ability can be used is the check's question)."""

    def summon_payments(self, card: str) -> Sequence[Stones]: ...

    def removal_payments(self) -> Sequence[Stones]: ...

    def price_payments(self) -> Sequence[Stones]: ...

    def shuffles(self) -> Sequence[tuple[str, ...]]: ...


class TableOffer:
    """The reference's own offer: the decision as asked and the table's legal payments (PAY-1..PAY-5)."""

    def __init__(self, table: Table, spec: DecisionSpec) -> None:
        self.table = table
        self.spec = spec
        self._payments: dict[int, tuple[Stones, ...]] = {}

    @property
    def player(self) -> int | None:
        return self.spec.player

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

    def _decider(self) -> int:
        return self.spec.decider

    def _payments_of(self, cost: int) -> tuple[Stones, ...]:
        found = self._payments.get(cost)
        if found is None:
            player = self._decider()
            found = self._payments[cost] = legal_payments(
                self.table.stones(player), self.table.stone_values(player), cost)
        return found

    @property
    def held(self) -> Stones:
        return self.table.stones(self._decider())

    @property
    def markers(self) -> Sequence[str]:
        return sorted(self.table.state.players[self._decider()].markers)

    @property
    def hand(self) -> Sequence[str]:
        """SUM-1: nothing is summoned into a full area."""
        player = self._decider()
        return sorted(set(self.table.hand(player))) if self.table.area_free(player) else ()

    @property
    def area(self) -> Sequence[str]:
        return sorted(self.table.state.players[self._decider()].area)

    @property
    def artifact(self) -> bool:
        return self.table.state.players[self._decider()].artifact is not None

    def summon_payments(self, card: str) -> Sequence[Stones]:
        """SUM-2: the legal payments of the card's summon cost."""
        table = self.table
        return self._payments_of(table.summon_cost(self._decider(), table.card(card)))

    def removal_payments(self) -> Sequence[Stones]:
        """REM-1: the legal payments of the round number."""
        return self._payments_of(self.table.state.round)

    def price_payments(self) -> Sequence[Stones]:
        return self._payments_of(self.spec.cost)

    def shuffles(self) -> Sequence[tuple[str, ...]]:
        """DECK-1: chance's order is never listed."""
        return ()
