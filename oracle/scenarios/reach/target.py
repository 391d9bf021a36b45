"""What a reached position must satisfy: every field a scenario's ``[given]`` states, equal (issue 39).

The number of players, the round, the phase, the first player and the turn player are always compared (their
defaults shape the position); a stated player's stones are compared in all three colours (an unstated colour is 0
in the given position); ``draw_pile`` is compared as the top of the pile. Every other field the ``[given]``
leaves out may differ. The pending decision must also be the one the loaded ``[given]`` position asks
(its kind and player).
"""

from __future__ import annotations

from oracle.core.json_types import JSON
from oracle.reference.engine import ReferenceEngine
from oracle.scenarios.given import complete_snapshot
from oracle.scenarios.match import DRAW_PILE_TOP, Mismatch, first_mismatch

ALWAYS = ("round", "phase", "first_player", "turn_player")
"""The fields compared whether or not the ``[given]`` states them."""
STATED_AS_IS = ("actives_used", "display", "discard_pile", "artifacts")


def stated_fields(given: JSON) -> JSON:
    """The partial snapshot a reached position must match, from a scenario's ``[given]`` (card ids)."""
    full = complete_snapshot(given)
    out: JSON = {key: full[key] for key in ALWAYS}
    out["setup"] = {**given.get("setup", {}), "players": full["setup"]["players"]}
    for key in STATED_AS_IS:
        if key in given:
            out[key] = given[key]
    if given.get("draw_pile"):
        out[DRAW_PILE_TOP] = list(given["draw_pile"])
    players: list[JSON] = []
    for i, player in enumerate(given.get("players", [])):
        wanted = {k: v for k, v in player.items()}
        if "stones" in player:
            wanted["stones"] = full["players"][i]["stones"]
        players.append(wanted)
    if players:
        out["players"] = players
    return out


def given_decision(given: JSON) -> JSON | None:
    """The kind and player of the decision the loaded ``[given]`` position asks (None when the game is over)."""
    reference = ReferenceEngine()
    reference.load(complete_snapshot(given))
    pending = reference.decision()
    return None if pending is None else {"kind": pending.get("kind"), "player": pending.get("player")}


def unsatisfied(wanted: JSON, decision: JSON | None, snapshot: JSON, pending: JSON | None) -> Mismatch | None:
    """The first stated field the snapshot does not match, or the decision when it differs (None: satisfied)."""
    mismatch = first_mismatch(wanted, snapshot)
    if mismatch is not None:
        return mismatch
    asked = None if pending is None else {"kind": pending.get("kind"), "player": pending.get("player")}
    return first_mismatch(decision, asked, "decision") if decision is not None else (
        None if asked is None else Mismatch("decision", None, asked))
