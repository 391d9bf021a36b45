"""Artifacts expansion: Dragon family effects (art-dragon-*). Handlers cite their card; rulings name rule ids."""

from __future__ import annotations

from oracle.core.model import Family
from oracle.reference.effects.context import EffectContext
from oracle.reference.effects.registry import Effect, instant
from oracle.reference.effects.steps import (
    ChooseCards,
    ChoosePlayer,
    Do,
    chosen_player,
    chosen_players_cards,
    gain_points,
    players_with_summoned,
    summoned_anywhere,
)
from oracle.reference.notes import SWAP, TARGET


def _swap(ctx: EffectContext) -> None:
    """'This card' is the acting card (the copier for Scorch: RUL-12); leaving by a swap is no discard (ART-10).

    The acting card is still in the area (the stages before only give points and choose), and the chosen player
    had a card of the family other than the acting Dragon, so one was picked."""
    card_id = ctx.chosen(SWAP)
    assert card_id is not None, "the chosen player had a card of the family to pick"
    ctx.table.swap_summoned(ctx.owner, ctx.card_id, chosen_player(ctx), card_id, ctx.source_id)


def _points_then_swap(name: str, points: int, family: Family) -> Effect:
    """Gain points; choose a player (yourself allowed) with a summoned ``family`` card; THAT player picks one, which
    comes to your area while this card goes to theirs (yourself: both stay). No such card anywhere: no summon (RUL-3).
    """
    label = family.value.capitalize()
    return Effect((
        gain_points(points),
        ChoosePlayer(TARGET, f"{name}: choose a player with a summoned {label} card", players_with_summoned(family)),
        ChooseCards(SWAP, f"{name}: choose one of your summoned {label} cards to swap with {name}",
                    chosen_players_cards(family, exclude_acting=True), chooser=chosen_player),
        Do(_swap),
    ), can_resolve=summoned_anywhere(family), rule="RUL-3")


# art-dragon-01 Deepdive: ⚡ 7 points; a chosen player (you allowed) swaps a Water card they pick with it (RUL-3).
instant("art-dragon-01", _points_then_swap("Deepdive", 7, Family.WATER))

# art-dragon-02 Pyro: ⚡ 7 points; a chosen player (you allowed) swaps a Fire card they pick with it (RUL-3).
instant("art-dragon-02", _points_then_swap("Pyro", 7, Family.FIRE))

# art-dragon-03 Rockscale: ⚡ 8 points; a chosen player (you allowed) swaps an Earth card they pick with it (RUL-3).
instant("art-dragon-03", _points_then_swap("Rockscale", 8, Family.EARTH))

# art-dragon-04 Whisper: ⚡ 8 points; a chosen player (you allowed) swaps a Wind card they pick with it (RUL-3).
instant("art-dragon-04", _points_then_swap("Whisper", 8, Family.WIND))
