"""Blame by first divergence (issue 24): every failing check is replayed beside the reference and blamed on the
reference's rule at the first step where the two differ, so one planted bug is one cause, on its own rule."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

import pytest

from oracle.core.cards import catalogue
from oracle.core.causes import CAUSE_KEY, CauseFacts, Verdict
from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.results import CheckResult, Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.engines.harness import Subject
from oracle.reference import ReferenceEngine
from oracle.reference.effects import load_handlers
from oracle.reference.effects.registry import PERMANENT
from oracle.reference.explain import rejection_blame, verdict_past
from oracle.scenarios import runner
from oracle.scenarios.blame import StepKind, Trace, TraceStep, blamed, first_divergence
from oracle.scenarios.given import complete_snapshot
from oracle.scenarios.loader import load_file
from oracle.suites.all import run_check
from oracle.suites.registry import CheckOptions, FuzzOptions
from tests.helpers import CALL_SECONDS, act, cid, engine_at
from tests.test_fixtures_caught import FIXTURES
from vale_fixtures.change_given import ChangeGiven

NEW_FIXTURES = ("vale_fixtures.answers_for_the_decider", "vale_fixtures.two_bugs", "vale_fixtures.two_bugs_reversed",
                "vale_fixtures.three_bugs")


def _broken_rules(impl: str) -> tuple[str, ...]:
    engine = importlib.import_module(impl).create()
    return tuple(getattr(engine, "BROKEN_RULES", (engine.BROKEN_RULE,)))


BROKEN = {impl: _broken_rules(impl) for impl in (*FIXTURES, *NEW_FIXTURES)}
"""Each broken fixture and the rules it breaks (its BROKEN_RULES, else its BROKEN_RULE)."""

load_handlers()
SUMMON_TRIGGERS = frozenset(card for card, effect in PERMANENT.items() if effect.on_summon is not None)
TILES = frozenset(catalogue().tiles)
ABOUT_CARDS: dict[str, frozenset[str]] = {
    "vale_fixtures.ember_without_water": frozenset({cid("Ember")}),
    "vale_fixtures.kappa_own_summon": SUMMON_TRIGGERS,
    "vale_fixtures.eternity_not_self": frozenset({cid("Eternity")}),
    "vale_fixtures.pegasus_lowers_fixed_cost": frozenset({cid("Belphegor"), cid("Pegasus")}),
    "vale_fixtures.totem_pole_on_tengu": frozenset({cid("Totem Pole")}),
    "vale_fixtures.hydra_draws_from_nothing": frozenset({cid("Hydra")}),
    "vale_fixtures.kappa_per_stone_undeclared": SUMMON_TRIGGERS,
    "vale_fixtures.discards_sorted": frozenset({cid("Cerberus")}),
    "vale_fixtures.simultaneous_discards_undeclared": frozenset({cid("Cerberus")}),
    "vale_fixtures.loki_every_family_undeclared": frozenset({cid("Loki")}),
    "vale_fixtures.duduri_king_keeps_first": frozenset({cid("Duduri King")}),
    "vale_fixtures.same_artifact_twice": TILES,
    "vale_fixtures.tile_kept_after_return": TILES,
    "vale_fixtures.third_extra_area": frozenset({"tile-incense-burner", "tile-cap-of-hades"}),
}
"""The fixtures whose bug is a card's or a tile's: every cause names one of these."""

Key = tuple[Verdict, str, str]


def facts_of(result: CheckResult) -> CauseFacts:
    facts = CauseFacts.from_json(result.details.get(CAUSE_KEY))
    assert facts is not None, f"{result.id}: no cause facts ({result.message})"
    return facts


def key(facts: CauseFacts) -> Key:
    """The cause's key as docs/reports.md documents it: the verdict, the reference's code (or the differing field's
    pattern) and the blamed rule."""
    code = facts.reference_code if facts.verdict is Verdict.OTHER_CODE else facts.code
    return facts.verdict, code or facts.field, facts.rule


@pytest.fixture(scope="module")
def scenario_failures() -> Callable[[str], list[CheckResult]]:
    """The failing results of the scenarios suite on an engine, run once per engine for the whole module."""
    runs: dict[str, list[CheckResult]] = {}

    def failures(impl: str) -> list[CheckResult]:
        if impl not in runs:
            results = run_check(EngineUnderTest.load(impl, timeout=CALL_SECONDS), CheckOptions(), ["scenarios"])
            runs[impl] = [r for r in results if not r.outcome.ok]
        return runs[impl]

    return failures


# ---------------------------------------------------------------------------------------------- every fixture


@pytest.mark.parametrize("impl", sorted(BROKEN))
def test_every_failure_of_a_broken_fixture_is_blamed_on_a_rule_it_breaks(
        impl: str, scenario_failures: Callable[[str], list[CheckResult]]) -> None:
    failures = scenario_failures(impl)
    assert failures, f"{impl} was not caught"
    blamed_elsewhere = [(r.id, facts_of(r).rule) for r in failures if facts_of(r).rule not in BROKEN[impl]]
    assert [] == blamed_elsewhere


@pytest.mark.parametrize("impl", sorted(BROKEN))
def test_a_broken_fixture_is_one_cause_per_bug(impl: str, scenario_failures: Callable[[str], list[CheckResult]]) \
        -> None:
    keys = {key(facts_of(r)) for r in scenario_failures(impl)}
    assert (len(BROKEN[impl]), set(BROKEN[impl])) == (len(keys), {k[2] for k in keys}), keys


@pytest.mark.parametrize("impl", sorted(ABOUT_CARDS))
def test_the_cause_of_a_card_bug_names_the_card(impl: str,
                                                scenario_failures: Callable[[str], list[CheckResult]]) -> None:
    unnamed = [(r.id, facts_of(r).cards) for r in scenario_failures(impl) if not ABOUT_CARDS[impl] & set(
        facts_of(r).cards)]
    assert [] == unnamed


def test_two_bugs_planted_in_either_order_give_the_same_two_causes(
        scenario_failures: Callable[[str], list[CheckResult]]) -> None:
    one, other = ({key(facts_of(r)) for r in scenario_failures(f"vale_fixtures.{name}")}
                  for name in ("two_bugs", "two_bugs_reversed"))
    assert (one, {"PAY-3", "LIMIT-1"}) == (other, {k[2] for k in one})


def test_an_engine_answering_for_the_decider_is_one_cause_blamed_on_dec_1(
        scenario_failures: Callable[[str], list[CheckResult]]) -> None:
    failures = scenario_failures("vale_fixtures.answers_for_the_decider")
    assert {(Verdict.ACCEPTS, "NOT_YOUR_DECISION", "DEC-1")} == {key(facts_of(r)) for r in failures}
    refused_otherwise = [facts_of(r) for r in failures if r.outcome is Outcome.FAIL]
    assert refused_otherwise and all("as if DEC-1 did not apply" in f.engine_does for f in refused_otherwise)


def test_a_cause_says_what_each_engine_does_at_its_step(
        scenario_failures: Callable[[str], list[CheckResult]]) -> None:
    facts = {f.step: f for f in map(facts_of, scenario_failures("vale_fixtures.no_holding_limit"))
             if f.kind == "sell"}
    assert facts, "no failing sale"
    first = next(iter(facts.values()))
    assert ("keep_stones" in first.reference_does, "action" in first.engine_does) == (True, True), first


# ---------------------------------------------------------------------------------------------- the replay


STEP_THREE = """
id = "PAY-2-change-seen-two-steps-later"
title = "A summon paid with a blue stone for a cost of 1; the stones are looked at two turns later"
rules = ["PAY-2"]
cards = ["Salamander"]
source = "tests/test_blame.py"

