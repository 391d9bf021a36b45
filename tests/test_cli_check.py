"""`oracle check` options and exit codes, and `oracle scenarios lint` / `show`."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.reports.json_report import SCHEMA_FILE
from oracle.scenarios.loader import default_dir, display_path, load_dir, select
from oracle.scenarios.model import Scenario

runner = CliRunner()
PAY3 = "PAY-3-red-and-blue-for-cost-1"
ACCEPT_ALL = "tests.test_scenarios_runner:AcceptAll"


def check(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["check", "--suite", "scenarios", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def bad_scenarios(tmp_path: Path) -> Path:
    directory = tmp_path / "scenarios"
    directory.mkdir()
    text = (default_dir() / "payment" / f"{PAY3}.toml").read_text(encoding="utf-8")
    broken = text.replace('card = "Salamander"', 'card = "Salamandr"', 1)
    (directory / f"{PAY3}.toml").write_text(broken, encoding="utf-8")
    return directory


def summary(out: str) -> str:
    """The verdict line without its duration."""
    return out.splitlines()[-1].split(" in ")[0]


def passed(scenarios: list[Scenario]) -> str:
    """The summary of the reference on these scenarios: those playing a rule variant are not applicable."""
    n, other = len(scenarios), sum(1 for s in scenarios if s.variants)
    if not other:
        return f"PASSED: {n} checks, {n} ran, 0 unsupported, 0 not applicable ({n} pass)"
    return (f"PASSED: {n} checks, {n - other} ran, 0 unsupported, {other} not applicable ({n - other} pass, "
            f"{other} not-applicable)")


def test_the_reference_engine_passes_every_scenario() -> None:
    scenarios = load_dir(default_dir()).scenarios
    code, out, _ = check()
    assert (0, passed(scenarios)) == (code, summary(out))


def test_select_rule_and_card_filter_scenarios() -> None:
    bundled = load_dir(default_dir()).scenarios
    for args, selected in (
        (["--select", "PAY-*"], select(bundled, ["PAY-*"])),
        (["--select", PAY3], select(bundled, [PAY3])),
        (["--rule", "HUNT-4"], select(bundled, rule_ids=["HUNT-4"])),
        (["--card", "balog", "--card", "Salamander"], select(bundled, cards=["Balog", "salamander"])),
    ):
        code, out, _ = check(*args)
        assert (0, passed(selected)) == (code, summary(out))
        assert len(selected) >= 1


def test_bad_filters_are_bad_input() -> None:
    code, _, err = check("--rule", "NOPE-1")
    assert (2, "error: --rule 'NOPE-1': no such rule id in the rules catalogue\n") == (code, err)
    code, _, err = check("--card", "Nobody")
    assert (2, "error: --card 'Nobody': no card has that name or id\n") == (code, err)
    code, _, err = check("--select", "NO-SUCH-*")
    assert (2, "error: --select 'NO-SUCH-*': no check id matches it\n") == (code, err)
    code, _, err = check("--scenarios", "/nonexistent/dir")
    assert (2, "error: --scenarios /nonexistent/dir: no such directory\n") == (code, err)


def test_a_failing_engine_exits_1_and_prints_rule_step_and_reproduce() -> None:
    code, out, _ = check("--impl", ACCEPT_ALL, "--select", PAY3)
    assert 1 == code
    lines = [line.strip() for line in out.splitlines()]
    title = "With a red and a blue stone, a cost of 1 is paid with either stone, never both"
    assert f"ILLEGAL-ACCEPTED {PAY3}: {title}" in lines
    assert "rule PAY-3, step 2" in lines
    assert f"reproduce: oracle check --impl {ACCEPT_ALL} --select {PAY3}" in lines


def test_an_invalid_scenario_directory_is_bad_input_with_file_and_line(tmp_path: Path) -> None:
    directory = bad_scenarios(tmp_path)
    code, _, err = check("--scenarios", str(directory))
    assert 2 == code
    assert f"{directory / PAY3}.toml:16: step 1: legal[0].card: unknown card 'Salamandr'" in err


def test_expectations(tmp_path: Path) -> None:
    path = tmp_path / "expect.toml"
    path.write_text(f'[[expected_failure]]\nid = "{PAY3}"\nreason = "accepts everything"\n', encoding="utf-8")
    code, out, _ = check("--impl", ACCEPT_ALL, "--select", PAY3, "--expectations", str(path))
    assert (0, "PASSED: 1 checks, 1 ran, 0 unsupported, 0 not applicable (1 expected-failure)") == (code, summary(out))
    code, out, _ = check("--select", PAY3, "--expectations", str(path))
    assert (1, "FAILED: 1 checks, 1 ran, 0 unsupported, 0 not applicable (1 unexpected-pass)") == (code, summary(out))
    path.write_text('[[expected_failure]]\nid = "PAY-3"\nreason = "typo"\n', encoding="utf-8")
    code, _, err = check("--expectations", str(path))
    assert 2 == code
    assert f"error: {path}:2: no check of this engine has the id 'PAY-3'" in err
    path.write_text(f'[[expected_failure]]\nid = "{PAY3}"\n', encoding="utf-8")
    code, _, err = check("--expectations", str(path))
    assert 2 == code
    assert f"error: {path}:1: expected_failure '{PAY3}' needs a reason (why the failure is expected)" in err


def test_reports_are_written(tmp_path: Path) -> None:
    report, junit, summary = tmp_path / "r.json", tmp_path / "j.xml", tmp_path / "s.md"
    code, out, _ = check("--impl", ACCEPT_ALL, "--report-json", str(report), "--junit-xml", str(junit),
                         "--markdown", str(summary))
    assert 1 == code
    data = json.loads(report.read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    assert {"name": "vale-oracle-reference", "version": "0.1.0", "impl": ACCEPT_ALL} == data["run"]["engine"]
    assert len(data["results"]) == data["totals"]["checks"]
    assert 1 == data["totals"]["exit_code"]
    outcomes = {r["id"]: r["outcome"] for r in data["results"]}
    assert "illegal-accepted" == outcomes[PAY3]
    root = ET.parse(junit).getroot()
    assert ["scenarios"] == [s.attrib["name"] for s in root.findall("testsuite")]
    assert str(len(data["results"])) == root.attrib["tests"]
    text = summary.read_text(encoding="utf-8")
    assert "## Vale Oracle conformance: FAILED" in text
    assert f"oracle check --impl {ACCEPT_ALL} --select {PAY3}" in text.splitlines()
    assert f"wrote {report}" in out.splitlines()


def test_scenarios_lint() -> None:
    n = len(load_dir(default_dir()).scenarios)
    result = runner.invoke(app, ["scenarios", "lint", str(default_dir())])
    assert (0, f"{n} scenario(s) valid in {display_path(default_dir())}\n") == (result.exit_code, result.stdout)


def test_scenarios_lint_reports_every_error_with_file_and_line(tmp_path: Path) -> None:
    directory = bad_scenarios(tmp_path)
    (directory / "broken.toml").write_text('id = "broken"\ntitle = \n', encoding="utf-8")
    result = runner.invoke(app, ["scenarios", "lint", str(directory)])
    assert 2 == result.exit_code
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{directory / PAY3}.toml:16: step 1: legal[0].card: unknown card 'Salamandr'")
    assert f"{directory / 'broken.toml'}:2: not valid TOML: Invalid value" == lines[1]
    assert "Traceback" not in result.stdout + result.stderr
    assert "2 error(s) in 2 file(s)\n" == result.stderr


def test_scenarios_show() -> None:
    result = runner.invoke(app, ["scenarios", "show", PAY3])
    assert 0 == result.exit_code
    lines = result.stdout.splitlines()
    expected = [
        PAY3,
        "  With a red and a blue stone, a cost of 1 is paid with either stone, never both",
        "Rules:",
        "Cards:",
        "  Salamander (base-fire-05), fire, cost 1",
        "Given:",
        "  2 players, round 1, action phase, first player P0, P0's turn",
        "  P0 hand: Salamander",
        "  P0 stones: 1 red, 1 blue",
        "Steps:",
        " 1. check the position   [line 14]",
        "      before: legal: P0 summons Salamander paying 1 red",
        " 2. P0 summons Salamander paying 1 red, 1 blue  ->  must be rejected: PAYMENT_SUPERFLUOUS_STONE (PAY-3)"
        "   [line 20]",
        " 3. P0 summons Salamander paying 1 blue  ->  accepted   [line 24]",
        "      then: P0 area: Salamander",
    ]
    assert expected == [line for line in expected if line in lines]
    assert any(line.startswith("  PAY-3 (payment): No paid stone may be superfluous") for line in lines)


def test_scenarios_show_an_unknown_id_is_bad_input() -> None:
    result = runner.invoke(app, ["scenarios", "show", "PAY-3-red-and-blue"])
    assert 2 == result.exit_code
    assert result.stderr.startswith("error: no scenario has the id 'PAY-3-red-and-blue'; did you mean")
