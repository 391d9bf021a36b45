"""An engine whose ``load`` refuses the positions the oracle builds (issue 36, item 10): the checks that start from
one are ``unsupported``, all for the one reason the report states in one line, never a protocol error each; the
invariants play new games only. The engine's own snapshots it must still load (PROTO-2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.faults import REFUSED_POSITIONS, DeclaredButUnsupported, EngineFault, PositionRefused, RequestRefused
from oracle.engines.wire.connection import error_fault

runner = CliRunner()
FIXTURE = "vale_fixtures.refuses_every_position"
REFUSAL_LINE = "load refused the positions the oracle built: {} checks that start from one are unsupported"


def test_an_engine_refusing_every_position_is_unsupported_for_those_checks_with_one_reason(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = runner.invoke(app, ["check", "--impl", FIXTURE, "--suite", "scenarios,z3,invariants", "-j", "1",
                               "--report-json", str(report)])
    results = json.loads(report.read_text(encoding="utf-8"))["results"]
    unsupported = [r for r in results if r["outcome"] == "unsupported"]
    assert [] == [r["id"] for r in results if r["outcome"] not in ("pass", "unsupported", "not-applicable")]
    assert [] == [r["id"] for r in results if "PROTO-2" in r["rules"] and r["outcome"] != "pass"]
    assert [] == [r["id"] for r in unsupported if REFUSED_POSITIONS not in r["message"]]
    assert {"scenarios", "z3"} == {r["suite"] for r in unsupported}
    assert [REFUSAL_LINE.format(len(unsupported))] == [line.split(" (docs/")[0] for line in done.stdout.splitlines()
                                                      if line.startswith("load refused")]
    assert 0 == done.exit_code, done.stdout


def test_a_refusal_of_a_position_in_load_is_told_apart_from_other_faults() -> None:
    refusals = [EngineFault("unsupported", "load", "no"), DeclaredButUnsupported("load", "load"),
                error_fault("load", {"code": "bad_request", "message": "unknown field"})]
    others = [EngineFault("error", "load", "raised KeyError"), error_fault("load", {"code": "engine_error"}),
              EngineFault("unsupported", "apply", "no"), RequestRefused("apply", "unknown field")]
    assert ([True] * 3, [False] * 4) == ([PositionRefused.refusal(f) for f in refusals],
                                         [PositionRefused.refusal(f) for f in others])


REFUSES_EVEN_ITS_OWN = """
from oracle.reference import ReferenceEngine


class RefusesEvenItsOwn(ReferenceEngine):
    def load(self, snapshot):
        raise NotImplementedError("no load here")


def create():
    return RefusesEvenItsOwn()
"""


def test_an_engine_declaring_load_that_refuses_its_own_snapshots_still_breaks_PROTO_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "refuses_even_its_own.py").write_text(REFUSES_EVEN_ITS_OWN, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)  # a worker started anew (beside a thread another test left) finds it from here
    report = tmp_path / "report.json"
    done = runner.invoke(app, ["check", "--impl", "refuses_even_its_own", "--suite", "roundtrip", "-j", "1",
                               "--report-json", str(report)])
    assert report.is_file(), (done.exit_code, done.output, done.exception)
    results = json.loads(report.read_text(encoding="utf-8"))["results"]
    assert {("error", ("PROTO-2",))} == {(r["outcome"], tuple(r["rules"])) for r in results}
