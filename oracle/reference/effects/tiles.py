"""Artifacts expansion: the 11 artifact tiles, registered by tile id, each under a headline like the cards':
``# <id> <Name>: <instant|action|permanent>, <effect> (rules)``.

A tile's effect frame has the effect kind ``ARTIFACT`` and the tile id as its card, so ``ctx.card_id`` and
``ctx.source_id`` are the tile id. Instant tiles resolve as soon as they are taken (ART-4); Action tiles
once on the holder's Action turn, the tile going back to the display first (ART-5); the Gem of Kukulkan is
the one Permanent tile (its ``on_sell`` pushes the frame of its optional payment, RUL-7).
"""

from __future__ import annotations

from collections.abc import Callable

from oracle.core.cards import Card
from oracle.core.model import Family, Stones
from oracle.core.options import option
from oracle.core.protocol import DecisionKind
from oracle.reference.decisions import DecisionSpec
from oracle.reference.effects.context import EffectContext
from oracle.reference.effects.loki import ChooseFamilyForLook, chose_the_wildcard, has_family
from oracle.reference.effects.registry import ACTIVE, Answer, Effect, Tile, TileAbility, tile
from oracle.reference.effects.steps import (
    Automatic,
    ChooseCards,
    ChooseOptions,
    Do,
    Draw,
    PayPrice,
    ShelterFromDrawPile,
    UpgradeStones,
    another_card_in_hand,
    can_pay,
    chose,
    discard_chosen_from_hand,
    gain_stones,
    hand_cards,
    held_stones,
    holds_an_upgradable_stone,
    resolve_active_of,
)
from oracle.reference.notes import ACTIVATE, DISCARD, OPTIONS, RETRIEVE, SHELTER, SOLD
from oracle.reference.state import EffectKind, Zone
from oracle.reference.table import Table

MAX_EXTRA_AREAS = 2
AREA_PRICE = 3


def _can_buy_area(table: Table, player: int) -> bool:
    """ART-8: at most two Additional Areas per player."""
    return table.state.players[player].extra_areas < MAX_EXTRA_AREAS


def _cards_to_shelter_from_draw(table: Table) -> bool:
    """A card can be sheltered from the draw pile, after a reshuffle if need be (DECK-1)."""
    return bool(table.state.draw_pile or table.state.discard_pile)


def _shelter(ctx: EffectContext) -> list[str]:
    return list(ctx.table.state.players[ctx.owner].shelter)


def _buy_area(ctx: EffectContext) -> None:
    ctx.table.buy_area(ctx.owner, ctx.source_id)


def _incense_available(table: Table, owner: int) -> list[str]:
    """ART-8 / RUL-9: buying is offered below two Additional Areas with a legal payment of 3; sheltering with a
    card left in the draw or discard pile."""
    options = []
    if _can_buy_area(table, owner) and can_pay(table, owner, AREA_PRICE):
        options.append(option("tile-incense-burner", "buy_area"))
    if _cards_to_shelter_from_draw(table):
        options.append(option("tile-incense-burner", "shelter_top_2"))
    return options


# tile-incense-burner Incense Burner: action, buy an Additional Area for a price of 3, or shelter the top 2 cards
# of the draw pile (ART-8, RUL-9).
tile("tile-incense-burner", Tile(TileAbility.ACTION, Effect((
    ChooseOptions(OPTIONS, "Incense Burner: buy an Additional Area for 3, or shelter the top 2 cards of the draw pile",
                  lambda ctx: _incense_available(ctx.table, ctx.owner)),
    PayPrice(AREA_PRICE, "Incense Burner: pay 3 for an Additional Area", _buy_area,
             when=chose(OPTIONS, option("tile-incense-burner", "buy_area"))),
    ShelterFromDrawPile(2, when=chose(OPTIONS, option("tile-incense-burner", "shelter_top_2"))),
), can_resolve=lambda table, owner, tile_id: bool(_incense_available(table, owner)), rule="RUL-9"), rule="RUL-9"))


def _staff_discard(ctx: EffectContext) -> None:
    """Exactly 2 hand cards were chosen (the choice asks for 2, and the tile is usable only with 2 in hand)."""
    discard_chosen_from_hand(ctx)
    ctx.table.gain_stones(ctx.owner, Stones(2, 1, 1), ctx.source_id)


def _two_hand_cards(table: Table, owner: int, tile_id: str) -> bool:
    return len(table.hand(owner)) >= 2


