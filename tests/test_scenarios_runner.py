"""The scenario runner classifies every outcome correctly, using tiny engines built on the reference engine.

The engine classes here are also used by ``tests/test_cli_check.py`` through
``--impl tests.test_scenarios_runner:<Class>``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from oracle.core.causes import CAUSE_KEY, CauseFacts, Verdict
from oracle.core.faults import REFUSED_POSITIONS
from oracle.core.json_types import JSON
from oracle.core.protocol import CAPABILITIES
from oracle.core.results import POSITION_REFUSED, CheckResult, Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.reference import ReferenceEngine
from oracle.reports.causes import group_causes
from oracle.scenarios.loader import default_dir, load_dir, parse_text
from oracle.scenarios.model import Scenario
from oracle.scenarios.runner import run_scenario

# ---------------------------------------------------------------------- tiny engines


class AcceptAll(ReferenceEngine):
    """Accepts every action without changing anything."""

    def apply(self, action: JSON) -> JSON:
        return {"accepted": True, "events": []}


class RejectAll(ReferenceEngine):
    """Rejects every action, citing PAY-1."""

    def apply(self, action: JSON) -> JSON:
        return {"accepted": False, "events": [],
                "rejection": {"code": "PAYMENT_SHORT", "rule": "PAY-1", "message": "never enough"}}


class ChangesThenRejects(ReferenceEngine):
    """Rejects what the reference rejects, but gives player 0 a point first (breaks DEC-4)."""

    def apply(self, action: JSON) -> JSON:
        result = super().apply(action)
        if not result["accepted"]:
            self.state.players[0].score += 1
        return result


class WrongCode(ReferenceEngine):
    """Rejects what the reference rejects, always with the code PAYMENT_SHORT."""

    def apply(self, action: JSON) -> JSON:
        result = super().apply(action)
        if not result["accepted"]:
            result["rejection"] = {"code": "PAYMENT_SHORT", "rule": "PAY-1", "message": "short"}
        return result


class Raises(ReferenceEngine):
    def apply(self, action: JSON) -> JSON:
        raise RuntimeError("boom")


class Sleeps(ReferenceEngine):
    """Takes 10 s to apply an action, unless the harness interrupts it (``woke`` counts the sleeps that ended)."""

    woke = 0

    def apply(self, action: JSON) -> JSON:
        time.sleep(10)
        Sleeps.woke += 1
        return super().apply(action)


class NoLoad(ReferenceEngine):
    def handshake(self) -> JSON:
        data = super().handshake()
        data["capabilities"] = [c for c in CAPABILITIES if c != "load"]
        return data


class LoadNotImplemented(ReferenceEngine):
    def load(self, snapshot: JSON) -> None:
        raise NotImplementedError


class NoLegalActions(ReferenceEngine):
    """Lists no legal actions itself: the oracle probes candidates on copies."""

    def handshake(self) -> JSON:
        data = super().handshake()
        data["capabilities"] = ["load", "export"]
        return data

    def legal_actions(self) -> list[JSON]:
        raise NotImplementedError


class NoEvents(ReferenceEngine):
    def handshake(self) -> JSON:
        data = super().handshake()
        data["capabilities"] = [c for c in CAPABILITIES if c != "events"]
        return data

    def apply(self, action: JSON) -> JSON:
        result = super().apply(action)
        result["events"] = []
        return result


class ListsEverything(ReferenceEngine):
    """Lists an illegal end_turn of player 1 among its legal actions."""

    def legal_actions(self) -> list[JSON]:
        return [*super().legal_actions(), {"type": "end_turn", "player": 1}]


# ---------------------------------------------------------------------- helpers

BASE = """\
id = "{id}"
title = "A test scenario"
rules = ["PAY-3"]
cards = ["Salamander"]
source = "test"

[given]
round = 1

