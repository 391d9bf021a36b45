"""Completing a partial snapshot with documented defaults, for scenarios and tests.

Defaults (``docs/scenarios.md`` repeats them):

* ``setup``: 2 players, 10 rounds, end score 60, base game only, no variants;
* ``round`` 1, ``phase`` ``"action"``, ``first_player`` 0, ``turn_player`` the first player
  (in the Action and Resolution phases), ``actives_used`` empty;
* each player: score 0, empty hand, area and markers, no stones;
* ``display`` and ``discard_pile`` empty;
* ``draw_pile``: the cards named in ``draw_pile`` first (top first), then every card not placed
  anywhere else, in card-id order;
* with ``setup.artifacts``: end score 80, ``advanced_tiles`` Book of Thoth, Cap of Hades and Gem of
  Kukulkan, each player with an empty shelter, no Additional Area and no tile, and every tile of the game
  not held by a player in the display with no square marker.
"""

from __future__ import annotations

import copy

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON

DEFAULT_SETUP: JSON = {
    "players": 2,
    "rounds": 10,
    "end_score": 60,
    "expansion": False,
    "artifacts": False,
    "variants": {},
}
PLAYER_DEFAULT: JSON = {"score": 0, "hand": [], "area": [], "stones": {"red": 0, "blue": 0, "purple": 0}, "markers": []}
TOP_LEVEL_KEYS = {
    "setup", "round", "phase", "first_player", "turn_player", "actives_used", "players", "display",
    "draw_pile", "discard_pile", "artifacts",
}
ARTIFACT_PLAYER_DEFAULT: JSON = {"shelter": [], "extra_areas": 0, "artifact": None}
PLAYER_KEYS = set(PLAYER_DEFAULT) | set(ARTIFACT_PLAYER_DEFAULT)
DEFAULT_ADVANCED_TILES = ["tile-book-of-thoth", "tile-cap-of-hades", "tile-gem-of-kukulkan"]


class GivenError(ValueError):
    """A partial snapshot cannot be completed; the message names the field."""


def complete_snapshot(partial: JSON) -> JSON:
    """Fill every field the partial snapshot leaves out with its documented default."""
    unknown = set(partial) - TOP_LEVEL_KEYS
    if unknown:
        raise GivenError(f"unknown field(s) {sorted(unknown)}; known: {sorted(TOP_LEVEL_KEYS)}")
    setup = {**DEFAULT_SETUP, **partial.get("setup", {})}
    artifacts = bool(setup.get("artifacts"))
    if artifacts:
        setup.setdefault("advanced_tiles", list(DEFAULT_ADVANCED_TILES))
        if "end_score" not in partial.get("setup", {}):
            setup["end_score"] = 80
    players_given = partial.get("players", [])
    if not isinstance(players_given, list):
        raise GivenError("players: must be a list of player objects")
    n = setup["players"]
    if len(players_given) > n:
        raise GivenError(f"players: {len(players_given)} players listed for a {n}-player game")
    players: list[JSON] = []
    for i in range(n):
        given = players_given[i] if i < len(players_given) else {}
        if not isinstance(given, dict):
            raise GivenError(f"players[{i}]: must be an object")
        extra = set(given) - PLAYER_KEYS
        if extra:
            raise GivenError(f"players[{i}]: unknown field(s) {sorted(extra)}; known: {sorted(PLAYER_KEYS)}")
        player = copy.deepcopy(PLAYER_DEFAULT)
        if artifacts:
            player.update(copy.deepcopy(ARTIFACT_PLAYER_DEFAULT))
        elif set(given) & set(ARTIFACT_PLAYER_DEFAULT):
            raise GivenError(f"players[{i}]: shelter, extra_areas and artifact need setup.artifacts = true")
        player.update(copy.deepcopy(given))
        stones = {"red": 0, "blue": 0, "purple": 0}
        if not isinstance(player["stones"], dict):
            raise GivenError(f"players[{i}].stones: must be an object of colour counts")
        stones.update(player["stones"])
        player["stones"] = stones
        players.append(player)
    phase = partial.get("phase", "action")
    first = partial.get("first_player", 0)
    turn = partial.get("turn_player", first if phase in ("action", "resolution") else None)
    placed: list[str] = []
    for player in players:
        placed += list(player["hand"]) + list(player["area"]) + list(player.get("shelter", []))
    display = list(partial.get("display", []))
    discard = list(partial.get("discard_pile", []))
    top = list(partial.get("draw_pile", []))
    placed += display + discard + top
    known = catalogue().cards
    for card_id in placed:
        if card_id not in known:
            raise GivenError(f"unknown card {card_id!r}")
    sets = ["base", "artifacts"] if setup.get("expansion") or artifacts else ["base"]
    taken = set(placed)
    rest = sorted(c.id for c in catalogue().in_sets(sets) if c.id not in taken)
    out: JSON = {
        "setup": setup,
        "round": partial.get("round", 1),
        "phase": phase,
        "first_player": first,
        "turn_player": turn,
        "actives_used": list(partial.get("actives_used", [])),
        "players": players,
        "display": display,
        "draw_pile": top + rest,
        "discard_pile": discard,
    }
    if artifacts:
        out["artifacts"] = _complete_artifacts(partial.get("artifacts", {}), setup, players)
    elif "artifacts" in partial:
        raise GivenError("artifacts: needs setup.artifacts = true")
    return out


def _complete_artifacts(given: JSON, setup: JSON, players: list[JSON]) -> JSON:
    """Default: every tile of the game not held by a player is in the display, with no square marker."""
    from oracle.reference.snapshot import parse_setup, tiles_for

    held = {p["artifact"] for p in players if p.get("artifact")}
    all_tiles = tiles_for(parse_setup(setup))
    display = given.get("display", [t for t in all_tiles if t not in held])
    return {"display": list(display), "square_markers": dict(given.get("square_markers", {}))}
