"""Malformed input is a located error and exit 2, never a traceback (issue 21, deliverables 3 and 8): input
nested too deep for the parsers, scenario ids that are not file names, bad timeouts, scenario folders with
nothing to read, a malformed ``run.date``."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.nesting import MAX_DEPTH, Syntax, too_deep
from oracle.core.path_names import path_component
from oracle.core.results import CheckResult, Outcome
from oracle.reports import RunInfo, build_report
from oracle.scenarios.loader import default_dir

runner = CliRunner()
PAY3_FILE = default_dir() / "payment" / "PAY-3-red-and-blue-for-cost-1.toml"
DEEP_ARRAYS = "a = " + "[" * 3000 + "]" * 3000 + "\n"
DEEP_INLINE_TABLES = "a = " + "{ b = " * 500 + "1" + " }" * 500 + "\n"
DEEP_JSON = "[" * 100_000 + "]" * 100_000


def oracle(*args: str) -> tuple[int, str]:
    """Exit code and stdout + stderr of one command; a traceback (any exception but an exit) fails the test."""
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout + result.stderr


def _report(**run: Any) -> dict[str, Any]:
    info = RunInfo(engine="e", engine_version="1", impl="tests.engine", suites=("scenarios",),
                   started=datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC), duration=1.0)
    data = build_report([CheckResult("scenarios", "pay-ok", "a title", Outcome.PASS, rules=("PAY-3",))], info)
    data["run"].update(run)
    return data


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------- deep nesting


@pytest.mark.parametrize("syntax, text, line", [
    (Syntax.JSON, "[" * (MAX_DEPTH + 1), 1),
    (Syntax.JSON, '{"a": "' + "[" * 1000 + '",\n "b": ' + "[" * (MAX_DEPTH + 1), 2),
    (Syntax.TOML, "# " + "[" * 1000 + "\ns = '" + "{" * 1000 + "'\n\na = " + "[" * (MAX_DEPTH + 1), 4),
    (Syntax.TOML, 's = """\n' + "[" * 1000 + '\n"""\n[t]\na = 1\n', None),
])
def test_the_depth_guard_counts_brackets_outside_strings_and_comments(syntax: Syntax, text: str,
                                                                       line: int | None) -> None:
    found = too_deep(text, syntax)
    assert line == (found.line if found else None)


@pytest.mark.parametrize("text", [DEEP_ARRAYS, DEEP_INLINE_TABLES], ids=["arrays", "inline-tables"])
def test_scenarios_lint_locates_a_deeply_nested_scenario(tmp_path: Path, text: str) -> None:
    _write(tmp_path / "deep.toml", text)
    code, output = oracle("scenarios", "lint", str(tmp_path))
    assert 2 == code
    assert f"{tmp_path / 'deep.toml'}:1: not valid TOML: nested more than {MAX_DEPTH} deep" in output


@pytest.mark.parametrize("text", [DEEP_ARRAYS, DEEP_INLINE_TABLES], ids=["arrays", "inline-tables"])
def test_check_scenarios_locates_a_deeply_nested_scenario(tmp_path: Path, text: str) -> None:
    _write(tmp_path / "deep.toml", text)
    code, output = oracle("check", "--suite", "scenarios", "--scenarios", str(tmp_path))
    assert 2 == code
    assert f"{tmp_path / 'deep.toml'}:1: not valid TOML: nested more than {MAX_DEPTH} deep" in output


@pytest.mark.parametrize("text", [DEEP_ARRAYS, DEEP_INLINE_TABLES], ids=["arrays", "inline-tables"])
def test_check_expectations_locates_a_deeply_nested_file(tmp_path: Path, text: str) -> None:
    expectations = _write(tmp_path / "known.toml", text)
    code, output = oracle("check", "--suite", "setup", "--jobs", "1", "--expectations", str(expectations))
    assert 2 == code
    assert f"{expectations}:1: not valid TOML: nested more than {MAX_DEPTH} deep" in output


@pytest.mark.parametrize("text", [DEEP_ARRAYS, DEEP_INLINE_TABLES], ids=["arrays", "inline-tables"])
def test_expectations_update_locates_a_deeply_nested_file(tmp_path: Path, text: str) -> None:
    report = _write(tmp_path / "r.json", json.dumps(_report()))
    expectations = _write(tmp_path / "known.toml", text)
    code, output = oracle("expectations", "update", str(report), "--file", str(expectations))
    assert 2 == code
    assert f"{expectations}:1: not valid TOML: nested more than {MAX_DEPTH} deep" in output


@pytest.mark.parametrize("command", [
    ("report", "html", "{report}", "-o", "{out}"),
    ("report", "badge", "{report}", "-o", "{out}/badge.json"),
    ("expectations", "update", "{report}", "--file", "{out}/known.toml"),
], ids=["report-html", "report-badge", "expectations-update"])
def test_a_deeply_nested_json_report_is_located(tmp_path: Path, command: tuple[str, ...]) -> None:
    report = _write(tmp_path / "r.json", DEEP_JSON)
    code, output = oracle(*(a.format(report=report, out=tmp_path / "out") for a in command))
    assert 2 == code
    assert "r.json:1: not valid JSON" in output
    assert f"nested more than {MAX_DEPTH} deep" in output


# ---------------------------------------------------------------------------------------------- ids as file names


@pytest.mark.parametrize("name, component", [
    ("PAY-3-ok", "PAY-3-ok"), ("a/b", "a_b"), ("../../etc/passwd", ".._.._etc_passwd"), ("..", "_.."),
    ("", "_"), ("a\\b\x00c", "a_b_c"),
])
def test_a_scenario_id_becomes_one_safe_path_component(name: str, component: str) -> None:
    assert component == path_component(name)


def test_report_html_shows_a_failing_scenario_whose_id_holds_a_slash(tmp_path: Path) -> None:
    data = _report()
    scenario_id = "evil/../PAY-3"
    data["results"][0].update(id=scenario_id, outcome=Outcome.FAIL.value)
    data["sources"] = {scenario_id: {"file": "/elsewhere/PAY-3.toml", "sha256": "0" * 64,
                                     "text": PAY3_FILE.read_text(encoding="utf-8")}}
    report = _write(tmp_path / "r.json", json.dumps(data))
    code, output = oracle("report", "html", str(report), "-o", str(tmp_path / "site"))
    assert (0, "wrote 1 page(s)") == (code, output[:15])


# ---------------------------------------------------------------------------------------------- small slips


@pytest.mark.parametrize("option", ["--timeout", "--start-timeout", "--scenario-timeout", "--z3-budget",
                                    "--fuzz-budget", "--unit-timeout", "--time-budget"])
@pytest.mark.parametrize("value", ["inf", "nan", "0", "-inf"])
def test_a_timeout_must_be_finite_and_positive(option: str, value: str) -> None:
    code, output = oracle("check", option, value)
    assert 2 == code
    assert f"error: {option} must be more than 0 seconds and finite, got {value}" in output


def test_scenarios_lint_of_a_folder_without_scenario_files_is_bad_input(tmp_path: Path) -> None:
    code, output = oracle("scenarios", "lint", str(tmp_path))
    assert 2 == code
    assert f"error: no scenario files in {tmp_path}" in output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo")
def test_scenarios_lint_names_and_skips_a_fifo_without_opening_it(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "x.toml")
    code, output = oracle("scenarios", "lint", str(tmp_path))
    assert 2 == code
    assert f"warning: {tmp_path / 'x.toml'}: not a regular file (a FIFO, socket or device); skipped" in output
    assert f"error: no scenario files in {tmp_path}" in output
    code, output = oracle("scenarios", "lint", str(tmp_path / "x.toml"))
    assert 2 == code
    assert f"error: {tmp_path / 'x.toml'}: not a regular file" in output


@pytest.mark.parametrize("date", ["yesterday", "2024-13-45T99:99:99Z", "2024-05-01 12:00:00"])
@pytest.mark.parametrize("command", [
    ("report", "html", "{report}", "-o", "{out}"),
    ("expectations", "update", "{report}", "--file", "{out}/known.toml"),
], ids=["report-html", "expectations-update"])
def test_a_malformed_run_date_is_located(tmp_path: Path, command: tuple[str, ...], date: str) -> None:
    report = _write(tmp_path / "r.json", json.dumps(_report(date=date)))
    (tmp_path / "out").mkdir()
    code, output = oracle(*(a.format(report=report, out=tmp_path / "out") for a in command))
    assert 2 == code
    assert "run.date" in output.replace("run/date", "run.date")
    assert f"{date!r} is not a UTC date and time" in output