# tile-monkey-king-s-staff Monkey King's Staff: action, discard 2 hand cards to gain 2 red, 1 blue and 1 purple
# stone (usable with 2 cards in hand).
tile("tile-monkey-king-s-staff", Tile(TileAbility.ACTION, Effect((
    ChooseCards(DISCARD, "Monkey King's Staff: discard 2 cards from your hand", hand_cards, least=2, most=2),
    Do(_staff_discard),
), can_resolve=_two_hand_cards)))


def _piper_options(ctx: EffectContext) -> list[str]:
    """ART-14: retrieving is offered only with cards in the holder's own shelter."""
    draw, retrieve_all = option("tile-pied-piper-s-pipe", "draw"), option("tile-pied-piper-s-pipe", "retrieve_all")
    return [draw, retrieve_all] if _shelter(ctx) else [draw]


def _retrieve_all(ctx: EffectContext) -> None:
    if ctx.chosen(OPTIONS) == option("tile-pied-piper-s-pipe", "retrieve_all"):
        for card_id in sorted(_shelter(ctx)):
            ctx.table.retrieve(ctx.owner, card_id, ctx.source_id)


# tile-pied-piper-s-pipe Pied Piper's Pipe: instant, draw 1 card, or retrieve all your sheltered cards (ART-14).
tile("tile-pied-piper-s-pipe", Tile(TileAbility.INSTANT, Effect((
    ChooseOptions(OPTIONS, "Pied Piper's Pipe: draw 1 card, or retrieve all your sheltered cards", _piper_options),
    Draw(when=chose(OPTIONS, option("tile-pied-piper-s-pipe", "draw"))),
    Do(_retrieve_all),
), rule="ART-14"), rule="ART-14"))


class _RevealOne(Automatic):
    """ART-13: one more card is revealed into the display (after a reshuffle if the draw pile is empty)."""

    def act(self, ctx: EffectContext) -> bool:
        if ctx.table.needs_shuffle():
            ctx.table.push_shuffle()
            return False
        ctx.table.reveal(1)
        return True


def _unmarked_display(ctx: EffectContext) -> list[str]:
    marked = {c for p in ctx.table.state.players for c in p.markers}
    return [c for c in ctx.table.state.display if c not in marked]


def _shelter_from_display(ctx: EffectContext) -> None:
    card_id = ctx.chosen(SHELTER)
    if card_id is not None:
        ctx.table.shelter(ctx.owner, card_id, Zone.DISPLAY, ctx.source_id)


# tile-seven-league-boots Seven-League Boots: instant, reveal one more card, then shelter 1 card of the display
# (ART-13).
tile("tile-seven-league-boots", Tile(TileAbility.INSTANT, Effect((
    _RevealOne(),
    ChooseCards(SHELTER, "Seven-League Boots: shelter 1 card of the display", _unmarked_display),
    Do(_shelter_from_display),
), rule="ART-13"), rule="ART-13"))


def _fleece_options(ctx: EffectContext) -> list[str]:
    options = []
    if _cards_to_shelter_from_draw(ctx.table):
        options.append(option("tile-golden-fleece", "shelter_top"))
    if _shelter(ctx):
        options.append(option("tile-golden-fleece", "retrieve"))
    return options


def _retrieve_chosen(ctx: EffectContext) -> None:
    card_id = ctx.chosen(RETRIEVE)
    if card_id is not None:
        ctx.table.retrieve(ctx.owner, card_id, ctx.source_id)


def _own_shelter_if(option: str) -> Callable[[EffectContext], list[str]]:
    """ART-14: the holder's own sheltered cards, when ``option`` was chosen."""
    chose_option = chose(OPTIONS, option)

    def candidates(ctx: EffectContext) -> list[str]:
        return _shelter(ctx) if chose_option(ctx) else []

    return candidates


# tile-golden-fleece Golden Fleece: action, gain 2 red stones, then shelter the top card of the draw pile or
# retrieve 1 sheltered card (ART-7).
tile("tile-golden-fleece", Tile(TileAbility.ACTION, Effect((
    gain_stones(Stones(red=2)),
    ChooseOptions(OPTIONS, "Golden Fleece: shelter the top card of the draw pile, or retrieve 1 sheltered card",
                  _fleece_options),
    ShelterFromDrawPile(1, when=chose(OPTIONS, option("tile-golden-fleece", "shelter_top"))),
    ChooseCards(RETRIEVE, "Golden Fleece: retrieve 1 of your sheltered cards",
                _own_shelter_if(option("tile-golden-fleece", "retrieve"))),
    Do(_retrieve_chosen),
))))


