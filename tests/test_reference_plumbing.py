"""The reference engine's protocol plumbing that no scenario can reach: bad snapshots and set-ups, malformed actions.

The coverage gate (ci/coverage_gate.py) excludes these lines with a ``# pragma: no cover`` naming this file; each
test here reaches one of them, so the exclusion stays honest.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.core.protocol import RejectionCode
from oracle.reference import ReferenceEngine
from oracle.reference.engine import SetupError
from oracle.reference.payment import PRINTED_VALUES, PaymentMemo
from oracle.reference.snapshot import SnapshotError, load_state
from oracle.scenarios.given import complete_snapshot
from tests.helpers import act, cid, engine_at

Mutation = Callable[[JSON], None]


def base_snapshot() -> JSON:
    return complete_snapshot({"round": 2})


def artifacts_snapshot() -> JSON:
    return complete_snapshot({"round": 2, "setup": {"artifacts": True}})


def _set(path: tuple[Any, ...], value: object) -> Mutation:
    def mutate(snapshot: JSON) -> None:
        target: Any = snapshot
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


def _delete(path: tuple[Any, ...]) -> Mutation:
    def mutate(snapshot: JSON) -> None:
        target: Any = snapshot
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return mutate


def _marker_on_top_of_draw_pile(snapshot: JSON) -> None:
    snapshot["players"][0]["markers"] = [snapshot["draw_pile"][0]]


def _duplicate_top_of_draw_pile(snapshot: JSON) -> None:
    snapshot["discard_pile"].append(snapshot["draw_pile"][0])


def _lose_top_of_draw_pile(snapshot: JSON) -> None:
    snapshot["draw_pile"].pop(0)


def _add_an_expansion_card(snapshot: JSON) -> None:
    snapshot["discard_pile"].append("art-fire-01")


BAD_SNAPSHOTS: list[tuple[str, Mutation, str]] = [
    ("setup missing", _delete(("setup",)), "setup: missing"),
    ("round not a number", _set(("round",), "two"), "round: must be a whole number"),
    ("round a boolean", _set(("round",), True), "round: must be a whole number"),
    ("players not a list", _set(("players",), {}), "players: must be list"),
    ("round past the last", _set(("round",), 11), "round: must be from 1 to 10"),
    ("unknown phase", _set(("phase",), "lunch"), "phase: must be one of"),
    ("first player out of range", _set(("first_player",), 5), "first_player: must be a player index below 2"),
    ("no turn player in the action phase", _set(("turn_player",), None), "turn_player: the action phase needs"),
    ("too few players", _set(("setup", "players"), 1), "setup.players: the game is for 2 to 4 players"),
    ("variants not strings", _set(("setup", "variants"), {"x": 1}), "setup.variants: must be an object of strings"),
    ("rounds out of range", _set(("setup", "rounds"), 30), "setup.rounds: must be a whole number from 1 to 20"),
    ("end score zero", _set(("setup", "end_score"), 0), "setup.end_score: must be a positive whole number"),
    ("one player listed for two", _set(("players",), [{}]), "players: 2 players in setup but 1 listed"),
    ("a player not an object", _set(("players", 1), []), "players[1]: must be an object"),
    ("negative score", _set(("players", 0, "score"), -1), "players[0].score: a score is never below 0"),
    ("negative stones", _set(("players", 0, "stones"), {"red": -1}), "players[0].stones:"),
    ("unknown card in a hand", _set(("players", 0, "hand"), ["no-such-card"]), "players[0].hand[0]: unknown card"),
    ("a card id not a string", _set(("display",), [7]), "display[0]: unknown card 7"),
    ("marker off the display", _marker_on_top_of_draw_pile, "players[0].markers:"),
    ("a card in two zones", _duplicate_top_of_draw_pile, "is also in"),
    ("a card in no zone", _lose_top_of_draw_pile, "cards: 1 cards are in no zone"),
    ("an expansion card in a base game", _add_an_expansion_card, "are not in this game's deck"),
    ("a stack frame not an object", _set(("private", "stack"), [3]), "private.stack[0]: must be an object"),
    ("a stack frame of no kind", _set(("private", "stack"), [{"player": 0}]), "private.stack[0]: unknown or missing"),
    ("a stack frame of an unknown kind", _set(("private", "stack"), [{"kind": "nap", "player": 0}]),
     "private.stack[0]:"),
    ("a stack frame naming no player", _set(("private", "stack"), [{"kind": "summon", "player": None}]),
     "private.stack[0]:"),
]


def _ours(snapshot: JSON) -> JSON:
    """The snapshot as the reference exports it, with its own ``private`` bookkeeping."""
    engine = ReferenceEngine()
    engine.load(snapshot)
    return engine.export()


@pytest.mark.parametrize(("mutate", "message"), [(m, s) for _, m, s in BAD_SNAPSHOTS],
                         ids=[name for name, _, _ in BAD_SNAPSHOTS])
def test_a_bad_snapshot_is_refused_naming_the_field(mutate: Mutation, message: str) -> None:
    snapshot = _ours(base_snapshot())
    mutate(snapshot)
    with pytest.raises(SnapshotError) as refused:
        load_state(snapshot)
    assert message in str(refused.value)


def test_a_snapshot_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(SnapshotError) as refused:
        load_state([])  # type: ignore[arg-type]
    assert "snapshot: must be a JSON object" == str(refused.value)


BAD_ARTIFACT_SNAPSHOTS: list[tuple[str, Mutation, str]] = [
    ("no artifacts section", _delete(("artifacts",)), "artifacts: missing"),
    ("advanced tiles missing", _set(("setup", "advanced_tiles"), []), "setup.advanced_tiles: list 3 different"),
    ("an unknown tile", _set(("artifacts", "display"), ["tile-nothing"]), "artifacts.display: unknown tile"),
    ("a square marker off the display", _set(("artifacts", "square_markers"), {"tile-nothing": 0}),
     "artifacts.square_markers.tile-nothing: must map a display tile"),
    ("three additional areas", _set(("players", 0, "extra_areas"), 3), "players[0].extra_areas: must be 0, 1 or 2"),
    ("an unknown held tile", _set(("players", 0, "artifact"), "tile-nothing"), "players[0].artifact: unknown tile"),
    ("a tile missing", _set(("artifacts", "display"), []), "artifacts: the display and the held tiles must be"),
]


@pytest.mark.parametrize(("mutate", "message"), [(m, s) for _, m, s in BAD_ARTIFACT_SNAPSHOTS],
                         ids=[name for name, _, _ in BAD_ARTIFACT_SNAPSHOTS])
def test_a_bad_artifacts_snapshot_is_refused_naming_the_field(mutate: Mutation, message: str) -> None:
    snapshot = artifacts_snapshot()
    mutate(snapshot)
    with pytest.raises(SnapshotError) as refused:
        load_state(snapshot)
    assert message in str(refused.value)


def test_the_reference_reloads_its_own_stack_and_area_order_exactly() -> None:
    engine = engine_at(round=3, players=[{"hand": [cid("Hydra")], "area": [cid("Troll"), cid("Imp")],
                                          "stones": {"purple": 1}}])
    act(engine, {"type": "summon", "player": 0, "card": cid("Hydra"), "payment": {"red": 0, "blue": 0, "purple": 1}})
    exported = engine.export()
    assert exported["private"]["stack"], "the Hydra's choice is pending on the stack"
    again = ReferenceEngine()
    again.load(copy.deepcopy(exported))
    assert exported == again.export()
    assert engine.state.players[0].area == again.state.players[0].area


# --- set-ups (new_game: scenarios always start from a snapshot) -------------------------------------------

@pytest.mark.parametrize(("setup", "message"), [
    ({"players": 5}, "setup.players: the game is for 2 to 4 players"),
    ({"players": 2, "first_player": 2}, "setup.first_player: must be a player index below 2"),
    ({"players": 2, "deck": ["base-fire-01"]}, "setup.deck: must list each of the 70 cards exactly once"),
])
def test_a_bad_setup_is_refused_naming_the_field(setup: JSON, message: str) -> None:
    with pytest.raises(SetupError) as refused:
        ReferenceEngine().new_game(setup)
    assert message in str(refused.value)


def test_a_new_game_without_a_deck_lays_the_cards_in_id_order_and_gives_starting_points_from_the_first_player() \
        -> None:
    engine = ReferenceEngine()
    engine.new_game({"players": 3, "first_player": 1})
    assert [3, 1, 2] == [p.score for p in engine.state.players]
    assert sorted(engine.state.draw_pile) == engine.state.draw_pile


def test_an_engine_without_a_game_says_so() -> None:
    with pytest.raises(RuntimeError) as refused:
        ReferenceEngine().export()
    assert "no game: call new_game() or load() first" == str(refused.value)


def test_a_deep_copy_of_the_engine_plays_on_alone() -> None:
    engine = engine_at(round=2, players=[{"hand": [cid("Salamander")], "stones": {"red": 1}}])
    twin = copy.deepcopy(engine)
    act(twin, {"type": "summon", "player": 0, "card": cid("Salamander"), "payment": {"red": 1, "blue": 0, "purple": 0}})
    assert [cid("Salamander")] == engine.state.players[0].hand
    assert [cid("Salamander")] == twin.state.players[0].area


# --- actions the scenario schema cannot even write ---------------------------------------------------------

@pytest.mark.parametrize(("action", "message"), [
    (["summon"], "an action must be a JSON object"),
    ({"type": "dance", "player": 0}, "unknown action type 'dance'"),
    ({"type": "summon", "player": 0, "card": "base-fire-05", "payment": {"red": -1}}, "'payment':"),
])
def test_an_action_the_scenarios_cannot_write_is_malformed(action: object, message: str) -> None:
    engine = engine_at(round=2, players=[{"hand": [cid("Salamander")], "stones": {"red": 1}}])
    before = engine.export()
    result = engine.apply(action)  # type: ignore[arg-type]
    assert (False, RejectionCode.MALFORMED_ACTION.value) == (result["accepted"], result["rejection"]["code"])
    assert message in result["rejection"]["message"]
    assert before == engine.export()


# --- the payment memo ---------------------------------------------------------------------------------------

def test_a_full_payment_memo_is_cleared_and_answers_the_same() -> None:
    memo = PaymentMemo(limit=1)
    first = memo.payments(Stones(red=2), PRINTED_VALUES, 1)
    second = memo.payments(Stones(blue=1), PRINTED_VALUES, 1)
    assert 1 == len(memo.found)
    assert (Stones(red=1),) == first
    assert (Stones(blue=1),) == second
    assert first == memo.payments(Stones(red=2), PRINTED_VALUES, 1)


# --- an action passed back as listed (issue 25) ------------------------------------------------------------

def _hunting_engine() -> ReferenceEngine:
    engine = ReferenceEngine()
    engine.new_game({"players": 2, "first_player": 0})
    return engine


def test_an_action_applied_as_listed_is_accepted_as_a_copy_of_it_is() -> None:
    listed, copied = _hunting_engine(), _hunting_engine()
    as_listed = listed.apply(listed.legal_actions()[0])
    as_copy = copied.apply(copy.deepcopy(copied.legal_actions()[0]))
    assert as_copy == as_listed
    assert copied.export() == listed.export()


def test_a_listed_action_changed_after_the_listing_is_judged_again() -> None:
    engine = _hunting_engine()
    action = engine.legal_actions()[0]
    action["card"] = "no-such-card"
    result = engine.apply(action)
    assert (False, RejectionCode.UNKNOWN_CARD.value) == (result["accepted"], result["rejection"]["code"])


def test_an_action_of_an_earlier_listing_is_judged_again_after_a_step() -> None:
    engine = _hunting_engine()
    first, second = engine.legal_actions()[:2]
    assert engine.apply(first)["accepted"]
    result = engine.apply(second)
    assert (False, RejectionCode.NOT_YOUR_DECISION.value) == (result["accepted"], result["rejection"]["code"])


def test_an_action_not_listed_is_judged_though_a_listing_is_pending() -> None:
    engine = _hunting_engine()
    engine.legal_actions()
    result = engine.apply({"type": "pick", "player": 0, "card": "no-such-card"})
    assert (False, RejectionCode.UNKNOWN_CARD.value) == (result["accepted"], result["rejection"]["code"])


def test_an_action_added_to_the_listing_by_its_caller_is_judged() -> None:
    engine = _hunting_engine()
    listed = engine.legal_actions()
    listed.insert(0, {"type": "pick", "player": 0, "card": "no-such-card"})
    result = engine.apply(listed[0])
    assert (False, RejectionCode.UNKNOWN_CARD.value) == (result["accepted"], result["rejection"]["code"])
