"""The tested examples of docs/protocol.md, "Trying another reading of a rule": the reference engine subclassed with
the rulebook transcription's sale values (docs/examples/rulebook_sell_values.py), run by the doc's own ``oracle
check`` command, breaks SELL-1 in the one scenario that sells a Water or a Wind card, and nothing else it selects;
and a ``Table`` subclass misreading Hestia's holding limit (docs/examples/hestia_limit_five.py), kept in every copy."""

from __future__ import annotations

import copy
import json
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app

DOCS = Path(__file__).resolve().parents[1] / "docs"
COMMAND = "oracle check --impl rulebook_sell_values"


def documented_command(command: str = COMMAND) -> list[str]:
    """The ``oracle check`` line docs/protocol.md gives for an example (its arguments after ``oracle``)."""
    [line] = [line.strip() for line in (DOCS / "protocol.md").read_text(encoding="utf-8").splitlines()
              if line.strip().startswith(command)]
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


HESTIA_COMMAND = "oracle check --impl hestia_limit_five"
HESTIA_LIMIT_FAILURES = {"LIMIT-1-hestia-raises-the-limit-to-six", "CARD-Hestia-keep-six-after-selling"}
HESTIA_EXTRA_DECISIONS = {"CARD-Hestia-six-stones-then-four-after-removal", "LIMIT-1-back-to-four-when-hestia-leaves",
                          "LIMIT-2-keep-four-after-removing-hestia-with-totem-pole"}


def test_a_table_subclass_misreading_hestia_fails_the_limit_1_scenarios_it_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DOCS / "examples")
    monkeypatch.setattr(sys, "path", list(sys.path))
    report = tmp_path / "report.json"
    result = CliRunner().invoke(app, [*documented_command(HESTIA_COMMAND), "--budget-scale", "1", "--jobs", "1",
                                      "--report-json", str(report)])
    results = json.loads(report.read_text(encoding="utf-8"))["results"]
    failed = {r["id"]: r["blamed_rule"] for r in results if r["outcome"] != "pass"}
    assert (1, 10, HESTIA_LIMIT_FAILURES | HESTIA_EXTRA_DECISIONS, {"LIMIT-1"}) == (
        result.exit_code, len(results), set(failed), {failed[i] for i in HESTIA_LIMIT_FAILURES})


def test_a_table_subclass_survives_every_copy_of_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(DOCS / "examples"))
    from hestia_limit_five import HestiaRaisesByOne, create

    from oracle.engines.play import new_setup

    engine = create()
    engine.new_game(new_setup(2, 1))
    assert engine.table is not None
    copied = copy.deepcopy(engine)
    assert copied.table is not None
    assert (HestiaRaisesByOne, HestiaRaisesByOne, HestiaRaisesByOne) == (
        type(engine.table), type(copied.table), type(engine.table.what_if()))
