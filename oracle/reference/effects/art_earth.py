"""Artifacts expansion: Earth family effects (art-earth-*). Handlers cite their card; rulings name rule ids."""

from __future__ import annotations

from oracle.core.cards import Card
from oracle.core.model import Family, Stones
from oracle.core.options import option
from oracle.reference.effects.context import EffectContext
from oracle.reference.effects.registry import Effect, Permanent, active, instant, permanent, triggered
from oracle.reference.effects.steps import (
    ChooseCards,
    ChooseOptions,
    Do,
    UpgradeStones,
    another_card_in_area,
    gain_points,
    gain_printed_cost_of,
    held_stones,
    holds_an_upgradable_stone,
    other_summoned,
    points_per_card_of,
    recover_self,
    recovers_itself,
)
from oracle.reference.notes import DISCARD, OPTIONS, RECEIVED
from oracle.reference.state import EffectKind
from oracle.reference.table import Table


def _lose_one_point(ctx: EffectContext) -> None:
    ctx.table.lose_points(ctx.owner, 1, ctx.source_id)


# art-earth-01 Duduri: ⚡ lose 1 point (at most what you have: SCORE-1), then upgrade one of your stones one step,
# your choice; needs a red or blue stone to be summoned (SUM-4, STONE-2); ⌛ Recover (EFF-6).
instant("art-earth-01", Effect((
    Do(_lose_one_point),
    UpgradeStones("Duduri: upgrade one of your stones one step", held_stones),
), can_resolve=holds_an_upgradable_stone, rule="STONE-2"))
active("art-earth-01", Effect((recover_self(),), rule="EFF-6"))

DUDURI_KING = "art-earth-02"


def _received(ctx: EffectContext) -> Stones:
    return ctx.note(RECEIVED)


def _duduri_king(table: Table, owner: int, king: str, sold: Card, received: Stones) -> None:
    """One received stone goes up one step; a purple one cannot (STONE-2). Only a Wind sale (1 red and 1 blue)
    leaves a choice: an upgrade decision on a frame of its own. Like the one-colour upgrades, it comes before any
    holding-limit choice (LIMIT-2: the gain's Permanent effects happen first)."""
    if received.red and received.blue:
        table.push_effect(owner, king, EffectKind.PERMANENT, memo={RECEIVED: received})
    elif received.red:
        table.upgrade_stones(owner, 1, 0, king)
    elif received.blue:
        table.upgrade_stones(owner, 0, 1, king)


# art-earth-02 Duduri King: ∞ whenever you sell a card, upgrade one of the stones received from that sale one step
# (STONE-2); a one-colour sale leaves no choice; a Dragon's purple stone cannot go up.
permanent(DUDURI_KING, Permanent(on_sell=_duduri_king, rule="STONE-2"))
triggered(DUDURI_KING, Effect((
    UpgradeStones("Duduri King: upgrade one of the stones received from the sale", _received),
), rule="STONE-2"))


# art-earth-03 Anubis: ⚡ discard another of your summoned cards and gain its printed cost in points; needs one to be
# summoned (SUM-4, ART-10).
instant("art-earth-03", Effect((
    ChooseCards(DISCARD, "Anubis: discard another of your summoned cards", other_summoned),
    gain_printed_cost_of(DISCARD, lambda table, owner, card, source: table.discard_from_area(owner, card, source)),
), can_resolve=another_card_in_area, rule="SUM-4"))

DISCARD_SELF = option("art-earth-04", "discard_this_card")
LOSE_POINTS = option("art-earth-04", "lose_two_points")


def _mandrake_options(ctx: EffectContext) -> list[str]:
    """EFF-1: the prices that can be paid; the points need the points (RUL-14). Discarding this card can always be
    paid: an Active effect (Mandrake's, or Genie Exalted copying it) starts from the area, with this choice first."""
    return [DISCARD_SELF, LOSE_POINTS] if ctx.table.score(ctx.owner) >= 2 else [DISCARD_SELF]


def _mandrake(ctx: EffectContext) -> None:
    """'This card' is the acting card (RUL-12); discarding it is a discard (ART-10: Totem Pole triggers)."""
    if ctx.chosen(OPTIONS) == DISCARD_SELF:
        ctx.table.discard_from_area(ctx.owner, ctx.card_id, ctx.source_id)
    else:
        ctx.table.lose_points(ctx.owner, 2, ctx.source_id)
    ctx.table.gain_stones(ctx.owner, Stones(purple=1), ctx.source_id)


# art-earth-04 Mandrake: ⚡ 3 points; ⌛ discard this card or lose 2 points, then gain 1 purple stone (EFF-2, RUL-14,
# ART-10).
instant("art-earth-04", Effect((gain_points(3),)))
active("art-earth-04", Effect((
    ChooseOptions(OPTIONS, "Mandrake: discard this card or lose 2 points", _mandrake_options),
    Do(_mandrake),
), rule="ART-10"))


def _totem_pole(table: Table, owner: int, totem: str, discarded: str) -> None:
    table.gain_stones(owner, Stones(purple=1), totem)


# art-earth-05 Totem Pole: ∞ whenever another of your summoned cards is discarded, by anyone, gain 1 purple stone
# (ART-10: Ash, Tengu and the swap dragons leaving the area are not discards).
permanent("art-earth-05", Permanent(on_other_discarded=_totem_pole, rule="ART-10"))


def _wendigo(table: Table, owner: int, card_id: str, lost: int) -> None:
    recovers_itself(table, owner, card_id)


# art-earth-06 Wendigo: ⚡ 2 points per Earth card in the area, Wendigo included (SUM-5); ∞ when you lose 1 or more
# points it recovers itself at once (RUL-4).
instant("art-earth-06", Effect(points_per_card_of(2, Family.EARTH), rule="SUM-5"))
permanent("art-earth-06", Permanent(on_lose_points=_wendigo, rule="RUL-4"))