# tile-book-of-thoth Book of Thoth: action, upgrade up to 2 of your stones one step each (RUL-8).
tile("tile-book-of-thoth", Tile(TileAbility.ACTION, Effect((
    UpgradeStones("Book of Thoth: upgrade up to 2 of your stones, each one step", held_stones, most=2),
), can_resolve=holds_an_upgradable_stone, rule="RUL-8"), rule="RUL-8"))


def _shelter_from_hand(ctx: EffectContext) -> None:
    """The tile is usable only with a hand card (SUM-4 for tiles), so one was chosen."""
    card_id = ctx.chosen(SHELTER)
    assert card_id is not None, "the Cap of Hades is used only with a hand card"
    ctx.table.shelter(ctx.owner, card_id, Zone.HAND, ctx.source_id)


def _cap_options(ctx: EffectContext) -> list[str]:
    """A card was sheltered (the tile needs one in hand); the free area only below two (ART-8)."""
    buy_area, purple = option("tile-cap-of-hades", "buy_area"), option("tile-cap-of-hades", "purple")
    return [buy_area, purple] if _can_buy_area(ctx.table, ctx.owner) else [purple]


def _cap_reward(ctx: EffectContext) -> None:
    if ctx.chosen(OPTIONS) == option("tile-cap-of-hades", "buy_area"):
        _buy_area(ctx)
    else:
        ctx.table.gain_stones(ctx.owner, Stones(purple=1), ctx.source_id)


# tile-cap-of-hades Cap of Hades: action, shelter 1 hand card, then buy an Additional Area for free or gain 1 purple
# stone (ART-8).
tile("tile-cap-of-hades", Tile(TileAbility.ACTION, Effect((
    ChooseCards(SHELTER, "Cap of Hades: shelter 1 card from your hand", hand_cards),
    Do(_shelter_from_hand),
    ChooseOptions(OPTIONS, "Cap of Hades: buy an Additional Area for free, or gain 1 purple stone", _cap_options),
    Do(_cap_reward),
), can_resolve=another_card_in_hand, rule="ART-8"), rule="ART-8"))


GEM = "tile-gem-of-kukulkan"


def _gem_on_sell(table: Table, player: int, tile_id: str, card: Card, stones: Stones) -> None:
    """RUL-7: the offer comes after the sale's stones and the holding limit. The frame is pushed now, so the
    holding-limit decision, pushed on top of it when the sale finishes, is answered first."""
    table.push_effect(player, tile_id, EffectKind.ARTIFACT, memo={SOLD: card.id})


def _gem_options(ctx: EffectContext) -> list[str]:
    sold = ctx.note(SOLD)
    if ctx.table.stones(ctx.owner).red < 1 or sold not in ctx.table.state.discard_pile:
        return []
    return [option("tile-gem-of-kukulkan", "pay_red"), option("tile-gem-of-kukulkan", "decline")]


def _gem_take_back(ctx: EffectContext) -> None:
    sold = ctx.note(SOLD)
    if ctx.chosen(OPTIONS) == option("tile-gem-of-kukulkan", "pay_red") and sold is not None:
        ctx.table.pay_stones(ctx.owner, Stones(red=1), purpose="Gem of Kukulkan")
        ctx.table.take_from_discard_pile(ctx.owner, sold, ctx.source_id)


# tile-gem-of-kukulkan Gem of Kukulkan: permanent, after a sale you may pay 1 red stone to put the sold card into
# your hand (RUL-7).
tile(GEM, Tile(TileAbility.PERMANENT, Effect((
    ChooseOptions(OPTIONS, "Gem of Kukulkan: pay 1 red stone to put the sold card into your hand?", _gem_options),
    Do(_gem_take_back),
), rule="RUL-7"), on_sell=_gem_on_sell, rule="RUL-7"))


def _own_area(ctx: EffectContext) -> list[str]:
    return list(ctx.table.state.players[ctx.owner].area)


