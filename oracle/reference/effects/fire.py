"""Fire family effects (base game). Each handler cites its card; rulings are named by rule id."""

from __future__ import annotations

from oracle.core.cards import Card
from oracle.core.model import Color, EffectType, Family, Stones
from oracle.reference.effects.context import EffectContext
from oracle.reference.effects.loki import ChooseFamilyForLook
from oracle.reference.effects.registry import Effect, Permanent, SummonInfo, active, instant, permanent
from oracle.reference.effects.steps import (
    ChooseCards,
    Do,
    discard_stones_for_points,
    gain_points,
    gain_points_if,
    gain_points_per,
    gain_stones,
    points_per_card_of,
    recover_chosen,
    recover_self,
)
from oracle.reference.notes import RECOVER
from oracle.reference.table import Table

# base-fire-01 Hestia: ∞ the holding limit is 2 higher (LIMIT-1).
permanent("base-fire-01", Permanent(limit_bonus=2, rule="LIMIT-1"))

# base-fire-02 Imp: ⚡ gain 2 red stones; ⌛ Recover (EFF-6).
instant("base-fire-02", Effect((gain_stones(Stones(red=2)),)))
active("base-fire-02", Effect((recover_self(),), rule="EFF-6"))


def _succubus_costs_present(ctx: EffectContext) -> bool:
    return {1, 2, 3, 4} <= {c.cost for c in ctx.area()}


# base-fire-03 Succubus: ⚡ 10 points if the area holds printed costs 1, 2, 3 and 4.
instant("base-fire-03", Effect((gain_points_if(10, _succubus_costs_present),), rule="SUM-5"))

# base-fire-04 Firefox: ⚡ 1 point per card in hand (Firefox itself is no longer in the hand: SUM-5).
instant("base-fire-04", Effect((gain_points_per(1, lambda ctx: len(ctx.hand())),), rule="SUM-5"))

# base-fire-05 Salamander: ⌛ gain 1 red stone and 1 point.
active("base-fire-05", Effect((gain_stones(Stones(red=1)), gain_points(1))))

# base-fire-06 Horned Salamander: ⌛ gain 4 red stones.
active("base-fire-06", Effect((gain_stones(Stones(red=4)),)))

# base-fire-07 Ifrit: ⚡ 1 point per card in the area, Ifrit included (SUM-5).
instant("base-fire-07", Effect((gain_points_per(1, lambda ctx: ctx.count_in_area()),), rule="SUM-5"))

# base-fire-08 Incubus: ⚡ 2 points per card of printed cost 2 or less in the area, Incubus included (SUM-5).
instant(
    "base-fire-08",
    Effect((gain_points_per(2, lambda ctx: sum(1 for c in ctx.area() if c.cost <= 2)),), rule="SUM-5"),
)


# base-fire-09 Burning Skull: ⌛ discard a red stone; if you did, gain 3 points (EFF-2).
active("base-fire-09", Effect((discard_stones_for_points(Stones.of(Color.RED), 3),), rule="EFF-2"))

# base-fire-10 Lava Giant: ⚡ 2 points per Fire card in the area, Lava Giant included (SUM-5).
instant("base-fire-10", Effect(points_per_card_of(2, Family.FIRE), rule="SUM-5"))


def _phoenix(table: Table, owner: int, card_id: str, summon: SummonInfo) -> None:
    table.gain_points(owner, summon.paid.red, card_id)


# base-fire-11 Phoenix: ∞ on each summon, 1 point per red stone paid (RUL-1; not its own summon: EFF-3).
permanent("base-fire-11", Permanent(on_summon=_phoenix, rule="RUL-1"))

# base-fire-12 Agni: ∞ red stones are worth 1 more (PAY-4, RUL-16).
permanent("base-fire-12", Permanent(red_bonus=1, rule="RUL-16"))


def _recover_one(prompt: str, fits: tuple[str, ...] = (), family: Family | None = None, max_cost: int = 99) -> Effect:
    """⌛ Recover one of your summoned cards with an Instant effect that fits (EFF-1: a fitting card must be taken)."""

    def candidates(ctx: EffectContext) -> list[str]:
        return [card.id for card in ctx.area() if _fits(card, family, max_cost)]

    return Effect((ChooseCards(RECOVER, prompt, candidates), Do(recover_chosen)), rule="EFF-6")


def _fits(card: Card, family: Family | None, max_cost: int) -> bool:
    return card.has(EffectType.INSTANT) and card.cost <= max_cost and (family is None or card.family is family)


# base-fire-13 Asmodeus: ⌛ Recover a summoned card with an Instant effect and printed cost 2 or less.
active("base-fire-13", _recover_one("Asmodeus: recover a card with an Instant effect, cost 2 or less", max_cost=2))

# base-fire-14 Balog: ⌛ Recover a summoned Fire card with an Instant effect.
active("base-fire-14", _recover_one("Balog: recover a Fire card with an Instant effect", family=Family.FIRE))

# base-fire-15 Surtr: ⚡ 2 points per family in the area (SUM-5).
instant("base-fire-15", Effect((
    ChooseFamilyForLook(),
    gain_points_per(2, lambda ctx: ctx.families_in_area()),
), rule="SUM-5"))
