"""EFF-8: several cards discarded by one effect leave one at a time in the order given; the ``ordered`` field of a
decision, and every comparison of answers that respects it."""

from __future__ import annotations

from pathlib import Path

from oracle.core.json_types import JSON
from oracle.core.protocol import answer_is_ordered
from oracle.core.shapes import decision_problem
from oracle.engines.candidates import candidate_actions
from oracle.reference import ReferenceEngine
from oracle.reference.decisions import selections
from oracle.scenarios.loader import parse_text
from oracle.scenarios.match import canonical_action
from tests.helpers import act, cid
from vale_invariants.actions import action_key
from vale_invariants.lockstep import decision_difference, legal_difference
from vale_invariants.trace import show_decision

CERBERUS, TOTEM_POLE, SALAMANDER, KAPPA = cid("Cerberus"), cid("Totem Pole"), cid("Salamander"), cid("Kappa")
SUMMON_CERBERUS = {"type": "summon", "player": 0, "card": CERBERUS, "payment": {"red": 2, "blue": 1, "purple": 0}}


def _at_cerberus(variants: dict[str, str] | None = None, area: tuple[str, ...] = (TOTEM_POLE, SALAMANDER, KAPPA),
                 declared: dict[str, str] | None = None) -> ReferenceEngine:
    from oracle.scenarios.given import complete_snapshot

    engine = ReferenceEngine(declared)
    engine.load(complete_snapshot({"round": 4, "setup": {"expansion": True, "variants": variants or {}},
                                   "players": [{"hand": [CERBERUS], "area": list(area),
                                                "stones": {"red": 2, "blue": 1}}, {}]}))
    act(engine, SUMMON_CERBERUS)
    return engine


def _purple_after(order: list[str], variants: dict[str, str] | None = None) -> int:
    engine = _at_cerberus(variants)
    act(engine, {"type": "choose_cards", "player": 0, "cards": order})
    purple: int = engine.export()["players"][0]["stones"]["purple"]
    return purple


def _choice(cards: list[str]) -> JSON:
    return {"type": "choose_cards", "player": 0, "cards": cards}


# ---------------------------------------------------------------- the reference plays the ruling


def test_totem_pole_gains_for_each_card_discarded_before_it() -> None:
    assert 2 == _purple_after([SALAMANDER, KAPPA, TOTEM_POLE])
    assert 1 == _purple_after([SALAMANDER, TOTEM_POLE, KAPPA])
    assert 0 == _purple_after([TOTEM_POLE, SALAMANDER, KAPPA])


def test_the_cards_are_discarded_in_the_order_given() -> None:
    events = act(_at_cerberus(), _choice([KAPPA, TOTEM_POLE, SALAMANDER]))
    assert [KAPPA, TOTEM_POLE, SALAMANDER] == [e["card"] for e in events if e["type"] == "card_discarded"]


def test_simultaneous_discards_give_a_leaving_totem_pole_nothing() -> None:
    simultaneous = {"EFF-8": "simultaneous"}
    assert 0 == _purple_after([SALAMANDER, KAPPA, TOTEM_POLE], simultaneous)
    assert 0 == _purple_after([TOTEM_POLE, SALAMANDER, KAPPA], simultaneous)


def test_simultaneous_discards_still_reach_a_totem_pole_that_stays() -> None:
    assert 2 == _purple_after([SALAMANDER, KAPPA], {"EFF-8": "simultaneous"})


def test_an_engine_declaring_simultaneous_plays_it() -> None:
    engine = _at_cerberus(declared={"EFF-8": "simultaneous"})
    act(engine, _choice([SALAMANDER, TOTEM_POLE]))
    assert 0 == engine.export()["players"][0]["stones"]["purple"]


# ---------------------------------------------------------------- the decision says so


def test_cerberus_asks_an_ordered_choice() -> None:
    pending = _at_cerberus().decision()
    assert pending is not None and True is pending["ordered"]


def test_under_simultaneous_the_choice_is_not_ordered() -> None:
    pending = _at_cerberus({"EFF-8": "simultaneous"}).decision()
    assert pending is not None and "ordered" not in pending


def test_a_choice_of_one_card_is_not_ordered() -> None:
    pending = _at_cerberus(area=(SALAMANDER,)).decision()
    assert pending is not None and 1 == pending["max"] and "ordered" not in pending


def test_every_order_of_every_selection_is_legal() -> None:
    legal = _at_cerberus(area=(TOTEM_POLE, SALAMANDER)).legal_actions()
    assert sorted([[], [TOTEM_POLE], [SALAMANDER], [TOTEM_POLE, SALAMANDER], [SALAMANDER, TOTEM_POLE]]) \
        == sorted(a["cards"] for a in legal)


