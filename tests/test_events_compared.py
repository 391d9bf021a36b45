"""Events are checked (issue 36, item 3): the events of an accepted move against the reference's, as a multiset per
move (docs/protocol.md, Events), in the first-divergence replay and in the fuzzer's lock-step; each difference is one
cause, blamed on the rule of the event (PROTO-2 for an event of no protocol type)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from oracle.core.causes import CAUSE_KEY, CauseFacts
from oracle.core.json_types import JSON
from oracle.core.protocol import EVENT_TYPES
from oracle.engines.connect import EngineUnderTest, resolve_impl
from oracle.engines.events import EventDifferenceKind, event_difference
from oracle.engines.harness import Subject
from oracle.engines.play import new_setup
from oracle.reference import ReferenceEngine
from oracle.reference.rulings import Ruled
from oracle.reports.causes import group_causes
from oracle.scenarios.blame import Trace, first_divergence
from oracle.suites.all import run_check
from oracle.suites.registry import CheckOptions
from tests.helpers import CALL_SECONDS
from vale_fixtures.event_of_unknown_type import EventOfUnknownType
from vale_invariants.fuzz import FuzzConfig, run_fuzz

FORGED = {
    "vale_fixtures.event_of_unknown_type": "PROTO-2",
    "vale_fixtures.fake_points_event": "SELL-1",
    "vale_fixtures.missing_marker_event": "HUNT-2",
    "vale_fixtures.wrong_tamer_event": "TAME-1",
}
"""Each fixture whose events lie, and the rule its one cause is blamed on."""
WITH_AND_WITHOUT_LOAD = sorted((f"{module}{factory}", rule) for module, rule in FORGED.items()
                               for factory in ("", ":without_load"))

TAMED: JSON = {"type": "card_tamed", "player": 0, "card": "base-wind-02"}
GAINED: JSON = {"type": "stones_gained", "player": 0, "stones": {"red": 1, "blue": 0, "purple": 0}}
TAKEN = (Ruled("TAME-1", TAMED), Ruled("EFF-4", GAINED))
"""A step of the reference: a tame (TAME-1) and a stone an effect gave (EFF-4), the step's own rule TAME-1."""


# ---------------------------------------------------------------------------------------------- the comparison


def test_the_same_events_in_another_order_are_the_same_move() -> None:
    assert event_difference([GAINED, TAMED], TAKEN, "TAME-1") is None


def test_an_event_of_no_protocol_type_is_proto_2_whatever_else_differs() -> None:
    found = event_difference([{"type": "bonus_awarded", "points": 999}], TAKEN, "TAME-1")
    assert found is not None
    assert (EventDifferenceKind.UNKNOWN_TYPE, "PROTO-2", "events.type") == (found.kind, found.rule, found.field)


def test_an_event_without_a_type_is_proto_2() -> None:
    found = event_difference([TAMED, {k: v for k, v in GAINED.items() if k != "type"}], TAKEN, "TAME-1")
    assert found is not None
    assert (EventDifferenceKind.UNKNOWN_TYPE, "PROTO-2") == (found.kind, found.rule)


def test_a_missing_event_is_blamed_on_the_rule_the_reference_emitted_it_under() -> None:
    found = event_difference([TAMED], TAKEN, "TAME-1")
    assert found is not None
    assert (EventDifferenceKind.MISSING, "EFF-4", "events.stones_gained", GAINED) == \
        (found.kind, found.rule, found.field, found.reference)


def test_a_wrong_value_is_blamed_on_the_rule_of_the_event_it_stands_for() -> None:
    wrong = {**GAINED, "stones": {"red": 2, "blue": 0, "purple": 0}}
    found = event_difference([TAMED, wrong], TAKEN, "TAME-1")
    assert found is not None
    assert (EventDifferenceKind.WRONG_VALUE, "EFF-4", GAINED, wrong) == \
        (found.kind, found.rule, found.reference, found.engine)
    assert "differs at stones.red" in found.engine_does


def test_a_value_of_another_json_type_is_a_wrong_value() -> None:
    found = event_difference([{**TAMED, "player": False}, GAINED], TAKEN, "TAME-1")
    assert found is not None
    assert (EventDifferenceKind.WRONG_VALUE, "TAME-1") == (found.kind, found.rule)


def test_an_extra_event_is_blamed_on_the_rule_of_the_reference_s_step() -> None:
    fake = {"type": "points_gained", "player": 0, "points": 999, "source": "base-wind-02"}
    found = event_difference([TAMED, GAINED, fake], TAKEN, "TAME-1")
    assert found is not None
    assert (EventDifferenceKind.EXTRA, "TAME-1", "events.points_gained", fake) == \
        (found.kind, found.rule, found.field, found.engine)


def test_an_event_twice_is_an_extra_event() -> None:
    found = event_difference([TAMED, GAINED, GAINED], TAKEN, "TAME-1")
    assert found is not None
    assert (EventDifferenceKind.EXTRA, GAINED) == (found.kind, found.engine)


def test_an_engine_that_reshuffles_by_itself_has_its_own_orders_in_events() -> None:
    revealed = Ruled("HUNT-1", {"type": "cards_revealed", "cards": ["a", "b"]})
    mine = [{"type": "cards_revealed", "cards": ["b", "a"]}]
    assert event_difference(mine, (revealed,), "EFF-5") is not None
    assert event_difference(mine, (revealed,), "EFF-5", own_orders=True) is None


