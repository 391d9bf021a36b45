"""The fuzzer reports what broke and keeps looking: scenarios named after the failing invariant, known causes set
aside, a set-up deviation reported once, and where and why a run stopped early."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from oracle.reference import ReferenceEngine
from vale_fixtures.area_off_by_one import AreaOffByOne
from vale_fixtures.broken import BrokenEngine
from vale_fixtures.scores_from_seat_zero import create as scores_from_seat_zero
from vale_fixtures.superfluous_payment import SuperfluousPayment
from vale_invariants.catalog import LOCKSTEP
from vale_invariants.fuzz import FuzzConfig, run_fuzz


class _AreaAndSuperfluous(BrokenEngine):
    """Two causes: one area too many (SUM-1, seen late) and payments with a superfluous stone (PAY-3, seen early)."""

    BROKEN_RULE = "SUM-1"
    PATCHES = (*AreaOffByOne.PATCHES, *SuperfluousPayment.PATCHES)


def test_a_run_cut_short_by_its_failures_says_where_it_stopped() -> None:
    report = run_fuzz(SuperfluousPayment, "superfluous", FuzzConfig(games=20, shrink_examples=0, max_failures=1))
    assert 1 == len(report.failures)
    assert re.fullmatch(r"stopped after 1 failure\(s\) at game \d+ of 60", report.stopped), report.stopped
    assert report.stopped in report.summary()


def test_the_games_of_each_mode_are_counted() -> None:
    report = run_fuzz(ReferenceEngine, "oracle.reference", FuzzConfig(games=4, shrink_examples=0))
    assert "" == report.stopped
    assert {"base": 4, "expansion": 4, "artifacts": 4} == dict(report.stats.games_by_mode)
    assert "12 games (base 4, expansion 4, artifacts 4)" in report.summary()


def test_a_set_up_deviation_is_reported_once_and_lockstep_goes_on_from_the_engine() -> None:
    report = run_fuzz(scores_from_seat_zero, "scores", FuzzConfig(games=12, mode="lockstep", shrink_examples=0))
    assert [(LOCKSTEP.name, 0)] == [(f.invariant, f.step) for f in report.failures]
    assert 0 < report.stats.set_aside["SETUP-2"]
    assert report.stats.checks[LOCKSTEP.name] > 1000


def test_a_known_cause_set_aside_lets_lockstep_go_on() -> None:
    config = FuzzConfig(games=8, mode="lockstep", shrink_examples=0, set_aside=("PAY-3",))
    report = run_fuzz(SuperfluousPayment, "superfluous", config)
    assert [] == report.failures
    assert 0 < report.stats.set_aside["PAY-3"]
    assert "--set-aside PAY-3" in report.reproduce()


def test_without_setting_it_aside_the_known_cause_fails_lockstep() -> None:
    report = run_fuzz(SuperfluousPayment, "superfluous", FuzzConfig(games=8, mode="lockstep", shrink_examples=0))
    assert [LOCKSTEP.name] == [f.invariant for f in report.failures]
    assert "PAY-3" in report.failures[0].rules


def test_the_scenario_of_an_invariant_failure_pins_that_invariant_not_the_first_difference(tmp_path: Path) -> None:
    config = FuzzConfig(games=20, mode="invariants", invariants=("INV-AREA",), shrink_examples=0, max_failures=1,
                        save_failures=tmp_path)
    report = run_fuzz(_AreaAndSuperfluous, "tests.two_causes", config)
    assert ["INV-AREA"] == [f.invariant for f in report.failures]
    failure = report.failures[0]
    assert failure.scenario, failure.scenario_note
    scenario = tomllib.loads(Path(failure.scenario).read_text(encoding="utf-8"))
    assert ["SUM-1"] == scenario["rules"]
    assert scenario["id"].startswith("SUM-1-")
    assert failure.step - 1 <= len(scenario["steps"]) <= failure.step + 1
