"""The badge (``oracle report badge``): a shields.io endpoint file with how much was checked, green only when
everything the engine allows was checked and passed (docs/html.md).

shields.io documents the endpoint schema (https://shields.io/badges/endpoint-badge): ``schemaVersion``
(required, always the number 1), ``label`` (required, a string, may be empty), ``message`` (required, not
empty), ``color`` (optional; one of the named colours, or hex, rgb, hsl or a CSS name) and optional
``labelColor``, ``isError``, ``namedLogo``, ``logoSvg``, ``logoColor``, ``logoWidth``, ``style``, ``cacheSeconds``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.results import UNSUPPORTED_CALL, CheckResult, Outcome
from oracle.core.rules import rules
from oracle.reports import RunInfo, build_report, write_json
from oracle.reports.badge import badge_json
from oracle.reports.html.load import parse_report

SHIELDS_FIELDS = {"schemaVersion", "label", "message", "color", "labelColor", "isError", "namedLogo", "logoSvg",
                  "logoColor", "logoWidth", "style", "cacheSeconds"}
SHIELDS_NAMED_COLORS = {"brightgreen", "green", "yellowgreen", "yellow", "orange", "red", "blue", "lightgrey",
                        "grey", "gray", "lightgray", "success", "important", "critical", "informational", "inactive"}
RUN = RunInfo(engine="e", engine_version="1", impl="e.mod", started=datetime(2024, 5, 1, tzinfo=UTC))


def _results(**counts: int) -> list[CheckResult]:
    out = []
    for name, n in counts.items():
        outcome = Outcome(name.replace("_", "-"))
        out += [CheckResult("scenarios", f"{name}-{i}", "t", outcome) for i in range(n)]
    return out


def _badge(results: list[CheckResult], **run: Any) -> dict[str, object]:
    data = build_report(results, RUN)
    data["run"].update(run)
    return badge_json(parse_report(data, Path("r.json")))


def _assert_shields_endpoint(badge: dict[str, object]) -> None:
    assert set(badge) <= SHIELDS_FIELDS
    assert {"schemaVersion", "label", "message"} <= set(badge)
    assert 1 == badge["schemaVersion"] and type(badge["schemaVersion"]) is int
    assert isinstance(badge["label"], str)
    assert isinstance(badge["message"], str) and badge["message"].strip()
    assert badge.get("color", "lightgrey") in SHIELDS_NAMED_COLORS


def _covering() -> list[CheckResult]:
    """One passing check citing each base-game rule of the catalogue."""
    return [CheckResult("scenarios", f"cover-{rule.id}", "t", Outcome.PASS, rules=(rule.id,))
            for rule in rules().values() if rule.scope == "base"]


BASE = len(_covering())


def test_the_message_is_checked_over_all_then_passes_and_failures() -> None:
    badge = _badge(_results(**{"pass": 312, "fail": 8, "unsupported": 5}))
    _assert_shields_endpoint(badge)
    assert {"schemaVersion": 1, "label": "vale oracle", "message": "97 % · 8 fail",
            "color": "orange"} == badge


@pytest.mark.parametrize(("counts", "message", "color"), [
    ({"pass": 10}, "10/10 pass", "yellow"),
    ({"pass": 8, "timeout": 2}, "80 % · 2 fail", "orange"),
    ({"pass": 1, "error": 3}, "25 % · 3 fail", "red"),
    ({"pass": 3, "incomplete": 1}, "3/4 pass", "yellow"),
    ({"unsupported": 4, "not_applicable": 2}, "nothing checked", "lightgrey"),
    ({}, "nothing checked", "lightgrey"),
])
def test_figure_and_colour(counts: dict[str, int], message: str, color: str) -> None:
    badge = _badge(_results(**counts))
    _assert_shields_endpoint(badge)
    assert (message, color) == (badge["message"], badge["color"])


@pytest.mark.parametrize(("extra", "color"), [
    ([], "brightgreen"),
    (_results(unsupported=3, not_applicable=2), "brightgreen"),
    (_results(expected_failure=1), "yellow"),
    (_results(incomplete=1), "yellow"),
    ([CheckResult("scenarios", "refused", "t", Outcome.UNSUPPORTED, details={UNSUPPORTED_CALL: "apply"})], "yellow"),
    ([CheckResult("scenarios", "undrivable", "t", Outcome.UNSUPPORTED, details={"undrivable": "a dialog"})], "yellow"),
    (_results(fail=1), "orange"),
])
def test_green_needs_every_base_rule_run_every_allowed_check_run_and_nothing_failed(
        extra: list[CheckResult], color: str) -> None:
    assert color == _badge(_covering() + extra)["color"]
    missing_one = _covering()[1:] + extra
    assert "brightgreen" != _badge(missing_one)["color"]


def test_an_unsupported_check_is_never_a_pass() -> None:
    assert "1/2 pass" == _badge(_results(unsupported=1, **{"pass": 1}))["message"]


def test_an_incomplete_run_says_so_in_grey() -> None:
    badge = _badge(_covering(), complete=False, stopped="engine killed")
    _assert_shields_endpoint(badge)
    assert (f"{BASE}/{BASE} pass · incomplete", "lightgrey") == (badge["message"], badge["color"])


def test_the_minimal_adapter_shows_its_share_and_is_not_green(tmp_path: Path) -> None:
    report, out = tmp_path / "report.json", tmp_path / "badge.json"
    done = CliRunner().invoke(app, ["check", "--impl", "vale_fixtures.minimal_adapter", "--suite", "setup,scenarios",
                                    "--report-json", str(report)])
    assert 0 == done.exit_code, done.output
    totals = json.loads(report.read_text(encoding="utf-8"))["totals"]
    assert 0 < totals["ran"] < totals["checks"]
    result = CliRunner().invoke(app, ["report", "badge", str(report), "-o", str(out)])
    assert 0 == result.exit_code, result.output
    badge = json.loads(out.read_text(encoding="utf-8"))
    assert (f"{totals['ran']}/{totals['checks']} pass", "yellow") == (
        badge["message"], badge["color"])


def test_the_command_writes_the_endpoint_file(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    write_json(report, _results(**{"pass": 3, "fail": 1}), RUN)
    out = tmp_path / "badges" / "badge.json"
    result = CliRunner().invoke(app, ["report", "badge", str(report), "-o", str(out), "--label", "my engine"])
    assert 0 == result.exit_code, result.output
    badge = json.loads(out.read_text(encoding="utf-8"))
    _assert_shields_endpoint(badge)
    assert {"schemaVersion": 1, "label": "my engine", "message": "75 % · 1 fail", "color": "orange"} \
        == badge


def test_a_missing_report_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", "badge", str(tmp_path / "nope.json"), "-o", str(tmp_path / "b.json")])
    assert 2 == result.exit_code
    assert [f"error: {tmp_path / 'nope.json'}: cannot read the report (No such file or directory)"] == \
        result.output.strip().splitlines()
