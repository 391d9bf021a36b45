"""Scenarios written from a failing game's trace (random play, round-trip), and the reference's view of it.

A random game starts from ``new_game(setup)``; its scenario's ``given`` is that start position (round 1,
Hunting phase, scores 1..n from the first player, the whole deck as the draw pile), its steps are the actions
the game applied, and its last step is the one that failed. A round-trip failure is pinned by the snapshot
that did not survive ``load(export(s))``: the scenario loads it and expects the differing field back.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from oracle.core.json_types import JSON
from oracle.core.rules import rules as rules_catalogue
from oracle.scenarios.writer import scenario_id, toml_text, write_scenario

GIVEN_KEYS = ("setup", "round", "phase", "first_player", "turn_player", "actives_used", "players", "display",
              "draw_pile", "discard_pile", "artifacts")


def start_given(setup: JSON) -> JSON:
    """The position ``new_game(setup)`` starts from, as a scenario's ``given`` (SETUP-1..3)."""
    players, first = int(setup["players"]), int(setup.get("first_player", 0))
    scores = [0] * players
    for rank in range(1, players + 1):
        scores[(first + rank - 1) % players] = rank
    flags = {k: setup[k] for k in ("expansion", "artifacts", "advanced_tiles") if setup.get(k)}
    return {"setup": {"players": players, **flags}, "round": 1, "phase": "hunting", "first_player": first,
            "players": [{"score": s} for s in scores], "display": [], "draw_pile": list(setup["deck"])}


def snapshot_given(snapshot: JSON) -> JSON:
    """An exported snapshot as a scenario's ``given`` (null fields and the engine's ``private`` left out)."""
    out = {k: snapshot[k] for k in GIVEN_KEYS if snapshot.get(k) is not None}
    out["players"] = [{k: v for k, v in p.items() if v is not None} for p in snapshot.get("players", [])]
    if isinstance(snapshot.get("setup"), dict):
        out["setup"] = {k: v for k, v in snapshot["setup"].items() if v is not None and (k != "variants" or v)}
    return out


def _action(action: JSON) -> JSON:
    return {k: v for k, v in action.items() if v is not None}


def partial_expect(snapshot: JSON, path: str) -> JSON | None:
    """The part of ``snapshot`` holding ``path`` (``players[1].score`` → ``{players = [{}, {score = …}]}``)."""
    head = path.split(" ")[0]
    top, _, rest = head.partition(".")
    name, _, index = top.partition("[")
    if name == "players" and index and rest:
        number = int(index.rstrip("]"))
        key = rest.partition(".")[0].partition("[")[0]
        players = snapshot.get("players", [])
        if number >= len(players) or players[number].get(key) is None:
            return None
        return {"players": [{} for _ in range(number)] + [{key: players[number][key]}]}
    value = snapshot.get(name)
    return None if value is None else {name: value}


def game_scenario(suite: str, label: str, rules: tuple[str, ...], source: str, given: JSON,
                  steps: list[JSON]) -> JSON:
    """A scenario document with a stable id (the suite, the game and a digest of what it plays)."""
    known = rules_catalogue()
    pinned = [r for r in rules if r in known][:1] or ["END-1"]
    digest = hashlib.sha1(json.dumps([given, steps], sort_keys=True).encode()).hexdigest()[:8]
    return {"id": scenario_id(f"{suite}-{label}-{digest}"), "title": f"Written from the failing {suite} game {label}",
            "rules": pinned, "source": source, "given": given, "steps": steps}


def random_game_scenario(suite: str, label: str, rules: tuple[str, ...], source: str, setup: JSON,
                         actions: list[JSON], note: str) -> JSON:
    """The game replayed from its start; the last action (the one that failed) carries ``note``."""
    steps: list[JSON] = [{"do": _action(a)} for a in actions]
    if steps:
        steps[-1]["note"] = note[:300]
    return game_scenario(suite, label, rules, source, start_given(setup), steps)


def judged_scenario(suite: str, label: str, rules: tuple[str, ...], source: str, setup: JSON,
                    actions: list[JSON], judged: JSON, rejection: JSON | None, note: str) -> JSON:
    """The game replayed from its start, then the action the engine judged otherwise than the reference: to be
    rejected with the reference's ``rejection`` (the engine accepts it), or accepted (``rejection`` None: the engine
    refuses it)."""
    steps: list[JSON] = [{"do": _action(a)} for a in actions]
    last: JSON = {"do": _action(judged), "note": note[:300]}
    if rejection is not None:
        last["reject"] = {"code": str(rejection.get("code", "")), "rule": str(rejection.get("rule", ""))}
    return game_scenario(suite, label, rules, source, start_given(setup), [*steps, last])


def roundtrip_scenario(label: str, source: str, snapshot: JSON, path: str) -> JSON | None:
    """The snapshot that did not survive a round trip, loaded, with the differing field expected back."""
    expect = partial_expect(snapshot, path)
    if expect is None:
        return None
    step = {"expect": expect, "note": f"load(export(s)) must export s again; it differed at {path}"[:300]}
    return game_scenario("roundtrip", label, ("PROTO-1",), source, snapshot_given(snapshot), [step])


def scenario_details(doc: JSON | None, save_dir: str | None) -> JSON:
    """The scenario for a result's details: saved (``scenario``: the path) with ``--save-failures``, embedded
    (``scenario_text``: the TOML) otherwise; nothing when the scenario cannot be written."""
    if doc is None:
        return {}
    try:
        text = toml_text(doc)
    except (ValueError, TypeError):
        return {}
    if save_dir:
        return {"scenario": str(write_scenario(Path(save_dir), doc, "games"))}
    return {"scenario_text": text}


def reference_rejection(setup: JSON, actions: list[JSON], action: JSON) -> JSON | None:
    """The reference engine's rejection of ``action`` after replaying ``actions`` from ``new_game(setup)``
    (None when it accepts it or the replay itself does not go through)."""
    from oracle.reference import ReferenceEngine

    reference = ReferenceEngine()
    try:
        reference.new_game(setup)
        for done in actions:
            if not reference.apply(done).get("accepted"):
                return None
        result = reference.apply(action)
    except Exception:  # the reference's view is a hint for grouping, never a verdict
        return None
    rejection = result.get("rejection")
    return None if result.get("accepted") or not isinstance(rejection, dict) else rejection
