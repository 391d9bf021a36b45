"""The Hypothesis state machine users subclass (vale_invariants.machine.ValeMachine), run from a user's test file: in
lock-step with the reference by default, its program naming player counts, its failure trimmed to the user's frames."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from oracle.core.json_types import JSON
from vale_fixtures.internal_shuffle import ReshufflesInside
from vale_invariants import checks
from vale_invariants.machine import LockstepOff, ValeMachine
from vale_invariants.machine_report import EXPLAINED, EXPLANATION, user_notes

pytest_plugins = ("pytester",)

USER_TEST = """
from hypothesis import HealthCheck, Phase, settings

from vale_invariants.machine import ValeMachine


class MyEngineMachine(ValeMachine):
    impl = "{impl}"
    save_failures = {save!r}
    lockstep = {lockstep}


MyEngineMachine.TestCase.settings = settings(
    max_examples={examples}, stateful_step_count=30, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
TestMyEngine = MyEngineMachine.TestCase
"""


def user_file(pytester: pytest.Pytester, impl: str, examples: int, save: str | None = None,
              lockstep: bool = True) -> None:
    pytester.makepyfile(test_my_engine=USER_TEST.format(impl=impl, examples=examples, save=save, lockstep=lockstep))


def internal_lines(lines: list[str]) -> list[str]:
    """The lines of a report that show a frame or a source line of Hypothesis or the oracle."""
    return [line for line in lines if re.search(r"(hypothesis|vale_invariants|oracle)/\w+\.py", line)]

# Hypothesis heads the shrunk steps "Falsifying example:" up to 6.1xx and "Failing test case:" after.
HYPOTHESIS_SHOWS_THE_STEPS = r"(Falsifying example|Failing test case):"


def test_the_reference_keeps_every_invariant(pytester: pytest.Pytester) -> None:
    user_file(pytester, "oracle.reference", 10)
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_in_lock_step_the_engine_without_a_holding_limit_is_blamed_on_LIMIT_1(pytester: pytest.Pytester) -> None:
    user_file(pytester, "vale_fixtures.no_holding_limit", 20)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*FAIL LOCKSTEP (LIMIT-1, *), step *: *the reference asks keep_stones*",
                                 "*blamed on LIMIT-1: A player may hold at most 4 stones*",
                                 "*the reference after P? sells * asks keep_stones of P? (limit 4); the engine asks "
                                 "action of P?*",
                                 "*state.new_game(players=2, first=*", "*state.play(pick=*"])
    assert re.search(HYPOTHESIS_SHOWS_THE_STEPS, result.stdout.str()), result.stdout.str()
    assert [] == internal_lines(result.outlines)


def machine_verdict(fixture: str, with_reference: bool) -> str:
    """How a ValeMachine of ``vale_fixtures.<fixture>`` ends, run in this process (cheap: generation only): the
    outcome, the invariant and the blamed rule of its failure (``FAIL LOCKSTEP (EFF-5``), or ``passed``."""

    class FixtureMachine(ValeMachine):
        impl = f"vale_fixtures.{fixture}"
        lockstep = with_reference

    machine = FixtureMachine
    machine.TestCase.settings = settings(max_examples=20, stateful_step_count=60, deadline=None, derandomize=True,
                                         database=None, phases=[Phase.explicit, Phase.generate],
                                         suppress_health_check=list(HealthCheck))
    try:
        machine.TestCase().runTest()
    except AssertionError as failure:
        return " ".join(str(failure).split()[:3]).rstrip(",)")
    return "passed"


def test_in_lock_step_the_machine_catches_what_no_invariant_sees_blamed_on_its_rule() -> None:
    assert ["FAIL LOCKSTEP (EFF-5", "FAIL LOCKSTEP (EFF-3"] == [
        machine_verdict("fixed_active_order", True), machine_verdict("kappa_own_summon", True)]


def test_without_lock_step_the_invariants_catch_the_engine_without_a_holding_limit() -> None:
    assert "FAIL INV-LIMIT (LIMIT-1" == machine_verdict("no_holding_limit", False)


def test_the_failure_is_saved_as_a_scenario_the_reference_passes(pytester: pytest.Pytester) -> None:
    found = pytester.path / "found"
    user_file(pytester, "vale_fixtures.no_holding_limit", 20, str(found))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    saved = sorted(found.glob("*.toml"))
    assert (1, True) == (len(saved), any(f"scenario: {saved[0]}" in line for line in result.outlines))
    title = tomllib.loads(saved[0].read_text(encoding="utf-8"))["title"]
    assert re.match(r"^LIMIT-1: the engine asks action of p\d where the reference asks keep_stones of p\d \(limit 4\), "
                    r"on \w+ .*, after \d+ steps$", title), title
    check = pytester.run(sys.executable, "-P", "-m", "oracle.cli.app", "check", "--impl", "oracle.reference",
                         "--scenarios", str(found), "--suite", "scenarios")
    assert 0 == check.ret


def test_the_explanation_keeps_only_the_lines_of_the_users_files() -> None:
    oracle_line = f"        {Path(checks.__file__)}:47"
    user_line = "        /home/me/engine/rules.py:12"
    notes = ["Failing test case: <state machine>", "state.teardown()", EXPLANATION, EXPLAINED, oracle_line,
             "        (and 9 more with settings.verbosity >= verbose)"]
    assert (["Failing test case: <state machine>", "state.teardown()"],
            ["state.teardown()", EXPLANATION, EXPLAINED, user_line]) == (
        user_notes(notes), user_notes(["state.teardown()", EXPLANATION, EXPLAINED, user_line, oracle_line]))


class _ReshufflesWithoutExport(ReshufflesInside):
    """Reshuffles by itself and cannot export: the reference cannot adopt its orders."""

    def handshake(self) -> JSON:
        shake = super().handshake()
        shake["capabilities"] = [c for c in shake["capabilities"] if c != "export"]
        return shake


def test_a_machine_that_cannot_play_beside_the_reference_says_it_checks_invariants_only() -> None:
    class NoExportMachine(ValeMachine):
        factory = _ReshufflesWithoutExport

    NoExportMachine.TestCase.settings = settings(max_examples=1, stateful_step_count=2, deadline=None,
                                                 derandomize=True, database=None,
                                                 suppress_health_check=list(HealthCheck))
    with pytest.warns(LockstepOff, match="checks its invariants only, not lock-step"):
        NoExportMachine.TestCase().runTest()
