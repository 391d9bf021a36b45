"""A game that stalls is a cause of its own (issue 24, item 7): not ended within the step limit, or at a decision no
one can answer, it names the phase, the decision and who holds it, and is never filed under END-1."""

from __future__ import annotations

from typing import Any

import pytest

from oracle.core.causes import CAUSE_KEY, CauseFacts, Verdict
from oracle.core.json_types import JSON
from oracle.core.results import CheckResult, Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.engines.play import MAX_STEPS
from oracle.reference import ReferenceEngine
from oracle.reports.cause_words import cause_title
from oracle.reports.causes import group_causes
from oracle.suites import games
from oracle.suites.registry import CheckOptions, run_suites
from tests.helpers import CALL_SECONDS
from vale_invariants.catalog import ALL_NAMES
from vale_invariants.game import GameRunner, GameSettings, RandomChooser
from vale_invariants.trace import Violation


class _NoAnswers(ReferenceEngine):
    """The reference, listing no legal answer to any decision."""

    def legal_actions(self) -> list[JSON]:
        return []


def _random_play(factory: Any, monkeypatch: pytest.MonkeyPatch, max_steps: int = MAX_STEPS) -> CheckResult:
    monkeypatch.setattr(games, "MAX_STEPS", max_steps)
    options = CheckOptions(players=(2,), games=1, select=("random-play/2p/*",))
    results = run_suites(EngineUnderTest("stalls", factory, CALL_SECONDS), options, [games.RANDOM_PLAY])
    assert 1 == len(results)
    return results[0]


def _stall_of(result: CheckResult) -> CauseFacts:
    facts = CauseFacts.from_json(result.details.get(CAUSE_KEY))
    assert facts is not None, result
    return facts


def test_a_game_not_ended_within_the_step_limit_stalls_naming_phase_decision_and_holder(
        monkeypatch: pytest.MonkeyPatch) -> None:
    result = _random_play(ReferenceEngine, monkeypatch, max_steps=7)
    facts = _stall_of(result)
    assert (Outcome.FAIL, (), Verdict.STALLS, "") == (result.outcome, result.rules, facts.verdict, facts.rule)
    assert (facts.kind, facts.field) != ("unknown", "no")
    assert facts.engine_does.startswith("stalls: no end after 7 decisions; P") and f"the {facts.kind} phase" in \
        facts.engine_does
    assert f"stalled at round 1, {facts.kind} phase, P" in result.actual
    [cause] = group_causes([result])
    assert (f"stalls/{facts.kind}/{facts.field}", []) == (cause.facts.signature, list(cause.rules))
    assert "END-1" not in cause_title(cause.facts)


def test_a_decision_no_one_can_answer_stalls_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    result = _random_play(_NoAnswers, monkeypatch)
    facts = _stall_of(result)
    assert (Outcome.FAIL, (), "stalls/hunting/hunt_pick") == (result.outcome, result.rules, facts.signature)
    assert facts.engine_does.startswith("stalls: no legal answer is listed; P")
    assert "The engine stalls: no legal answer is listed; P0 holds the hunt_pick decision in the hunting phase" == \
        cause_title(facts)


@pytest.mark.parametrize(("engine", "invariant", "max_steps"), [
    (ReferenceEngine, "INV-PROGRESS", 5),
    (_NoAnswers, "INV-LEGAL-APPLIES", 3000),
])
def test_a_fuzzed_game_that_stalls_names_no_rule(engine: Any, invariant: str, max_steps: int) -> None:
    settings = GameSettings(engine, "stalls", (2,), frozenset(ALL_NAMES), False, CALL_SECONDS, max_steps=max_steps)
    with pytest.raises(Violation) as raised:
        GameRunner(settings, RandomChooser(1)).play()
    failure = raised.value.failure
    facts = CauseFacts.from_json(failure.fault_details.get(CAUSE_KEY))
    assert (invariant, (), Verdict.STALLS) == (failure.invariant, failure.rules, facts and facts.verdict)
