"""Engines that shuffle inside (capabilities ``internal_shuffle``, ``internal_reshuffle``): the oracle adopts their
deck and reshuffle orders, so set-up, random play, scenarios and lock-step still run, and only what needs a chosen
order is unsupported; it checks what they deal and reshuffle (SETUP-1, DECK-1); the same engine undeclared is
caught."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import ClassVar
from unittest import mock

import pytest

import vale_fixtures.internal_shuffle as fixture
import vale_invariants.game_lockstep as game_lockstep
from oracle.core.cards import catalogue
from oracle.core.causes import CAUSE_KEY, CauseFacts, Verdict
from oracle.core.fair_shuffle import Position, ReshuffleSeen
from oracle.core.json_types import JSON
from oracle.core.results import CheckResult, Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.engines.harness import parse_handshake
from oracle.reference import ReferenceEngine
from oracle.scenarios.given import complete_snapshot
from oracle.scenarios.loader import load_dir, load_file
from oracle.scenarios.runner import unsupported_reason
from oracle.suites.all import run_check
from oracle.suites.game_plans import GamePlan
from oracle.suites.registry import CheckOptions, RunContext
from oracle.suites.reshuffles import _follow
from tests.helpers import cid
from vale_fixtures.pins_a_card_on_top import PINNED
from vale_invariants.fuzz import FuzzConfig, run_fuzz
from vale_invariants.reshuffles import Adopted, adopt_reshuffles

DECLARED = "vale_fixtures.internal_shuffle"
RESHUFFLES_ONLY = "vale_fixtures.internal_shuffle:reshuffles_only"
SHORT_DRAW = Path("scenarios/deck/DECK-1-hunting-reveal-reshuffles.toml")
"""Two cards left in the draw pile, four to reveal, three in the discard pile: a reshuffle is pending."""
NEW_GAME_SCENARIOS = ("SETUP-new-game-two-players", "SETUP-new-game-three-players-from-player-2",
                      "RUL-10-new-game-tiles-for-2-players", "RUL-10-new-game-tiles-for-3-players",
                      "RUL-10-new-game-tiles-for-4-players")


def _check(tmp_path: Path, *args: str) -> tuple[int, dict[str, object]]:
    report = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-P", "-m", "oracle.cli.app", "check", *args, "--report-json", str(report)],
                          capture_output=True, text=True, timeout=300, check=False)
    return done.returncode, json.loads(report.read_text(encoding="utf-8"))


def _reshuffle_check(impl: str, **options: object) -> CheckResult:
    [result] = run_check(EngineUnderTest.load(impl, timeout=5.0),
                         CheckOptions(select=("random-play/reshuffles",), **options),  # type: ignore[arg-type]
                         ["random-play"])
    return result


# ---------------------------------------------------------------------------------------------- the capabilities


def test_a_declared_internal_shuffle_passes_with_only_chosen_orders_unsupported(tmp_path: Path) -> None:
    code, report = _check(tmp_path, "--impl", DECLARED, "--suite", "setup", "--suite", "scenarios",
                          "--suite", "invariants", "--suite", "random-play", "--games", "1")
    results = report["results"]
    assert isinstance(results, list)
    assert 0 == code, [r["id"] for r in results if r["outcome"] != "pass"]
    unsupported = [r for r in results if r["outcome"] == "unsupported"]
    own_shuffle = {r["id"] for r in unsupported if "internal_shuffle" in r["message"]}
    assert {"invariants/INV-DETERMINISM", "SETUP-new-game-two-players", "DECK-1-draw-reshuffles-the-discard-pile"} \
        <= own_shuffle
    assert all("the scenario depends on" in r["message"] for r in unsupported if r["id"] not in own_shuffle)
    assert "pass" == next(r for r in results if r["id"] == "invariants/LOCKSTEP")["outcome"]
    assert "pass" == next(r for r in results if r["id"] == "random-play/reshuffles")["outcome"]


def test_both_capabilities_are_known_and_both_reshuffle_inside() -> None:
    for capability in ("internal_shuffle", "internal_reshuffle"):
        shake = {**ReferenceEngine().handshake(), "capabilities": ["export", capability]}
        assert parse_handshake(shake).reshuffles_inside
    assert not parse_handshake(ReferenceEngine().handshake()).reshuffles_inside


def test_an_engine_that_deals_as_given_runs_the_scenarios_that_deal_a_deck() -> None:
    """``internal_reshuffle``: only the scenarios that choose a shuffle order stay unsupported; the ones that deal a
    deck run (and pass)."""
    dealing = parse_handshake(fixture.create().handshake())
    reshuffling = parse_handshake(fixture.reshuffles_only().handshake())
    scenarios = load_dir(Path("scenarios")).scenarios
    dealt = [s.id for s in scenarios if s.new_game is not None]
    chosen = [s for s in scenarios if any((step.do or {}).get("type") == "shuffle" for step in s.steps)]
    assert sorted(NEW_GAME_SCENARIOS) == sorted(dealt)
    assert all("deals a given deck order" in unsupported_reason(s, dealing) for s in scenarios if s.id in dealt)
    assert all("" == unsupported_reason(s, reshuffling) for s in scenarios if s.id in dealt)
    assert chosen
    assert all("(internal_reshuffle)" in unsupported_reason(s, reshuffling) for s in chosen)
    results = run_check(EngineUnderTest.load(RESHUFFLES_ONLY, timeout=5.0), CheckOptions(select=NEW_GAME_SCENARIOS),
                        ["scenarios"])
    assert sorted(NEW_GAME_SCENARIOS) == sorted(r.id for r in results)
    assert {Outcome.PASS} == {r.outcome for r in results}


def test_the_same_engine_undeclared_is_caught_at_set_up(tmp_path: Path) -> None:
    code, report = _check(tmp_path, "--impl", f"{DECLARED}:undeclared", "--suite", "setup")
    results = report["results"]
    assert isinstance(results, list)
    assert 1 == code
    assert {"fail"} == {r["outcome"] for r in results}
    # one cause; the first divergence is the revealed display (HUNT-1), read before the draw pile it came from
    causes = report["causes"]
    assert isinstance(causes, list) and 1 == len(causes)


# ---------------------------------------------------------------------------------------------- the deal (SETUP-1)


class DealsOneCardTwice(fixture.ShufflesInside):
    """Shuffles the set-up deck by itself and shows one card twice: the last card of its draw pile is the first."""

    def export(self) -> JSON:
        snapshot = super().export()
        if len(snapshot["draw_pile"]) > 1:
            snapshot["draw_pile"][-1] = snapshot["draw_pile"][0]
        return snapshot


def test_an_engine_that_deals_other_cards_than_the_deck_fails_set_up() -> None:
    results = run_check(EngineUnderTest("deals-twice", DealsOneCardTwice, 5.0), CheckOptions(players=(2,)),
                        ["setup"])
    assert {Outcome.FAIL} == {r.outcome for r in results}
    assert {("SETUP-1",)} == {r.rules for r in results}
    cause = CauseFacts.from_json(results[0].details[CAUSE_KEY])
    assert cause is not None
    assert ("SETUP-1", "draw_pile") == (cause.rule, cause.field)
    assert "lack" in results[0].actual and "hold beyond the deck" in results[0].actual


def test_the_fuzzer_checks_the_deal_before_adopting_it() -> None:
    report = run_fuzz(DealsOneCardTwice, "deals-twice", FuzzConfig(games=1, seed=1, shrink_examples=0,
                                                                    players=(2,), modes=("base",), positions=False))
    [failure] = report.failures
    assert ("INV-SETUP", ("SETUP-1",), 0) == (failure.invariant, failure.rules, failure.step)


# ---------------------------------------------------------------------------------------------- reshuffles (DECK-1)


def _pending_reshuffle() -> tuple[ReferenceEngine, JSON]:
    """The reference with the reshuffle of Kappa, Troll and Harpy pending (Hestia and Imp revealed), and the
    snapshot of an honest engine that put them in the order Troll, Kappa, Harpy."""
    reference = ReferenceEngine()
    reference.load(complete_snapshot(load_file(SHORT_DRAW).given))
    engine = copy.deepcopy(reference)
    pending = engine.decision()
    assert pending is not None and "shuffle" == pending["kind"]
    troll, kappa, harpy = "base-earth-06", "base-water-02", "base-wind-02"
    assert sorted([troll, kappa, harpy]) == sorted(pending["cards"])
    assert engine.apply({"type": "shuffle", "player": None, "order": [troll, kappa, harpy]})["accepted"]
    return reference, engine.export()


def test_an_honest_reshuffle_is_adopted_with_the_cards_drawn_on_top() -> None:
    reference, after = _pending_reshuffle()
    adopted = adopt_reshuffles(reference, after)
    assert adopted.fault is None
    assert (ReshuffleSeen(("base-earth-06", "base-water-02", "base-wind-02"),
                          frozenset({"base-earth-06", "base-water-02"}), "base-wind-02"),) == adopted.seen
    assert after["draw_pile"] == reference.export()["draw_pile"]


def test_a_reshuffle_whose_cards_go_to_a_hand_and_the_display_is_adopted_exactly() -> None:
    """Griffon draws from an empty draw pile at the end of round 4 of a four-player game: the reshuffle's top card
    goes to the hand, the next 8 to the new display (too many orders to try them all): the order is read from
    where the engine's cards lie."""
    base = sorted(card.id for card in catalogue().in_sets(["base"]))
    griffon = cid("Griffon")
    discard = [card for card in base if card != griffon][:12]
    given = {"round": 4, "phase": "resolution", "setup": {"players": 4}, "discard_pile": discard,
             "players": [{"area": [griffon]}, {"hand": [c for c in base if c != griffon and c not in discard]},
                         {}, {}]}
    reference = ReferenceEngine()
    reference.load(complete_snapshot(given))
    assert reference.apply({"type": "resolve_active", "player": 0, "card": griffon})["accepted"]
    engine = copy.deepcopy(reference)
    order = [discard[5], *discard[:5], *discard[6:]]
    assert engine.apply({"type": "shuffle", "player": None, "order": order})["accepted"]
    after = engine.export()
    assert ([discard[5]], 8) == (after["players"][0]["hand"], len(after["display"]))
    adopted = adopt_reshuffles(reference, after)
    assert adopted.fault is None
    assert after == reference.export()
    assert (frozenset(order[:9]), order[-1]) == (adopted.seen[0].top, adopted.seen[0].bottom)


