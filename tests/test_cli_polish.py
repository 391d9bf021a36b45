"""The command line's manners: -h, metavars that read as words, single-file lint, the renamed fuzz options, --jobs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.cli.check import default_jobs
from oracle.scenarios.loader import default_dir, display_path

runner = CliRunner()
PAY3_FILE = default_dir() / "payment" / "PAY-3-red-and-blue-for-cost-1.toml"


# ---------------------------------------------------------------------------------------------- help


@pytest.mark.parametrize("command", [[], ["check"], ["fuzz"], ["scenarios", "lint"], ["play"]])
def test_dash_h_is_help(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "-h"])
    assert (0, True) == (result.exit_code, "Usage:" in result.stdout)


@pytest.mark.parametrize("command", [["check"], ["fuzz"], ["scenarios", "lint"], ["scenarios", "show"]])
def test_option_metavars_read_as_words(command: list[str]) -> None:
    text = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"}).stdout
    typed = [line for line in text.splitlines() if " --" in line and "--help" not in line
             and any(f"<{t}" in line for t in ("str", "int", "float", "path", "list", "bool"))]
    assert [] == typed


def test_check_help_lists_the_suite_names() -> None:
    text = runner.invoke(app, ["check", "--help"], env={"COLUMNS": "200"}).stdout
    assert all(name in text for name in ("setup", "random-play", "roundtrip", "scenarios", "z3", "invariants"))


# ---------------------------------------------------------------------------------------------- lint


def test_scenarios_lint_accepts_a_single_file() -> None:
    result = runner.invoke(app, ["scenarios", "lint", str(PAY3_FILE)])
    assert (0, f"1 scenario(s) valid in {display_path(PAY3_FILE)}\n") == (result.exit_code, result.stdout)


def test_scenarios_lint_of_a_broken_file_names_its_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('id = "broken"\ntitle = \n', encoding="utf-8")
    result = runner.invoke(app, ["scenarios", "lint", str(broken), str(PAY3_FILE)])
    assert (2, [f"{broken}:2: not valid TOML: Invalid value"], "1 error(s) in 2 file(s)\n") == \
        (result.exit_code, [line.split(" (at")[0] for line in result.stdout.splitlines()], result.stderr)


def test_scenarios_lint_of_a_missing_path_is_bad_input(tmp_path: Path) -> None:
    result = runner.invoke(app, ["scenarios", "lint", str(tmp_path / "nope.toml")])
    assert (2, f"error: {tmp_path / 'nope.toml'}: no such scenario file or directory\n") == \
        (result.exit_code, result.stderr)


# ---------------------------------------------------------------------------------------------- fuzz options


def test_fuzz_check_and_game_modes_replace_mode_and_modes() -> None:
    result = runner.invoke(app, ["fuzz", "--games", "1", "--check", "invariants", "--game-modes", "base"])
    assert (0, "", True) == (result.exit_code, result.stderr, "mode invariants" in result.stdout)


def test_fuzz_old_spellings_still_work_with_a_deprecation_note() -> None:
    result = runner.invoke(app, ["fuzz", "--games", "1", "--mode", "invariants", "--modes", "base"])
    assert (0, ["note: --mode is deprecated, use --check", "note: --modes is deprecated, use --game-modes"]) == \
        (result.exit_code, [line.split(" (")[0] for line in result.stderr.splitlines()])


def test_fuzz_shrink_time_still_works_as_a_count_with_a_deprecation_note() -> None:
    result = runner.invoke(app, ["fuzz", "--games", "1", "--check", "invariants", "--game-modes", "base",
                                 "--shrink-time", "0", "--report-json", "-"])
    assert (0, True) == (result.exit_code,
                         result.stderr.startswith("note: --shrink-time is deprecated, use --shrink-examples N"))
    assert '"shrink_examples": 0' in result.stdout
    both = runner.invoke(app, ["fuzz", "--games", "1", "--shrink-time", "3", "--shrink-examples", "9"])
    assert (2, "error: --shrink-time is the old form of --shrink-examples: give only --shrink-examples\n") == \
        (both.exit_code, both.stderr)


def test_fuzz_old_and_new_spelling_together_is_bad_input() -> None:
    result = runner.invoke(app, ["fuzz", "--games", "1", "--mode", "invariants", "--check", "both"])
    assert (2, "error: --mode is the old spelling of --check: give only --check\n") == \
        (result.exit_code, result.stderr)


# ---------------------------------------------------------------------------------------------- --jobs


def test_jobs_default_is_the_number_of_cores() -> None:
    assert (os.cpu_count() or 1) == default_jobs()


def _check_report(tmp_path: Path, jobs: str) -> list[tuple[str, str, str]]:
    report = tmp_path / f"jobs-{jobs}.json"
    # Every suite but z3 (whose rows are the slowest units and add nothing the others do not: units of unequal
    # length finishing out of order), with one random game per player count: still over 400 units.
    # --budget-scale 1: the two runs compare outcomes, so neither measures its own budget scale.
    subprocess.run([sys.executable, "-m", "oracle.cli.app", "check", "--jobs", jobs, "--report-json", str(report),
                    "--suite", "setup,random-play,roundtrip,scenarios,invariants", "--games", "1",
                    "--budget-scale", "1"],
                   check=True, capture_output=True)
    results = json.loads(report.read_text(encoding="utf-8"))["results"]
    return [(r["suite"], r["id"], r["outcome"]) for r in results]


def test_jobs_2_reports_the_same_ids_outcomes_and_order_as_jobs_1(tmp_path: Path) -> None:
    serial = _check_report(tmp_path, "1")
    assert serial == _check_report(tmp_path, "2")
    assert len(serial) > 400
