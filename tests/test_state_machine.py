"""The Hypothesis state machine users subclass (vale_invariants.machine.ValeMachine), run from a user's test file."""

from __future__ import annotations

import re
import sys

import pytest

pytest_plugins = ("pytester",)

USER_TEST = """
from hypothesis import HealthCheck, Phase, settings

from vale_invariants.machine import ValeMachine


class MyEngineMachine(ValeMachine):
    impl = "{impl}"
    save_failures = {save!r}


MyEngineMachine.TestCase.settings = settings(
    max_examples={examples}, stateful_step_count=30, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
TestMyEngine = MyEngineMachine.TestCase
"""


def user_file(pytester: pytest.Pytester, impl: str, examples: int, save: str | None = None) -> None:
    pytester.makepyfile(test_my_engine=USER_TEST.format(impl=impl, examples=examples, save=save))

# Hypothesis heads the shrunk steps "Falsifying example:" up to 6.1xx and "Failing test case:" after.
HYPOTHESIS_SHOWS_THE_STEPS = r"(Falsifying example|Failing test case):"


def test_the_reference_keeps_every_invariant(pytester: pytest.Pytester) -> None:
    user_file(pytester, "oracle.reference", 10)
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_a_subclass_catches_the_engine_without_a_holding_limit(pytester: pytest.Pytester) -> None:
    user_file(pytester, "vale_fixtures.no_holding_limit", 20)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*FAIL INV-LIMIT (LIMIT-1*", "*state.new_game(players=*", "*state.play(pick=*"])
    assert re.search(HYPOTHESIS_SHOWS_THE_STEPS, result.stdout.str()), result.stdout.str()


def test_the_failure_is_saved_as_a_scenario_the_reference_passes(pytester: pytest.Pytester) -> None:
    found = pytester.path / "found"
    user_file(pytester, "vale_fixtures.no_holding_limit", 20, str(found))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    saved = sorted(found.glob("*.toml"))
    assert (1, True) == (len(saved), any(f"scenario: {saved[0]}" in line for line in result.outlines))
    check = pytester.run(sys.executable, "-m", "oracle.cli.app", "check", "--impl", "oracle.reference",
                         "--scenarios", str(found), "--suite", "scenarios")
    assert 0 == check.ret