[[given.players]]
hand = ["Salamander"]
stones = {{ red = 1, blue = 1 }}
"""

SUMMON_OK = """
[[steps]]
do = { type = "summon", player = 0, card = "Salamander", payment = { blue = 1 } }
expect = { players = [ { area = ["Salamander"] } ] }
"""

SUPERFLUOUS = """
[[steps]]
do = { type = "summon", player = 0, card = "Salamander", payment = { red = 1, blue = 1 } }
reject = { code = "PAYMENT_SUPERFLUOUS_STONE", rule = "PAY-3" }
"""


def scenario(steps: str, scenario_id: str = "T-1", head: str = BASE) -> Scenario:
    text = head.format(id=scenario_id) + steps
    found, errors = parse_text(text, Path(f"{scenario_id}.toml"))
    assert [] == [str(e) for e in errors]
    assert found is not None
    return found


def run(steps: str, factory: Any = ReferenceEngine, timeout: float = 5.0, budget: float = 10.0,
        head: str = BASE) -> CheckResult:
    eut = EngineUnderTest("tests.test_scenarios_runner", factory, timeout)
    return run_scenario(eut, scenario(steps, head=head), budget)


# ---------------------------------------------------------------------- outcomes


def test_every_bundled_scenario_passes_on_the_reference_engine() -> None:
    """Each on the reference declaring the variant values the scenario plays (none for most)."""
    loaded = load_dir(default_dir())

    def reference_for(variants: dict[str, str]) -> EngineUnderTest:
        return EngineUnderTest("oracle.reference", lambda: ReferenceEngine(variants), 5.0)

    results = [run_scenario(reference_for(s.variants), s) for s in loaded.scenarios]
    expected = [(s.id, "pass", "") for s in loaded.scenarios]
    assert expected == [(r.id, r.outcome.value, r.message) for r in results]
    assert len(loaded.scenarios) >= 6


def test_pass_carries_rules_cards_and_reproduce() -> None:
    result = run(SUPERFLUOUS + SUMMON_OK)
    expected = CheckResult(
        "scenarios", "T-1", "A test scenario", Outcome.PASS, rules=("PAY-3",), cards=("base-fire-05",),
        reproduce="oracle check --impl tests.test_scenarios_runner --select T-1",
        duration=result.duration, details={"file": "T-1.toml", "line": 1, "steps": 2},
    )
    assert expected == result


def test_an_engine_accepting_a_rejected_action_is_illegal_accepted() -> None:
    result = run(SUPERFLUOUS, AcceptAll)
    expected = (Outcome.ILLEGAL_ACCEPTED, 1, ("PAY-3",), "rejected with PAYMENT_SUPERFLUOUS_STONE (PAY-3)", "accepted")
    assert expected == (result.outcome, result.step, result.rules, result.expected, result.actual)


def test_an_engine_refusing_a_legal_action_is_wrongly_rejected_and_names_its_rule() -> None:
    result = run(SUMMON_OK, RejectAll)
    expected = (Outcome.WRONGLY_REJECTED, 1, ("PAY-3", "PAY-1"))
    assert expected == (result.outcome, result.step, result.rules)
    want_actual = "rejected with PAYMENT_SHORT (PAY-1): never enough"
    assert want_actual == result.actual


def test_a_rejection_that_changes_the_state_fails_and_is_blamed_on_dec_4() -> None:
    result = run(SUPERFLUOUS, ChangesThenRejects)
    expected = (Outcome.FAIL, 1, ("PAY-3", "DEC-4"),
                "rejected with PAYMENT_SUPERFLUOUS_STONE (PAY-3), the state unchanged (DEC-4)")
    assert expected == (result.outcome, result.step, result.rules, result.expected)
    assert result.actual.startswith("rejected with PAYMENT_SUPERFLUOUS_STONE (PAY-3): pays ")
    assert result.actual.endswith(", and state.players[0].score changed from 0 to 1")
    facts = CauseFacts.from_json(result.details[CAUSE_KEY])
    assert facts is not None
    expected_facts = (Verdict.CHANGED_THEN_REJECTED, "action", "PAYMENT_SUPERFLUOUS_STONE", "players[*].score", "DEC-4")
    assert expected_facts == (facts.verdict, facts.kind, facts.code, facts.field, facts.rule)
    assert facts.engine_message.startswith("pays ")


def test_a_rejection_with_another_code_fails() -> None:
    result = run(SUPERFLUOUS, WrongCode)
    expected = (Outcome.FAIL, "rejected with PAYMENT_SUPERFLUOUS_STONE (PAY-3)")
    assert expected == (result.outcome, result.expected)
    assert result.actual.startswith("rejected with PAYMENT_SHORT (PAY-1)")
    assert "PAY-1" in result.rules


def test_an_engine_that_raises_is_an_error() -> None:
    result = run(SUMMON_OK, Raises)
    expected = (Outcome.ERROR, 1)
    assert expected == (result.outcome, result.step)
    assert "RuntimeError: boom" in result.message


def test_an_engine_call_past_the_timeout_is_a_timeout() -> None:
    Sleeps.woke = 0
    result = run(SUMMON_OK, Sleeps, timeout=1.0)
    expected = (Outcome.TIMEOUT, 1, 0)
    assert expected == (result.outcome, result.step, Sleeps.woke)  # interrupted at its timeout, not after 10 s
    assert "no answer within 1 s" in result.message


def test_a_scenario_past_its_budget_is_incomplete_and_no_cause() -> None:
    Sleeps.woke = 0
    result = run(SUMMON_OK, Sleeps, timeout=5.0, budget=1.0)
    expected = (Outcome.INCOMPLETE, 0, True)
    assert expected == (result.outcome, Sleeps.woke, result.details.get("out_of_budget"))
    assert "budget of 1 s" in result.message
    assert [] == group_causes([result])


def test_an_engine_without_load_is_unsupported() -> None:
    assert Outcome.UNSUPPORTED == run(SUMMON_OK, NoLoad).outcome


def test_an_engine_declaring_load_and_refusing_the_scenarios_position_is_unsupported_for_it() -> None:
    """Issue 36, item 10: a refused position is a check that cannot run, for one reason; the lie of a ``load`` that
    refuses the engine's own snapshots is caught by the round trip (tests/test_position_refused.py)."""
    result = run(SUMMON_OK, LoadNotImplemented)
    assert (Outcome.UNSUPPORTED, False, True) == (result.outcome, "PROTO-2" in result.rules,
                                                  result.details.get(POSITION_REFUSED))
    assert REFUSED_POSITIONS in result.message


