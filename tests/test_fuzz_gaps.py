"""The fuzzer's closed gaps of issue 12: every decision kind probed by the default run, undrivable decisions, and
games counted per game mode."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.json_types import JSON
from oracle.core.protocol import DecisionKind
from oracle.engines.play import random_deck
from oracle.reference import ReferenceEngine
from oracle.suites.invariants import fuzz_config
from oracle.suites.registry import CheckOptions
from vale_fixtures.undrivable_options import REASON, UndrivableOptions
from vale_invariants.forcing import KINDS_BY_MODE, kinds_of
from vale_invariants.fuzz import FuzzConfig, run_fuzz
from vale_invariants.game import GameRunner, GameSettings, RandomChooser
from vale_invariants.game_guards import GUARDS

# ---------------------------------------------------------------------------------------------- every kind probed


def test_the_default_invariants_suite_probes_every_decision_kind_of_the_declared_modes() -> None:
    config = fuzz_config(CheckOptions())
    report = run_fuzz(ReferenceEngine, "oracle.reference", config)
    result = next(r for r in report.results() if r.id == f"invariants/{GUARDS}")
    probed = {kind for kind, n in result.details["probes_by_kind"].items() if n > 0}
    assert {k.value for k in DecisionKind} == probed
    assert [] == result.details["kinds_not_probed"]
    assert 0 < result.details["forcing_games"]


def test_the_declared_modes_ask_every_decision_kind() -> None:
    assert set(DecisionKind) == kinds_of(("base", "expansion", "artifacts"))
    assert KINDS_BY_MODE["base"] < KINDS_BY_MODE["expansion"] < KINDS_BY_MODE["artifacts"]


def test_a_scarce_position_forces_a_shuffle_decision() -> None:
    settings = GameSettings(ReferenceEngine, "oracle.reference", (2,), frozenset({GUARDS}), False, positions=True,
                            scarce=True)
    runner = GameRunner(settings, RandomChooser("shuffle"))
    runner.play()
    assert runner.trace.start is not None
    assert [] == runner.trace.start["draw_pile"]
    assert 0 < runner.stats.probes[DecisionKind.SHUFFLE]


def test_without_positions_the_kinds_not_probed_are_reported() -> None:
    config = dataclasses.replace(fuzz_config(CheckOptions()), positions=False, games=1)
    report = run_fuzz(ReferenceEngine, "oracle.reference", config)
    assert 0 == report.stats.forcing_games
    assert "shuffle" in report.unprobed
    assert "decision kinds not probed" in report.summary()


# ---------------------------------------------------------------------------------------------- undrivable decisions


def _check(tmp_path: Path, *args: str) -> tuple[int, str, dict[str, Any]]:
    report = tmp_path / "report.json"
    result = CliRunner().invoke(app, ["check", "--report-json", str(report), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output, json.loads(report.read_text())


def _play_to_options(engine: UndrivableOptions) -> JSON | None:
    """Play the first legal action until a choose_options decision is pending (None if the game ends first)."""
    for seed in range(20):
        engine.new_game({"players": 2, "first_player": 0, "deck": random_deck(seed, True), "expansion": True})
        for _ in range(400):
            pending = engine.decision()
            if pending is None:
                break
            if pending["kind"] == "choose_options":
                return pending
            legal = engine.legal_actions()
            assert engine.apply(legal[seed % len(legal)])["accepted"]
    return None


def test_the_undrivable_fixture_refuses_answers_it_cannot_drive() -> None:
    engine = UndrivableOptions()
    pending = _play_to_options(engine)
    assert pending is not None and REASON == pending["undrivable"]
    answer = {"type": "choose_options", "player": 0, "options": [pending["options"][0]]}
    assert "UNSUPPORTED" == engine.apply(answer)["rejection"]["code"]


def test_fuzzed_games_stop_at_an_undrivable_decision_and_move_on(tmp_path: Path) -> None:
    code, _, report = _check(tmp_path, "--impl", "vale_fixtures.undrivable_options", "--suite", "invariants")
    results = report["results"]
    assert 0 == code
    assert {"pass"} == {r["outcome"] for r in results}
    details = results[0]["details"]
    assert 0 < details["undrivable_games"]
    assert {"choose_options": REASON} == details["undrivable_reasons"]
    assert "choose_options" not in details["probes_by_kind"]


@pytest.mark.parametrize("mode", ["invariants", "lockstep"])
def test_the_fuzz_summary_counts_the_games_stopped_at_an_undrivable_decision(mode: str) -> None:
    report = run_fuzz(UndrivableOptions, "vale_fixtures.undrivable_options", FuzzConfig(games=8, seed=0, mode=mode))
    assert [] == report.failures
    stopped = sum(report.stats.undrivable.values())
    assert 0 < stopped
    assert f"{stopped} game(s) stopped as unsupported at an undrivable decision (choose_options {stopped})" \
        in report.summary()


def test_z3_rows_reaching_an_undrivable_decision_are_unsupported_with_the_reason(tmp_path: Path) -> None:
    code, out, report = _check(tmp_path, "--impl", "vale_fixtures.undrivable_options", "--suite", "z3")
    by_outcome = {r["id"]: r for r in report["results"] if r["outcome"] != "pass"}
    assert 0 == code
    assert by_outcome
    assert all(r["id"].startswith("z3/incense-burner-price/") for r in by_outcome.values())
    assert {"unsupported"} == {r["outcome"] for r in by_outcome.values()}
    assert {REASON} == {r["details"]["undrivable"] for r in by_outcome.values()}
    assert f"{len(by_outcome)} undrivable decisions" in out


# ---------------------------------------------------------------------------------------------- games per mode


def test_games_counts_games_per_declared_game_mode() -> None:
    report = run_fuzz(ReferenceEngine, "oracle.reference", FuzzConfig(games=2, seed=3, shrink_examples=0))
    assert {"base": 2, "expansion": 2, "artifacts": 2} == dict(report.stats.games_by_mode)
    assert 6 == report.stats.games == report.planned_games
    assert "6 games (base 2, expansion 2, artifacts 2)" in report.summary()


def test_games_per_mode_follows_the_game_modes_kept() -> None:
    config = FuzzConfig(games=3, seed=3, shrink_examples=0, modes=("base", "artifacts"))
    report = run_fuzz(ReferenceEngine, "oracle.reference", config)
    assert {"base": 3, "artifacts": 3} == dict(report.stats.games_by_mode)
