"""Faults cost one check: each hostile wire engine is reported on the check it broke, and the run goes on."""

from __future__ import annotations

import sys

import pytest

from oracle.core.results import Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.suites.all import run_check
from oracle.suites.registry import CheckOptions

# fixture module -> (outcome, method named, what the message says)
HOSTILE = {
    "exits_in_apply": (Outcome.ERROR, "apply", "exited with status 3"),
    "crashes_in_new_game": (Outcome.ERROR, "new_game", "killed by signal 6"),
    "closes_stdout_in_legal_actions": (Outcome.ERROR, "legal_actions", "closed its stdout"),
    "non_json_in_decision": (Outcome.ERROR, "decision", "not JSON: 'DEBUG: computing"),
    "wrong_id_in_apply": (Outcome.ERROR, "apply", "answered with id"),
    "overlong_line_in_legal_actions": (Outcome.ERROR, "legal_actions", "(the maximum is 4194304)"),
    "deep_json_in_legal_actions": (Outcome.ERROR, "legal_actions",
                                   "wrote a line of JSON nested deeper than the JSON parser can follow"),
    "silent_in_decision": (Outcome.TIMEOUT, "decision", "no answer within 3 s"),
}


@pytest.mark.parametrize("module", sorted(HOSTILE))
def test_a_hostile_wire_engine_costs_only_the_checks_it_broke(module: str) -> None:
    outcome, method, text = HOSTILE[module]
    eut = EngineUnderTest.load(f"cmd:{sys.executable} -m vale_fixtures.wire.{module}", 3.0)
    results = run_check(eut, CheckOptions(games=1, timeout=3.0, players=(3, 4)), ["random-play"])
    broken = [r for r in results if "/3p/" in r.id]
    kept = [r for r in results if "/4p/" in r.id]
    assert broken and kept
    assert {outcome} == {r.outcome for r in broken}, [r.message for r in broken]
    for result in broken:
        assert result.message.startswith(f"{method}: "), result.message
        assert text in result.message
        assert f"misbehaving in {method} now" in result.message, "the engine's stderr is quoted"
    assert {Outcome.PASS} == {r.outcome for r in kept}, [r.message for r in kept]
