"""The scenarios added where the suite was thin fail on engines that break what they pin."""

from __future__ import annotations

from typing import Any

import pytest

from oracle.core.model import Stones
from oracle.core.protocol import DecisionKind
from oracle.core.results import Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.reference import actions
from oracle.reference.decisions import DecisionSpec
from oracle.reference.payment import StoneValues
from oracle.reference.payment import check_payment as _held_check_payment
from oracle.reference.table import Table
from oracle.scenarios.loader import default_dir, load_dir
from oracle.scenarios.runner import run_scenario
from vale_fixtures.broken import BrokenEngine

WRONG_PLAYER_SCENARIOS = {
    DecisionKind.HUNT_PICK: "DEC-1-hunt-pick-answered-by-the-other-player",
    DecisionKind.ACTION: "DEC-1-action-sell-and-tame-only-on-your-own-turn",
    DecisionKind.KEEP_STONES: "DEC-1-keep-stones-answered-by-another-player",
    DecisionKind.NEXT_ACTIVE: "DEC-1-next-active-answered-by-another-player",
    DecisionKind.CHOOSE_PLAYER: "DEC-1-choose-player-answered-by-another-player",
    DecisionKind.CHOOSE_CARDS: "DEC-1-choose-cards-answered-by-another-player",
    DecisionKind.CHOOSE_OPTIONS: "DEC-1-choose-options-answered-by-another-player",
    DecisionKind.SHUFFLE: "DEC-1-shuffle-answered-by-a-player",
    DecisionKind.ARTIFACT_PICK: "ART-DEC-1-artifact-pick-and-hunt-pick-answered-by-the-other-player",
    DecisionKind.PAY: "ART-DEC-1-tile-options-and-price-answered-by-another-player",
    DecisionKind.UPGRADE_STONES: "ART-DEC-1-upgrade-stones-answered-by-another-player",
}
EXPANSION_WRONG_PLAYER_SCENARIOS = (
    "ART-DEC-1-tile-card-choice-answered-by-another-player",
    "ART-DEC-1-tile-options-and-price-answered-by-another-player",
)
HOLDING_LIMIT_SCENARIOS = (
    "LIMIT-2-triton-blue-stones-over-the-limit-after-taming",
    "LIMIT-2-keep-four-after-removing-hestia-with-totem-pole",
)

_guarded_parse = actions.parse
_strict_over_limit = Table.over_limit


def _parse_without_player(table: Table, spec: DecisionSpec | None, action: object) -> Any:
    """An engine that forgets DEC-1: it treats every answer as coming from the deciding player."""
    if spec is not None and isinstance(action, dict):
        action = {**action, "player": spec.player}
    return _guarded_parse(table, spec, action)


class AnyPlayerAnswers(BrokenEngine):
    BROKEN_RULE = "DEC-1"
    PATCHES = ((actions, "parse", _parse_without_player),)


def _check_payment_from_any_stones(held: Stones, paid: Stones, values: StoneValues, cost: int) -> Any:
    """An engine that forgets PAY-5: it values the payment without asking whether the stones are held."""
    covering = Stones(max(held.red, paid.red), max(held.blue, paid.blue), max(held.purple, paid.purple))
    return _held_check_payment(covering, paid, values, cost)


class PaysWithStonesNotHeld(BrokenEngine):
    BROKEN_RULE = "PAY-5"
    PATCHES = ((actions, "check_payment", _check_payment_from_any_stones),)


def _over_limit_at_four(self: Table) -> int | None:
    """An engine that reads 'at most 4' as 'fewer than 4' once Hestia has left: 4 stones are too many."""
    for index, player in enumerate(self.state.players):
        held = player.stones.red + player.stones.blue + player.stones.purple
        choosing = any(f.kind == "keep" and f.player == index for f in self.state.stack)
        if held >= self.holding_limit(index) and not choosing:
            return index
    return _strict_over_limit(self)


class LimitReachedAtFour(BrokenEngine):
    BROKEN_RULE = "LIMIT-1"
    PATCHES = ((Table, "over_limit", _over_limit_at_four),)


def _outcome(impl: str, factory: Any, scenario_id: str) -> Outcome:
    scenario = load_dir(default_dir()).get(scenario_id)
    assert scenario is not None, scenario_id
    return run_scenario(EngineUnderTest(impl, factory, 5.0), scenario).outcome


def test_every_decision_kind_has_a_wrong_player_scenario() -> None:
    assert set(DecisionKind) == set(WRONG_PLAYER_SCENARIOS)


@pytest.mark.parametrize("scenario_id", sorted({*WRONG_PLAYER_SCENARIOS.values(), *EXPANSION_WRONG_PLAYER_SCENARIOS}))
def test_wrong_player_scenario_passes_on_the_reference_and_catches_an_engine_without_dec_1(scenario_id: str) -> None:
    from oracle.reference import ReferenceEngine

    assert Outcome.PASS == _outcome("oracle.reference", ReferenceEngine, scenario_id)
    caught = _outcome("any_player_answers", AnyPlayerAnswers, scenario_id)
    assert caught in (Outcome.ILLEGAL_ACCEPTED, Outcome.FAIL), caught


@pytest.mark.parametrize("scenario_id", HOLDING_LIMIT_SCENARIOS)
def test_holding_limit_scenario_catches_an_engine_without_the_limit(scenario_id: str) -> None:
    from vale_fixtures.no_holding_limit import NoHoldingLimit

    assert Outcome.FAIL == _outcome("vale_fixtures.no_holding_limit", NoHoldingLimit, scenario_id)


def test_exactly_four_stones_after_removing_hestia_catches_a_limit_off_by_one() -> None:
    scenario_id = "LIMIT-1-exactly-four-stones-after-removing-hestia"
    from oracle.reference import ReferenceEngine

    assert Outcome.PASS == _outcome("oracle.reference", ReferenceEngine, scenario_id)
    assert Outcome.FAIL == _outcome("limit_reached_at_four", LimitReachedAtFour, scenario_id)


def test_removal_paid_with_a_colour_not_held_catches_an_engine_without_pay_5() -> None:
    scenario_id = "PAY-5-removal-paid-with-a-colour-not-held"
    caught = _outcome("pays_with_stones_not_held", PaysWithStonesNotHeld, scenario_id)
    assert Outcome.ILLEGAL_ACCEPTED == caught
