"""No artefact is a cause (issue 24, item 7): a check cut short by a budget is incomplete and forms no cause, the
fixed budgets scale with the engine's measured speed (or ``--budget-scale``), and shrinking is bounded by a count.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import json
import os
import shutil
import time
from pathlib import Path
from unittest import mock

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.json_types import JSON
from oracle.core.results import CheckResult, Outcome
from oracle.engines.harness import Subject
from oracle.engines.speed import MAX_SCALE, BudgetScale, ScaleSource, SpeedSample, measure_scale
from oracle.reference import ReferenceEngine
from oracle.reports.causes import group_causes
from oracle.run.supervisor import Supervisor
from oracle.scenarios.loader import default_dir
from oracle.suites.registry import CheckOptions, PlanContext, ScenarioOptions
from oracle.suites.scenarios import SCENARIOS
from tests.helpers import CALL_SECONDS
from vale_invariants.fuzz import FuzzConfig, run_fuzz

runner = CliRunner()
PAY3 = "PAY-3-red-and-blue-for-cost-1.toml"


# ---------------------------------------------------------------------------------------------- the measure


@pytest.mark.parametrize(("engine_ms", "reference_ms", "factor"), [
    (0.04, 0.04, 1.0), (0.049, 0.04, 1.0), (0.115, 0.043, 2.7), (0.12, 0.04, 3.0), (500.0, 0.04, MAX_SCALE),
])
def test_the_factor_is_the_ratio_of_medians_rounded_up_to_a_tenth_1_when_as_fast(
        engine_ms: float, reference_ms: float, factor: float) -> None:
    scale = BudgetScale.of(SpeedSample(engine_ms / 1e3, reference_ms / 1e3, 12))
    assert (factor, ScaleSource.MEASURED) == (scale.factor, scale.source)


class _SlowCalls(ReferenceEngine):
    """The reference, answering each decision 3 ms late: slower, and just as right."""

    def decision(self) -> JSON | None:
        time.sleep(0.003)
        return super().decision()


class _DecisionRaises(ReferenceEngine):
    def decision(self) -> JSON | None:
        raise RuntimeError("boom")


def test_a_slow_engine_is_measured_slower_than_the_reference() -> None:
    scale = measure_scale(Subject(_SlowCalls, "slow", CALL_SECONDS))
    assert ScaleSource.MEASURED == scale.source
    assert scale.factor >= 5, scale.text()  # 3 ms against some 0.05 ms of the reference's calls
    assert scale.sample is not None and scale.sample.engine_seconds > scale.sample.reference_seconds


def test_an_engine_that_fails_the_measure_keeps_the_budgets_as_they_are() -> None:
    scale = measure_scale(Subject(_DecisionRaises, "raises", CALL_SECONDS))
    assert (1.0, ScaleSource.UNMEASURED) == (scale.factor, scale.source)
    assert scale.note.startswith("decision() failed while timing the engine: raised RuntimeError: boom")


def test_every_fixed_budget_is_multiplied_by_the_scale_and_the_per_call_timeout_is_not(tmp_path: Path) -> None:
    from oracle.suites.games import RANDOM_PLAY
    from oracle.suites.invariants import fuzz_config
    from oracle.suites.z3.suite import conform_options

    shutil.copy(default_dir() / "payment" / PAY3, tmp_path / PAY3)
    handshake = Subject(ReferenceEngine, "oracle.reference", CALL_SECONDS).handshake
    one_file = ScenarioOptions(tmp_path)
    plain, scaled = CheckOptions(scenarios=one_file), CheckOptions(scenarios=one_file, budget_scale=3.0)
    units = {o.budget_scale: (SCENARIOS.plan(PlanContext("r", handshake, o))[0],
                              RANDOM_PLAY.plan(PlanContext("r", handshake, o))[0]) for o in (plain, scaled)}
    assert 3 * units[1.0][0].payload.budget == units[3.0][0].payload.budget
    assert 3 * units[1.0][1].deadline == units[3.0][1].deadline
    assert 3 * conform_options("r", plain).budget == conform_options("r", scaled).budget
    assert (60.0, 180.0) == (fuzz_config(plain).seconds, fuzz_config(scaled).seconds)
    assert fuzz_config(plain).timeout == fuzz_config(scaled).timeout


# ---------------------------------------------------------------------------------------------- oracle check


def _check(tmp_path: Path, *args: str) -> tuple[int, str, JSON]:
    report = tmp_path / "r.json"
    result = runner.invoke(app, ["check", *args, "--report-json", str(report)])
    return result.exit_code, result.stdout, json.loads(report.read_text(encoding="utf-8"))


def test_every_worker_uses_the_one_given_scale_and_the_rows_it_cuts_short_form_no_cause(tmp_path: Path) -> None:
    code, out, report = _check(tmp_path, "--suite", "z3", "--select", "z3/holding-limit/*",
                               "--z3-budget", "0.001", "--budget-scale", "3", "--jobs", "2", "--legal-share", "1")
    assert 3 == code, out
    assert {"factor": 3.0, "source": "given"} == report["run"]["budget_scale"]
    assert (1.0, "given: --legal-share 1") == (report["run"]["legal_share"], report["run"]["legal_share_reason"])
    assert "budget scale 3 (given: --budget-scale 3)" in out
    cut = [r for r in report["results"] if r["details"].get("out_of_budget")]
    assert len(cut) >= 2 and all("budget of 0.003 s ran out" in r["message"] for r in cut)
    assert {"incomplete"} == {r["outcome"] for r in cut}
    assert (0, []) == (report["totals"]["causes"], report["causes"])


def test_a_run_measures_its_scale_and_says_so(tmp_path: Path) -> None:
    code, out, report = _check(tmp_path, "--suite", "setup", "--select", "setup/2p/first-0")
    scale = report["run"]["budget_scale"]
    assert (0, "measured") == (code, scale["source"]), out
    assert scale["factor"] >= 1 and scale["engine_ms"] > 0 and scale["reference_ms"] > 0
    assert f"budget scale {scale['factor']:g} (measured: " in out
    share, reason = report["run"]["legal_share"], report["run"]["legal_share_reason"]
    assert (True, True) == (share == 1 or 0.05 <= share <= 0.5, reason.startswith("measured: a listing took "))
    assert ", a try_actions of the probes " in reason  # the reference declares both ways of judging a decision
    assert f"legal-set share {share:g} ({reason})" in out


@pytest.mark.parametrize("command", ["check", "fuzz"])
@pytest.mark.parametrize("value", ["0.01", "1.5", "nan"])
def test_a_legal_share_outside_0_05_to_1_is_bad_input(command: str, value: str) -> None:
    result = runner.invoke(app, [command, "--legal-share", value])
    assert 2 == result.exit_code
    assert f"error: --legal-share must be a number from 0.05 to 1, got {value}" in result.stderr


@pytest.mark.parametrize("command", ["check", "fuzz"])
@pytest.mark.parametrize("value", ["0.5", "0", "inf", "nan"])
def test_a_budget_scale_below_1_or_not_finite_is_bad_input(command: str, value: str) -> None:
    result = runner.invoke(app, [command, "--budget-scale", value])
    assert 2 == result.exit_code
    assert f"error: --budget-scale must be 1 or more and finite, got {value}" in result.stderr


def test_oracle_fuzz_scales_the_time_it_allows_for_shrinking_and_says_so(tmp_path: Path) -> None:
    from oracle.suites.invariants import fuzz_unit

    config = FuzzConfig(games=1, seconds=10.0)
    assert fuzz_unit(config).deadline < fuzz_unit(config, scale=3.0).deadline
    result = runner.invoke(app, ["fuzz", "--games", "1", "--check", "invariants", "--game-modes", "base",
                                 "--budget-scale", "2", "--report-json", str(tmp_path / "r.json")])
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert (0, {"factor": 2.0, "source": "given"}) == (result.exit_code, report["run"]["budget_scale"])
    assert "budget scale 2 (given: --budget-scale 2)" in result.stdout


def test_a_unit_past_its_deadline_while_the_engine_answers_is_incomplete_and_no_cause() -> None:
    impl = "vale_fixtures.hostile:slow"  # answers every apply 50 ms late
    options = CheckOptions(timeout=CALL_SECONDS)
    supervisor = Supervisor(impl, CALL_SECONDS, options)
    try:
        handshake = supervisor.start()
        planned = SCENARIOS.plan(PlanContext(impl, handshake, options))
        longest = max((u for u in planned if not u.skipped), key=lambda u: len(u.payload.scenario.steps))
        assert len(longest.payload.scenario.steps) >= 8
        found: list[CheckResult] = []

        def keep(index: int, results: list[CheckResult]) -> bool:
            found.extend(results)
            return True

        supervisor.run([dataclasses.replace(longest, deadline=0.05)], keep)
    finally:
        supervisor.close()
    assert [Outcome.INCOMPLETE] == [r.outcome for r in found]
    assert found[0].details["out_of_budget"] and "ran past its deadline of 0.05 s" in found[0].message
    assert [] == group_causes(found)


class _DiesInNewGame(ReferenceEngine):
    """Starts and shakes hands, then ends its own process in every new game."""

    def new_game(self, setup: JSON) -> list[JSON]:
        os._exit(3)


def dies_in_new_game() -> _DiesInNewGame:
    return _DiesInNewGame()


def test_an_engine_that_kills_its_worker_while_timed_keeps_the_budgets_and_the_run_goes_on() -> None:
    from oracle.suites.games import SETUP

    impl = "tests.test_budgets:dies_in_new_game"
    options = CheckOptions(timeout=CALL_SECONDS, players=(2,))
    supervisor = Supervisor(impl, CALL_SECONDS, options)
    try:
        handshake = supervisor.start()
        scale = supervisor.measure_scale()
        [unit, *_] = SETUP.plan(PlanContext(impl, handshake, options))
        found: list[CheckResult] = []

        def keep(index: int, results: list[CheckResult]) -> bool:
            found.extend(results)
            return True

        status = supervisor.run([unit], keep)
    finally:
        supervisor.close()
    assert (1.0, ScaleSource.UNMEASURED) == (scale.factor, scale.source)
    assert "the worker died timing the engine (exit code 3)" == scale.note
    assert ("", [Outcome.ERROR]) == (status.stopped, [r.outcome for r in found])


# ---------------------------------------------------------------------------------------------- shrinking


class _RacingClock:
    """Hypothesis's clock, on which a thousand seconds pass at every reading."""

    def __init__(self) -> None:
        self.now = time.perf_counter()

    def perf_counter(self) -> float:
        self.now += 1000.0
        return self.now

    def monotonic(self) -> float:
        return time.monotonic()


def _shrunk(clock: object = None) -> tuple[int, list[int], bool]:
    from hypothesis.internal.conjecture import engine

    module = importlib.import_module("vale_fixtures.ember_without_water")
    with mock.patch.object(engine, "time", clock) if clock is not None else contextlib.nullcontext():
        report = run_fuzz(module.create, "ember", FuzzConfig(games=10, seed=0, max_failures=1, shrink_examples=6,
                                                             mode="lockstep", modes=("expansion",)))
    failure = report.failures[0]
    return failure.shrink_games, failure.trace.choices, failure.shrunk


def test_shrinking_replays_its_count_of_games_whatever_the_clock_says() -> None:
    calm = _shrunk()
    assert (6, True) == (calm[0], calm[2])  # shrinking this failure to its end replays some 90 games
    assert calm == _shrunk(_RacingClock())
