"""Candidate actions for a pending decision, built from the decision and the canonical snapshot alone.

The candidates are a superset of the legal actions (every payment from the stones held, not only the
legal ones), so trying each on a copy of an engine reveals which ones it accepts. They are also the
pool from which the invariants sample illegal actions.
"""

from __future__ import annotations

import itertools

from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.core.protocol import answer_is_ordered


def _sub_collections(stones: JSON) -> list[JSON]:
    held = Stones.from_json(stones)
    return [s.to_json() for s in held.sub_collections()]


def candidate_actions(pending: JSON, snapshot: JSON | None) -> list[JSON]:
    """Every action worth trying for ``pending`` (a superset of the legal ones)."""
    kind = pending.get("kind")
    player = pending.get("player")
    me: JSON = {}
    if snapshot is not None and isinstance(player, int):
        me = snapshot["players"][player]
    out: list[JSON] = []
    if kind == "hunt_pick" and snapshot is not None:
        out = [{"type": "pick", "player": player, "card": c} for c in snapshot["display"]]
    elif kind == "action":
        for card_id in me.get("markers", []):
            out.append({"type": "sell", "player": player, "card": card_id})
            out.append({"type": "tame", "player": player, "card": card_id})
        payments = _sub_collections(me["stones"]) if me else [Stones().to_json()]
        for card_id in me.get("hand", []):
            out.extend({"type": "summon", "player": player, "card": card_id, "payment": p} for p in payments)
        for card_id in me.get("area", []):
            out.extend({"type": "remove", "player": player, "card": card_id, "payment": p} for p in payments)
        if me.get("artifact"):
            out.append({"type": "use_artifact", "player": player})
        out.append({"type": "end_turn", "player": player})
    elif kind == "keep_stones" and me:
        limit = pending.get("limit", 4)
        out = [
            {"type": "keep_stones", "player": player, "stones": s}
            for s in _sub_collections(me["stones"])
            if sum(s.values()) == limit
        ]
    elif kind == "next_active":
        cards = pending.get("cards") or (me.get("area", []) if me else [])
        out = [{"type": "resolve_active", "player": player, "card": c} for c in cards]
    elif kind == "choose_player":
        out = [{"type": "choose_player", "player": player, "target": p} for p in pending.get("players", [])]
    elif kind == "choose_cards":
        cards = sorted(pending.get("cards", []))
        pick = itertools.permutations if answer_is_ordered(pending) else itertools.combinations
        for size in range(pending.get("min", 1), pending.get("max", 1) + 1):
            out.extend(
                {"type": "choose_cards", "player": player, "cards": list(c)}
                for c in pick(cards, size)
            )
    elif kind == "choose_options":
        options = sorted(pending.get("options", []))
        for size in range(pending.get("min", 1), pending.get("max", 1) + 1):
            out.extend(
                {"type": "choose_options", "player": player, "options": list(o)}
                for o in itertools.combinations(options, size)
            )
    elif kind == "artifact_pick":
        tiles = pending.get("tiles") or (snapshot or {}).get("artifacts", {}).get("display", [])
        out = [{"type": "take_artifact", "player": player, "tile": t} for t in tiles]
    elif kind == "pay" and me:
        out = [{"type": "pay", "player": player, "payment": p} for p in _sub_collections(me["stones"])]
    elif kind == "upgrade_stones" and me:
        held = me["stones"]
        out = [
            {"type": "upgrade_stones", "player": player, "stones": {"red": r, "blue": b, "purple": 0}}
            for r in range(held["red"] + 1)
            for b in range(held["blue"] + 1)
            if 0 < r + b <= 2
        ]
    elif kind == "shuffle":
        out = [{"type": "shuffle", "player": None, "order": sorted(pending.get("cards", []))}]
    return out
