"""Earth family effects (base game). Each handler cites its card; rulings are named by rule id."""

from __future__ import annotations

from collections.abc import Iterator

from oracle.core.model import Color, Family, Stones
from oracle.core.options import option
from oracle.reference.effects.context import EffectContext, hand_as_if_summoned
from oracle.reference.effects.loki import ChooseFamilyForLook
from oracle.reference.effects.registry import Effect, Permanent, SummonInfo, active, instant, permanent
from oracle.reference.effects.steps import (
    ChooseCards,
    ChoosePlayer,
    Do,
    SummonFromHand,
    Trade,
    another_card_in_hand,
    any_card,
    choose_a_trade,
    discard_chosen_from_hand,
    discards_one_at_a_time,
    free_summon_possible,
    gain_points,
    gain_points_if,
    gain_points_per,
    gain_printed_cost_of,
    hand_cards,
    other_summoned,
    points_per_card_of,
    recover_self,
    times_triggered,
)
from oracle.reference.notes import DISCARD, TAKE, VICTIM
from oracle.reference.table import Table


def _yfs_discardable(table: Table, owner: int, acting: str) -> list[str]:
    """RUL-15: hand cards whose discard still leaves another card to summon for free into a free area (SUM-1, SUM-4)."""
    return list(_yfs_discards(table, owner, acting))


def _yfs_discards(table: Table, owner: int, acting: str) -> Iterator[str]:
    """The discardable hand cards one by one; a discard from the hand leaves the area as it was, so a full area
    (SUM-1) rules out every discard at once."""
    if not table.area_free(owner):
        return
    for card_id in hand_as_if_summoned(table, owner, acting):
        after = table.what_if()
        after.discard_from_hand(owner, card_id, "what-if")
        if free_summon_possible(after, owner, acting, any_card):
            yield card_id


def _yfs_can_resolve(table: Table, owner: int, acting: str) -> bool:
    """SUM-4/SUM-5: asked before the summon, so the acting card is first placed in a copy of the table; one
    discardable card is enough."""
    placed = table.what_if()
    if acting in placed.hand(owner):
        placed.place_summoned(owner, acting, Stones(), free=True)
    return next(_yfs_discards(placed, owner, acting), None) is not None


# base-earth-01 Young Forest Spirit: ⚡ discard a hand card, then summon another hand card for free
# (RUL-2, RUL-15, SUM-4, EFF-2).
instant("base-earth-01", Effect((
    ChooseCards(DISCARD, "Young Forest Spirit: discard a card from your hand",
                lambda ctx: _yfs_discardable(ctx.table, ctx.owner, ctx.card_id)),
    Do(discard_chosen_from_hand),
    SummonFromHand("Young Forest Spirit: summon a card from your hand for free", any_card),
), can_resolve=_yfs_can_resolve, rule="RUL-15"))


def _goblin_steal(ctx: EffectContext) -> None:
    """RUL-13: the owner gains exactly what the victim really lost (SCORE-1)."""
    victim = ctx.note(VICTIM)
    assert victim is not None, "a game has an opponent to choose"
    lost = ctx.table.lose_points(victim, 1, ctx.source_id)
    ctx.table.gain_points(ctx.owner, lost, ctx.source_id)


# base-earth-02 Goblin: ⌛ steal 1 point from an opponent of your choice, at most what they have (RUL-13, SCORE-1).
active("base-earth-02", Effect((
    ChoosePlayer(VICTIM, "Goblin: choose an opponent to steal 1 point from", lambda ctx: ctx.opponents()),
    Do(_goblin_steal),
), rule="RUL-13"))


# base-earth-03 Forest Spirit: ⚡ discard a hand card and gain its printed cost in points; needs another hand
# card to be summoned (SUM-4, SUM-5).
instant("base-earth-03", Effect((
    ChooseCards(DISCARD, "Forest Spirit: discard a card from your hand", hand_cards),
    gain_printed_cost_of(DISCARD, lambda table, owner, card, source: table.discard_from_hand(owner, card, source)),
), can_resolve=another_card_in_hand, rule="SUM-4"))


def _gargoyle(table: Table, owner: int, card_id: str, summon: SummonInfo) -> None:
    table.gain_points(owner, 3 * times_triggered(table, summon.paid.purple), card_id)


# base-earth-04 Gargoyle: ∞ 3 points once per summon paid with at least one purple stone (RUL-1, or per purple
# stone under its per_stone variant; not its own: EFF-3).
permanent("base-earth-04", Permanent(on_summon=_gargoyle, rule="RUL-1"))

