"""`oracle expectations update REPORT.json [--file F]`: keeping a known-failures file current from a report."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.cli.expectations import FILE_PREAMBLE, PLACEHOLDER, Reported, Verdict, plan_update
from oracle.core.results import CheckResult, Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.reports import RunInfo, write_json
from oracle.run.expectations import apply_expectations, load_expectations
from oracle.scenarios.loader import default_dir, load_dir
from oracle.scenarios.runner import run_scenarios
from tests.helpers import CALL_SECONDS

runner = CliRunner()
SUPERFLUOUS = "vale_fixtures.superfluous_payment"
PAY3 = "PAY-3-red-and-blue-for-cost-1"


def update(report: Path, file: Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["expectations", "update", str(report), "--file", str(file)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def report_of(tmp_path: Path, results: Sequence[CheckResult]) -> Path:
    path = tmp_path / "report.json"
    write_json(path, results, RunInfo(engine="test-engine", engine_version="1", impl="tests"))
    return path


def result(check_id: str, outcome: Outcome, message: str = "") -> CheckResult:
    return CheckResult(suite="scenarios", id=check_id, title=check_id, outcome=outcome, message=message)


@pytest.fixture(scope="module")
def superfluous_results() -> list[CheckResult]:
    return run_scenarios(EngineUnderTest.load(SUPERFLUOUS, CALL_SECONDS), load_dir(default_dir()).scenarios)


# --- round trip on a real report ----------------------------------------------------------------------------

def test_update_round_trips_a_report_and_a_second_update_changes_nothing(
    tmp_path: Path, superfluous_results: list[CheckResult],
) -> None:
    report = report_of(tmp_path, superfluous_results)
    file = tmp_path / "known-failures.toml"
    failing = [r.id for r in superfluous_results if not r.outcome.ok]
    assert PAY3 in failing

    code, out, _ = update(report, file)
    assert 0 == code
    assert f"created known-failures.toml: {len(failing)} added, 0 dropped, 0 kept" == out.splitlines()[-1].replace(
        str(file), "known-failures.toml")

    entries, problems = load_expectations(file, {r.id for r in superfluous_results})
    assert ([], failing) == (problems, list(entries))
    assert all(e.reason.startswith(PLACEHOLDER) for e in entries.values())
    applied = apply_expectations(superfluous_results, entries)
    assert [] == [r.id for r in applied if not r.outcome.ok]

    before = file.read_text(encoding="utf-8")
    code, out, _ = update(report, file)
    assert (0, before) == (code, file.read_text(encoding="utf-8"))
    assert out.strip().endswith(f"up to date ({len(failing)} entries)")


def test_oracle_check_accepts_the_file_update_wrote(tmp_path: Path, superfluous_results: list[CheckResult]) -> None:
    file = tmp_path / "known-failures.toml"
    update(report_of(tmp_path, superfluous_results), file)
    checked = runner.invoke(app, ["check", "--suite", "scenarios", "--impl", SUPERFLUOUS, "--expectations", str(file)])
    assert 0 == checked.exit_code, checked.stdout + checked.stderr


# --- what is kept, added and dropped ------------------------------------------------------------------------

EXISTING = """\
# Known failures of our engine.

# payment: we give change
[[expected_failure]]
id = "PAY-3-red-and-blue-for-cost-1"
reason = "our engine gives change (issue #12)"

[[expected_failure]]
id = "SUM-3-cost-reductions-stack"  # fixed since
reason = "stacking not done"

[[expected_failure]]
id = "REM-1-round-3-costs-3"
reason = "not in this run"
"""


def test_update_keeps_reasons_and_comments_drops_passes_and_appends_new_failures(tmp_path: Path) -> None:
    file = tmp_path / "known-failures.toml"
    file.write_text(EXISTING, encoding="utf-8")
    report = report_of(tmp_path, [
        result(PAY3, Outcome.ILLEGAL_ACCEPTED),
        result("SUM-3-cost-reductions-stack", Outcome.PASS),
        result("STONE-1-printed-stone-values", Outcome.FAIL, "scenarios/x.toml:15: step 1: no summon of Imp"),
        result("random-play/2p-seed-1", Outcome.PASS),
    ])

    code, out, _ = update(report, file)

    expected = EXISTING.replace(
        '[[expected_failure]]\nid = "SUM-3-cost-reductions-stack"  # fixed since\nreason = "stacking not done"\n\n', ""
    ) + (
        "\n[[expected_failure]]\n"
        'id = "STONE-1-printed-stone-values"\n'
        'reason = "TODO: say why this check is expected to fail (fail: step 1: no summon of Imp)"\n'
    )
    assert expected == file.read_text(encoding="utf-8")
    assert [
        "dropped SUM-3-cost-reductions-stack: it passes now",
        "added STONE-1-printed-stone-values: fail",
        f"wrote {file}: 1 added, 1 dropped, 2 kept, 1 of them not in the report",
    ] == out.splitlines()
    assert 0 == code


COMMENTED = """\
# Known failures of our engine.
# Kept by hand and by `oracle expectations update`.

