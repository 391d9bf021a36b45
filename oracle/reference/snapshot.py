"""Canonical snapshots: export the reference engine's state as JSON, and load it back.

The canonical part (everything but ``private``) is what every engine must agree on; ``private`` holds
the reference engine's own bookkeeping (the resolution stack) so that ``load(export(s))`` is exact.
Hands, areas, markers, the display and the discard pile are sorted (their order carries no rule);
the draw pile is listed from the top.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.core.rules import variant_problem
from oracle.reference.state import MAX_PLAYERS, MIN_PLAYERS, Frame, GameState, Phase, PlayerState, Setup

# Coverage: a line marked 'no cover - bad snapshot' only refuses a malformed snapshot, which no scenario can
# load (the scenario loader refuses it first); one marked 'no cover - own bookkeeping' only reads back the
# reference's own private part of its export. tests/test_reference_plumbing.py reaches each of them.
FORMAT = "vale-oracle/snapshot/1"
ENGINE_NAME = "vale-oracle-reference"


class SnapshotError(ValueError):
    """A snapshot cannot be loaded; the message names the field."""


def export_state(state: GameState, pending: JSON | None) -> JSON:
    snapshot = _export_base(state, pending)
    if state.setup.artifacts:
        for player, data in zip(state.players, snapshot["players"], strict=True):
            data["shelter"] = sorted(player.shelter)
            data["extra_areas"] = player.extra_areas
            data["artifact"] = player.artifact
        snapshot["artifacts"] = {
            "display": sorted(state.tiles),
            "square_markers": {t: p for t, p in sorted(state.square_markers.items())},
        }
    return snapshot


def _export_base(state: GameState, pending: JSON | None) -> JSON:
    return {
        "format": FORMAT,
        "setup": state.setup.to_json(),
        "round": state.round,
        "phase": state.phase.value,
        "first_player": state.first_player,
        "turn_player": state.turn_player,
        "actives_used": sorted(state.actives_used),
        "players": [
            {
                "score": p.score,
                "hand": sorted(p.hand),
                "area": sorted(p.area),
                "stones": p.stones.to_json(),
                "markers": sorted(p.markers),
            }
            for p in state.players
        ],
        "display": sorted(state.display),
        "draw_pile": list(state.draw_pile),
        "discard_pile": sorted(state.discard_pile),
        "winners": list(state.winners),
        "pending": pending,
        "private": {
            "engine": ENGINE_NAME,
            "revealed": state.revealed,
            "stack": [f.to_json() for f in state.stack],
            "area_order": [list(p.area) for p in state.players],
        },
    }


def _field(data: JSON, key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise SnapshotError(f"{where}{key}: missing")  # pragma: no cover - bad snapshot
    value = data[key]
    if kind is int and (not isinstance(value, int) or isinstance(value, bool)):  # pragma: no cover - bad snapshot
        raise SnapshotError(f"{where}{key}: must be a whole number, got {value!r}")
    if not isinstance(value, kind):  # pragma: no cover - bad snapshot
        raise SnapshotError(f"{where}{key}: must be {kind.__name__}, got {value!r}")
    return value


def _card_list(data: JSON, key: str, where: str) -> list[str]:
    """A list of card ids, each a card of the catalogue (checked as a set at once; one by one to name a bad one)."""
    value = _field(data, key, list, where)
    known = catalogue().cards
    try:
        if known.keys() >= set(value):
            return list(value)
    except TypeError:  # pragma: no cover - bad snapshot (an entry that is not a card id)
        pass
    i, card_id = next((i, c) for i, c in enumerate(value)  # pragma: no cover - bad snapshot
                      if not isinstance(c, str) or c not in known)
    raise SnapshotError(f"{where}{key}[{i}]: unknown card {card_id!r}")  # pragma: no cover - bad snapshot


def parse_setup(data: JSON, declared: dict[str, str] | None = None) -> Setup:
    """The set-up; ``declared`` are the variants the engine declares (played where the set-up names none)."""
    players = _field(data, "players", int, "setup.")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:  # pragma: no cover - bad snapshot
        raise SnapshotError(f"setup.players: the game is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
    variants = data.get("variants", {})
    if not isinstance(variants, dict) or not all(isinstance(v, str) for v in variants.values()):
        raise SnapshotError("setup.variants: must be an object of strings")  # pragma: no cover - bad snapshot
    for name, value in variants.items():
        problem = variant_problem(str(name), value)
        if problem:
            raise SnapshotError(f"setup.variants.{name}: {problem}")  # pragma: no cover - bad snapshot
    rounds = data.get("rounds", 10)
    artifacts = bool(data.get("artifacts", False))
    end_score = data.get("end_score", 80 if artifacts else 60)
    if not isinstance(rounds, int) or not 1 <= rounds <= 20:  # pragma: no cover - bad snapshot
        raise SnapshotError(f"setup.rounds: must be a whole number from 1 to 20, got {rounds!r}")
    if not isinstance(end_score, int) or end_score < 1:  # pragma: no cover - bad snapshot
        raise SnapshotError(f"setup.end_score: must be a positive whole number, got {end_score!r}")
    advanced = data.get("advanced_tiles", [])
    tiles = catalogue().tiles
    valid_advanced = isinstance(advanced, list) and len(set(advanced)) == len(advanced) == 3 and all(
        isinstance(t, str) and t in tiles and tiles[t].tier == "advanced" for t in advanced
    )
    if artifacts and not valid_advanced:  # pragma: no cover - bad snapshot
        names = ", ".join(t.id for t in tiles.values() if t.tier == "advanced")
        raise SnapshotError(f"setup.advanced_tiles: list 3 different advanced tiles (of {names})")
    return Setup(
        players=players,
        rounds=rounds,
        end_score=end_score,
        expansion=bool(data.get("expansion", False)) or artifacts,
        artifacts=artifacts,
        variants=tuple(sorted(variants.items())),
        advanced_tiles=tuple(advanced) if artifacts else (),
        declared=tuple(sorted((declared or {}).items())),
    )


def tiles_for(setup: Setup) -> list[str]:
    """RUL-10: the 2+ base tiles, the 3+ tile from 3 players, the 4 tile with 4; plus the 3 advanced tiles."""
    wanted = {"2+"} | ({"3+"} if setup.players >= 3 else set()) | ({"4"} if setup.players == 4 else set())
    base = [t.id for t in catalogue().tiles.values() if t.tier == "base" and t.players in wanted]
    return sorted(base + list(setup.advanced_tiles))


def load_state(data: JSON, declared: dict[str, str] | None = None) -> GameState:
    """Build a state from a canonical snapshot, checking every field and card conservation (``declared``: the
    engine's declared variants)."""
    if not isinstance(data, dict):  # pragma: no cover - bad snapshot
        raise SnapshotError("snapshot: must be a JSON object")
    setup = parse_setup(_field(data, "setup", dict, ""), declared)
    round_number = _field(data, "round", int, "")
    if not 1 <= round_number <= setup.rounds:  # pragma: no cover - bad snapshot
        raise SnapshotError(f"round: must be from 1 to {setup.rounds}, got {round_number}")
    try:
        phase = Phase(_field(data, "phase", str, ""))
    except ValueError:  # pragma: no cover - bad snapshot
        raise SnapshotError(f"phase: must be one of {[p.value for p in Phase]}, got {data['phase']!r}") from None
    first_player = _field(data, "first_player", int, "")
    if not 0 <= first_player < setup.players:  # pragma: no cover - bad snapshot
        raise SnapshotError(f"first_player: must be a player index below {setup.players}")
    turn_player = data.get("turn_player")
    if phase in (Phase.ACTION, Phase.RESOLUTION):
        if not isinstance(turn_player, int) or not 0 <= turn_player < setup.players:  # pragma: no cover - bad snapshot
            raise SnapshotError(f"turn_player: the {phase.value} phase needs whose turn it is")
    else:
        turn_player = None
    raw_players = _field(data, "players", list, "")
    if len(raw_players) != setup.players:  # pragma: no cover - bad snapshot
        raise SnapshotError(f"players: {setup.players} players in setup but {len(raw_players)} listed")
    private = data.get("private") if isinstance(data.get("private"), dict) else None
    ours = private is not None and private.get("engine") == ENGINE_NAME
    area_order = private.get("area_order") if ours and private is not None else None
    players: list[PlayerState] = []
    for i, raw in enumerate(raw_players):
        where = f"players[{i}]."
        if not isinstance(raw, dict):  # pragma: no cover - bad snapshot
            raise SnapshotError(f"players[{i}]: must be an object")
        score = _field(raw, "score", int, where)
        if score < 0:  # pragma: no cover - bad snapshot
            raise SnapshotError(f"{where}score: a score is never below 0 (SCORE-1), got {score}")
        try:
            stones = Stones.from_json(_field(raw, "stones", dict, where))
        except ValueError as exc:  # pragma: no cover - bad snapshot
            raise SnapshotError(f"{where}stones: {exc}") from None
        area = _card_list(raw, "area", where)
        if area_order is not None and sorted(area_order[i]) == sorted(area):  # pragma: no cover - own bookkeeping
            area = list(area_order[i])
        players.append(
            PlayerState(score, _card_list(raw, "hand", where), area, stones, _card_list(raw, "markers", where))
        )
    state = GameState(
        setup=setup,
        round=round_number,
        phase=phase,
        first_player=first_player,
        players=players,
        display=_card_list(data, "display", ""),
        draw_pile=_card_list(data, "draw_pile", ""),
        discard_pile=_card_list(data, "discard_pile", ""),
        turn_player=turn_player,
        actives_used=_card_list(data, "actives_used", "") if "actives_used" in data else [],
        winners=[int(w) for w in data.get("winners", [])],
    )
    if setup.artifacts:
        _load_artifacts(data, state)
    _check_conservation(state)
    for i, p in enumerate(players):
        for card_id in p.markers:
            if card_id not in state.display:  # pragma: no cover - bad snapshot
                raise SnapshotError(f"players[{i}].markers: {card_id} is not in the display")
    if ours and private is not None:  # pragma: no cover - own bookkeeping
        state.revealed = bool(private.get("revealed", False))
        state.stack = [_frame(f, f"private.stack[{i}]") for i, f in enumerate(private.get("stack", []))]
    else:
        state.revealed = bool(state.display) or phase is not Phase.HUNTING
    return state


def _frame(data: object, where: str) -> Frame:  # pragma: no cover - own bookkeeping
    """A frame of the reference engine's own resolution stack (from its ``private`` bookkeeping)."""
    if not isinstance(data, dict):
        raise SnapshotError(f"{where}: must be an object")
    try:
        return Frame.from_json(data)
    except KeyError as exc:
        raise SnapshotError(f"{where}: unknown or missing {exc}") from None
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"{where}: {exc}") from None


