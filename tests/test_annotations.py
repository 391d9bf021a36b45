"""GitHub Actions annotations of a run (``oracle report annotations``): one ``::error`` per failing cause titled
with its blamed rule, at most ten, then one ``::notice`` for the rest; every message one line, escaped as the
runner reads workflow commands."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.results import CheckResult, Outcome
from oracle.reports import RunInfo, write_json
from oracle.reports.annotations import MOST_ERRORS, escape_data, escape_property, workflow_commands
from oracle.reports.html.load import Cause, load_report

RUN = RunInfo(engine="e", engine_version="1", impl="e.mod", started=datetime(2024, 5, 1, tzinfo=UTC))


def _cause(n: int, rule: str = "PAY-3", title: str = "the engine accepts a superfluous payment") -> Cause:
    return Cause(signature=f"s{n}", title=title, kind="differs", checks=(f"PAY-{n}",), count=2 + n,
                 rules=(rule,), smallest=f"PAY-{n}: oracle check --select PAY-{n}", rule=rule)


def _report(tmp_path: Path, results: list[CheckResult]) -> Path:
    path = tmp_path / "report.json"
    write_json(path, results, RUN)
    return path


def test_each_cause_is_one_error_titled_with_its_rule() -> None:
    causes = [_cause(1), _cause(2, "SUM-1", "Hydra, step 3: the engine summons for free")]
    assert ["::error title=PAY-3::the engine accepts a superfluous payment (3 checks; smallest: PAY-1: oracle check "
            "--select PAY-1)",
            "::error title=SUM-1::Hydra, step 3: the engine summons for free (4 checks; smallest: PAY-2: oracle check "
            "--select PAY-2)"] == workflow_commands(causes)


def test_beyond_ten_causes_one_notice_counts_the_rest() -> None:
    lines = workflow_commands([_cause(n, f"RULE-{n % 3}") for n in range(MOST_ERRORS + 4)])
    assert ([True] * MOST_ERRORS + [False], "::notice title=Vale Oracle::4 more failing causes (RULE-1, RULE-2, "
            "RULE-0): see the job summary and report.json") == ([line.startswith("::error ") for line in lines],
                                                                lines[-1])


def test_engine_text_stays_on_one_line_and_out_of_the_command_syntax() -> None:
    [line] = workflow_commands([_cause(1, "PAY-3,x::y", "50% off\nline two\r::warning::fake")])
    assert ("::error title=PAY-3%2Cx%3A%3Ay::50%25 off%0Aline two%0D::warning::fake (3 checks; smallest: PAY-1: "
            "oracle check --select PAY-1)", 1) == (line, len(line.splitlines()))
    assert ("a%25b%0Ac", "a%3Ab%2Cc") == (escape_data("a%b\nc"), escape_property("a:b,c"))


def test_the_command_prints_one_error_per_cause_of_a_report(tmp_path: Path) -> None:
    failing = [CheckResult("scenarios", f"PAY-{n}", "t", Outcome.FAIL, rules=(f"PAY-{n}",), expected=f"e{n}",
                           actual=f"a{n}") for n in range(3)]
    path = _report(tmp_path, [*failing, CheckResult("scenarios", "ok", "t", Outcome.PASS, rules=("PAY-1",))])
    result = CliRunner().invoke(app, ["report", "annotations", str(path)])
    causes = load_report(path).causes
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error title=PAY-")]
    assert (0, len(causes)) == (result.exit_code, len(errors))
    assert 0 < len(causes)


def test_a_passing_run_has_no_annotation(tmp_path: Path) -> None:
    path = _report(tmp_path, [CheckResult("scenarios", "ok", "t", Outcome.PASS, rules=("PAY-1",))])
    assert (0, "") == tuple(getattr(CliRunner().invoke(app, ["report", "annotations", str(path)]), a)
                            for a in ("exit_code", "stdout"))


def test_a_missing_report_is_bad_input(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", "annotations", str(tmp_path / "nope.json")])
    assert (2, True) == (result.exit_code, "nope.json" in result.output)

