"""The position test of an engine's own reshuffles (DECK-1): does any card keep to the top or the bottom?

A fair reshuffle of ``n`` cards puts each card among the ``k`` cards drawn right after it with chance ``k/n``
and at the bottom with chance ``1/n``. Over the reshuffles a run observes, the number of times a card is found
there is a sum of independent Bernoulli draws with those chances (a Poisson binomial); its exact upper tail
is the p-value of that card and position. A card alarms when its p-value is at most
``FALSE_ALARM / TESTS``: by Bonferroni over every card and position, a fair engine alarms in at most one run
in a million, however many reshuffles the run sees. The tail treats each reshuffle's chances as fixed in advance:
exact when they are, close when, as in a game, which cards a later reshuffle holds depends on where earlier ones
put them (``tests/test_fair_shuffle.py`` checks the rate on 1,000 runs of real games).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from oracle.core.cards import catalogue

FALSE_ALARM = 1e-6
"""The highest chance that a run of fair reshuffles raises an alarm."""


class Position(str, Enum):
    """Where in a new draw pile a pinned card would show."""

    TOP = "top"
    """Among the cards drawn right after the reshuffle (their order among themselves is not observed)."""
    BOTTOM = "bottom"
    """The last card of the new draw pile (observed while the draw pile still holds cards of the reshuffle)."""


TESTS = len(Position) * len(catalogue().in_sets(["base", "artifacts"]))
"""Every card of the game in every position: the Bonferroni divisor, fixed before any game is played."""
THRESHOLD = FALSE_ALARM / TESTS
"""The p-value at or below which one card and position alarms."""


@dataclass(frozen=True)
class ReshuffleSeen:
    """One reshuffle as the oracle saw it: the cards of the discard pile it took, the ones drawn right after it
    (the top of the new order) and the bottom card of the new draw pile (None when every card was drawn)."""

    cards: tuple[str, ...]
    top: frozenset[str]
    bottom: str | None

    def chance(self, position: Position) -> float:
        """The chance that a given card of the reshuffle is found at ``position`` when the shuffle is fair
        (0 when the position is not observed)."""
        if not self.cards:
            return 0.0
        if position is Position.TOP:
            return len(self.top) / len(self.cards)
        return 0.0 if self.bottom is None else 1 / len(self.cards)

    def holds(self, card: str, position: Position) -> bool:
        return card in self.top if position is Position.TOP else card == self.bottom


@dataclass(frozen=True)
class CardPosition:
    """One card and position over a run: found there ``hits`` times in ``trials`` reshuffles that could show it,
    ``expected`` times on average for a fair shuffle, and the chance of ``hits`` or more (``p_value``)."""

    card: str
    position: Position
    hits: int
    trials: int
    expected: float
    p_value: float

    @property
    def alarm(self) -> bool:
        return self.p_value <= THRESHOLD

    def sentence(self) -> str:
        """``base-fire-3 was on top in 11 of 11 reshuffles that held it (1.0 expected, p = 2.1e-12)``."""
        where = "on top" if self.position is Position.TOP else "at the bottom"
        return (f"{self.card} was {where} in {self.hits} of {self.trials} reshuffles that held it "
                f"({self.expected:.1f} expected, p = {self.p_value:.2g})")


@dataclass(frozen=True)
class PositionVerdict:
    """The position test of one run: how many reshuffles it saw, and the card and position least likely under a
    fair shuffle (None when no card was ever found in a position more often than a fair shuffle gives)."""

    reshuffles: int
    closest: CardPosition | None

    @property
    def alarm(self) -> bool:
        return self.closest is not None and self.closest.alarm


def upper_tail(chances: Iterable[float], hits: int) -> float:
    """The chance of ``hits`` or more successes in independent draws with these chances (Poisson binomial)."""
    if hits <= 0:
        return 1.0
    mass = [1.0]
    for p in chances:
        step = [0.0] * (len(mass) + 1)
        for found, q in enumerate(mass):
            step[found] += q * (1 - p)
            step[found + 1] += q * p
        mass = step
    return min(1.0, math.fsum(mass[hits:]))


def alarm_chance(chances: Sequence[float], threshold: float = THRESHOLD) -> float:
    """The exact chance that a card with these chances alarms under a fair shuffle: the tail at the smallest
    count whose p-value is at most ``threshold`` (0 when no count is)."""
    for hits in range(len(chances) + 1):
        tail = upper_tail(chances, hits)
        if tail <= threshold:
            return tail
    return 0.0


def position_test(seen: Sequence[ReshuffleSeen]) -> PositionVerdict:
    """DECK-1: every card and position over the reshuffles ``seen``; the closest to an alarm is kept."""
    closest: CardPosition | None = None
    for card in sorted({c for reshuffle in seen for c in reshuffle.cards}):
        for position in Position:
            found = _card_position(card, position, seen)
            if found is not None and (closest is None or found.p_value < closest.p_value):
                closest = found
    return PositionVerdict(len(seen), closest)


def _card_position(card: str, position: Position, seen: Sequence[ReshuffleSeen]) -> CardPosition | None:
    """The card's count at ``position`` (None when it is not above what a fair shuffle gives on average)."""
    trials = [(r.chance(position), r.holds(card, position)) for r in seen if card in r.cards]
    trials = [(p, hit) for p, hit in trials if 0 < p < 1]
    hits = sum(hit for _, hit in trials)
    expected = math.fsum(p for p, _ in trials)
    if hits <= expected:
        return None
    return CardPosition(card, position, hits, len(trials), expected, upper_tail([p for p, _ in trials], hits))
