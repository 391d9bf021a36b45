"""``oracle check`` tells the truth: exit codes, refusals before the run, report options and expectations."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import oracle
from oracle.cli.app import app
from oracle.scenarios.suite_digest import suite_digest
from tests.shared_runs import checked

runner = CliRunner()
SUPERFLUOUS = "vale_fixtures.superfluous_payment"


def check(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["check", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("option", ["--timeout", "--start-timeout", "--scenario-timeout", "--z3-budget",
                                    "--fuzz-budget", "--unit-timeout", "--time-budget"])
def test_a_timeout_or_budget_must_be_positive(option: str) -> None:
    code, _, err = check(option, "-1")
    assert 2 == code
    assert f"error: {option} must be more than 0 seconds" in err


def test_an_unwritable_report_path_is_refused_before_the_run(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    code, out, err = check("--junit-xml", str(blocker / "junit.xml"))
    assert (2, "") == (code, out)
    assert f"error: --junit-xml {blocker / 'junit.xml'}: cannot write the report there ({blocker} is not a " \
           "directory)" in err
    code, _, err = check("--markdown", "-")
    assert 2 == code and "only --report-json can write to standard output" in err


def test_a_selected_suite_with_no_checks_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = check("--suite", "scenarios", "--scenarios", str(empty))
    assert 2 == code
    assert f"error: --suite scenarios: it has no checks to run (no scenario files in {empty})" in err


def test_report_json_to_stdout_keeps_the_summary_on_stderr() -> None:
    done = subprocess.run([sys.executable, "-P", "-m", "oracle.cli.app", "check", "--suite", "setup",
                           "--report-json", "-"], capture_output=True, text=True, timeout=120, check=False)
    assert 0 == done.returncode, done.stderr
    report = json.loads(done.stdout)
    assert (9, "PASSED") == (report["totals"]["checks"], report["totals"]["verdict"])
    assert "PASSED: 9 checks, 9 ran, 0 unsupported, 0 not applicable (9 pass)" in done.stderr
    assert ("", "") == (_escapes(done.stdout), _escapes(done.stderr)), "a pipe gets no colour and no progress bar"


def _escapes(text: str) -> str:
    return "".join(sorted(set(re.findall(r"\x1b\[[0-9;?]*[A-Za-z]", text))))


def test_markdown_append_keeps_what_other_steps_wrote(tmp_path: Path) -> None:
    summary = tmp_path / "step-summary.md"
    summary.write_text("## Build\n\nok\n", encoding="utf-8")
    code, _, _ = check("--suite", "setup", "--markdown-append", str(summary))
    assert 0 == code
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("## Build\n\nok\n\n## Vale Oracle conformance: PASSED")
    code, _, _ = check("--suite", "setup", "--markdown-append", str(summary))
    assert 2 == summary.read_text(encoding="utf-8").count("## Vale Oracle conformance")


def test_version_names_the_oracle_the_protocol_and_the_suite() -> None:
    result = runner.invoke(app, ["--version"])
    assert 0 == result.exit_code
    assert f"vale-oracle {oracle.__version__} (protocol {oracle.PROTOCOL_VERSION}, suite {oracle.SUITE_VERSION}, " \
        f"digest {suite_digest()})\n" == result.stdout


def _report(tmp_path: Path, *args: str) -> dict[str, object]:
    path = tmp_path / "report.json"
    check(*args, "--report-json", str(path))
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_a_known_broken_engine_goes_green_with_its_expectations_and_red_when_one_passes(tmp_path: Path) -> None:
    results = checked("--impl", SUPERFLUOUS)[2]["results"]
    assert isinstance(results, list)
    failing = [r["id"] for r in results if r["outcome"] not in ("pass", "unsupported", "not-applicable")]
    assert any(i.startswith("z3/") for i in failing) and any(i.startswith("invariants/") for i in failing)
    assert any(not i.startswith(("z3/", "invariants/", "random-play/", "roundtrip/", "setup/")) for i in failing)
    listed = tmp_path / "known-failures.toml"
    listed.write_text("".join(f'[[expected_failure]]\nid = "{i}"\nreason = "pays with superfluous stones"\n\n'
                              for i in failing), encoding="utf-8")
    code, out, err = check("--impl", SUPERFLUOUS, "--expectations", str(listed))
    assert 0 == code, out + err
    total = len(results)
    other = sum(1 for r in results if r["outcome"] == "not-applicable")
    assert f"PASSED: {total} checks, {total - other} ran, 0 unsupported, {other} not applicable " \
           f"({total - len(failing) - other} pass, {len(failing)} expected-failure, {other} not-applicable)" in out
    listed.write_text(listed.read_text(encoding="utf-8") +
                      '[[expected_failure]]\nid = "setup/2p/first-0"\nreason = "wrongly listed"\n', encoding="utf-8")
    code, out, _ = check("--impl", SUPERFLUOUS, "--suite", "setup", "--expectations", str(listed))
    assert 1 == code
    assert "UNEXPECTED-PASS  setup/2p/first-0" in out


def test_check_ids_and_counts_do_not_depend_on_how_the_engine_fails(tmp_path: Path) -> None:
    reference = _report(tmp_path, "--suite", "z3", "--suite", "invariants")
    # the broken engine's z3 and invariants results of its full run (the shared run the test above reads too)
    # (a full run lists the suites in its own order: the ids are compared suite by suite, in their order)
    broken = checked("--impl", SUPERFLUOUS)[2]["results"]
    ran = reference["results"]
    assert isinstance(ran, list)
    for suite in ("z3", "invariants"):
        assert [r["id"] for r in ran if r["suite"] == suite] == [r["id"] for r in broken if r["suite"] == suite], suite
        assert {"pass"} != {r["outcome"] for r in broken if r["suite"] == suite}, suite


def test_an_expectation_matching_no_check_is_an_error(tmp_path: Path) -> None:
    listed = tmp_path / "known-failures.toml"
    listed.write_text('[[expected_failure]]\nid = "z3/summon-payment/PAY-33"\nreason = "typo"\n', encoding="utf-8")
    code, _, err = check("--suite", "setup", "--expectations", str(listed))
    assert 2 == code
    assert "no check of this engine has the id 'z3/summon-payment/PAY-33'; did you mean 'z3/summon-payment/PAY-3'?" \
        in err


# ---------------------------------------------------------------------------------------------- nothing checked


def test_a_run_in_which_no_check_ran_is_nothing_checked_in_every_report(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    reports = ("--report-json", str(tmp_path / "r.json"), "--junit-xml", str(tmp_path / "j.xml"),
               "--markdown", str(tmp_path / "m.md"))
    code, out, err = check("--impl", "vale_fixtures.minimal_adapter", "--suite", "roundtrip", *reports)
    line = "NOTHING CHECKED: 3 checks (3 unsupported, 0 not applicable)"
    assert 4 == code, out + err
    assert line in out
    totals = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["totals"]
    assert ("NOTHING CHECKED", line, 4, False, 0) == (totals["verdict"], totals["summary"], totals["exit_code"],
                                                       totals["passed"], totals["ran"])
    root = ET.parse(tmp_path / "j.xml").getroot()
    failure = root.find("testsuite[@name='nothing-checked']/testcase/failure")
    assert failure is not None and line == failure.get("message") and root.get("name", "").endswith(line)
    markdown = (tmp_path / "m.md").read_text(encoding="utf-8")
    assert markdown.startswith("## Vale Oracle conformance: NOTHING CHECKED") and line in markdown
    code, out, _ = check("--impl", "vale_fixtures.minimal_adapter", "--suite", "roundtrip", "--allow-empty", *reports)
    assert (0, True) == (code, line in out)
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert root.find("testsuite[@name='nothing-checked']/testcase/skipped") is not None
    assert "0" == root.get("failures")


def test_an_engine_whose_games_end_at_step_zero_passes_nothing_and_exits_3(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    code, out, err = check("--impl", "vale_fixtures.ends_at_step_zero", "--suite", "random-play,invariants",
                           "--report-json", str(report))
    assert 3 == code, out + err
    results = json.loads(report.read_text(encoding="utf-8"))["results"]
    outcomes = {r["id"]: r["outcome"] for r in results}
    assert "pass" not in outcomes.values()
    assert {"incomplete", "unsupported"} == set(outcomes.values())
    played = [r for r in results if r["outcome"] == "incomplete" and r["suite"] == "invariants"]
    assert {"invariants/INV-LEGAL-APPLIES", "invariants/INV-ILLEGAL-REJECTED", "invariants/INV-DECISION-GUARDS",
            "invariants/ENGINE-FAULT"} == {r["id"] for r in played}
    assert all((0, 6) == (r["details"]["decisions_seen"], r["details"]["positions_seen"]) for r in played)
    games = [r for r in results if r["suite"] == "random-play" and r["id"] != "random-play/reshuffles"]
    assert all(r["outcome"] == "incomplete" for r in games)
    assert "unsupported" == outcomes["random-play/reshuffles"]
    assert "INCOMPLETE: 35 checks, 22 ran, 13 unsupported, 0 not applicable" in out


@pytest.mark.skipif(shutil.which("node") is None, reason="the starter kit needs Node.js")
def test_the_starter_kit_random_play_is_nothing_checked(tmp_path: Path) -> None:
    kit = Path(oracle.__file__).resolve().parent / "kits" / "node" / "example.cjs"
    code, out, err = check("--impl", f"cmd:node {kit}", "--suite", "random-play")
    assert 4 == code, out + err
    assert "NOTHING CHECKED: 6 checks (6 unsupported, 0 not applicable)" in out
