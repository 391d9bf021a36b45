"""The branch-coverage gate (issue 16): how much of the reference engine the scenario suite alone reaches.

Run ``python3 ci/coverage_gate.py``: it runs every scenario of the bundled suite in this process against
``oracle.reference`` under ``coverage`` with branch measurement, prints each file of ``oracle/reference``
with its uncovered lines and branches, lists the exclusions marked in place (``# pragma: no cover`` or
``# pragma: no branch``, each with its reason), and prints two figures: the rule modules (everything but the
protocol plumbing in ``PLUMBING``) and the plumbing. It exits 1 when a line or branch of a rule module is left
unreached and unmarked, when the total falls below the threshold in ``ci/coverage-threshold.txt``, when a
scenario fails on the reference, or when an exclusion gives no reason.
The threshold only rises: ``--raise-threshold`` writes the measured figure when it is higher.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import coverage

REPOSITORY = Path(__file__).resolve().parent.parent
THRESHOLD_FILE = REPOSITORY / "ci" / "coverage-threshold.txt"
PRAGMA = re.compile(r"#\s*pragma:\s*no\s+(cover|branch)\b(?P<reason>.*)$")
REASON_PUNCTUATION = " \t-–—:;,()[]"
EXIT_PASSED = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
PLUMBING = frozenset({
    "oracle/reference/__init__.py",
    "oracle/reference/declared.py",
    "oracle/reference/engine.py",
    "oracle/reference/snapshot.py",
    "oracle/reference/state.py",
})
"""The protocol plumbing of the reference (the engine object, snapshots, its state and declared variants); every
other file but the blame's account is a rule module, where each line and branch must be reached by a scenario or
marked in place."""


BLAME_ACCOUNT = ("explain.py", "rulings.py")
"""Not measured: the reference's account of its rules for the first-divergence blame (which rule made each event,
why it rejects what a failing engine accepts). Only a failing engine's replay reads it, never a scenario on the
reference; tests/test_blame.py pins it."""


class GateError(Exception):
    """The gate cannot measure (bad threshold file, modules imported too early); one line for the user."""


@dataclass(frozen=True)
class FileCoverage:
    """One measured file: its statements and branches, and what the scenarios left unreached."""

    path: str
    statements: int
    missing_lines: tuple[int, ...]
    branches: int
    missing_branches: tuple[tuple[int, int], ...]

    @property
    def covered(self) -> int:
        return self.statements - len(self.missing_lines) + self.branches - len(self.missing_branches)

    @property
    def measured(self) -> int:
        return self.statements + self.branches

    @property
    def percent(self) -> float:
        return 100.0 * self.covered / self.measured if self.measured else 100.0

    @property
    def is_rule_module(self) -> bool:
        return self.path not in PLUMBING


@dataclass(frozen=True)
class Exclusion:
    """A line marked ``# pragma: no cover`` or ``# pragma: no branch``, and the reason written beside it."""

    path: str
    line: int
    kind: str
    reason: str


@dataclass(frozen=True)
class Measurement:
    files: tuple[FileCoverage, ...]
    failed_scenarios: tuple[str, ...]

    @property
    def percent(self) -> float:
        return _percent(self.files)

    @property
    def rule_modules(self) -> tuple[FileCoverage, ...]:
        return tuple(f for f in self.files if f.is_rule_module)

    @property
    def plumbing(self) -> tuple[FileCoverage, ...]:
        return tuple(f for f in self.files if not f.is_rule_module)


def _percent(files: Sequence[FileCoverage]) -> float:
    measured = sum(f.measured for f in files)
    return 100.0 * sum(f.covered for f in files) / measured if measured else 100.0


def reference_dir() -> Path:
    """``oracle/reference`` of the ``oracle`` package first on the path, found without importing it; when none is
    installed (or the install points at a checkout that is gone), the repository this gate belongs to."""
    spec = importlib.util.find_spec("oracle")
    if spec is None or spec.origin is None:
        sys.path.extend(str(REPOSITORY / part) for part in ("", "fixtures", "invariants"))
        spec = importlib.util.find_spec("oracle")
    if spec is None or spec.origin is None:
        raise GateError(f"cannot find the oracle package, installed or in {REPOSITORY} (set PYTHONPATH)")
    return Path(spec.origin).resolve().parent / "reference"


def measure(reference: Path) -> Measurement:
    """Run every bundled scenario on the reference engine with branch coverage of ``reference``.

    Must run before anything imports ``oracle.reference``: lines run at import time would count as missed.
    """
    if "oracle.reference" in sys.modules:
        raise GateError("oracle.reference is already imported; measure in a fresh process")
    cov = coverage.Coverage(branch=True, source=[str(reference)], data_file=None, config_file=False,
                            omit=[str(reference / name) for name in BLAME_ACCOUNT])
    cov.start()
    try:
        failed = _run_scenarios()
    finally:
        cov.stop()
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "coverage.json"
        cov.json_report(outfile=str(out))
        data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    files = []
    for name, info in sorted(data["files"].items()):
        summary = info["summary"]
        files.append(FileCoverage(
            path=_relative(Path(name), reference.parent.parent),
            statements=summary["num_statements"],
            missing_lines=tuple(info["missing_lines"]),
            branches=summary["num_branches"],
            missing_branches=tuple((a, b) for a, b in info["missing_branches"]),
        ))
    return Measurement(tuple(files), failed)