def test_a_reshuffle_holding_a_card_of_the_draw_pile_is_a_deck_1_fault() -> None:
    """The engine shuffled Imp, still in the draw pile, in with the discard pile: Imp is in its new draw pile."""
    reference, after = _pending_reshuffle()
    imp = "base-fire-02"
    after["display"] = sorted([c for c in after["display"] if c != imp] + ["base-wind-02"])
    after["draw_pile"] = [imp]
    fault = adopt_reshuffles(reference, after).fault
    assert fault is not None
    assert (imp,) == fault.cards
    facts = fault.facts()
    assert (Verdict.DIFFERS, "shuffle", "draw_pile", "DECK-1") == (facts.verdict, facts.kind, facts.field, facts.rule)
    assert f"its new draw pile also holds {imp}" in facts.engine_does
    assert "the 3 cards of the discard pile" in facts.reference_does


def test_a_reshuffle_leaving_a_card_in_the_discard_pile_is_a_deck_1_fault() -> None:
    reference, after = _pending_reshuffle()
    harpy = "base-wind-02"
    after["draw_pile"] = []
    after["discard_pile"] = [harpy]
    fault = adopt_reshuffles(reference, after).fault
    assert fault is not None
    assert (harpy,) == fault.cards
    assert f"it leaves {harpy} in the discard pile" == fault.engine_does


