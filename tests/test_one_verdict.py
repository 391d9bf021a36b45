"""One id space, one verdict: a run's results carry the plan's ids only, and ``oracle check``, ``pytest --vale-impl``
and merged shards give the same verdict on the same engine and expectations file (issue 38)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.exits import EXIT_FAILED, EXIT_OK
from oracle.core.results import FURTHER_FAILURES

pytest_plugins = ("pytester",)

runner = CliRunner()
LIMIT5 = "vale_fixtures.z3_limit5"
"""A holding limit of 5: the invariants suite's fuzz run finds INV-LIMIT broken more than once."""
CHECK = "invariants/INV-LIMIT"
NARROW = ("--impl", LIMIT5, "--suite", "invariants", "--select", CHECK, "--budget-scale", "1", "-j", "1")
PLUGIN = ("-p", "oracle.pytest_plugin", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:xdist.looponfail",
          "-p", "no:benchmark", "-p", "no:hypothesispytest")


def check(*args: str) -> int:
    result = runner.invoke(app, ["check", *NARROW, *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code


@pytest.fixture(scope="module")
def known_failures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The expectations file ``oracle expectations update`` writes from a plain run's report."""
    folder = tmp_path_factory.mktemp("one-verdict")
    report, file = folder / "report.json", folder / "known-failures.toml"
    assert EXIT_FAILED == check("--report-json", str(report))
    results = json.loads(report.read_text(encoding="utf-8"))["results"]
    assert [CHECK] == [r["id"] for r in results]
    assert results[0]["details"][FURTHER_FAILURES], "the fuzz run should find more than one failure of the check"
    updated = runner.invoke(app, ["expectations", "update", str(report), "--file", str(file)])
    assert EXIT_OK == updated.exit_code, updated.output
    return file


def test_a_further_fuzz_failure_is_a_member_of_its_planned_check_never_an_id(known_failures: Path) -> None:
    written = tomllib.loads(known_failures.read_text(encoding="utf-8"))
    assert [CHECK] == [entry["id"] for entry in written["expected_failure"]]


@pytest.fixture(scope="module")
def checked_with_them(known_failures: Path) -> int:
    """The exit code of ``oracle check --expectations`` with the file ``expectations update`` wrote."""
    return check("--expectations", str(known_failures))


def test_expectations_update_then_check_with_them_is_green(checked_with_them: int) -> None:
    assert EXIT_OK == checked_with_them


def test_check_pytest_and_merged_shards_give_one_verdict(
        known_failures: Path, checked_with_them: int, pytester: pytest.Pytester, tmp_path: Path) -> None:
    tested = pytester.runpytest_subprocess(*PLUGIN, "--vale-impl", LIMIT5, "--vale-suite", "invariants",
                                           "--vale-expectations", str(known_failures), "-k", "INV-LIMIT")
    shards = [subprocess.run([sys.executable, "-P", "-m", "oracle.cli", "check", *NARROW, "--expectations",
                              str(known_failures), "--shard", f"{k}/2", "--report-json",
                              str(tmp_path / f"shard-{k}.json")],
                             capture_output=True, text=True, timeout=300, check=False) for k in (1, 2)]
    merged = runner.invoke(app, ["report", "merge", *(str(tmp_path / f"shard-{k}.json") for k in (1, 2))])
    assert [EXIT_OK] * 3 == [checked_with_them, int(tested.ret), merged.exit_code], (tested.outlines, merged.output,
                                                                         [s.stdout for s in shards])
    tested.assert_outcomes(xfailed=1, deselected=tested.parseoutcomes().get("deselected", 0))