def _run_scenarios() -> tuple[str, ...]:
    from oracle.engines.connect import EngineUnderTest
    from oracle.scenarios.loader import default_dir, load_dir
    from oracle.scenarios.runner import run_scenario

    loaded = load_dir(default_dir())
    if loaded.errors:
        raise GateError(f"{len(loaded.errors)} invalid scenario file(s), first: {loaded.errors[0]}")
    from oracle.reference.declared import impl_for

    failed = []
    for scenario in loaded.scenarios:
        impl = impl_for(scenario.variants) if scenario.variants else "oracle.reference"
        result = run_scenario(EngineUnderTest.load(impl, 5.0), scenario)
        if not result.outcome.ok:
            failed.append(f"{scenario.id}: {result.outcome.value}: {result.message}")
    return tuple(failed)


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def exclusions(reference: Path) -> list[Exclusion]:
    """Every coverage pragma in the measured files, with the reason written after it (may be empty)."""
    found = []
    for path in sorted(reference.rglob("*.py")):
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = PRAGMA.search(text)
            if match:
                found.append(Exclusion(_relative(path, reference.parent.parent), number, f"no {match.group(1)}",
                                       match.group("reason").strip(REASON_PUNCTUATION)))
    return found


def read_threshold(path: Path) -> float:
    try:
        text = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise GateError(f"{path}: cannot read the threshold ({exc.strerror})") from None
    try:
        value = float(text)
    except ValueError:
        raise GateError(f"{path}:1: expected a percentage such as 92.5, found {text!r}") from None
    if not 0 <= value <= 100:
        raise GateError(f"{path}:1: the threshold {value} is not between 0 and 100")
    return value


def floor_percent(percent: float) -> float:
    """The figure stored as a threshold: the measured percentage rounded down to two decimals."""
    return math.floor(percent * 100) / 100


def _spans(numbers: Sequence[int]) -> str:
    spans: list[str] = []
    start = previous = None
    for n in numbers:
        if previous is not None and n == previous + 1:
            previous = n
            continue
        if start is not None:
            spans.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = n
    if start is not None:
        spans.append(str(start) if start == previous else f"{start}-{previous}")
    return ", ".join(spans)


def _arc(arc: tuple[int, int]) -> str:
    return f"{arc[0]}->{arc[1]}" if arc[1] > 0 else f"{arc[0]}->exit"


def _unreached(f: FileCoverage) -> str:
    return "; ".join(part for part in (_spans(f.missing_lines), ", ".join(_arc(a) for a in f.missing_branches)) if part)


def report_lines(measurement: Measurement, marked: Sequence[Exclusion], threshold: float) -> list[str]:
    width = max((len(f.path) for f in measurement.files), default=10)
    lines = [f"{'file':{width}}  stmts  miss  branches  partial  cover  uncovered"]
    for f in measurement.files:
        lines.append(
            f"{f.path:{width}}  {f.statements:5}  {len(f.missing_lines):4}  {f.branches:8}  "
            f"{len(f.missing_branches):7}  {f.percent:5.1f}%  " + _unreached(f)
        )
    statements = sum(f.statements for f in measurement.files)
    branches = sum(f.branches for f in measurement.files)
    lines.append(f"{'total':{width}}  {statements:5}  {sum(len(f.missing_lines) for f in measurement.files):4}  "
                 f"{branches:8}  {sum(len(f.missing_branches) for f in measurement.files):7}  "
                 f"{measurement.percent:5.2f}%")
    lines.append(f"rule modules: {_percent(measurement.rule_modules):.2f}% (must be 100% less the exclusions), "
                 f"protocol plumbing: {_percent(measurement.plumbing):.2f}%")
    lines.append(f"exclusions marked in place: {len(marked)}")
    lines.extend(f"  {e.path}:{e.line}: {e.kind}: {e.reason or '(no reason given)'}" for e in marked)
    lines.append(f"threshold (ci/coverage-threshold.txt): {threshold:.2f}%")
    return lines


def verdict(measurement: Measurement, marked: Sequence[Exclusion], threshold: float) -> list[str]:
    """Why the gate fails (one line each); empty when it passes."""
    problems = [f"scenario fails on the reference: {line}" for line in measurement.failed_scenarios]
    problems += [f"{e.path}:{e.line}: '# pragma: {e.kind}' needs a reason after it" for e in marked if not e.reason]
    problems += [f"{f.path}: rule module at {f.percent:.1f}%, reached by no scenario: {_unreached(f)} (add a scenario, "
                 "or remove the code if it is dead)" for f in measurement.rule_modules if f.covered < f.measured]
    if measurement.percent < threshold:
        problems.append(f"branch coverage {measurement.percent:.2f}% is below the threshold {threshold:.2f}%")
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--threshold-file", type=Path, default=THRESHOLD_FILE,
                        help="file holding the minimum total percentage (default: ci/coverage-threshold.txt)")
    parser.add_argument("--raise-threshold", action="store_true",
                        help="write the measured percentage (rounded down) to the threshold file when it is higher")
    args = parser.parse_args(argv)
    try:
        threshold = read_threshold(args.threshold_file)
        reference = reference_dir()
        measurement = measure(reference)
    except GateError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    marked = exclusions(reference)
    for line in report_lines(measurement, marked, threshold):
        print(line)
    problems = verdict(measurement, marked, threshold)
    for problem in problems:
        print(f"FAILED: {problem}")
    if problems:
        return EXIT_FAILED
    reached = floor_percent(measurement.percent)
    if args.raise_threshold and reached > threshold:
        args.threshold_file.write_text(f"{reached:.2f}\n", encoding="utf-8")
        print(f"raised the threshold to {reached:.2f}%")
    elif reached > threshold:
        print(f"the threshold can rise to {reached:.2f}%: run with --raise-threshold")
    print(f"PASSED: branch coverage {measurement.percent:.2f}% (threshold {threshold:.2f}%)")
    return EXIT_PASSED


if __name__ == "__main__":
    sys.exit(main())
