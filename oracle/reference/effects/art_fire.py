"""Artifacts expansion: Fire family effects (art-fire-*). Handlers cite their card; rulings name rule ids."""

from __future__ import annotations

from oracle.core.cards import Card
from oracle.core.model import Family, Stones
from oracle.core.options import option
from oracle.reference.effects.context import EffectContext
from oracle.reference.effects.registry import Effect, Permanent, active, instant, permanent
from oracle.reference.effects.steps import (
    ChooseOptions,
    Do,
    gain_points_per,
    gain_stones,
    points_per_card_of,
    recovers_itself,
)
from oracle.reference.notes import OPTIONS
from oracle.reference.table import Table


def _ash(table: Table, owner: int, card_id: str) -> None:
    recovers_itself(table, owner, card_id)
    table.gain_points(owner, table.state.round, card_id)


# art-fire-01 Ash: ∞ any discard of this card from its owner's area becomes a Recover plus points equal to the
# round; it is then not discarded (RUL-5, ART-10: Totem Pole does not trigger).
permanent("art-fire-01", Permanent(replaces_own_discard=_ash, rule="RUL-5"))

# art-fire-02 Fire Rat: ⚡ 1 point per card of printed cost 3 or less in the area, Fire Rat included (SUM-5).
instant("art-fire-02", Effect((gain_points_per(1, lambda ctx: sum(1 for c in ctx.area() if c.cost <= 3)),),
                              rule="SUM-5"))


def _bul_gae(ctx: EffectContext) -> None:
    if ctx.table.stones(ctx.owner).total >= 4:
        ctx.table.gain_points(ctx.owner, 2, ctx.source_id)
    else:
        ctx.table.gain_stones(ctx.owner, Stones(red=3), ctx.source_id)


# art-fire-03 Bul-gae: ⌛ holding 4 or more stones: 2 points; otherwise 3 red stones.
active("art-fire-03", Effect((Do(_bul_gae),)))


def _fireblast_recovers(table: Table, owner: int) -> bool:
    return table.stones(owner).total >= 4


# art-fire-04 Fireblast: ⚡ 1 point per pair of Fire cards in the area, Fireblast included (SUM-5); ∞ holding 4 or
# more stones, it recovers itself at once, before any holding-limit choice (RUL-4).
instant("art-fire-04", Effect(points_per_card_of(1, Family.FIRE, group=2), rule="SUM-5"))
permanent("art-fire-04", Permanent(recover_when=_fireblast_recovers, rule="RUL-4"))

LOSE_BLUE = option("art-fire-05", "lose_blue_stone")
LOSE_RED = option("art-fire-05", "lose_three_red_stones")
LOSE_POINTS = option("art-fire-05", "lose_two_points")
HEPHAESTUS_REWARDS: dict[str, tuple[Stones, int]] = {
    LOSE_BLUE: (Stones(blue=1), 0),
    LOSE_RED: (Stones(red=3), 0),
    LOSE_POINTS: (Stones(), 2),
}


def _hephaestus_options(ctx: EffectContext) -> list[str]:
    """ART-12: only the rewards the player can give up are offered; with none of them nothing happens."""
    held = ctx.table.stones(ctx.owner)
    have = ctx.table.score(ctx.owner)
    return [name for name, (stones, points) in HEPHAESTUS_REWARDS.items() if held.contains(stones) and have >= points]


def _hephaestus(ctx: EffectContext) -> None:
    """Give up the chosen reward, then earn the other two (their stones arrive together: one limit check)."""
    lost = ctx.chosen(OPTIONS)
    if lost is not None:
        stones, points = HEPHAESTUS_REWARDS[lost]
        ctx.table.discard_stones(ctx.owner, stones, ctx.source_id)
        ctx.table.lose_points(ctx.owner, points, ctx.source_id)
        earned = [reward for name, reward in HEPHAESTUS_REWARDS.items() if name != lost]
        ctx.table.gain_stones(ctx.owner, sum((s for s, _ in earned), Stones()), ctx.source_id)
        ctx.table.gain_points(ctx.owner, sum(p for _, p in earned), ctx.source_id)


# art-fire-05 Hephaestus: ⌛ give up one of [1 blue stone] / [3 red stones] / [2 points] and earn the other two;
# it must be used, only rewards the player has can be given up (ART-12, EFF-1, RUL-14).
active("art-fire-05", Effect((
    ChooseOptions(OPTIONS, "Hephaestus: choose the reward to give up", _hephaestus_options),
    Do(_hephaestus),
), rule="ART-12"))


def _belphegor_cost(card: Card) -> int | None:
    return 1 if card.family is Family.FIRE else None


# art-fire-06 Belphegor: ⚡ gain 1 red stone; ∞ your Fire cards cost exactly 1, whatever else applies (ART-9).
instant("art-fire-06", Effect((gain_stones(Stones(red=1)),)))
permanent("art-fire-06", Permanent(fixed_cost=_belphegor_cost, rule="ART-9"))
