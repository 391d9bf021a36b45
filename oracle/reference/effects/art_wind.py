"""Artifacts expansion: Wind family effects (art-wind-*). Handlers cite their card; rulings name rule ids."""

from __future__ import annotations

from oracle.core.model import EffectType, Stones
from oracle.reference.effects.context import EffectContext
from oracle.reference.effects.loki import ChooseFamilyForLook
from oracle.reference.effects.registry import Effect, Permanent, active, instant, permanent
from oracle.reference.effects.steps import (
    ChooseCards,
    ChooseOptions,
    Do,
    Draw,
    SummonFromHand,
    any_card,
    family_names,
    free_summon_possible,
    gain_points_per,
    points_per_card_of,
    recovers_itself,
)
from oracle.reference.notes import DRAWN, OPTIONS, SUMMONED, TO_DRAW_PILE
from oracle.reference.table import Table

# art-wind-01 Banshee: ⚡ 1 point per different family in the area, Banshee's Wind included (SUM-5, ART-11);
# ∞ when you draw a card it recovers itself at once (RUL-4).
instant("art-wind-01", Effect((
    ChooseFamilyForLook(),
    gain_points_per(1, lambda ctx: ctx.families_in_area()),
), rule="SUM-5"))
permanent("art-wind-01", Permanent(on_draw=recovers_itself, rule="RUL-4"))


def _hand_after_draw(ctx: EffectContext) -> list[str]:
    """EFF-2: a card goes back only if one was drawn; any hand card may go, the drawn one included."""
    return ctx.hand() if ctx.note(DRAWN) else []


def _nurikabe_to_draw_pile(ctx: EffectContext) -> None:
    card_id = ctx.chosen(TO_DRAW_PILE)
    if card_id is not None:
        ctx.table.put_hand_card_on_draw_pile(ctx.owner, card_id, ctx.source_id)


# art-wind-02 Nurikabe: ⚡ draw 1 card (DECK-1); ⌛ draw 1 card, then put a hand card on top of the draw pile (EFF-2).
instant("art-wind-02", Effect((Draw(),), rule="DECK-1"))
active("art-wind-02", Effect((
    Draw(),
    ChooseCards(TO_DRAW_PILE, "Nurikabe: put a card from your hand on top of the draw pile", _hand_after_draw),
    Do(_nurikabe_to_draw_pile),
), rule="EFF-2"))

# art-wind-03 Rukh: ⌛ name a family; 1 point per card of it in the area (Loki as its owner chooses: ART-11).
active("art-wind-03", Effect((
    ChooseOptions(OPTIONS, "Rukh: choose a family", family_names),
    *points_per_card_of(1),
), rule="ART-11"))


def _horus_can_resolve(table: Table, owner: int, acting: str) -> bool:
    """SUM-4/SUM-5: with the acting card placed, a free area and a hand card whose Instant effect could resolve."""
    placed = table.what_if()
    if acting in placed.hand(owner):
        placed.place_summoned(owner, acting, Stones(), free=True)
    return placed.area_free(owner) and free_summon_possible(placed, owner, acting, any_card)


def _horus_points(ctx: EffectContext) -> None:
    """The printed cost of the card summoned; there is one, since SUM-4 is judged once Horus is paid for."""
    summoned = ctx.note(SUMMONED)
    assert summoned is not None, "Horus's SUM-4 test found a card to summon"
    ctx.table.gain_points(ctx.owner, ctx.card(summoned).cost, ctx.source_id)


# art-wind-04 Horus: ⚡ summon a hand card without paying its cost (its summon and Instant effect complete first),
# then gain its printed cost in points (RUL-2, SUM-4, SUM-6).
instant("art-wind-04", Effect((
    SummonFromHand("Horus: summon a card from your hand without paying its cost", any_card),
    Do(_horus_points),
), can_resolve=_horus_can_resolve, rule="RUL-2"))

# art-wind-05 Loki: ∞ on its owner's turn its owner chooses its family for each look, otherwise it is Wind (ART-11,
# the rule and its variants in loki.py); ⌛ 1 point per area card with a Permanent effect, Loki included.
permanent("art-wind-05", Permanent(any_family_on_own_turn=True, rule="ART-11"))
active("art-wind-05", Effect(
    (gain_points_per(1, lambda ctx: sum(1 for c in ctx.area() if c.has(EffectType.PERMANENT))),),
))

# art-wind-06 Anzu: ⚡ reveal your hand: 3 points per different family in it (Anzu has left the hand: SUM-5; the
# oracle sees hands, so revealing changes nothing).
instant("art-wind-06", Effect(
    (gain_points_per(3, lambda ctx: len({ctx.card(c).family for c in ctx.hand()})),), rule="SUM-5",
))