def test_a_reshuffle_losing_a_card_is_a_deck_1_fault() -> None:
    reference, after = _pending_reshuffle()
    harpy = "base-wind-02"
    assert [harpy] == after["draw_pile"]
    after["draw_pile"] = []
    fault = adopt_reshuffles(reference, after).fault
    assert fault is not None
    assert (harpy,) == fault.cards
    assert f"it loses {harpy}, in no pile, hand or area any more" == fault.engine_does


def test_a_difference_away_from_the_piles_is_left_to_the_lock_step_comparison() -> None:
    reference, after = _pending_reshuffle()
    after["players"][0]["score"] += 1
    adopted = adopt_reshuffles(reference, after)
    assert adopted.fault is None
    assert 1 == len(adopted.seen)


def test_lock_step_needs_the_adopted_reshuffles() -> None:
    # 5 games per mode: without the adopted reshuffles the second game already diverges (measured), so the
    # passing run covers games where the adoption is needed
    config = FuzzConfig(games=5, seed=3, shrink_examples=0, mode="lockstep")
    assert [] == run_fuzz(fixture.create, DECLARED, config).failures
    with mock.patch.object(game_lockstep, "adopt_reshuffles", lambda reference, after: Adopted()):
        assert run_fuzz(fixture.create, DECLARED, config).failures


