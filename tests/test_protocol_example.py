"""The tested example of docs/protocol.md, "Trying another reading of a rule": the reference engine subclassed with
the rulebook transcription's sale values (docs/examples/rulebook_sell_values.py), run by the doc's own ``oracle
check`` command, breaks SELL-1 in the one scenario that sells a Water or a Wind card, and nothing else it selects."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app

DOCS = Path(__file__).resolve().parents[1] / "docs"
COMMAND = "oracle check --impl rulebook_sell_values"


def documented_command() -> list[str]:
    """The ``oracle check`` line docs/protocol.md gives for the example (its arguments after ``oracle``)."""
    [line] = [line.strip() for line in (DOCS / "protocol.md").read_text(encoding="utf-8").splitlines()
              if line.strip().startswith(COMMAND)]
    return shlex.split(line)[1:]


def test_the_rulebook_sale_values_fail_SELL_1_every_family_blamed_on_SELL_1(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DOCS / "examples")
    monkeypatch.setattr(sys, "path", list(sys.path))
    report = tmp_path / "report.json"
    result = CliRunner().invoke(app, [*documented_command(), "--budget-scale", "1", "--jobs", "1",
                                      "--report-json", str(report)])
    results = json.loads(report.read_text(encoding="utf-8"))["results"]
    not_passed = [(r["id"], r["outcome"], r["blamed_rule"]) for r in results if r["outcome"] != "pass"]
    assert (1, [("SELL-1-every-family", "fail", "SELL-1")], 3) == (result.exit_code, not_passed, len(results))
