"""The effect registry: each card's effects are small named handlers registered by card id.

* :class:`Effect` - an Instant or Active effect: a sequence of stages, plus the test of whether it can
  be fully resolved (rule SUM-4).
* :class:`Permanent` - a Permanent effect: value, limit and cost modifiers and event triggers.

Handlers live in one module per family (and ``tiles.py``) and register themselves with :func:`instant`,
:func:`active`, :func:`permanent`, :func:`triggered` and :func:`tile`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Protocol, TypeVar

from oracle.core.model import Stones

if TYPE_CHECKING:
    from oracle.core.cards import Card
    from oracle.reference.decisions import DecisionSpec
    from oracle.reference.effects.context import EffectContext
    from oracle.reference.table import Table

Answer = int | tuple[str, ...] | Stones | None
V = TypeVar("V")


class Stage(Protocol):
    """One step of an effect. ``decide`` asks a decision (or None); ``resolve`` acts on the answer.

    ``resolve`` returns True when the stage is finished, False to run it again (after a pushed frame,
    such as a reshuffle, has been dealt with, or to ask the same kind of decision once more).
    """

    def decide(self, ctx: EffectContext) -> DecisionSpec | None: ...

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool: ...


def always(table: Table, owner: int, card: str) -> bool:
    """The can-resolve test of an effect that can always be fully resolved."""
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
    """A Permanent effect of a card in force in its owner's area (rule EFF-3).

    Event triggers receive the table, the owner and this card's id first: ``on_summon`` (who summoned which card,
    paying what), ``on_tame`` (the tamed card), ``on_sell`` (the sold card and the stones received),
    ``on_gain_stones``, ``on_lose_points``, ``on_draw``, ``on_other_discarded`` (another of the owner's summoned
    cards was discarded). ``replaces_own_discard`` happens instead of this card
    being discarded (Ash). ``recover_when`` is a condition on the owner's position under which the card
    recovers itself at once (Fireblast, RUL-4). ``fixed_cost`` fixes a cost, ignoring every change (ART-9).
    """

    red_bonus: int = 0
    blue_purple_bonus: int = 0
    swap_blue_purple: bool = False
    limit_bonus: int = 0
    cost_change: Callable[[Card], int] | None = None
    on_summon: Callable[[Table, int, str, SummonInfo], None] | None = None
    on_tame: Callable[[Table, int, str, Card], None] | None = None
    fixed_cost: Callable[[Card], int | None] | None = None
    on_sell: Callable[[Table, int, str, Card, Stones], None] | None = None
    on_gain_stones: Callable[[Table, int, str, Stones], None] | None = None
    on_lose_points: Callable[[Table, int, str, int], None] | None = None
    on_draw: Callable[[Table, int, str], None] | None = None
    on_other_discarded: Callable[[Table, int, str, str], None] | None = None
    replaces_own_discard: Callable[[Table, int, str], None] | None = None
    recover_when: Callable[[Table, int], bool] | None = None
    any_family_on_own_turn: bool = False
    rule: str = ""
    notes: tuple[str, ...] = field(default=())


class TileAbility(str, Enum):
    """When an artifact tile's ability is used (ART-4, ART-5, RUL-7); the values are the catalogue's ability types."""

    INSTANT = "instant"
    """Used as soon as the tile is taken."""
    ACTION = "action"
    """Used once on the holder's Action turn, when its effect can be fully resolved."""
    PERMANENT = "permanent"
    """In force while held (its ``on_sell`` trigger)."""


@dataclass(frozen=True)
class Tile:
    """An artifact tile's ability and its effect (or, for a Permanent tile, its trigger)."""

    ability: TileAbility
    effect: Effect | None = None
    on_sell: Callable[[Table, int, str, Card, Stones], None] | None = None
    rule: str = ""


INSTANT: dict[str, Effect] = {}
TILES: dict[str, Tile] = {}
ACTIVE: dict[str, Effect] = {}
PERMANENT: dict[str, Permanent] = {}
TRIGGERED: dict[str, Effect] = {}
"""Effects a Permanent trigger starts when it needs a decision (frames of effect kind ``PERMANENT``)."""
RECOVER_WHEN: set[str] = set()


def instant_can_resolve(table: Table, owner: int, card_id: str, acting: str = "") -> bool:
    """SUM-4: whether ``card_id``'s Instant effect could be fully resolved by ``owner`` now.

    ``acting`` is the card that would be 'this card' (the copier for Scorch; by default the card itself),
    which counts as already in the area and not in the hand (SUM-5).
    """
    effect = INSTANT.get(card_id)
    if effect is None:
        return True
    if table.remembered is None:
        return effect.can_resolve(table, owner, acting or card_id) or table.ruled_out("SUM-4", card_id)
    key = (owner, card_id, acting)
    answer = table.remembered.can_resolve.get(key)
    if answer is None:
        answer = table.remembered.can_resolve[key] = effect.can_resolve(table, owner, acting or card_id)
    return answer


def _register(registry: dict[str, V], key: str, value: V, what: str) -> None:
    """Each card (or tile) registers each kind of handler once; a second registration is a bug."""
    if key in registry:  # pragma: no cover - a handler registered twice: a bug of the effect modules, on import
        raise ValueError(f"{what} of {key} registered twice")
    registry[key] = value


def instant(card_id: str, effect: Effect) -> None:
    _register(INSTANT, card_id, effect, "Instant effect")


def active(card_id: str, effect: Effect) -> None:
    _register(ACTIVE, card_id, effect, "Active effect")


def tile(tile_id: str, ability: Tile) -> None:
    _register(TILES, tile_id, ability, "artifact tile")


def triggered(card_id: str, effect: Effect) -> None:
    """The staged part of a card's Permanent trigger, resolved on a frame of its own (Duduri King's choice)."""
    _register(TRIGGERED, card_id, effect, "triggered effect")


def permanent(card_id: str, effect: Permanent) -> None:
    _register(PERMANENT, card_id, effect, "Permanent effect")
    if effect.recover_when is not None:
        RECOVER_WHEN.add(card_id)
