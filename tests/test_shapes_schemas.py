"""The always-on shape checks (oracle/core/shapes.py) beside the shipped JSON Schemas (issue 26, item 3).

Compiled with fastjsonschema, the schemas are 13 to 25 times slower than shapes.py on real messages
(``python3 ci/bench_shapes.py``), so the hand-written checks stay the always-on ones and the schemas the full check
(``--validate-protocol``). This file pins how the two relate on one corpus: every real message of a seeded game is
accepted by both; of the invalid messages, the schemas refuse every one, and shapes.py refuses exactly those whose
fault lies in what it checks (the type and shape of the fields the oracle reads: PROTO-2), and lets through the
ones listed as the schemas' alone. The enumerations both check are the same lists.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from oracle.core import shapes
from oracle.core.json_types import JSON
from oracle.core.protocol import DecisionKind, RejectionCode
from oracle.core.validation import schema
from oracle.engines.play import choose_action, new_setup
from oracle.engines.wire.validate import violations
from oracle.reference import ReferenceEngine

CHECKS: dict[str, Callable[[object], str | None]] = {
    "decision": shapes.decision_problem,
    "legal_actions": shapes.legal_actions_problem,
    "apply": shapes.apply_result_problem,
    "export": shapes.snapshot_problem,
}
"""The hand-written check of each wire method's result (``wire-results.schema.json#/$defs/<method>``)."""
SAMPLED = 15
"""How many messages of each kind the corpus keeps from the game (spread over it)."""


def schema_refuses(method: str, message: object) -> bool:
    return bool(violations(f"wire-results.schema.json#/$defs/{method}", message))