def _load_artifacts(data: JSON, state: GameState) -> None:
    """Tiles, square markers, shelters, Additional Areas: every tile of the game is in the display or held."""
    raw = _field(data, "artifacts", dict, "")
    tiles = catalogue().tiles
    display = _field(raw, "display", list, "artifacts.")
    markers = _field(raw, "square_markers", dict, "artifacts.")
    for tile_id in display:
        if tile_id not in tiles:  # pragma: no cover - bad snapshot
            raise SnapshotError(f"artifacts.display: unknown tile {tile_id!r}")
    for tile_id, owner in markers.items():  # pragma: no cover - bad snapshot
        if tile_id not in display or not isinstance(owner, int) or not 0 <= owner < state.n:
            raise SnapshotError(f"artifacts.square_markers.{tile_id}: must map a display tile to a player index")
    state.tiles = list(display)
    state.square_markers = dict(markers)
    held = []
    for i, (player, raw_player) in enumerate(zip(state.players, data["players"], strict=True)):
        where = f"players[{i}]."
        player.shelter = _card_list(raw_player, "shelter", where) if "shelter" in raw_player else []
        extra = raw_player.get("extra_areas", 0)
        if not isinstance(extra, int) or not 0 <= extra <= 2:  # pragma: no cover - bad snapshot
            raise SnapshotError(f"{where}extra_areas: must be 0, 1 or 2 (ART-10), got {extra!r}")
        player.extra_areas = extra
        artifact = raw_player.get("artifact")
        if artifact is not None and artifact not in tiles:  # pragma: no cover - bad snapshot
            raise SnapshotError(f"{where}artifact: unknown tile {artifact!r}")
        player.artifact = artifact
        if artifact is not None:
            held.append(artifact)
    everything = sorted(display + held)
    if everything != sorted(tiles_for(state.setup)):  # pragma: no cover - bad snapshot
        expected = tiles_for(state.setup)
        raise SnapshotError(f"artifacts: the display and the held tiles must be this game's tiles {expected}")


