"""Water family effects (base game). Each handler cites its card; rulings are named by rule id."""

from __future__ import annotations

from oracle.core.cards import Card
from oracle.core.model import Color, Family, Stones
from oracle.core.options import option
from oracle.reference.effects.context import EffectContext
from oracle.reference.effects.loki import ChooseFamilyForLook
from oracle.reference.effects.registry import Effect, Permanent, SummonInfo, active, instant, permanent
from oracle.reference.effects.steps import (
    ChooseOptions,
    Do,
    Draw,
    Trade,
    choose_a_trade,
    chose,
    discard_stones_for_points,
    gain_points_if,
    gain_points_per,
    gain_stones,
    points_per_card_of,
    points_then_chosen_player_discards,
    recover_self,
    times_triggered,
)
from oracle.reference.notes import OPTIONS
from oracle.reference.table import Table


def _yuki_onna(ctx: EffectContext) -> None:
    """The stones are valued as they stand before the discard (values in force: PAY-4, RUL-16)."""
    held = ctx.table.stones(ctx.owner)
    worth = ctx.table.stone_values(ctx.owner).worth(held)
    ctx.table.discard_stones(ctx.owner, held, ctx.source_id)
    ctx.table.gain_points(ctx.owner, worth, ctx.source_id)


# base-water-01 Yuki Onna: ⚡ discard all your stones, then gain points equal to their value in force (RUL-16).
instant("base-water-01", Effect((Do(_yuki_onna),), rule="RUL-16"))


def _kappa(table: Table, owner: int, card_id: str, summon: SummonInfo) -> None:
    table.gain_points(owner, 2 * times_triggered(table, summon.paid.blue), card_id)


# base-water-02 Kappa: ∞ 2 points once per summon paid with at least one blue stone (RUL-1, or per blue stone
# under its per_stone variant; not its own: EFF-3).
permanent("base-water-02", Permanent(on_summon=_kappa, rule="RUL-1"))

# base-water-03 Sea Spirit: ⌛ 1 point per blue stone held (a count, not a value).
active("base-water-03", Effect((gain_points_per(1, lambda ctx: ctx.table.stones(ctx.owner).blue),)))

# base-water-04 Undine: ⚡ gain 1 blue stone; ⌛ Recover (EFF-6).
instant("base-water-04", Effect((gain_stones(Stones(blue=1)),)))
active("base-water-04", Effect((recover_self(),), rule="EFF-6"))

# base-water-05 Nessie: ⌛ 2 points if there is no Dragon card in your area.
active("base-water-05", Effect((
    ChooseFamilyForLook(),
    gain_points_if(2, lambda ctx: ctx.count_in_area(Family.DRAGON) == 0),
), rule="ART-11"))

# base-water-06 Hae-tae: ∞ blue and purple stones swap values (PAY-4, RUL-16).
permanent("base-water-06", Permanent(swap_blue_purple=True, rule="RUL-16"))

# base-water-07 Snail Maiden: ⌛ choose one: 1 blue -> 1 purple, or 1 purple -> 3 blue; only possible ones (EFF-1).
active("base-water-07", choose_a_trade("Snail Maiden: choose a stone exchange", {
    option("base-water-07", "blue_for_purple"): Trade(give_stones=Stones(blue=1), get_stones=Stones(purple=1)),
    option("base-water-07", "purple_for_three_blue"): Trade(give_stones=Stones(purple=1), get_stones=Stones(blue=3)),
}, rule="EFF-1"))

# base-water-08 Undine Queen: ⌛ gain 1 blue stone.
active("base-water-08", Effect((gain_stones(Stones(blue=1)),)))


def _blue_worth(ctx: EffectContext) -> int:
    return ctx.table.stones(ctx.owner).blue * ctx.table.stone_values(ctx.owner).of(Color.BLUE)


# base-water-09 Yuki Onna Exalted: ⚡ points equal to the value in force of your blue stones, kept (RUL-16).
instant("base-water-09", Effect((gain_points_per(1, _blue_worth),), rule="RUL-16"))

HYDRA_PURPLE = option("base-water-10", "gain_purple")
HYDRA_DRAW = option("base-water-10", "draw")
HYDRA_BLUE = option("base-water-10", "gain_two_blue")
HYDRA_POINTS = option("base-water-10", "gain_four_points")
HYDRA_STONES: dict[str, Stones] = {HYDRA_PURPLE: Stones(purple=1), HYDRA_BLUE: Stones(blue=2)}


def _hydra_options(ctx: EffectContext) -> list[str]:
    """The four options; drawing is offered only while a card can be drawn (DECK-1), so both choices pay out."""
    can_draw = bool(ctx.table.state.draw_pile or ctx.table.state.discard_pile)
    return [HYDRA_PURPLE, *([HYDRA_DRAW] if can_draw else []), HYDRA_BLUE, HYDRA_POINTS]


def _hydra_receive(ctx: EffectContext) -> None:
    """Both chosen stones arrive together (one holding-limit check, LIMIT-2); the draw follows as its own stage."""
    chosen = ctx.note(OPTIONS)
    stones = Stones()
    for name in chosen:
        stones = stones + HYDRA_STONES.get(name, Stones())
    ctx.table.gain_stones(ctx.owner, stones, ctx.source_id)
    if HYDRA_POINTS in chosen:
        ctx.table.gain_points(ctx.owner, 4, ctx.source_id)


# base-water-10 Hydra: ⚡ choose 2 different options of purple stone / draw 1 / 2 blue stones / 4 points (RUL-6).
instant("base-water-10", Effect((
    ChooseOptions(OPTIONS, "Hydra: choose 2 different options", _hydra_options, least=2, most=2),
    Do(_hydra_receive),
    Draw(when=chose(OPTIONS, HYDRA_DRAW)),
), rule="RUL-6"))


# base-water-11 Leviathan: ⚡ 7 points; a chosen player (you allowed) discards a summoned Dragon of their choice;
# with no summoned Dragon anywhere it cannot be summoned (SUM-4, SUM-5, EFF-7).
instant("base-water-11", points_then_chosen_player_discards("Leviathan", 7, Family.DRAGON))


def _triton(table: Table, owner: int, card_id: str, tamed: Card) -> None:
    if tamed.family is Family.WATER:
        table.gain_stones(owner, Stones(blue=2), card_id)


# base-water-12 Triton: ∞ whenever you tame a Water card, gain 2 blue stones (TAME-1, EFF-4).
permanent("base-water-12", Permanent(on_tame=_triton, rule="EFF-4"))

# base-water-13 Water Giant: ⚡ gain 2 blue stones; ∞ blue and purple stones are worth 1 more (PAY-4, RUL-16).
instant("base-water-13", Effect((gain_stones(Stones(blue=2)),)))
permanent("base-water-13", Permanent(blue_purple_bonus=1, rule="RUL-16"))


# base-water-14 Charybdis: ⌛ discard a blue stone; if you did, gain 5 points (EFF-2).
active("base-water-14", Effect((discard_stones_for_points(Stones(blue=1), 5),), rule="EFF-2"))

# base-water-15 Poseidon: ⚡ 3 points per Water card in the area, Poseidon included (SUM-5).
instant("base-water-15", Effect(points_per_card_of(3, Family.WATER), rule="SUM-5"))