@cache
def corpus() -> dict[str, list[Any]]:
    """Real messages of one seeded 4-player game with the Artifacts, by wire method, and a refused action's result."""
    engine = ReferenceEngine()
    engine.new_game(new_setup(4, 5, artifacts=True))
    rng = random.Random("play-5")
    seen: dict[str, list[Any]] = {method: [] for method in CHECKS}
    while (pending := engine.decision()) is not None:
        seen["decision"].append(pending)
        if pending["kind"] != "shuffle":
            seen["legal_actions"].append(engine.legal_actions())
        seen["apply"].append(engine.apply(choose_action(engine, pending, rng)))
        seen["export"].append(engine.export())
    seen["decision"].append(None)
    seen["apply"].append(engine.apply({"type": "end_turn", "player": 0}))
    return {method: [*messages[:: max(1, len(messages) // SAMPLED)], messages[-1]] for method, messages in seen.items()}


def test_every_real_message_is_accepted_by_both() -> None:
    found = [(method, message) for method, messages in corpus().items() for message in messages]
    assert 4 * SAMPLED <= len(found), "the corpus is too small to say anything"
    assert [] == [(m, x) for m, x in found if CHECKS[m](x) is not None]
    assert [] == [(m, x) for m, x in found if schema_refuses(m, x)]
    assert {"accepted": False} == {k: v for k, v in corpus()["apply"][-1].items() if k == "accepted"}


def _base(method: str) -> Any:
    """A real message to spoil: a decision naming a player, an action list, a refused action's result, a snapshot."""
    messages = corpus()[method]
    if method == "decision":
        return next(m for m in messages if m is not None and m["player"] is not None)
    return messages[-1] if method == "apply" else messages[len(messages) // 2]


def _set(path: tuple[str | int, ...], value: object) -> Callable[[Any], Any]:
    def spoil(message: Any) -> Any:
        target = message
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return message

    return spoil


def _drop(path: tuple[str | int, ...]) -> Callable[[Any], Any]:
    def spoil(message: Any) -> Any:
        target = message
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
        return message

    return spoil


def _whole(value: object) -> Callable[[Any], Any]:
    return lambda message: value


BOTH = True
SCHEMAS_ONLY = False
INVALID: list[tuple[str, str, Callable[[Any], Any], bool]] = [
    ("decision", "not an object", _whole(["action"]), BOTH),
    ("decision", "an unknown kind", _set(("kind",), "dance"), BOTH),
    ("decision", "no kind", _drop(("kind",)), BOTH),
    ("decision", "a player given as text", _set(("player",), "0"), BOTH),
    ("decision", "a player given as true", _set(("player",), True), BOTH),
    ("decision", "ordered not a boolean", _set(("ordered",), "yes"), BOTH),
    ("decision", "undrivable not a string", _set(("undrivable",), 3), BOTH),
    ("decision", "a shuffle's cards not a list of ids",
     _whole({"kind": "shuffle", "player": None, "prompt": "shuffle", "cards": "base-fire-01"}), BOTH),
    ("decision", "no prompt", _drop(("prompt",)), SCHEMAS_ONLY),
    ("decision", "a fifth player", _set(("player",), 4), SCHEMAS_ONLY),
    ("decision", "a negative min", _set(("min",), -1), SCHEMAS_ONLY),
    ("decision", "a card named, not its id", _set(("cards",), ["Imp"]), SCHEMAS_ONLY),
    ("legal_actions", "not a list", _whole({"type": "end_turn"}), BOTH),
    ("legal_actions", "an item not an object", _set((0,), "end_turn"), BOTH),
    ("legal_actions", "an item without a type", _drop((0, "type")), BOTH),
    ("legal_actions", "a type not a string", _set((0, "type"), 7), BOTH),
    ("legal_actions", "an unknown action type", _set((0, "type"), "dance"), SCHEMAS_ONLY),
    ("legal_actions", "an action without its player", _drop((0, "player")), SCHEMAS_ONLY),
    ("apply", "not an object", _whole([True]), BOTH),
    ("apply", "accepted not a boolean", _set(("accepted",), "no"), BOTH),
    ("apply", "events not a list", _set(("events",), {"type": "x"}), BOTH),
    ("apply", "an event not an object", _set(("events",), ["summoned"]), BOTH),
    ("apply", "refused without a rejection", _drop(("rejection",)), BOTH),
    ("apply", "an unknown rejection code", _set(("rejection", "code"), "NOPE"), BOTH),
    ("apply", "a rule id not a string", _set(("rejection", "rule"), 3), BOTH),
    ("apply", "no events", _drop(("events",)), SCHEMAS_ONLY),
    ("apply", "an event without a type", _set(("events",), [{"card": "base-fire-01"}]), SCHEMAS_ONLY),
    ("apply", "a rejection without its rule", _drop(("rejection", "rule")), SCHEMAS_ONLY),
    ("export", "not an object", _whole([]), BOTH),
    ("export", "no players", _drop(("players",)), BOTH),
    ("export", "players not a list", _set(("players",), {"0": {}}), BOTH),
    ("export", "a player not an object", _set(("players", 0), 12), BOTH),
    ("export", "no round", _drop(("round",)), SCHEMAS_ONLY),
    ("export", "a field of no snapshot", _set(("colour",), "blue"), SCHEMAS_ONLY),
    ("export", "a negative score", _set(("players", 0, "score"), -5), SCHEMAS_ONLY),
]


@pytest.mark.parametrize(("method", "spoiled", "spoil", "shapes_refuse"), INVALID,
                         ids=[f"{method}: {what}" for method, what, _, _ in INVALID])
def test_an_invalid_message_is_refused_by_the_schemas_and_by_shapes_exactly_when_its_fault_is_a_shape(
    method: str, spoiled: str, spoil: Callable[[Any], Any], shapes_refuse: bool,
) -> None:
    message = spoil(copy.deepcopy(_base(method)))
    assert (shapes_refuse, True) == (CHECKS[method](message) is not None, schema_refuses(method, message)), spoiled


def test_every_method_has_invalid_messages_of_both_sorts() -> None:
    assert {(m, s) for m in CHECKS for s in (BOTH, SCHEMAS_ONLY)} == {(m, s) for m, _, _, s in INVALID}


def _enum(document: JSON, *path: str) -> set[str]:
    for key in path:
        document = document[key]
    return set(document["enum"])


def test_the_kinds_and_codes_shapes_accept_are_the_schemas_lists() -> None:
    assert ({k.value for k in DecisionKind}, {c.value for c in RejectionCode}) == (
        _enum(schema("snapshot"), "$defs", "decision", "properties", "kind"),
        _enum(schema("apply-result"), "properties", "rejection", "properties", "code"),
    )
    assert (shapes.DECISION_KINDS, shapes.REJECTION_CODES) == (
        frozenset(k.value for k in DecisionKind), frozenset(c.value for c in RejectionCode))