# payment: we give change
# (see issue #12)
[[expected_failure]]
reason = "our engine gives change"   # the reason first: the order of keys is ours
id = "PAY-3-red-and-blue-for-cost-1"

# stacking: fixed since
[[expected_failure]]
id = "SUM-3-cost-reductions-stack"
reason = "stacking not done"

# rounds: not in this run
[[expected_failure]]
id = "REM-1-round-3-costs-3"  # an inline comment
reason = 'literal string kept literal'

# end of the list
"""


@pytest.mark.parametrize(("passing", "gone"), [
    ("SUM-3-cost-reductions-stack",
     '# stacking: fixed since\n[[expected_failure]]\nid = "SUM-3-cost-reductions-stack"\n'
     'reason = "stacking not done"\n\n'),
    (PAY3, '# payment: we give change\n# (see issue #12)\n[[expected_failure]]\n'
           'reason = "our engine gives change"   # the reason first: the order of keys is ours\n'
           'id = "PAY-3-red-and-blue-for-cost-1"\n\n'),
    ("REM-1-round-3-costs-3", "# rounds: not in this run\n[[expected_failure]]\n"
                              'id = "REM-1-round-3-costs-3"  # an inline comment\n'
                              "reason = 'literal string kept literal'\n\n"),
])
def test_an_update_keeps_every_comment_and_the_order_except_those_of_the_dropped_entry(
    tmp_path: Path, passing: str, gone: str,
) -> None:
    file = tmp_path / "known-failures.toml"
    file.write_text(COMMENTED, encoding="utf-8")
    update(report_of(tmp_path, [result(passing, Outcome.PASS)]), file)
    assert gone in COMMENTED
    assert COMMENTED.replace(gone, "") == file.read_text(encoding="utf-8")


def test_a_new_failure_is_appended_after_the_comments_of_the_file(tmp_path: Path) -> None:
    file = tmp_path / "known-failures.toml"
    file.write_text(COMMENTED, encoding="utf-8")
    update(report_of(tmp_path, [result("STONE-1-printed-stone-values", Outcome.FAIL)]), file)
    expected = COMMENTED + (
        '\n[[expected_failure]]\nid = "STONE-1-printed-stone-values"\n'
        'reason = "TODO: say why this check is expected to fail (fail)"\n'
    )
    assert expected == file.read_text(encoding="utf-8")


def test_dropping_every_entry_keeps_the_comments_that_open_the_file(tmp_path: Path) -> None:
    file = tmp_path / "known-failures.toml"
    file.write_text(COMMENTED, encoding="utf-8")
    ids = [PAY3, "SUM-3-cost-reductions-stack", "REM-1-round-3-costs-3"]
    update(report_of(tmp_path, [result(i, Outcome.PASS) for i in ids]), file)
    expected = ("# Known failures of our engine.\n# Kept by hand and by `oracle expectations update`.\n\n"
                "# end of the list\n")
    assert expected == file.read_text(encoding="utf-8")


NEW_TABLES = "".join(f'[[expected_failure]]\nid = "{i}"\n'
                     'reason = "TODO: say why this check is expected to fail (fail)"\n' for i in ("A", "B"))


@pytest.mark.parametrize(("text", "head"), [
    (None, FILE_PREAMBLE + "\n"), ("", ""), ("# ours\n", "# ours\n\n"), ("# ours\n\n", "# ours\n\n"),
])
def test_each_new_entry_follows_one_blank_line(text: str | None, head: str) -> None:
    planned = plan_update(text, [], [Reported("A", "fail", "", None), Reported("B", "fail", "", None)])
    assert head + NEW_TABLES.replace("\n[[", "\n\n[[") == planned.text


def test_unexpected_passes_are_dropped_and_expected_failures_stay(tmp_path: Path) -> None:
    file = tmp_path / "known-failures.toml"
    file.write_text(EXISTING, encoding="utf-8")
    report = report_of(tmp_path, [
        result(PAY3, Outcome.EXPECTED_FAILURE),
        result("SUM-3-cost-reductions-stack", Outcome.UNEXPECTED_PASS),
        result("REM-1-round-3-costs-3", Outcome.UNSUPPORTED),
    ])
    update(report, file)
    listed = [e["id"] for e in tomllib.loads(file.read_text(encoding="utf-8"))["expected_failure"]]
    assert [PAY3, "REM-1-round-3-costs-3"] == listed


def test_dropping_the_last_entry_leaves_no_trailing_blank_lines(tmp_path: Path) -> None:
    file = tmp_path / "known-failures.toml"
    file.write_text(EXISTING, encoding="utf-8")
    update(report_of(tmp_path, [result("REM-1-round-3-costs-3", Outcome.PASS)]), file)
    expected = EXISTING[: EXISTING.index('\n[[expected_failure]]\nid = "REM-1')]
    assert expected == file.read_text(encoding="utf-8")


def test_an_expected_failure_listed_elsewhere_brings_its_reason(tmp_path: Path) -> None:
    listed = CheckResult(suite="scenarios", id=PAY3, title=PAY3, outcome=Outcome.EXPECTED_FAILURE,
                         details={"expected_failure": {"reason": "gives change (issue #12)", "file": "a.toml",
                                                       "line": 1, "outcome": "fail"}})
    file = tmp_path / "known-failures.toml"
    update(report_of(tmp_path, [listed]), file)
    assert [{"id": PAY3, "reason": "gives change (issue #12)"}] == tomllib.loads(
        file.read_text(encoding="utf-8"))["expected_failure"]


@pytest.mark.parametrize(("outcome", "verdict"), [
    ("fail", Verdict.FAILS), ("wrongly-rejected", Verdict.FAILS), ("illegal-accepted", Verdict.FAILS),
    ("error", Verdict.FAILS), ("timeout", Verdict.FAILS), ("incomplete", Verdict.FAILS),
    ("expected-failure", Verdict.FAILS), ("pass", Verdict.PASSES), ("unexpected-pass", Verdict.PASSES),
    ("unsupported", Verdict.UNDECIDED), ("not-applicable", Verdict.UNDECIDED),
])
def test_each_outcome_decides_the_entry(outcome: str, verdict: Verdict) -> None:
    assert verdict == Reported("X-1", outcome, "", None).verdict


FORMAT_1_REPORT = Path(__file__).parent / "data" / "report-format-1.json"
"""A report written by the oracle before format 2 (no not-applicable outcome, its other-variant checks unsupported)."""


def test_a_report_of_format_1_still_updates_the_file(tmp_path: Path) -> None:
    listed = tmp_path / "known.toml"
    listed.write_text('[[expected_failure]]\nid = "RUL-1-per-stone-gargoyle-two-purple"\nreason = "other reading"\n',
                      encoding="utf-8")
    code, out, err = update(FORMAT_1_REPORT, listed)
    assert 0 == code, out + err
    assert f"added {PAY3}: illegal-accepted" in out
    kept = "RUL-1-per-stone-gargoyle-two-purple"
    assert {PAY3, kept} == set(load_expectations(listed, {PAY3, kept})[0])


def test_an_incomplete_check_is_listed() -> None:
    planned = plan_update(None, [], [Reported("X-1", "incomplete", "cut short after 10 s", None)])
    assert ["X-1"] == [c.id for c in planned.added]
    assert 'reason = "TODO: say why this check is expected to fail (incomplete: cut short after 10 s)"' in planned.text


def test_a_file_not_laid_out_one_table_per_entry_is_rewritten_keeping_reasons(tmp_path: Path) -> None:
    file = tmp_path / "known-failures.toml"
    file.write_text(f'expected_failure = [{{id = "{PAY3}", reason = "gives change"}}]\n', encoding="utf-8")
    code, out, _ = update(report_of(tmp_path, [result(PAY3, Outcome.FAIL)]), file)
    assert 0 == code
    assert "rewrote it in that layout" in out
    assert [{"id": PAY3, "reason": "gives change"}] == tomllib.loads(
        file.read_text(encoding="utf-8"))["expected_failure"]


@pytest.mark.parametrize("text", ['a "quoted" \\ back\tslash', "line\nbreak", "del\x7f and \x01", "Hae-tae ☯"])
def test_strings_are_written_as_toml_that_reads_back_the_same(text: str) -> None:
    planned = plan_update(None, [], [Reported(text, "fail", "", text)])
    assert [{"id": text, "reason": text}] == tomllib.loads(planned.text)["expected_failure"]


# --- bad input ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "report.json:1: not valid JSON: Expecting property name enclosed in double quotes (column 2)"),
    ('{"format": "vale-oracle/report/1"}',
     "report.json: not a vale-oracle report (oracle check --report-json): at the top level: "
     "'run' is a required property"),
])
def test_a_bad_report_is_a_one_line_error_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str, message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "report.json").write_text(content, encoding="utf-8")
    code, out, err = update(Path("report.json"), Path("known-failures.toml"))
    assert (2, f"error: {message}\n", "") == (code, err, out)
    assert not (tmp_path / "known-failures.toml").exists()


def test_a_missing_report_is_a_one_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = update(Path("nowhere.json"), Path("known-failures.toml"))
    assert (2, "error: nowhere.json: cannot read the report (No such file or directory)\n") == (code, err)


def test_an_entry_without_a_reason_stops_the_update_with_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    report = report_of(tmp_path, [result(PAY3, Outcome.FAIL)])
    text = f'# ours\n[[expected_failure]]\nid = "{PAY3}"\n'
    (tmp_path / "known-failures.toml").write_text(text, encoding="utf-8")
    code, _, err = update(report, Path("known-failures.toml"))
    expected = f"error: known-failures.toml:2: expected_failure {PAY3!r} needs a reason (why the failure is expected)\n"
    assert (2, expected) == (code, err)
    assert text == (tmp_path / "known-failures.toml").read_text(encoding="utf-8")
