"""Dragon family effects (base game). Each handler cites its card; rulings are named by rule id."""

from __future__ import annotations

from collections.abc import Iterator

from oracle.core.cards import Card
from oracle.core.model import EffectType, Family, Stones
from oracle.reference.effects.context import EffectContext, area_as_if_summoned
from oracle.reference.effects.loki import ChooseFamilyForLook
from oracle.reference.effects.registry import INSTANT, Effect, instant, instant_can_resolve
from oracle.reference.effects.steps import (
    ChooseCards,
    Do,
    Draw,
    SummonFromHand,
    another_card_in_area,
    copy_effect,
    free_summon_possible,
    gain_points,
    gain_points_per,
    gain_printed_cost_of,
    gain_stones,
    other_summoned,
    points_per_card_of,
    points_then_chosen_player_discards,
)
from oracle.reference.notes import COPY, RECOVER
from oracle.reference.table import Table


def _discard_self(ctx: EffectContext) -> None:
    """EFF-7: 'this card' (the copier, for Scorch: RUL-12) goes from the area to the discard pile; it is the first
    stage, and only summon triggers (points) ran since the card was placed, so the card is there."""
    ctx.table.discard_from_area(ctx.owner, ctx.card_id, ctx.source_id)


def _is_dragon(card: Card) -> bool:
    return card.family is Family.DRAGON


def _dragon_in_hand_summonable(table: Table, owner: int, acting: str) -> bool:
    """RUL-15 / SUM-5: once this card is placed and has discarded itself (the first stage), a Dragon in the hand
    whose own Instant effect could resolve (SUM-4): Scorch copying Forest Spirit needs a hand card besides the Egg."""
    after = table.what_if()
    if acting in after.hand(owner):
        after.place_summoned(owner, acting, Stones(), free=True)
    after.discard_from_area(owner, acting, "what-if")
    return free_summon_possible(after, owner, acting, _is_dragon)


# base-dragon-01 Dragon Egg: ⚡ discard this card, then summon a hand Dragon for free (EFF-2, EFF-7, RUL-2, RUL-15).
instant("base-dragon-01", Effect((
    Do(_discard_self),
    SummonFromHand("Dragon Egg: summon a Dragon card from your hand without paying its cost", _is_dragon),
), can_resolve=_dragon_in_hand_summonable, rule="RUL-15"))

# base-dragon-02 Tidal: ⚡ 5 points per Dragon card in the area, Tidal included (SUM-5).
instant("base-dragon-02", Effect(points_per_card_of(5, Family.DRAGON), rule="SUM-5"))


# base-dragon-03 Ember: ⚡ 7 points; a chosen player (you allowed) discards a Water card they pick (SUM-4, EFF-7).
instant("base-dragon-03", points_then_chosen_player_discards("Ember", 7, Family.WATER))

# base-dragon-04 Marina: ⚡ 7 points; a chosen player (you allowed) discards a Fire card they pick (SUM-4, EFF-7).
instant("base-dragon-04", points_then_chosen_player_discards("Marina", 7, Family.FIRE))

# base-dragon-05 Boulder: ⚡ 8 points; a chosen player (you allowed) discards a Wind card they pick (SUM-4, EFF-7).
instant("base-dragon-05", points_then_chosen_player_discards("Boulder", 8, Family.WIND))

# base-dragon-06 Gust: ⚡ 8 points; a chosen player (you allowed) discards an Earth card they pick (SUM-4, EFF-7).
instant("base-dragon-06", points_then_chosen_player_discards("Gust", 8, Family.EARTH))


# base-dragon-07 Aeris: ⚡ Recover another of your summoned cards; gain its printed cost in points (EFF-6, SUM-4).
instant("base-dragon-07", Effect((
    ChooseCards(RECOVER, "Aeris: recover another of your summoned cards", other_summoned),
    gain_printed_cost_of(RECOVER, lambda table, owner, card, source: table.recover(owner, card, source)),
), can_resolve=another_card_in_area, rule="SUM-4"))


def _copyable_instants(table: Table, owner: int, acting: str) -> list[str]:
    """Other area cards whose Instant effect could resolve with ``acting`` as 'this card' (RUL-12, SUM-4)."""
    return list(_each_copyable_instant(table, owner, acting))


def _each_copyable_instant(table: Table, owner: int, acting: str) -> Iterator[str]:
    return (
        c.id for c in area_as_if_summoned(table, owner, acting)
        if c.id != acting and c.id in INSTANT and instant_can_resolve(table, owner, c.id, acting=acting)
    )


def _scorch_can_resolve(table: Table, owner: int, acting: str) -> bool:
    """SUM-4: one copyable Instant effect is enough."""
    return next(_each_copyable_instant(table, owner, acting), None) is not None


def _copy_chosen_instant(ctx: EffectContext) -> None:
    """SUM-4 was judged once paid (Scorch copying Duduri), and the summon triggers since then only give points, so
    a copyable effect was on offer and one was chosen."""
    card_id = ctx.chosen(COPY)
    assert card_id is not None, "Scorch's SUM-4 test found an effect to copy"
    copy_effect(ctx, card_id, EffectType.INSTANT)


# base-dragon-08 Scorch: ⚡ resolve another area card's Instant effect as if printed on Scorch (RUL-12, SUM-4).
instant("base-dragon-08", Effect((
    ChooseCards(COPY, "Scorch: choose another card's Instant effect to copy",
                lambda ctx: _copyable_instants(ctx.table, ctx.owner, ctx.card_id)),
    Do(_copy_chosen_instant),
), can_resolve=_scorch_can_resolve, rule="RUL-12"))

# base-dragon-09 Willow: ⚡ gain 1 red, 1 blue, 1 purple stone and 3 points, then draw 1 card (DECK-1).
instant("base-dragon-09", Effect(
    (gain_stones(Stones(red=1, blue=1, purple=1)), gain_points(3), Draw()), rule="DECK-1",
))

# base-dragon-10 Eternity: ⚡ 4 points per different family in the area; Eternity makes Dragon count (SUM-5).
instant("base-dragon-10", Effect(
    (ChooseFamilyForLook(), gain_points_per(4, lambda ctx: ctx.families_in_area())), rule="SUM-5",
))