[given]
round = 1

[[given.players]]
hand = ["Salamander"]
stones = { blue = 1 }

[[steps]]
do = { type = "summon", player = 0, card = "Salamander", payment = { blue = 1 } }

[[steps]]
do = { type = "end_turn", player = 0 }

[[steps]]
do = { type = "end_turn", player = 1 }
expect = { players = [ { stones = { red = 0, blue = 0 } } ] }
"""


def test_a_scenario_failing_at_step_3_is_blamed_on_its_divergence_at_step_1(tmp_path: Path) -> None:
    path = tmp_path / "PAY-2-change-seen-two-steps-later.toml"
    path.write_text(STEP_THREE, encoding="utf-8")
    scenario = load_file(path)
    assert Outcome.PASS == runner.run_scenario(EngineUnderTest("oracle.reference", ReferenceEngine, 5.0),
                                               scenario).outcome
    result = runner.run_scenario(EngineUnderTest("change_given", ChangeGiven, 5.0), scenario)
    facts = facts_of(result)
    assert (Outcome.FAIL, 3) == (result.outcome, result.step)
    assert (1, "summon", "players[*].stones.red", "PAY-2", (cid("Salamander"),)) == (
        facts.step, facts.kind, facts.field, facts.rule, facts.cards)


class ChangeThenCrash(ChangeGiven):
    """Gives change (PAY-2), then raises when a turn ends."""

    def apply(self, action: JSON) -> JSON:
        if action.get("type") == "end_turn":
            raise RuntimeError("the engine lost track of whose turn it is")
        return super().apply(action)


def test_an_engine_that_raises_after_diverging_is_blamed_on_its_divergence(tmp_path: Path) -> None:
    path = tmp_path / "PAY-2-change-seen-two-steps-later.toml"
    path.write_text(STEP_THREE, encoding="utf-8")
    result = runner.run_scenario(EngineUnderTest("crashes", ChangeThenCrash, 5.0), load_file(path))
    facts = facts_of(result)
    assert (Outcome.ERROR, 2, 1, "PAY-2") == (result.outcome, result.step, facts.step, facts.rule)


def test_passing_checks_are_not_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def counted(*args: object) -> CauseFacts | None:
        calls.append("replayed")
        return None

    monkeypatch.setattr(runner, "blamed", counted)
    results = run_check(EngineUnderTest.load("oracle.reference", timeout=CALL_SECONDS), CheckOptions(), ["scenarios"])
    assert ([], True) == (calls, all(r.outcome.ok for r in results))


def test_the_replay_never_changes_an_outcome(monkeypatch: pytest.MonkeyPatch,
                                             scenario_failures: Callable[[str], list[CheckResult]]) -> None:
    replayed = {r.id: r.outcome for r in scenario_failures("vale_fixtures.change_given")}
    monkeypatch.setattr(runner, "blamed", lambda fresh, trace, facts, seconds: facts)
    eut = EngineUnderTest.load("vale_fixtures.change_given", timeout=CALL_SECONDS)
    alone = run_check(eut, CheckOptions(select=tuple(replayed)), ["scenarios"])
    assert replayed == {r.id: r.outcome for r in alone}


def _kappa_trace() -> Trace:
    given = {"round": 2, "players": [{"hand": [cid("Kappa")], "stones": {"blue": 1}}, {}]}
    summon = {"type": "summon", "player": 0, "card": cid("Kappa"), "payment": {"red": 0, "blue": 1, "purple": 0}}
    return Trace((TraceStep(StepKind.APPLY, summon, 1),), snapshot=complete_snapshot(given))


def _fresh(factory: Callable[[], object]) -> Callable[[], Subject]:
    return lambda: Subject(factory, "tests", CALL_SECONDS)


def test_the_replay_blames_a_summon_trigger_on_its_own_card_on_eff_3() -> None:
    from vale_fixtures.kappa_own_summon import KappaOwnSummon

    facts = first_divergence(_fresh(KappaOwnSummon), _kappa_trace(), 5.0)
    assert facts is not None
    assert (Verdict.DIFFERS, "players[*].score", "EFF-3", 1) == (facts.verdict, facts.field, facts.rule, facts.step)


def test_the_reference_against_itself_has_no_divergence() -> None:
    assert None is first_divergence(_fresh(ReferenceEngine), _kappa_trace(), 5.0)


def test_a_fault_during_the_replay_keeps_the_checks_own_facts() -> None:
    def failing() -> Subject:
        raise EngineFault("error", "create", "the engine would not start again")

    own = CauseFacts(Verdict.DIFFERS, "summon", field="players[*].score")
    assert own == blamed(failing, _kappa_trace(), own, 0.0)


def test_a_replay_out_of_its_budget_keeps_the_checks_own_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    from oracle.scenarios import blame
    from vale_fixtures.kappa_own_summon import KappaOwnSummon

    monkeypatch.setattr(blame, "MIN_REPLAY_SECONDS", -1.0)
    own = CauseFacts(Verdict.DIFFERS, "summon", field="players[*].score")
    assert own == blamed(_fresh(KappaOwnSummon), _kappa_trace(), own, -1.0)


# ---------------------------------------------------------------------------------------------- other suites


def test_a_z3_row_is_blamed_on_its_case() -> None:
    results = run_check(EngineUnderTest.load("vale_fixtures.superfluous_payment", timeout=CALL_SECONDS),
                        CheckOptions(select=("z3/summon-payment/*",)), ["z3"])
    failed = [facts_of(r) for r in results if not r.outcome.ok]
    assert failed and {(Verdict.ACCEPTS, "PAYMENT_SUPERFLUOUS_STONE", "PAY-3")} == {key(f) for f in failed}


def test_a_set_up_difference_is_blamed_on_the_starting_scores() -> None:
    results = run_check(EngineUnderTest.load("vale_fixtures.scores_from_seat_zero", timeout=CALL_SECONDS),
                        CheckOptions(players=(2,)), ["setup"])
    failed = [facts_of(r) for r in results if not r.outcome.ok]
    assert failed and {(Verdict.DIFFERS, "players[*].score", "SETUP-2")} == {key(f) for f in failed}


class ListsEndingTheTurnEarly(ReferenceEngine):
    """Lists ending the Action turn while a marker is still placed (breaks ACT-2 in its list), then refuses it."""

    def legal_actions(self) -> list[JSON]:
        listed = super().legal_actions()
        pending = self.decision()
        end = {"type": "end_turn", "player": (pending or {}).get("player")}
        if (pending or {}).get("kind") == "action" and end not in listed:
            listed.append(end)
        return listed


def test_an_action_listed_then_refused_in_random_play_is_blamed_on_the_rule_that_forbids_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    module = types.ModuleType("tests_lists_ending_early")
    module.create = ListsEndingTheTurnEarly  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tests_lists_ending_early", module)
    results = run_check(EngineUnderTest.load("tests_lists_ending_early", timeout=CALL_SECONDS),
                        CheckOptions(games=1, players=(2,)), ["random-play"])
    failed = [(r.outcome, facts_of(r)) for r in results if not r.outcome.ok]
    assert failed, "random play never ended a turn early"
    assert {(Outcome.WRONGLY_REJECTED, (Verdict.ACCEPTS, "MARKER_STILL_PLACED", "ACT-2"))} == {
        (o, key(f)) for o, f in failed}


def test_an_invariant_failure_carries_the_facts_of_its_first_divergence() -> None:
    options = CheckOptions(players=(2,), fuzz=FuzzOptions(games=4, seconds=60.0, mode="lockstep", shrink_examples=0))
    results = run_check(EngineUnderTest.load("vale_fixtures.superfluous_payment", timeout=CALL_SECONDS), options,
                        ["invariants"])
    failed = [facts_of(r) for r in results if not r.outcome.ok]
    assert failed and {"PAY-3"} == {f.rule for f in failed}


class LoadsOnePointMore(ReferenceEngine):
    """Loads every snapshot with one point more for the first player (breaks PROTO-1)."""

    def load(self, snapshot: JSON) -> None:
        players = [dict(p) for p in snapshot["players"]]
        players[0]["score"] = players[0]["score"] + 1
        super().load({**snapshot, "players": players})


def test_a_snapshot_that_does_not_survive_a_round_trip_is_blamed_on_proto_1(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    module = types.ModuleType("tests_loads_one_point_more")
    module.create = LoadsOnePointMore  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tests_loads_one_point_more", module)
    results = run_check(EngineUnderTest.load("tests_loads_one_point_more", timeout=CALL_SECONDS),
                        CheckOptions(players=(2,)), ["roundtrip"])
    failed = [facts_of(r) for r in results if not r.outcome.ok]
    assert failed and {(Verdict.DIFFERS, "players[*].score", "PROTO-1")} == {key(f) for f in failed}


# ---------------------------------------------------------------------------------------------- the reference's account


def test_each_event_names_the_rule_that_produced_it() -> None:
    engine = engine_at(round=2, players=[{"hand": [cid("Kappa")], "stones": {"blue": 1}}, {}])
    act(engine, {"type": "summon", "player": 0, "card": cid("Kappa"), "payment": {"blue": 1}})
    account = engine.account
    assert [("PAY-2", "stones_paid"), ("SUM-2", "card_summoned"), ("SUM-6", "summon_completed")] == [
        (r.rule, r.event["type"]) for r in account.events]
    assert (["EFF-3"], "SUM-2", "ACT-1") == ([q.rule for q in account.quiet], account.root, account.decision_rule)


def test_a_keep_choice_is_asked_under_the_holding_limit() -> None:
    engine = engine_at(players=[{"stones": {"red": 2}, "markers": [cid("Salamander")]}, {}],
                       display=[cid("Salamander")])
    act(engine, {"type": "sell", "player": 0, "card": cid("Salamander")})
    assert ("keep_stones", "LIMIT-1") == (engine.decision()["kind"], engine.account.decision_rule)  # type: ignore


def test_a_keep_choice_waiting_for_duduri_kings_upgrade_is_ruled_by_limit_2() -> None:
    wind = "base-wind-02"
    engine = engine_at(setup={"expansion": True},
                       players=[{"area": [cid("Duduri King")], "stones": {"blue": 4}, "markers": [wind]}, {}],
                       display=[wind])
    act(engine, {"type": "sell", "player": 0, "card": wind})
    assert ("upgrade_stones", "LIMIT-2") == (engine.decision()["kind"], engine.account.decision_rule)  # type: ignore


def test_a_short_payment_for_a_fixed_cost_is_blamed_on_the_effect_that_fixes_it() -> None:
    engine = engine_at(round=4, setup={"expansion": True},
                       players=[{"hand": [cid("Hestia")], "area": [cid("Belphegor")], "stones": {"red": 1}}, {}])
    action = {"type": "summon", "player": 0, "card": cid("Hestia"), "payment": {}}
    rejection = engine.apply(action)["rejection"]
    blame = rejection_blame(engine, action, rejection)
    assert ("PAYMENT_SHORT", "ART-9", (cid("Belphegor"),)) == (blame.code, blame.rule, blame.cards)


def test_looking_past_dec_1_judges_the_action_as_the_deciders() -> None:
    engine = engine_at(players=[{"markers": [cid("Salamander")]}, {}], display=[cid("Salamander")])
    other = {"type": "sell", "player": 1, "card": cid("Salamander")}
    rejection = engine.apply(other)["rejection"]
    assert ("NOT_YOUR_DECISION", {}) == (rejection["code"], verdict_past(engine, other, rejection))


def test_an_unexplained_verdict_keeps_the_rejections_own_rule() -> None:
    engine = engine_at(round=1, players=[{"hand": [cid("Salamander")], "stones": {"red": 1, "blue": 1}}, {}])
    action = {"type": "summon", "player": 0, "card": cid("Salamander"), "payment": {"red": 1, "blue": 1}}
    blame = rejection_blame(engine, action, engine.apply(action)["rejection"])
    assert ("PAYMENT_SUPERFLUOUS_STONE", "PAY-3", ()) == (blame.code, blame.rule, blame.cards)