class BaseOnly(ReferenceEngine):
    """The reference engine declaring neither the expansion cards nor the tiles."""

    def handshake(self) -> dict[str, Any]:
        return {**super().handshake(), "expansion": False, "artifacts": False}


def test_a_required_feature_the_engine_lacks_is_unsupported() -> None:
    head = BASE.replace('source = "test"', 'source = "test"\nrequires = ["expansion"]')
    result = run(SUMMON_OK, factory=BaseOnly, head=head)
    expected = (Outcome.UNSUPPORTED, "the engine does not declare expansion (required by the scenario)")
    assert expected == (result.outcome, result.message)


def test_an_expectation_that_does_not_hold_names_the_first_differing_field() -> None:
    steps = """
[[steps]]
do = { type = "summon", player = 0, card = "Salamander", payment = { blue = 1 } }
expect = { players = [ { area = ["Salamander"], stones = { red = 0 } } ] }
"""
    result = run(steps)
    expected = (Outcome.FAIL, 1, "players[0].stones.red = 0", "players[0].stones.red = 1")
    assert expected == (result.outcome, result.step, result.expected, result.actual)
    assert result.message.startswith("T-1.toml:14: step 1: expect:")


def test_strictness_names_the_pending_decision_and_the_scripted_action() -> None:
    steps = """
[[steps]]
do = { type = "end_turn", player = 1 }
"""
    result = run(steps)
    expected = (Outcome.FAIL,
                "T-1.toml:14: step 1: the engine asks action of P0, the scenario scripts P1 ends the turn")
    assert expected == (result.outcome, result.message)


def test_legal_and_not_legal_lists() -> None:
    legal = """
[[steps]]
legal = [ { type = "summon", player = 0, card = "Salamander", payment = { red = 1, blue = 1 } } ]
"""
    result = run(legal)
    expected = (Outcome.FAIL, "legal: P0 summons Salamander paying 1 red, 1 blue")
    assert expected == (result.outcome, result.expected)
    not_legal = """
[[steps]]
not_legal = [ { type = "end_turn", player = 1 } ]
"""
    passed = Outcome.PASS
    assert passed == run(not_legal).outcome
    result = run(not_legal, ListsEverything)
    expected_listed = (Outcome.FAIL, "not legal: P1 ends the turn", "listed as legal")
    assert expected_listed == (result.outcome, result.expected, result.actual)


def test_legal_actions_are_probed_without_the_capability() -> None:
    steps = """
[[steps]]
legal = [
  { type = "summon", player = 0, card = "Salamander", payment = { red = 1 } },
  { type = "summon", player = 0, card = "Salamander", payment = { blue = 1, purple = 0 } },
]
not_legal = [ { type = "summon", player = 0, card = "Salamander", payment = { red = 1, blue = 1 } } ]
"""
    expected = Outcome.PASS
    assert expected == run(steps, NoLegalActions).outcome


def test_decision_and_events() -> None:
    steps = """
[[steps]]
do = { type = "end_turn", player = 0 }
decision = { kind = "action", player = 1 }
events = [ { type = "turn_ended", player = 0 } ]
"""
    expected = Outcome.PASS
    assert expected == run(steps).outcome
    wrong = steps.replace('events = [ { type = "turn_ended", player = 0 } ]',
                          'events = [ { type = "turn_ended", player = 1 } ]')
    result = run(wrong)
    want = (Outcome.FAIL, 'an event matching {"type": "turn_ended", "player": 1}')
    assert want == (result.outcome, result.expected)
    assert expected == run(wrong, NoEvents).outcome
    result = run(steps.replace("player = 1 }", "player = 0 }"))
    want_decision = (Outcome.FAIL, "decision.player = 0", "decision.player = 1")
    assert want_decision == (result.outcome, result.expected, result.actual)


def test_decision_none_and_expect_end() -> None:
    head = BASE.replace("round = 1", "round = 10").replace('hand = ["Salamander"]', "")
    steps = """
[[steps]]
do = { type = "end_turn", player = 0 }

[[steps]]
do = { type = "end_turn", player = 1 }
decision = "none"

[expect_end]
winners = [0, 1]
"""
    expected = Outcome.PASS
    assert expected == run(steps, head=head).outcome
    result = run(steps.replace("winners = [0, 1]", "winners = [0]"), head=head)
    want = (Outcome.FAIL, None, "winners = [0]", "winners = [0, 1]")
    assert want == (result.outcome, result.step, result.expected, result.actual)
    assert result.message.startswith("T-1.toml:21: expect_end:")
    result = run(steps.replace("do = { type = \"end_turn\", player = 1 }\n", ""), head=head)
    want_fail = (Outcome.FAIL, 2, "decision = none (the game is over)")
    assert want_fail == (result.outcome, result.step, result.expected)
