"""Fast, always-on checks that what an engine returns is protocol data of the right shape (PROTO-2).

These run on every decision, legal-action list, apply result and snapshot before the oracle uses them, so
a malformed answer is the engine's protocol error on the check it was on, never a traceback in the oracle.
They check shape and type only; full JSON-Schema validation is the wire protocol's ``--validate-protocol``. The
shipped schemas compiled with fastjsonschema are an order of magnitude slower on real messages
(``ci/bench_shapes.py``), so these stay hand-written; ``tests/test_shapes_schemas.py`` pins what each refuses.
Each function returns ``None`` when the value is well formed, else one sentence naming the field.
"""

from __future__ import annotations

import json
import marshal
from typing import Any

from oracle.core.engine_text import vouched_json
from oracle.core.json_types import JSON
from oracle.core.protocol import DecisionKind, RejectionCode

DECISION_KINDS = frozenset(k.value for k in DecisionKind)
REJECTION_CODES = frozenset(c.value for c in RejectionCode)


# One encoder for every check (building one per call costs a fifth of the check); circular data ends in
# RecursionError, which is caught like any other non-JSON value.
_ENCODER = json.JSONEncoder(allow_nan=False, check_circular=False, separators=(",", ":"))


def json_problem(value: object) -> str | None:
    """Why ``value`` is not JSON data (NaN or infinity, a set, bytes, an object), or None. An answer the engine-text
    gate has just encoded as JSON data is not encoded again (:func:`~oracle.core.engine_text.vouched_json`)."""
    if vouched_json(value):
        return None
    try:
        _ENCODER.encode(value)
    except (TypeError, ValueError, RecursionError) as exc:
        return f"not JSON data ({exc})"
    return None


def _short(value: object, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def decision_problem(pending: object) -> str | None:
    """A pending decision is null or an object with a known ``kind``, an integer or null ``player`` and, if
    given, a boolean ``ordered``."""
    if pending is None:
        return None
    if not isinstance(pending, dict):
        return f"must be an object or null, got {_short(pending)}"
    kind = pending.get("kind")
    if kind not in DECISION_KINDS:
        return f"field 'kind' must be one of the decision kinds, got {_short(kind)}"
    player = pending.get("player")
    if player is not None and (isinstance(player, bool) or not isinstance(player, int)):
        return f"field 'player' must be an integer or null, got {_short(player)}"
    if kind == "shuffle":
        cards = pending.get("cards", [])
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            return f"field 'cards' of a shuffle must be a list of card ids, got {_short(cards)}"
    ordered = pending.get("ordered")
    if ordered is not None and not isinstance(ordered, bool):
        return f"field 'ordered' must be true or false (EFF-8), got {_short(ordered)}"
    undrivable = pending.get("undrivable")
    if undrivable is not None and not isinstance(undrivable, str):
        return f"field 'undrivable' must be a string saying why, got {_short(undrivable)}"
    return _json_problem_remembered("decision", pending)


def legal_actions_problem(actions: object) -> str | None:
    """Legal actions are a list of action objects, each with a string ``type``."""
    if not isinstance(actions, list):
        return f"must be a list of actions, got {_short(actions)}"
    for index, action in enumerate(actions):
        if not isinstance(action, dict):
            return f"item [{index}] must be an action object, got {_short(action)}"
        if not isinstance(action.get("type"), str):
            return f"item [{index}] has no string field 'type': {_short(action)}"
    return _json_problem_remembered("legal_actions", actions)


def apply_result_problem(result: object) -> str | None:
    """``{"accepted": bool, "events": [objects]}``, with a ``rejection`` carrying a known code when refused."""
    if not isinstance(result, dict) or not isinstance(result.get("accepted"), bool):
        return f"must be {{'accepted': bool, ...}}, got {_short(result)}"
    events = result.get("events", [])
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        return f"field 'events' must be a list of objects, got {_short(events)}"
    if not result["accepted"]:
        rejection = result.get("rejection")
        if not isinstance(rejection, dict) or not isinstance(rejection.get("code"), str):
            return f"a rejection must carry {{'code': str, 'rule': str}}, got {_short(rejection)}"
        if rejection["code"] not in REJECTION_CODES:
            return f"rejection code {rejection['code']!r} is not one of the protocol's codes"
        if not isinstance(rejection.get("rule", ""), str):
            return f"field 'rejection.rule' must be a string, got {_short(rejection.get('rule'))}"
    return json_problem(result)


def try_actions_problem(verdicts: object, asked: int) -> str | None:
    """One verdict per action asked, in order: ``{"accepted": bool}``, with a ``rejection`` carrying a known code
    when refused (PROTO-2)."""
    if not isinstance(verdicts, list) or len(verdicts) != asked:
        return f"must be a list of {asked} verdicts, one per action asked, got {_short(verdicts)}"
    for index, verdict in enumerate(verdicts):
        problem = apply_result_problem(verdict)
        if problem is not None:
            return f"item [{index}]: {problem}"
    return None


# The last values of each kind found to be JSON data. A value equal to one of them is JSON data too (no set, NaN
# or object compares equal to JSON data), and comparing costs a tenth of encoding: a round trip exports the same
# snapshot twice, the same decision is asked for several times, a rejected action leaves everything as it was.
# (An engine that later mutates what it returned is caught by INV-SNAPSHOT-STABLE, and its answers still differ
# from the reference's.)
_REMEMBERED = 2
_VALID: dict[str, list[object]] = {"snapshot": [], "decision": [], "legal_actions": []}


def _json_problem_remembered(kind: str, value: object) -> str | None:
    known = _VALID[kind]
    if any(type(seen) is type(value) and seen == value for seen in known):
        return None
    problem = json_problem(value)
    if problem is None:
        known.insert(0, value)
        del known[_REMEMBERED:]
    return problem


def snapshot_problem(snapshot: object) -> str | None:
    """A snapshot is an object whose ``players`` is a list of objects."""
    if not isinstance(snapshot, dict):
        return f"must be a JSON object, got {_short(snapshot)}"
    players = snapshot.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        return f"field 'players' must be a list of objects, got {_short(players)}"
    return _json_problem_remembered("snapshot", snapshot)


def events_problem(events: object) -> str | None:
    """``new_game`` returns a list of event objects."""
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        return f"must return a list of event objects, got {_short(events)}"
    return json_problem(events)


def first_duplicate(actions: list[JSON]) -> JSON | None:
    """The first action listed twice, or None. Actions are compared by their marshalled bytes: fast, and exact
    for the bug it is there for (one action emitted twice); two listings of an action that differ only in the
    order of their keys are not told apart."""
    seen: set[bytes] = set()
    for action in actions:
        key = marshal.dumps(action)
        if key in seen:
            return action
        seen.add(key)
    return None


def fresh(value: Any) -> Any:
    """A deep copy of JSON data, so an engine that mutates what it is given cannot change the oracle's copy
    (marshal copies plain data several times faster than ``copy.deepcopy``)."""
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:
        return _copy(value)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(item) for item in value]
    return value
