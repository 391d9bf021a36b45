"""Counterexamples that travel (issue 28): ``oracle fuzz --corpus DIR`` replays the saved scenarios before any new
game and sets their causes aside; a corpus keeps one counterexample per cause; and for ``ValeMachine`` users,
Hypothesis's own example database replays a failure found once before any new example (docs/pytest.md)."""

from __future__ import annotations

import json
import unittest
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings
from hypothesis.database import DirectoryBasedExampleDatabase
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.exits import EXIT_BAD_INPUT, EXIT_FAILED
from oracle.scenarios.corpus import compact
from vale_invariants.machine import ValeMachine

SAVED = Path(__file__).resolve().parent.parent / "scenarios" / "payment" / "PAY-3-red-and-blue-for-cost-1.toml"
runner = CliRunner()


def test_the_corpus_is_replayed_before_new_games_and_its_causes_set_aside(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    saved = SAVED.read_text(encoding="utf-8").replace(f'id = "{SAVED.stem}"', 'id = "PAY-3-accepts-summon-0123abcd"')
    (corpus / "PAY-3-accepts-summon-0123abcd.toml").write_text(saved, encoding="utf-8")
    result = runner.invoke(app, ["fuzz", "--impl", "vale_fixtures.superfluous_payment", "--corpus", str(corpus),
                                 "--games", "1", "--game-modes", "base", "--players", "2", "--budget-scale", "1",
                                 "--shrink-examples", "0", "--check", "lockstep", "--report-json",
                                 str(tmp_path / "fuzz.json")])
    report = json.loads((tmp_path / "fuzz.json").read_text(encoding="utf-8"))
    first = report["results"][0]
    assert EXIT_FAILED == result.exit_code, result.output
    assert ("PAY-3-accepts-summon-0123abcd", "illegal-accepted", "PAY-3") == \
        (first["id"], first["outcome"], first["blamed_rule"])
    assert (["scenarios", "invariants"], ["PAY-3"]) == (report["run"]["suites"], report["run"]["options"]["set_aside"])
    assert "1 saved scenario(s) replayed first, 1 failing; their rules set aside for the new games: PAY-3" \
        in result.output


def test_both_corpus_and_save_failures_are_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["fuzz", "--corpus", str(tmp_path), "--save-failures", str(tmp_path)])
    assert (EXIT_BAD_INPUT, "error: --corpus DIR saves") == (result.exit_code, result.output[:25])


def test_a_corpus_keeps_one_counterexample_per_cause_a_scenario_before_a_trace(tmp_path: Path) -> None:
    files = {"DEC-2-accepts-end_turn-00000001.toml": "x" * 50, "DEC-2-accepts-end_turn-00000002.toml": "x" * 20,
             "LIMIT-1-INV-LIMIT-00000003.trace.json": "{}", "LIMIT-1-INV-LIMIT-00000004.toml": "x" * 80,
             "notes.txt": "kept"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    removed = compact(tmp_path)
    assert ["DEC-2-accepts-end_turn-00000001.toml", "LIMIT-1-INV-LIMIT-00000003.trace.json"] == \
        sorted(p.name for p in removed)
    assert ["DEC-2-accepts-end_turn-00000002.toml", "LIMIT-1-INV-LIMIT-00000004.toml", "notes.txt"] == \
        sorted(p.name for p in tmp_path.iterdir())


# ---------------------------------------------------------------------------------------------- Hypothesis


class NoHoldingLimitMachine(ValeMachine):
    """The invariants alone (no lock-step) catch the missing holding limit: what the database replays is the point."""
    impl = "vale_fixtures.no_holding_limit"
    lockstep = False


def run_machine(database: DirectoryBasedExampleDatabase, phases: list[Phase]) -> str:
    """How the machine's test case ends with these phases: ``passed``, ``nothing ran`` or the failure's text."""
    NoHoldingLimitMachine.TestCase.settings = settings(
        max_examples=20, stateful_step_count=30, deadline=None, database=database, phases=phases,
        suppress_health_check=list(HealthCheck))
    try:
        NoHoldingLimitMachine.TestCase("runTest").runTest()
    except AssertionError as failure:
        return str(failure)
    except unittest.SkipTest:
        return "nothing ran"
    return "passed"


def test_a_failure_found_once_is_replayed_first_from_the_example_database(tmp_path: Path) -> None:
    database = DirectoryBasedExampleDatabase(tmp_path / "examples")
    assert "nothing ran" == run_machine(database, [Phase.reuse])
    assert "INV-LIMIT" in run_machine(database, [Phase.generate])
    assert "INV-LIMIT" in run_machine(database, [Phase.reuse])