def _seal_discard(ctx: EffectContext) -> None:
    """ART-10: a real discard from the area (Ash replaces it, Totem Pole reacts). The family is read before the
    discard, on the owner's turn (Loki as its owner chose for this look: ART-11)."""
    card_id = ctx.the_chosen(DISCARD)
    dragon = has_family(ctx, card_id, Family.DRAGON)
    ctx.table.discard_from_area(ctx.owner, card_id, ctx.source_id)
    if dragon:
        ctx.table.gain_stones(ctx.owner, Stones(blue=1), ctx.source_id)


def _area_not_empty(table: Table, owner: int, tile_id: str) -> bool:
    return bool(table.state.players[owner].area)


# tile-imperial-seal Imperial Seal: action, discard 1 of your summoned cards; a Dragon gains 1 blue stone (ART-10;
# Loki's family is asked for the look: ART-11).
tile("tile-imperial-seal", Tile(TileAbility.ACTION, Effect((
    ChooseCards(DISCARD, "Imperial Seal: discard 1 of your summoned cards", _own_area),
    ChooseFamilyForLook(when=chose_the_wildcard(DISCARD)),
    Do(_seal_discard),
), can_resolve=_area_not_empty, rule="ART-10"), rule="ART-10"))


PHILOSOPHER = "tile-philosopher-s-stone"


class _PhilosopherChoice:
    """Retrieve 1 and/or discard 1 for a purple stone: one or both parts, both only with 2 sheltered cards."""

    def decide(self, ctx: EffectContext) -> DecisionSpec | None:
        sheltered = len(_shelter(ctx))
        if sheltered == 0:
            return None
        return DecisionSpec(
            DecisionKind.CHOOSE_OPTIONS, ctx.owner,
            "Philosopher's Stone: retrieve 1 sheltered card and/or discard 1 from your shelter for 1 purple stone",
            source=ctx.source_id,
            options=(option(PHILOSOPHER, "retrieve"), option(PHILOSOPHER, "discard_for_purple")),
            min=1, max=min(2, sheltered),
        )

    def resolve(self, ctx: EffectContext, answer: Answer) -> bool:
        ctx.remember(OPTIONS, answer if isinstance(answer, tuple) else ())
        return True


def _discard_for_purple(ctx: EffectContext) -> None:
    card_id = ctx.chosen(DISCARD)
    if card_id is not None:
        ctx.table.discard_from_shelter(ctx.owner, card_id, ctx.source_id)
        ctx.table.gain_stones(ctx.owner, Stones(purple=1), ctx.source_id)


# tile-philosopher-s-stone Philosopher's Stone: instant, retrieve 1 sheltered card and/or discard 1 from your
# shelter for 1 purple stone (ART-7).
tile("tile-philosopher-s-stone", Tile(TileAbility.INSTANT, Effect((
    _PhilosopherChoice(),
    ChooseCards(RETRIEVE, "Philosopher's Stone: retrieve 1 of your sheltered cards",
                _own_shelter_if(option("tile-philosopher-s-stone", "retrieve"))),
    Do(_retrieve_chosen),
    ChooseCards(DISCARD, "Philosopher's Stone: discard 1 card from your shelter for 1 purple stone",
                _own_shelter_if(option("tile-philosopher-s-stone", "discard_for_purple"))),
    Do(_discard_for_purple),
), rule="ART-7"), rule="ART-7"))


def _wishable(table: Table, owner: int) -> list[str]:
    """Cards of the owner's area with an Active effect that can be resolved now."""
    return [
        c for c in table.state.players[owner].area
        if c in ACTIVE and ACTIVE[c].can_resolve(table, owner, c)
    ]


def _ring_resolve(ctx: EffectContext) -> None:
    """ART-15: at once, in the Action phase; the card's own Resolution-phase use is not spent."""
    card_id = ctx.chosen(ACTIVATE)
    assert card_id is not None, "the Ring of Wishes is used only with an Active effect that can be resolved"
    resolve_active_of(ctx, card_id)


# tile-ring-of-wishes Ring of Wishes: action, resolve the Active effect of one card of your area (ART-15).
tile("tile-ring-of-wishes", Tile(TileAbility.ACTION, Effect((
    ChooseCards(ACTIVATE, "Ring of Wishes: resolve the Active effect of one card in your area",
                lambda ctx: _wishable(ctx.table, ctx.owner)),
    Do(_ring_resolve),
), can_resolve=lambda table, owner, tile_id: bool(_wishable(table, owner)), rule="ART-15"), rule="ART-15"))
