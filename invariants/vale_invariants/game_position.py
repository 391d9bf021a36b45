"""A random Action-phase position to start a fuzzed game from, dealt from the set-up's deck."""

from __future__ import annotations

from collections.abc import Callable

from oracle.core.json_types import JSON
from oracle.reference.snapshot import parse_setup, tiles_for


def random_position(setup: JSON, draw: Callable[[int, int], int], scarce: bool = False) -> JSON:
    """A random Action-phase position: the round, then each player's hand, area, stones and score (with the
    tiles also their shelter, Additional Areas and held tile), then the discard pile and (with the tiles)
    the square markers, dealt from the set-up's deck (the rest is the draw pile).

    ``scarce``: the draw pile is empty and every undealt card is in the discard pile, before round 10 and
    well short of the end score, so the next Hunting phase must reshuffle (DECK-1): a ``shuffle`` decision."""
    n = setup["players"]
    artifacts = bool(setup.get("artifacts"))
    round_number = draw(1, 9 if scarce else 10)
    deck = list(setup["deck"])
    free_tiles = tiles_for(parse_setup(setup)) if artifacts else []
    players: list[JSON] = []
    for _ in range(n):
        hand_size = draw(0, 8)
        area_size = draw(0, min(round_number - 1, 3))
        hand, area, deck = deck[:hand_size], deck[hand_size:hand_size + area_size], deck[hand_size + area_size:]
        purple = draw(0, 2)
        blue = draw(0, 4 - purple)
        red = draw(0, 4 - purple - blue)
        score = draw(0, 20 if scarce else 45)
        player: JSON = {"score": score, "hand": sorted(hand), "area": sorted(area),
                        "stones": {"red": red, "blue": blue, "purple": purple}, "markers": []}
        if artifacts:
            shelter_size = draw(0, 2)
            player["shelter"], deck = sorted(deck[:shelter_size]), deck[shelter_size:]
            player["extra_areas"] = draw(0, 2)
            held = draw(0, len(free_tiles))
            player["artifact"] = free_tiles.pop(held - 1) if held else None
        players.append(player)
    markers: dict[str, int] = {}
    for index in range(n if artifacts else 0):
        marked = draw(0, len(free_tiles))
        if marked and free_tiles[marked - 1] not in markers:
            markers[free_tiles[marked - 1]] = index
    discard_size = len(deck) if scarce else draw(0, 12)
    first = setup["first_player"]
    position: JSON = {
        "setup": {"players": n, "rounds": 10, "end_score": 80 if artifacts else 60,
                  "expansion": bool(setup.get("expansion")), "artifacts": artifacts, "variants": {}},
        "round": round_number, "phase": "action", "first_player": first, "turn_player": first,
        "actives_used": [], "players": players, "display": [], "draw_pile": deck[discard_size:],
        "discard_pile": sorted(deck[:discard_size]), "winners": [],
    }
    if artifacts:
        position["setup"]["advanced_tiles"] = list(setup["advanced_tiles"])
        position["artifacts"] = {"display": sorted(free_tiles), "square_markers": dict(sorted(markers.items()))}
    return position
