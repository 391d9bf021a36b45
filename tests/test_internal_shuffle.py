"""Engines that shuffle inside (capability ``internal_shuffle``): the oracle adopts their deck and reshuffle
orders, so set-up, random play, scenarios and lock-step still run, and only what needs a chosen order is
unsupported; the same engine without the declaration is caught."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from unittest import mock

import vale_fixtures.internal_shuffle as fixture
import vale_invariants.game_lockstep as game_lockstep
from vale_invariants.fuzz import FuzzConfig, run_fuzz

DECLARED = "vale_fixtures.internal_shuffle"


def _check(tmp_path: Path, *args: str) -> tuple[int, dict[str, object]]:
    report = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-m", "oracle.cli.app", "check", *args, "--report-json", str(report)],
                          capture_output=True, text=True, timeout=300, check=False)
    return done.returncode, json.loads(report.read_text(encoding="utf-8"))


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


def test_the_same_engine_undeclared_is_caught_at_set_up(tmp_path: Path) -> None:
    code, report = _check(tmp_path, "--impl", f"{DECLARED}:undeclared", "--suite", "setup")
    results = report["results"]
    assert isinstance(results, list)
    assert 1 == code
    assert {"fail"} == {r["outcome"] for r in results}
    assert all("SETUP-1" in r["rules"] for r in results)


def test_lock_step_needs_the_adopted_reshuffles() -> None:
    # 5 games per mode: without the adopted reshuffles the second game already diverges (measured), so the
    # passing run covers games where the adoption is needed
    config = FuzzConfig(games=5, seed=3, shrink_examples=0, mode="lockstep")
    assert [] == run_fuzz(fixture.create, DECLARED, config).failures
    with mock.patch.object(game_lockstep, "adopt_reshuffles", lambda reference, after: None):
        assert run_fuzz(fixture.create, DECLARED, config).failures
