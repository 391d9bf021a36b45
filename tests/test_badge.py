"""The badge (``oracle report badge``): a shields.io endpoint file with the run's figure.

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

from oracle.cli import app
from oracle.reports import RunInfo, build_report, write_json
from oracle.reports.badge import badge_json, score_of
from oracle.reports.html.load import parse_report
from oracle.results import CheckResult, Outcome

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


def test_the_message_is_percent_then_passes_over_checks_run() -> None:
    badge = _badge(_results(**{"pass": 312, "fail": 8, "unsupported": 5}))
    _assert_shields_endpoint(badge)
    assert {"schemaVersion": 1, "label": "vale oracle", "message": "97 % · 312/320", "color": "yellow"} == badge


@pytest.mark.parametrize(("counts", "message", "color"), [
    ({"pass": 10}, "100 % · 10/10", "brightgreen"),
    ({"pass": 319, "fail": 1}, "99 % · 319/320", "yellow"),
    ({"pass": 9, "expected_failure": 1}, "90 % · 9/10", "green"),
    ({"pass": 8, "timeout": 2}, "80 % · 8/10", "orange"),
    ({"pass": 1, "error": 3}, "25 % · 1/4", "red"),
    ({"unsupported": 4}, "no checks run", "lightgrey"),
    ({}, "no checks run", "lightgrey"),
])
def test_figure_and_colour(counts: dict[str, int], message: str, color: str) -> None:
    badge = _badge(_results(**counts))
    _assert_shields_endpoint(badge)
    assert (message, color) == (badge["message"], badge["color"])


def test_an_unsupported_check_is_never_a_pass() -> None:
    score = score_of([Outcome.UNSUPPORTED, Outcome.PASS])
    assert (1, 1, "100 % · 1/1") == (score.passes, score.run, score.text)


def test_an_incomplete_run_says_so_in_grey() -> None:
    badge = _badge(_results(**{"pass": 5}), complete=False, stopped="engine killed")
    _assert_shields_endpoint(badge)
    assert ("100 % · 5/5 · incomplete", "lightgrey") == (badge["message"], badge["color"])


def test_the_command_writes_the_endpoint_file(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    write_json(report, _results(**{"pass": 3, "fail": 1}), RUN)
    out = tmp_path / "badges" / "badge.json"
    result = CliRunner().invoke(app, ["report", "badge", str(report), "-o", str(out), "--label", "my engine"])
    assert 0 == result.exit_code, result.output
    badge = json.loads(out.read_text(encoding="utf-8"))
    _assert_shields_endpoint(badge)
    assert {"schemaVersion": 1, "label": "my engine", "message": "75 % · 3/4", "color": "orange"} == badge


def test_a_missing_report_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", "badge", str(tmp_path / "nope.json"), "-o", str(tmp_path / "b.json")])
    assert 2 == result.exit_code
    assert [f"error: {tmp_path / 'nope.json'}: cannot read (No such file or directory)"] == \
        result.output.strip().splitlines()