# base-earth-05 Basilisk: ⌛ choose: lose 0 & 1 red / lose 1 & 1 blue / lose 2 & 1 purple; prices need points (RUL-14).
active("base-earth-05", choose_a_trade("Basilisk: choose a pairing", {
    option("base-earth-05", "lose_0_gain_red"): Trade(give_points=0, get_stones=Stones(red=1)),
    option("base-earth-05", "lose_1_gain_blue"): Trade(give_points=1, get_stones=Stones(blue=1)),
    option("base-earth-05", "lose_2_gain_purple"): Trade(give_points=2, get_stones=Stones(purple=1)),
}, rule="RUL-14"))

# base-earth-06 Troll: ⌛ 3 points if you hold at least one purple stone.
active("base-earth-06", Effect((gain_points_if(3, lambda ctx: ctx.table.stones(ctx.owner).purple >= 1),)))


def _goblin_soldier(ctx: EffectContext) -> None:
    mine = ctx.table.score(ctx.owner)
    if any(ctx.table.score(p) > mine for p in ctx.opponents()):
        ctx.table.gain_points(ctx.owner, 4, ctx.source_id)
    else:
        ctx.table.lose_points(ctx.owner, 4, ctx.source_id)


# base-earth-07 Goblin Soldier: ⌛ 4 points if an opponent has more points, else lose 4 (SCORE-1).
active("base-earth-07", Effect((Do(_goblin_soldier),), rule="SCORE-1"))


def _medusa(ctx: EffectContext) -> None:
    if discard_chosen_from_hand(ctx):
        ctx.table.gain_stones(ctx.owner, Stones.of(Color.PURPLE), ctx.source_id)


# base-earth-08 Medusa: ⌛ discard a hand card (a must unless the hand is empty); if you did, 1 purple (EFF-1, EFF-2).
active("base-earth-08", Effect((
    ChooseCards(DISCARD, "Medusa: discard a card from your hand", hand_cards),
    Do(_medusa),
), rule="EFF-2"))


def _cerberus_discard(ctx: EffectContext) -> None:
    """EFF-8: one at a time in the chosen order, or all together under the ``simultaneous`` variant."""
    if discards_one_at_a_time(ctx):
        for card_id in ctx.note(DISCARD):
            ctx.table.discard_from_area(ctx.owner, card_id, ctx.source_id)
    else:
        ctx.table.discard_together_from_area(ctx.owner, ctx.note(DISCARD), ctx.source_id)


# base-earth-09 Cerberus: ⚡ discard up to 3 of your other summoned cards, in the order chosen (EFF-7, EFF-8,
# RUL-12).
instant("base-earth-09", Effect((
    ChooseCards(DISCARD, "Cerberus: discard up to 3 of your other summoned cards", other_summoned, least=0, most=3,
                in_order=discards_one_at_a_time),
    Do(_cerberus_discard),
), rule="EFF-8"))


def _earth_in_discard_pile(ctx: EffectContext) -> list[str]:
    return [c for c in ctx.table.state.discard_pile if ctx.card(c).family is Family.EARTH]


def _mimic_take(ctx: EffectContext) -> None:
    card_id = ctx.chosen(TAKE)
    if card_id is not None:
        ctx.table.take_from_discard_pile(ctx.owner, card_id, ctx.source_id)


# base-earth-10 Mimic: ⌛ take an Earth card of your choice from the discard pile into your hand (EFF-1).
active("base-earth-10", Effect((
    ChooseCards(TAKE, "Mimic: take an Earth card from the discard pile", _earth_in_discard_pile),
    Do(_mimic_take),
), rule="EFF-1"))

# base-earth-11 Mud Slime: ⚡ gain 6 points; ⌛ Recover (EFF-6).
instant("base-earth-11", Effect((gain_points(6),)))
active("base-earth-11", Effect((recover_self(),), rule="EFF-6"))


def _purple_worth(ctx: EffectContext) -> int:
    return ctx.table.stones(ctx.owner).purple * ctx.table.stone_values(ctx.owner).of(Color.PURPLE)


# base-earth-12 Rock Golem: ⚡ points equal to the value in force of your purple stones, kept (RUL-16).
instant("base-earth-12", Effect((gain_points_per(1, _purple_worth),), rule="RUL-16"))


def _stone_golem(ctx: EffectContext) -> None:
    held = ctx.table.stones(ctx.owner).total
    if held:
        ctx.table.exchange_all_stones(ctx.owner, Stones(purple=held), ctx.source_id)


# base-earth-13 Stone Golem: ⚡ exchange each stone you hold for a purple stone (same count).
instant("base-earth-13", Effect((Do(_stone_golem),)))

# base-earth-14 Behemoth: ⚡ 3 points per family in the area, Behemoth's included (SUM-5).
instant("base-earth-14", Effect((
    ChooseFamilyForLook(),
    gain_points_per(3, lambda ctx: ctx.families_in_area()),
), rule="SUM-5"))

# base-earth-15 Sand Giant: ⚡ 4 points per Earth card in the area, Sand Giant included (SUM-5).
instant("base-earth-15", Effect(points_per_card_of(4, Family.EARTH), rule="SUM-5"))