def test_lock_step_blames_a_reshuffle_of_the_draw_pile_on_deck_1() -> None:
    from vale_fixtures.reshuffles_the_draw_pile_too import create

    config = FuzzConfig(games=2, seed=1, shrink_examples=0, mode="lockstep")
    [failure] = run_fuzz(create, "vale_fixtures.reshuffles_the_draw_pile_too", config).failures
    assert ("LOCKSTEP", ("DECK-1",)) == (failure.invariant, failure.rules)
    assert failure.divergence is not None
    assert ("draw_pile", "shuffle") == (failure.divergence.field, (failure.divergence.action or {}).get("type"))


# ---------------------------------------------------------------------------------------------- the reshuffle check


class Recording(fixture.ReshufflesInside):
    """The honest engine, keeping every order it chose."""

    orders: ClassVar[list[list[str]]] = []

    def new_order(self, cards: list[str]) -> list[str]:
        order = super().new_order(cards)
        Recording.orders.append(order)
        return order


def test_the_check_reads_each_reshuffle_s_top_and_bottom_from_the_engine() -> None:
    Recording.orders = []
    seen: list[ReshuffleSeen] = []
    context = RunContext(EngineUnderTest("recording", Recording, 5.0), CheckOptions())
    for seed in (1, 2, 3):
        assert _follow(GamePlan("base", 4, seed), context, seen) is None
    assert len(Recording.orders) == len(seen) >= 3
    for order, reshuffle in zip(Recording.orders, seen, strict=True):
        drawn = len(reshuffle.top)
        assert (tuple(sorted(order)), frozenset(order[:drawn])) == (reshuffle.cards, reshuffle.top)
        assert reshuffle.bottom == (order[-1] if drawn < len(order) else None)
        assert 0 < reshuffle.chance(Position.TOP) < 1


def test_a_reshuffle_of_the_draw_pile_too_is_caught_by_the_default_games() -> None:
    result = _reshuffle_check("vale_fixtures.reshuffles_the_draw_pile_too")
    assert (Outcome.FAIL, ("DECK-1",)) == (result.outcome, result.rules)
    cause = CauseFacts.from_json(result.details[CAUSE_KEY])
    assert cause is not None
    assert ("shuffle", "draw_pile", "DECK-1") == (cause.kind, cause.field, cause.rule)
    assert cause.cards == result.cards and cause.cards
    assert "not from the discard pile" in result.actual


@pytest.mark.parametrize("impl", [DECLARED, RESHUFFLES_ONLY])
def test_honest_reshuffles_pass_saying_how_many_were_seen(impl: str) -> None:
    result = _reshuffle_check(impl)
    assert Outcome.PASS == result.outcome, result.message
    reshuffles = result.details["reshuffles"]
    assert isinstance(reshuffles, int) and reshuffles > 0
    assert result.message.startswith(f"{reshuffles} reshuffles seen: ")


def test_a_card_pinned_on_top_is_caught_naming_it() -> None:
    """12 four-player games per mode (the selftest runs ``--games 20`` over every player count, as the claim says)."""
    result = _reshuffle_check("vale_fixtures.pins_a_card_on_top", games=12, players=(4,))
    assert (Outcome.FAIL, ("DECK-1",), (PINNED,)) == (result.outcome, result.rules, result.cards)
    assert "Hestia (base-fire-01)" in result.expected
    cause = CauseFacts.from_json(result.details[CAUSE_KEY])
    assert cause is not None
    assert ("shuffle", "draw_pile positions", "DECK-1", (PINNED,)) == (cause.kind, cause.field, cause.rule,
                                                                        cause.cards)
    assert f"{result.details['reshuffles']} reshuffles seen: {PINNED} was on top in" in result.message


def test_the_check_is_planned_only_for_an_engine_that_reshuffles_inside() -> None:
    results = run_check(EngineUnderTest.load("oracle.reference", timeout=5.0),
                        CheckOptions(games=1, players=(2,), select=("random-play/*",)), ["random-play"])
    assert "random-play/reshuffles" not in {r.id for r in results}
    assert results