def test_under_simultaneous_each_selection_is_listed_once_sorted() -> None:
    legal = _at_cerberus({"EFF-8": "simultaneous"}, area=(TOTEM_POLE, SALAMANDER)).legal_actions()
    assert sorted([[], [TOTEM_POLE], [SALAMANDER], sorted([TOTEM_POLE, SALAMANDER])]) \
        == sorted(a["cards"] for a in legal)


def test_selections_are_permutations_when_ordered() -> None:
    assert [(), ("a",), ("b",), ("a", "b"), ("b", "a")] == selections(("b", "a"), 0, 2, ordered=True)
    assert [(), ("a",), ("b",), ("a", "b")] == selections(("b", "a"), 0, 2)


def test_a_non_boolean_ordered_is_a_protocol_error() -> None:
    problem = decision_problem({"kind": "choose_cards", "player": 0, "prompt": "p", "ordered": "yes"})
    assert "field 'ordered' must be true or false (EFF-8), got 'yes'" == problem
    assert decision_problem({"kind": "choose_cards", "player": 0, "prompt": "p", "ordered": False}) is None


# ---------------------------------------------------------------- comparisons keep the order only when ordered


def test_answer_is_ordered_reads_only_true() -> None:
    assert answer_is_ordered({"kind": "choose_cards", "ordered": True})
    assert not answer_is_ordered({"kind": "choose_cards"})
    assert not answer_is_ordered({"kind": "choose_cards", "ordered": "yes"})
    assert not answer_is_ordered(None)


def test_canonical_action_keeps_the_order_of_an_ordered_answer() -> None:
    ab, ba = _choice(["a", "b"]), _choice(["b", "a"])
    assert canonical_action(ab) == canonical_action(ba)
    assert canonical_action(ab, ordered=True) != canonical_action(ba, ordered=True)


def test_the_fuzzers_action_key_keeps_the_order_of_an_ordered_answer() -> None:
    ab, ba = _choice(["a", "b"]), _choice(["b", "a"])
    assert action_key(ab) == action_key(ba)
    assert action_key(ab, ordered=True) != action_key(ba, ordered=True)


def test_lockstep_sees_a_missing_order_only_when_ordered() -> None:
    reference = [_choice(["a", "b"]), _choice(["b", "a"])]
    engine = [_choice(["a", "b"])]
    assert ([], []) == legal_difference(reference, engine)
    assert ([_choice(["b", "a"])], []) == legal_difference(reference, engine, ordered=True)


def test_lockstep_compares_ordered_with_absent_as_false() -> None:
    asked = {"kind": "choose_cards", "player": 0, "cards": ["a", "b"], "min": 0, "max": 2}
    assert "ordered" == decision_difference({**asked, "ordered": True}, asked)
    assert decision_difference({**asked, "ordered": False}, asked) is None


def test_a_lockstep_report_shows_the_ordered_field_that_differs() -> None:
    asked = {"kind": "choose_cards", "player": 0, "cards": ["a", "b"], "min": 0, "max": 2}
    expected = "choose_cards of p0 (min 0, max 2, cards ['a', 'b'], ordered true)"
    assert expected == show_decision({**asked, "ordered": True})


def test_candidate_actions_list_every_order_of_an_ordered_choice() -> None:
    pending = {"kind": "choose_cards", "player": 0, "cards": ["a", "b"], "min": 2, "max": 2, "ordered": True}
    assert [["a", "b"], ["b", "a"]] == [a["cards"] for a in candidate_actions(pending, None)]
    assert [["a", "b"]] == [a["cards"] for a in candidate_actions({**pending, "ordered": False}, None)]


# ---------------------------------------------------------------- scenario syntax

ORDERED_SCENARIO = """\
id = "X-1"
title = "t"
rules = ["EFF-8"]
source = "s"

[given]
round = 1

[[steps]]
decision = {{ kind = "{kind}", ordered = true }}
"""


def test_ordered_on_another_decision_kind_is_located() -> None:
    _, errors = parse_text(ORDERED_SCENARIO.format(kind="action"), Path("X-1.toml"))
    assert ["X-1.toml:10: step 1: decision.ordered: only a choose_cards decision can be ordered, not action"] \
        == [str(e) for e in errors]


def test_ordered_on_a_choose_cards_decision_loads() -> None:
    _, errors = parse_text(ORDERED_SCENARIO.format(kind="choose_cards"), Path("X-1.toml"))
    assert [] == [str(e) for e in errors]


def test_two_orders_of_the_same_cards_are_two_legal_exactly_entries() -> None:
    text = ORDERED_SCENARIO.format(kind="choose_cards").replace(
        "\n[[steps]]\n", '\n[[steps]]\nlegal_exactly = [ { type = "choose_cards", player = 0, cards = ["Kappa", '
        '"Salamander"] }, { type = "choose_cards", player = 0, cards = ["Salamander", "Kappa"] } ]\n')
    _, errors = parse_text(text, Path("X-1.toml"))
    assert [] == [str(e) for e in errors]
