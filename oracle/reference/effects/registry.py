"""The effect registry: each card's effects are small named handlers registered by card id.

* :class:`Effect` - an Instant or Active effect: a sequence of stages, plus the test of whether it can
  be fully resolved (rule SUM-4).
* :class:`Permanent` - a Permanent effect: value, limit and cost modifiers and event triggers.

Handlers live in ``fire.py``, ``water.py``, ``earth.py``, ``wind.py`` and ``dragon.py`` and register
themselves with :func:`instant`, :func:`active` and :func:`permanent`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from oracle.model import Stones

if TYPE_CHECKING:
    from oracle.cards import Card
    from oracle.reference.decisions import DecisionSpec
    from oracle.reference.effects.context import EffectContext
    from oracle.reference.table import Table

Answer = int | tuple[str, ...] | None


class Stage(Protocol):
    """One step of an effect. ``decide`` asks a decision (or None); ``resolve`` acts on the answer.

    ``resolve`` returns True when the stage is finished, False to run it again (after a pushed frame,
    such as a reshuffle, has been dealt with, or to ask the same kind of decision once more).
    """

    def decide(self, ctx: EffectContext) -> DecisionSpec | None: ...

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool: ...


def always(table: Table, owner: int, card: str) -> bool:
    return True


@dataclass(frozen=True)
class Effect:
    """An Instant or Active effect. ``rule`` is the rule id its handler follows beyond the card text."""

    stages: tuple[Stage, ...]
    can_resolve: Callable[[Table, int, str], bool] = always
    rule: str = ""


@dataclass(frozen=True)
class SummonInfo:
    """What a summon trigger sees: who summoned which card, paying what."""

    player: int
    card: Card
    paid: Stones


@dataclass(frozen=True)
class Permanent:
    """A Permanent effect of a card in force in its owner's area (rule EFF-3)."""

    red_bonus: int = 0
    blue_purple_bonus: int = 0
    swap_blue_purple: bool = False
    limit_bonus: int = 0
    cost_change: Callable[[Card], int] | None = None
    on_summon: Callable[[Table, int, SummonInfo], None] | None = None
    on_tame: Callable[[Table, int, Card], None] | None = None
    rule: str = ""
    notes: tuple[str, ...] = field(default=())


INSTANT: dict[str, Effect] = {}
ACTIVE: dict[str, Effect] = {}
PERMANENT: dict[str, Permanent] = {}


def instant_can_resolve(table: Table, owner: int, card_id: str, acting: str = "") -> bool:
    """SUM-4: whether ``card_id``'s Instant effect could be fully resolved by ``owner`` now.

    ``acting`` is the card that would be 'this card' (the copier for Scorch; by default the card itself),
    which counts as already in the area and not in the hand (SUM-5).
    """
    effect = INSTANT.get(card_id)
    if effect is None:
        return True
    cache = table.resolvable_cache
    key = (owner, card_id, acting)
    if cache is not None and key in cache:
        return cache[key]
    answer = effect.can_resolve(table, owner, acting or card_id)
    if cache is not None:
        cache[key] = answer
    return answer


def instant(card_id: str, effect: Effect) -> None:
    if card_id in INSTANT:
        raise ValueError(f"Instant effect of {card_id} registered twice")
    INSTANT[card_id] = effect


def active(card_id: str, effect: Effect) -> None:
    if card_id in ACTIVE:
        raise ValueError(f"Active effect of {card_id} registered twice")
    ACTIVE[card_id] = effect


def permanent(card_id: str, effect: Permanent) -> None:
    if card_id in PERMANENT:
        raise ValueError(f"Permanent effect of {card_id} registered twice")
    PERMANENT[card_id] = effect