def test_the_reshuffle_an_engine_made_by_itself_is_compared_first() -> None:
    reference = (Ruled("HUNT-1", {"type": "cards_revealed", "cards": ["a"]}),
                 Ruled("DECK-1", {"type": "discard_pile_shuffled", "order": ["b", "c"]}))
    mine = [{"type": "discard_pile_shuffled", "order": ["a", "c", "b"]}, {"type": "cards_revealed", "cards": []}]
    found = event_difference(mine, reference, "EFF-5", own_orders=True)
    assert found is not None
    assert (EventDifferenceKind.WRONG_VALUE, "DECK-1") == (found.kind, found.rule)


# ---------------------------------------------------------------------------------------------- the vocabulary


def _types_emitted(games: int) -> set[str]:
    seen: set[str] = set()
    for seed in range(games):
        for setup in (new_setup(3, seed), new_setup(2, seed, artifacts=True)):
            engine = ReferenceEngine()
            seen.update(e["type"] for e in engine.new_game(setup))
            rng = random.Random(seed)
            while (pending := engine.decision()) is not None:
                if pending["kind"] == "shuffle":
                    order = list(pending["cards"])
                    rng.shuffle(order)
                    action: JSON = {"type": "shuffle", "player": None, "order": order}
                else:
                    action = rng.choice(engine.legal_actions())
                seen.update(e["type"] for e in engine.apply(action)["events"])
    return seen


def test_every_event_the_reference_emits_is_of_a_protocol_type() -> None:
    emitted = _types_emitted(3)
    assert {"marker_placed", "card_sold", "card_tamed", "points_gained", "turn_ended"} <= emitted
    assert set() == emitted - EVENT_TYPES


def test_the_protocol_document_lists_every_event_type() -> None:
    text = (Path(__file__).parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = text.split("\n## Events\n", 1)[1].split("\n## ", 1)[0]
    expansion = text.split("\n### Events\n", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"`([a-z_]+)`", section.split("**")[0] + expansion))
    assert EVENT_TYPES <= documented


# ---------------------------------------------------------------------------------------------- caught


@pytest.mark.parametrize(("impl", "rule"), WITH_AND_WITHOUT_LOAD)
def test_a_forged_event_is_one_cause_of_oracle_check_blamed_on_its_rule(impl: str, rule: str) -> None:
    results = run_check(EngineUnderTest.load(impl, timeout=CALL_SECONDS), CheckOptions(), ["invariants"])
    failing = [r for r in results if not r.outcome.ok]
    assert [rule] == [CauseFacts.from_json(r.details.get(CAUSE_KEY)).rule for r in failing]  # type: ignore[union-attr]
    assert [rule] == [cause.facts.rule for cause in group_causes(failing)]


@pytest.mark.parametrize(("impl", "rule"), WITH_AND_WITHOUT_LOAD)
def test_a_forged_event_is_one_failure_of_the_lockstep_fuzzer_blamed_on_its_rule(impl: str, rule: str) -> None:
    report = run_fuzz(resolve_impl(impl), impl, FuzzConfig(games=2, mode="lockstep", shrink_examples=0,
                                                           max_failures=3))
    assert [(rule, rule)] == [(f.rules[0], (f.cause or {}).get("rule")) for f in report.failures]
    assert {"events"} == {f.divergence.kind for f in report.failures if f.divergence is not None}


def _game(seed: int, steps: int) -> Trace:
    """The first ``steps`` actions of a game of random legal play, from its set-up."""
    engine = ReferenceEngine()
    setup = new_setup(2, seed)
    engine.new_game(setup)
    rng = random.Random(seed)
    played: list[JSON] = []
    while engine.decision() is not None and len(played) < steps:
        action = rng.choice(engine.legal_actions())
        engine.apply(action)
        played.append(action)
    return Trace.of_actions(played, setup=setup)


@pytest.mark.parametrize(("impl", "rule"), sorted(FORGED.items()))
def test_the_replay_of_a_game_blames_the_first_forged_event(impl: str, rule: str) -> None:
    facts = first_divergence(lambda: Subject(resolve_impl(impl), impl, CALL_SECONDS), _game(7, 60), 30.0)
    assert facts is not None
    assert (rule, "events.") == (facts.rule, facts.field[:7])


class _UndeclaredUnknownType(EventOfUnknownType):
    """Returns the same forged events and does not declare ``events``: it promised nothing of them."""

    def handshake(self) -> JSON:
        shake = super().handshake()
        shake["capabilities"] = [c for c in shake["capabilities"] if c != "events"]
        return shake


def test_the_events_of_an_engine_that_does_not_declare_them_are_not_compared() -> None:
    report = run_fuzz(_UndeclaredUnknownType, "undeclared", FuzzConfig(games=1, mode="lockstep", shrink_examples=0))
    assert [] == report.failures


def test_the_replay_does_not_compare_the_events_of_an_engine_that_does_not_declare_them() -> None:
    assert first_divergence(lambda: Subject(_UndeclaredUnknownType, "undeclared", CALL_SECONDS), _game(7, 60), 30.0) \
        is None
