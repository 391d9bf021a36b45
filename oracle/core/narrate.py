"""Readable text for decisions, actions and events (``oracle play`` and failure reports)."""

from __future__ import annotations

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON


def name(card_id: object) -> str:
    card = catalogue().cards.get(str(card_id))
    return card.name if card is not None else str(card_id)


def stones(data: JSON) -> str:
    parts = [f"{n} {c}" for c, n in data.items() if n]
    return ", ".join(parts) if parts else "nothing"


def action_text(action: JSON) -> str:
    kind = action.get("type")
    who = f"P{action.get('player')}"
    if kind == "pick":
        return f"{who} marks {name(action['card'])}"
    if kind in ("sell", "tame"):
        return f"{who} {kind}s {name(action['card'])}"
    if kind == "summon":
        return f"{who} summons {name(action['card'])} paying {stones(action['payment'])}"
    if kind == "remove":
        return f"{who} removes {name(action['card'])} paying {stones(action['payment'])}"
    if kind == "end_turn":
        return f"{who} ends the turn"
    if kind == "keep_stones":
        return f"{who} keeps {stones(action['stones'])}"
    if kind == "resolve_active":
        return f"{who} resolves {name(action['card'])}'s Active effect"
    if kind == "choose_player":
        return f"{who} chooses P{action['target']}"
    if kind == "choose_cards":
        chosen = ", ".join(name(c) for c in action["cards"]) or "nothing"
        return f"{who} chooses {chosen}"
    if kind == "choose_options":
        return f"{who} chooses {', '.join(action['options'])}"
    if kind == "shuffle":
        return f"the discard pile is shuffled into a new draw pile ({len(action['order'])} cards)"
    if kind == "take_artifact":
        return f"{who} takes the artifact {tile(action['tile'])}"
    if kind == "use_artifact":
        return f"{who} uses their artifact"
    if kind == "pay":
        return f"{who} pays {stones(action['payment'])}"
    if kind == "upgrade_stones":
        return f"{who} upgrades {stones(action['stones'])}"
    return str(action)


def tile(tile_id: object) -> str:
    found = catalogue().tiles.get(str(tile_id))
    return found.name if found is not None else str(tile_id)


def event_text(event: JSON) -> str | None:
    kind = event.get("type")
    who = f"P{event.get('player')}"
    if kind == "round_started":
        return f"== Round {event['round']} (first player P{event['first_player']})"
    if kind == "phase_started":
        return f"-- {str(event['phase']).capitalize()} phase"
    if kind == "cards_revealed":
        return "revealed: " + ", ".join(name(c) for c in event["cards"])
    if kind == "points_gained":
        return f"{who} +{event['points']} points ({name(event['source'])})"
    if kind == "points_lost":
        return f"{who} -{event['points']} points ({name(event['source'])})"
    if kind == "stones_gained":
        return f"{who} gains {stones(event['stones'])} ({name(event['source'])})"
    if kind == "stones_discarded":
        return f"{who} discards {stones(event['stones'])} ({event['source']})"
    if kind == "card_discarded" and event.get("zone") == "area":
        return f"{who} discards {name(event['card'])} from the area ({name(event['source'])})"
    if kind == "card_recovered":
        return f"{who} recovers {name(event['card'])}"
    if kind == "card_drawn":
        return f"{who} draws {name(event['card'])}"
    if kind == "artifact_taken":
        return f"{who} takes {tile(event['tile'])}"
    if kind == "artifact_returned":
        return f"{who} returns {tile(event['tile'])} to the display"
    if kind == "card_sheltered":
        return f"{who} shelters {name(event['card'])}"
    if kind == "card_retrieved":
        return f"{who} retrieves {name(event['card'])}"
    if kind == "area_bought":
        return f"{who} now has {event['extra_areas']} Additional Area(s)"
    if kind == "cards_swapped":
        return f"{who} swaps {name(event['dragon'])} for P{event['other']}'s {name(event['card'])}"
    if kind == "game_over":
        winners = ", ".join(f"P{w}" for w in event["winners"])
        return f"== Game over after round {event['round']}: scores {event['scores']}, winner(s) {winners}"
    return None
