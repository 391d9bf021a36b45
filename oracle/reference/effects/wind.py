"""Wind family effects (base game). Each handler cites its card; rulings are named by rule id."""

from __future__ import annotations

from oracle.core.cards import Card
from oracle.core.model import EffectType, Family, Stones
from oracle.reference.effects.context import EffectContext
from oracle.reference.effects.loki import ChooseFamilyForLook
from oracle.reference.effects.registry import ACTIVE, Answer, Effect, Permanent, SummonInfo, active, instant, permanent
from oracle.reference.effects.steps import (
    ChooseCards,
    Do,
    Draw,
    copy_effect,
    gain_points,
    gain_points_if,
    gain_points_per,
    points_per_card_of,
    recover_self,
    resolve_active_of,
)
from oracle.reference.notes import ACTIVATED, COPY
from oracle.reference.table import Table

# base-wind-01 Dandelion Spirit: ⚡ draw 1 card (DECK-1); ⌛ Recover (EFF-6).
instant("base-wind-01", Effect((Draw(),), rule="DECK-1"))
active("base-wind-01", Effect((recover_self(),), rule="EFF-6"))


def _harpy_balanced(ctx: EffectContext) -> bool:
    return len(ctx.hand()) == ctx.count_in_area()


# base-wind-02 Harpy: ⌛ 3 points if the hand holds as many cards as the area (Harpy included) (EFF-5).
active("base-wind-02", Effect((gain_points_if(3, _harpy_balanced),), rule="EFF-5"))


def _pegasus_cost(card: Card) -> int:
    return -1


# base-wind-03 Pegasus: ⚡ draw 1 card; ∞ your cards cost 1 less, never below 0 (SUM-3; not its own summon: EFF-3).
instant("base-wind-03", Effect((Draw(),), rule="DECK-1"))
permanent("base-wind-03", Permanent(cost_change=_pegasus_cost, rule="SUM-3"))


def _tengu_to_draw_pile(ctx: EffectContext) -> None:
    """'This card' is the acting card: Scorch copying Tengu moves Scorch (RUL-12); the 6 points before move no card."""
    ctx.table.put_on_draw_pile(ctx.owner, ctx.card_id, ctx.source_id)


# base-wind-04 Tengu: ⚡ 6 points, then move this card from the area to the top of the draw pile (EFF-7, RUL-12).
instant("base-wind-04", Effect((gain_points(6), Do(_tengu_to_draw_pile)), rule="EFF-7"))

# base-wind-05 Boreas: ⚡ 1 point per Wind card in the area, Boreas included, then Recover this card (SUM-5, EFF-6).
instant("base-wind-05", Effect(
    (*points_per_card_of(1, Family.WIND), recover_self()),
    rule="SUM-5",
))


def _actives_not_yet_resolved(ctx: EffectContext) -> list[str]:
    done = ctx.note(ACTIVATED)
    return [c for c in ctx.table.state.players[ctx.owner].area if c in ACTIVE and c not in done]


class _ResolveEachActive(ChooseCards):
    """RUL-17: the owner picks the next unused Active effect of their area; it resolves, then we ask again."""

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        if not isinstance(answer, tuple) or not answer:
            return True
        ctx.remember(ACTIVATED, (*ctx.note(ACTIVATED), answer[0]))
        resolve_active_of(ctx, answer[0])
        return False


# base-wind-06 Genie: ⚡ resolve every Active effect of the area once, now, in the owner's order (RUL-17, EFF-5).
instant("base-wind-06", Effect(
    (_ResolveEachActive(ACTIVATED, "Genie: choose the next Active effect to resolve", _actives_not_yet_resolved),),
    rule="RUL-17",
))


def _hippogriff_cost(card: Card) -> int:
    return -2 if card.family is Family.WIND else 0


# base-wind-07 Hippogriff: ⚡ draw 1 card; ∞ your Wind cards cost 2 less, never below 0 (SUM-3, EFF-3).
instant("base-wind-07", Effect((Draw(),), rule="DECK-1"))
permanent("base-wind-07", Permanent(cost_change=_hippogriff_cost, rule="SUM-3"))


def _sylph(table: Table, owner: int, card_id: str, summon: SummonInfo) -> None:
    table.gain_points(owner, 1, card_id)


# base-wind-08 Sylph: ⚡ draw 1 card; ∞ whenever you summon a card, free summons too, 1 point (not its own: EFF-3).
instant("base-wind-08", Effect((Draw(),), rule="DECK-1"))
permanent("base-wind-08", Permanent(on_summon=_sylph, rule="EFF-3"))


def _other_actives(ctx: EffectContext) -> list[str]:
    return [c for c in ctx.table.state.players[ctx.owner].area if c in ACTIVE and c != ctx.card_id]


def _copy_chosen_active(ctx: EffectContext) -> None:
    card_id = ctx.chosen(COPY)
    if card_id is not None:
        copy_effect(ctx, card_id, EffectType.ACTIVE)


# base-wind-09 Genie Exalted: ⌛ resolve another area card's Active effect as if printed here; none: nothing (RUL-12).
active("base-wind-09", Effect((
    ChooseCards(COPY, "Genie Exalted: choose another card's Active effect to copy", _other_actives),
    Do(_copy_chosen_active),
), rule="RUL-12"))

# base-wind-10 Valkyrie: ⌛ 1 point per different family in the area (Valkyrie's Wind included).
active("base-wind-10", Effect((
    ChooseFamilyForLook(),
    gain_points_per(1, lambda ctx: ctx.families_in_area()),
), rule="EFF-5"))


def _odin(ctx: EffectContext) -> None:
    if len(ctx.hand()) < 6:
        ctx.table.gain_points(ctx.owner, 2, ctx.source_id)
    else:
        ctx.table.gain_stones(ctx.owner, Stones(purple=1), ctx.source_id)


# base-wind-11 Odin: ⌛ fewer than 6 cards in hand: 2 points; otherwise 1 purple stone (EFF-5: order matters).
active("base-wind-11", Effect((Do(_odin),), rule="EFF-5"))

# base-wind-12 Freyja: ⌛ 1 point per area card with an Active effect, Freyja included.
active("base-wind-12", Effect(
    (gain_points_per(1, lambda ctx: sum(1 for c in ctx.area() if c.has(EffectType.ACTIVE))),), rule="EFF-5",
))

# base-wind-13 Griffon: ⌛ draw 1 card (DECK-1; EFF-5: order matters).
active("base-wind-13", Effect((Draw(),), rule="DECK-1"))

# base-wind-14 Rudra: ⚡ 2 points per card in hand (Rudra itself has left the hand: SUM-5).
instant("base-wind-14", Effect((gain_points_per(2, lambda ctx: len(ctx.hand())),), rule="SUM-5"))

# base-wind-15 Gi-rin: ⚡ 2 points per card in the area, Gi-rin included (SUM-5).
instant("base-wind-15", Effect((gain_points_per(2, lambda ctx: ctx.count_in_area()),), rule="SUM-5"))