@cache
def _game_cards(expansion: bool) -> frozenset[str]:
    """The ids of every card of a game with or without the expansion."""
    return frozenset(c.id for c in catalogue().in_sets(["base", "artifacts"] if expansion else ["base"]))


def _check_conservation(state: GameState) -> None:
    """Every card of the game is in exactly one zone."""
    zones: dict[str, list[str]] = {
        "display": state.display,
        "draw_pile": state.draw_pile,
        "discard_pile": state.discard_pile,
    }
    for i, p in enumerate(state.players):
        zones[f"players[{i}].hand"] = p.hand
        zones[f"players[{i}].area"] = p.area
        zones[f"players[{i}].shelter"] = p.shelter
    seen: dict[str, str] = {}
    for zone, cards in zones.items():
        for card_id in cards:
            if card_id in seen:  # pragma: no cover - bad snapshot
                raise SnapshotError(f"{zone}: card {card_id} is also in {seen[card_id]}")
            seen[card_id] = zone
    expected = _game_cards(state.setup.expansion)
    missing = sorted(expected - set(seen))
    extra = sorted(set(seen) - expected)
    if extra:  # pragma: no cover - bad snapshot
        raise SnapshotError(f"cards: {extra[:3]} are not in this game's deck")
    if missing:  # pragma: no cover - bad snapshot
        raise SnapshotError(f"cards: {len(missing)} cards are in no zone, e.g. {missing[:3]}")
