"""The branch-coverage gate of the reference engine by the scenario suite (ci/coverage_gate.py, issue 16)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ci.coverage_gate import (
    BLAME_ACCOUNT,
    Exclusion,
    FileCoverage,
    GateError,
    Measurement,
    exclusions,
    floor_percent,
    read_threshold,
    report_lines,
    verdict,
)

REPOSITORY = Path(__file__).resolve().parent.parent
GATE = REPOSITORY / "ci" / "coverage_gate.py"
PLANTED_BRANCH = '\nif __name__ == "never the name of this module":\n    PLANTED = "a branch no scenario reaches"\n'


def run_gate(python_path: list[Path], *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in python_path)}
    return subprocess.run([sys.executable, str(GATE), *args], capture_output=True, text=True, env=env,
                          timeout=300, check=False)


def worktree_path() -> list[Path]:
    return [REPOSITORY, REPOSITORY / "fixtures", REPOSITORY / "invariants"]


# --- the gate on the tree ---------------------------------------------------------------------------------

def test_gate_passes_on_the_tree_as_is() -> None:
    ran = run_gate(worktree_path())
    assert 0 == ran.returncode, ran.stdout + ran.stderr
    assert "PASSED: branch coverage" in ran.stdout
    listed = {line.split()[0] for line in ran.stdout.splitlines() if line.startswith("oracle/reference/")}
    expected = {p.relative_to(REPOSITORY).as_posix() for p in (REPOSITORY / "oracle" / "reference").rglob("*.py")
                if p.name not in BLAME_ACCOUNT}
    assert expected == listed


def test_gate_fails_when_a_planted_unreached_branch_is_added(tmp_path: Path) -> None:
    shutil.copytree(REPOSITORY / "oracle", tmp_path / "oracle", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "scenarios").symlink_to(REPOSITORY / "scenarios")
    planted = tmp_path / "oracle" / "reference" / "__init__.py"
    original_lines = len(planted.read_text(encoding="utf-8").splitlines())
    with planted.open("a", encoding="utf-8") as out:
        out.write(PLANTED_BRANCH)
    planted_body = original_lines + 3
    threshold = tmp_path / "threshold.txt"
    threshold.write_text((REPOSITORY / "ci" / "coverage-threshold.txt").read_text(encoding="utf-8"), encoding="utf-8")

    ran = run_gate([tmp_path, REPOSITORY / "fixtures", REPOSITORY / "invariants"], "--threshold-file", str(threshold))

    assert 1 == ran.returncode, ran.stdout + ran.stderr
    assert "is below the threshold" in ran.stdout
    row = next(line for line in ran.stdout.splitlines() if line.startswith("oracle/reference/__init__.py"))
    assert f"{planted_body}; {planted_body - 1}->{planted_body}" == row.split("%", 1)[1].strip()


def test_gate_fails_when_a_rule_module_leaves_a_branch_unreached_whatever_the_total(tmp_path: Path) -> None:
    shutil.copytree(REPOSITORY / "oracle", tmp_path / "oracle", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "scenarios").symlink_to(REPOSITORY / "scenarios")
    planted = tmp_path / "oracle" / "reference" / "flow.py"
    original_lines = len(planted.read_text(encoding="utf-8").splitlines())
    with planted.open("a", encoding="utf-8") as out:
        out.write(PLANTED_BRANCH)
    planted_body = original_lines + 3
    threshold = tmp_path / "threshold.txt"
    threshold.write_text("0\n", encoding="utf-8")

    ran = run_gate([tmp_path, REPOSITORY / "fixtures", REPOSITORY / "invariants"], "--threshold-file", str(threshold))

    assert 1 == ran.returncode, ran.stdout + ran.stderr
    failed = next(line for line in ran.stdout.splitlines() if line.startswith("FAILED: oracle/reference/flow.py"))
    assert f"{planted_body}; {planted_body - 1}->{planted_body} (add a scenario" in failed
    assert "is below the threshold" not in ran.stdout


# --- exclusions, thresholds and the verdict -----------------------------------------------------------------

def _measured(missing_lines: tuple[int, ...] = (), path: str = "oracle/reference/snapshot.py") -> Measurement:
    return Measurement((FileCoverage(path, 10, missing_lines, 4, ()),), ())


def test_exclusions_are_counted_with_their_reasons(tmp_path: Path) -> None:
    reference = tmp_path / "oracle" / "reference"
    reference.mkdir(parents=True)
    (reference / "x.py").write_text(
        "def f(x):\n"
        "    if x:  # pragma: no branch - x is always set by the caller\n"
        "        return 1\n"
        "    raise ValueError  # pragma: no cover\n",
        encoding="utf-8",
    )
    expected = [
        Exclusion("oracle/reference/x.py", 2, "no branch", "x is always set by the caller"),
        Exclusion("oracle/reference/x.py", 4, "no cover", ""),
    ]
    assert expected == exclusions(reference)


def test_an_exclusion_without_a_reason_fails_the_gate() -> None:
    marked = [Exclusion("oracle/reference/x.py", 4, "no cover", "")]
    expected = ["oracle/reference/x.py:4: '# pragma: no cover' needs a reason after it"]
    assert expected == verdict(_measured(), marked, 0.0)


def test_coverage_below_the_threshold_fails_the_gate() -> None:
    measurement = _measured(missing_lines=(3,))
    assert [] == verdict(measurement, [], 92.85)
    assert ["branch coverage 92.86% is below the threshold 92.87%"] == verdict(measurement, [], 92.87)


def test_a_rule_module_below_100_percent_fails_the_gate_above_the_threshold() -> None:
    expected = ["oracle/reference/flow.py: rule module at 92.9%, reached by no scenario: 3 "
                "(add a scenario, or remove the code if it is dead)"]
    assert expected == verdict(_measured(missing_lines=(3,), path="oracle/reference/flow.py"), [], 0.0)


def test_the_plumbing_may_stay_below_100_percent_above_the_threshold() -> None:
    assert [] == verdict(_measured(missing_lines=(3,), path="oracle/reference/snapshot.py"), [], 0.0)


def test_the_report_prints_the_rule_modules_and_the_plumbing_apart() -> None:
    measurement = Measurement((
        FileCoverage("oracle/reference/flow.py", 10, (), 4, ()),
        FileCoverage("oracle/reference/snapshot.py", 10, (3, 4), 4, ((5, 6),)),
    ), ())
    lines = report_lines(measurement, [], 90.0)
    assert "rule modules: 100.00% (must be 100% less the exclusions), protocol plumbing: 78.57%" in lines


def test_a_scenario_failing_on_the_reference_fails_the_gate() -> None:
    measurement = Measurement(_measured().files, ("PAY-1-x: fail: no event matches",))
    assert ["scenario fails on the reference: PAY-1-x: fail: no event matches"] == verdict(measurement, [], 0.0)


def test_the_stored_threshold_is_the_measured_figure_rounded_down() -> None:
    assert 92.16 == floor_percent(92.16999)
    assert 100.0 == floor_percent(100.0)


@pytest.mark.parametrize("text", ["ninety", "101", ""])
def test_a_bad_threshold_file_is_a_one_line_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "threshold.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(GateError, match=rf"^{path}:1: "):
        read_threshold(path)
