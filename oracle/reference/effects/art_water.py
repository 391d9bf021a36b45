"""Artifacts expansion: Water family effects (art-water-*). Handlers cite their card; rulings name rule ids."""

from __future__ import annotations

from collections.abc import Iterator

from oracle.core.model import Family, Stones
from oracle.reference.effects.context import EffectContext
from oracle.reference.effects.registry import Effect, Permanent, active, instant, instant_can_resolve, permanent
from oracle.reference.effects.steps import (
    ChooseCards,
    ChooseOptions,
    Do,
    discard_chosen_from_hand,
    family_names,
    hand_cards,
    points_per_card_of,
    recovers_itself,
)
from oracle.reference.notes import DISCARD, OPTIONS, SUMMON
from oracle.reference.table import Table


def _taweret(ctx: EffectContext) -> None:
    ctx.table.gain_stones(ctx.owner, Stones(blue=discard_chosen_from_hand(ctx)), ctx.source_id)


# art-water-01 Taweret: ⚡ discard any number of hand cards (none allowed), 1 blue stone each, received together
# (one holding-limit check: LIMIT-2).
instant("art-water-01", Effect((
    ChooseCards(DISCARD, "Taweret: discard any number of cards from your hand", hand_cards, least=0, most=99),
    Do(_taweret),
), rule="LIMIT-2"))


def _melusine(ctx: EffectContext) -> None:
    ctx.table.gain_points(ctx.owner, 4 * discard_chosen_from_hand(ctx), ctx.source_id)


# art-water-02 Melusine: ⚡ discard up to 3 hand cards (none allowed), 4 points each.
instant("art-water-02", Effect((
    ChooseCards(DISCARD, "Melusine: discard up to 3 cards from your hand", hand_cards, least=0, most=3),
    Do(_melusine),
)))


def _thalassa(table: Table, owner: int, card_id: str, stones: Stones) -> None:
    if stones.blue >= 1:
        recovers_itself(table, owner, card_id)


# art-water-03 Thalassa: ⚡ 1 point per Water card in the area, Thalassa included (SUM-5); ∞ on gaining a blue
# stone it recovers itself at once, before any holding-limit choice (RUL-4, the manual's Thalassa example).
instant("art-water-03", Effect(points_per_card_of(1, Family.WATER), rule="SUM-5"))
permanent("art-water-03", Permanent(on_gain_stones=_thalassa, rule="RUL-4"))

# art-water-04 Kraken: ⚡ name a family; 2 points per card of it in the area, Kraken included (SUM-5, ART-11).
instant("art-water-04", Effect((
    ChooseOptions(OPTIONS, "Kraken: choose a family", family_names),
    *points_per_card_of(2),
), rule="SUM-5"))


def _siren(ctx: EffectContext) -> None:
    """EFF-2: the stone and the points come only if a card was really discarded."""
    if discard_chosen_from_hand(ctx):
        ctx.table.gain_stones(ctx.owner, Stones(blue=1), ctx.source_id)
        ctx.table.gain_points(ctx.owner, 2, ctx.source_id)


# art-water-05 Siren: ⌛ discard a hand card (a must unless the hand is empty); if you did, 1 blue stone and 2 points
# (EFF-1, EFF-2).
active("art-water-05", Effect((
    ChooseCards(DISCARD, "Siren: discard a card from your hand", hand_cards),
    Do(_siren),
), rule="EFF-2"))


def _summonable_from_discard_pile(table: Table, owner: int, dragon: str) -> bool:
    """SUM-4: the Dragon's own Instant effect could resolve once it has left the discard pile."""
    taken = table.what_if()
    taken.take_from_discard_pile(owner, dragon, "what-if")
    return instant_can_resolve(taken, owner, dragon)


def _akhlut_targets(table: Table, owner: int, acting: str) -> list[str]:
    """Dragons of the discard pile Akhlut could summon: the acting card placed first (SUM-5), a free area left
    for the Dragon (SUM-1) and a Dragon whose Instant effect could resolve (SUM-4)."""
    return list(_each_akhlut_target(table, owner, acting))


def _each_akhlut_target(table: Table, owner: int, acting: str) -> Iterator[str]:
    placed = table.what_if()
    if acting in placed.hand(owner):
        placed.place_summoned(owner, acting, Stones(), free=True)
    if not placed.area_free(owner):
        return
    for card_id in placed.state.discard_pile:
        if placed.card(card_id).family is Family.DRAGON and _summonable_from_discard_pile(placed, owner, card_id):
            yield card_id


def _akhlut_can_resolve(table: Table, owner: int, acting: str) -> bool:
    """SUM-4: one Dragon to summon is enough."""
    return next(_each_akhlut_target(table, owner, acting), None) is not None


def _akhlut_summon(ctx: EffectContext) -> None:
    """The Dragon leaves the discard pile and goes through a full summon, paying nothing (SUM-6). Akhlut's SUM-4 test
    found one, and only summon triggers (points) ran since, so one was chosen."""
    dragon = ctx.chosen(SUMMON)
    assert dragon is not None, "Akhlut's SUM-4 test found a Dragon to summon"
    ctx.table.take_from_discard_pile(ctx.owner, dragon, ctx.source_id)
    ctx.table.place_summoned(ctx.owner, dragon, Stones(), free=True)


# art-water-06 Akhlut: ⚡ choose a Dragon in the discard pile and summon it without paying its cost; its Instant
# effect resolves; needs a free area and such a Dragon (SUM-4, SUM-6).
instant("art-water-06", Effect((
    ChooseCards(SUMMON, "Akhlut: choose a Dragon card in the discard pile to summon",
                lambda ctx: _akhlut_targets(ctx.table, ctx.owner, ctx.card_id)),
    Do(_akhlut_summon),
), can_resolve=_akhlut_can_resolve, rule="SUM-4"))
