"""``oracle selftest``: the oracle checked against engines whose faults are known.

The reference must come out clean (every check passes but the not-applicable ones of other variant readings);
every fixture engine in ``vale_fixtures`` that declares the rule it breaks (``BROKEN_RULE``, one bug) or the rules
(``BROKEN_RULES``, a tuple of independent bugs) must be reported with exactly one cause per rule, each blamed on its
own rule (docs/reports.md, Causes), in the suites the rules catalogue names (or with the ``oracle check`` options of
its ``SELFTEST_ARGS``); each fault fixture must get its fault (an outcome, or an exit code); a fixture
that gives nothing to check (``CHECKS_NOTHING``) must pass nothing and exit 3; every other fixture (the minimal
adapter, engines declaring variants) must pass.
Each run is ``oracle check --report-json`` in a subprocess, limited to the suites that catch the fixture.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import pkgutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import vale_fixtures
from oracle.core.exits import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_INCOMPLETE, EXIT_OK
from oracle.core.results import Outcome
from oracle.core.rules import rules, variants
from oracle.engines.connect import DEFAULT_IMPL
from oracle.reference.declared import impl_for
from oracle.scenarios.runner import VARIANT_NOT_APPLICABLE

REFERENCE = "reference"
RUN_SECONDS = 300.0
FAULT_TIMEOUT = "0.2"


class Expect(Enum):
    """What a run must show."""

    CLEAN = "clean"
    CAUGHT = "caught"
    FAULT_OUTCOME = "fault outcome"
    FAULT_EXIT = "fault exit"
    PASSES = "passes"
    CHECKS_NOTHING = "checks nothing"


@dataclass(frozen=True)
class Fault:
    """A fault fixture's expected fault: every result has ``outcome``, or the run exits with ``exit_code``."""

    args: tuple[str, ...]
    outcome: Outcome | None = None
    exit_code: int | None = None


# The fault fixtures: which fault each must get, from the cheapest run that provokes it. A key is a module of
# vale_fixtures, or ``module:factory`` for a module holding several engines.
FAULTS: dict[str, Fault] = {
    "hangs": Fault(("--suite", "random-play", "--games", "1", "--timeout", FAULT_TIMEOUT), outcome=Outcome.TIMEOUT),
    "crashes": Fault(("--suite", "setup"), outcome=Outcome.ERROR),
    "import_fails": Fault(("--suite", "setup"), exit_code=EXIT_BAD_INPUT),
}


@dataclass(frozen=True)
class Plan:
    """One run: the fixture, its ``--impl``, what it must show, and the ``oracle check`` options."""

    name: str
    impl: str
    expect: Expect
    args: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    """The rules a broken fixture breaks, one independent bug each: one cause blamed on each is expected."""
    fault: Fault | None = None
    problem: str = ""

    @property
    def expectation(self) -> str:
        if self.expect is Expect.CAUGHT:
            return f"caught: {_causes_text(len(self.rules))}, {', '.join(self.rules)}"
        if self.fault is not None and self.fault.outcome is not None:
            return f"fault: {self.fault.outcome.value}"
        if self.fault is not None:
            return f"fault: exit {self.fault.exit_code}"
        return str(self.expect.value)


@dataclass(frozen=True)
class Verdict:
    plan: Plan
    ok: bool
    seen: str
    seconds: float
    report: Path | None


def _engine_of(name: str) -> tuple[Any, str]:
    """The fixture's engine (None when it has no ``create``) or why it cannot be made."""
    try:
        module = importlib.import_module(f"{vale_fixtures.__name__}.{name}")
        factory = getattr(module, "create", None)
        return (factory() if callable(factory) else None), ""
    except Exception as exc:  # a fixture that cannot be imported or built is itself a finding
        return None, f"{type(exc).__name__}: {exc}"


def broken_rules(engine: object) -> tuple[str, ...]:
    """The rules a fixture engine breaks: its ``BROKEN_RULES`` (several independent bugs), else its ``BROKEN_RULE``
    (one), else none."""
    several = getattr(engine, "BROKEN_RULES", ())
    one = str(getattr(engine, "BROKEN_RULE", "") or "")
    if several:
        return tuple(str(rule) for rule in several)
    return (one,) if one else ()


def _caught_plan(name: str, impl: str, broken: tuple[str, ...], caught_by: str = "") -> Plan:
    """The run of a broken fixture: the suites that check its rules (``CAUGHT_BY`` when the fixture names the one
    suite that can catch it), narrowed to those rules."""
    catalogue = rules()
    unknown = [rule for rule in broken if rule not in catalogue]
    if unknown:
        problem = f"broken rule {unknown[0]!r} is not in the rules catalogue"
        return Plan(name, impl, Expect.CAUGHT, rules=broken, problem=problem)
    suites = dict.fromkeys(caught_by or catalogue[rule].checked_by or "scenarios" for rule in broken)
    args = (*(a for suite in suites for a in ("--suite", suite)), *(a for rule in broken for a in ("--rule", rule)))
    return Plan(name, impl, Expect.CAUGHT, args, rules=broken)


def plan_for(name: str) -> Plan | None:
    """The run for one fixture module, or None for a helper module (no ``create``)."""
    impl = f"{vale_fixtures.__name__}.{name}"
    fault = FAULTS.get(name)
    if fault is not None:
        expect = Expect.FAULT_OUTCOME if fault.outcome is not None else Expect.FAULT_EXIT
        return Plan(name, impl, expect, fault.args, fault=fault)
    engine, problem = _engine_of(name)
    if problem:
        return Plan(name, impl, Expect.PASSES, problem=f"cannot be loaded: {problem}")
    if engine is None:
        return None
    broken = broken_rules(engine)
    if broken:
        own_args = getattr(engine, "SELFTEST_ARGS", None)
        if own_args:
            return Plan(name, impl, Expect.CAUGHT, tuple(own_args), rules=broken)
        return _caught_plan(name, impl, broken, str(getattr(engine, "CAUGHT_BY", "")))
    if getattr(engine, "CHECKS_NOTHING", False):
        return Plan(name, impl, Expect.CHECKS_NOTHING)
    return Plan(name, impl, Expect.PASSES)


# Fixtures caught again without ``load`` (issue 36, item 3, the forged events): a fixture module with a
# ``without_load`` factory (the same engine declaring no ``load``, so every check it is caught by starts from a new
# game) gets a second run, ``module:without_load``, expecting the same causes.
WITHOUT_LOAD = "without_load"


def without_load_plan(plan: Plan) -> Plan | None:
    """The run of a caught fixture with its ``load`` dropped, when its module offers that factory (else None)."""
    if plan.expect is not Expect.CAUGHT or plan.problem:
        return None
    module = importlib.import_module(plan.impl)
    if not callable(getattr(module, WITHOUT_LOAD, None)):
        return None
    return dataclasses.replace(plan, name=f"{plan.name}:{WITHOUT_LOAD}", impl=f"{plan.impl}:{WITHOUT_LOAD}")


def plans() -> list[Plan]:
    """The reference (every default suite), then each fixture module (and ``module:factory`` fault) by name."""
    found = [Plan(REFERENCE, DEFAULT_IMPL, Expect.CLEAN)]
    for rule, variant in sorted(variants().items()):
        for value in variant.values[1:]:
            found.append(Plan(f"{REFERENCE} {rule}={value}", impl_for({rule: value}), Expect.PASSES))
    names = [m.name for m in pkgutil.iter_modules(vale_fixtures.__path__)] + [n for n in FAULTS if ":" in n]
    for name in sorted(names):
        plan = plan_for(name)
        if plan is not None:
            found.append(plan)
            again = without_load_plan(plan)
            found.extend([again] if again is not None else [])
    return found


def _counts(results: Sequence[dict[str, Any]]) -> dict[Outcome, int]:
    counts: dict[Outcome, int] = {}
    for result in results:
        outcome = Outcome(result["outcome"])
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def _counts_text(counts: dict[Outcome, int]) -> str:
    return ", ".join(f"{n} {o.value}" for o, n in counts.items())


def judge(plan: Plan, exit_code: int, report: dict[str, Any] | None, stderr: str) -> tuple[bool, str]:
    """Whether a run shows what its plan expects, and what it showed, in a few words."""
    if plan.expect is Expect.FAULT_EXIT:
        first = next((line for line in stderr.splitlines() if line.strip()), "")
        wanted_exit = plan.fault.exit_code if plan.fault else None
        return exit_code == wanted_exit and first.startswith("error:"), f"exit {exit_code}: {first[:90]}"
    if report is None:
        first = next((line for line in stderr.splitlines() if line.strip()), "no report written")
        return False, f"exit {exit_code}, no report: {first[:90]}"
    results: list[dict[str, Any]] = report.get("results", [])
    counts = _counts(results)
    shown = f"{len(results)} checks: {_counts_text(counts)}"
    if plan.expect is Expect.CLEAN:
        other_readings = [r for r in results if Outcome(r["outcome"]) is Outcome.NOT_APPLICABLE
                          and str(r.get("message", "")).startswith(VARIANT_NOT_APPLICABLE)]
        clean = set(counts) - {Outcome.NOT_APPLICABLE} == {Outcome.PASS} \
            and counts.get(Outcome.NOT_APPLICABLE, 0) == len(other_readings)
        return exit_code == EXIT_OK and bool(results) and clean, shown
    if plan.expect is Expect.CHECKS_NOTHING:
        ok = exit_code == EXIT_INCOMPLETE and Outcome.PASS not in counts and Outcome.INCOMPLETE in counts \
            and all(o.ok or o is Outcome.INCOMPLETE for o in counts)
        return ok, shown
    if plan.expect is Expect.PASSES:
        ok = exit_code == EXIT_OK and counts.get(Outcome.PASS, 0) > 0 and all(o.ok for o in counts)
        return ok, shown
    if plan.expect is Expect.CAUGHT:
        return judge_causes(plan, exit_code, report.get("causes", []), shown)
    wanted = plan.fault.outcome if plan.fault else None
    return bool(results) and exit_code not in (EXIT_OK, EXIT_BAD_INPUT) and set(counts) == {wanted}, shown


def _causes_text(count: int) -> str:
    return f"{count} cause{'s' if count != 1 else ''}"


def _blamed(cause: dict[str, Any]) -> str:
    facts = cause.get("facts")
    return str(facts.get("rule", "")) if isinstance(facts, dict) else ""


def judge_causes(plan: Plan, exit_code: int, causes: Sequence[dict[str, Any]], shown: str) -> tuple[bool, str]:
    """A broken fixture is caught when the run fails with exactly one cause per rule it breaks, each blamed on its
    own rule; otherwise the words name the fixture, the causes expected and the causes reported (title and blame)."""
    blamed = [_blamed(c) for c in causes]
    if exit_code == EXIT_FAILED and sorted(blamed) == sorted(plan.rules):
        return True, f"{_causes_text(len(causes))} blamed on {', '.join(blamed)} ({shown})"
    wanted = f"{_causes_text(len(plan.rules))}, one blamed on each of {', '.join(plan.rules)}"
    got = "; ".join(f"{c.get('title') or c.get('signature', '?')} [{rule or 'blame not known'}]"
                    for c, rule in zip(causes, blamed, strict=True))
    head = "not caught" if not causes else "wrong causes"
    return False, f"{head}: {plan.name} expects {wanted}; reported {len(causes)}{': ' + got if got else ''} ({shown})"


def run_plan(plan: Plan, reports: Path) -> Verdict:
    """Run ``oracle check`` for one plan in a subprocess and judge it."""
    if plan.problem:
        return Verdict(plan, False, plan.problem, 0.0, None)
    path = reports / f"{plan.name.replace(':', '-')}.json"
    path.unlink(missing_ok=True)
    command = [sys.executable, "-P", "-m", "oracle.cli.app", "check", "--impl", plan.impl, "--report-json", str(path),
               *plan.args]
    started = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_SECONDS, env=os.environ.copy(),
                              check=False)
    except subprocess.TimeoutExpired:
        return Verdict(plan, False, f"did not finish in {RUN_SECONDS:.0f} s", time.perf_counter() - started, None)
    seconds = time.perf_counter() - started
    report = None
    if path.is_file():
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            return Verdict(plan, False, f"unreadable report {path}: {exc}", seconds, None)
    ok, seen = judge(plan, done.returncode, report, done.stderr)
    return Verdict(plan, ok, seen, seconds, path if report is not None else None)


def run_selftest(reports: Path, jobs: int = 2, chosen: Sequence[Plan] | None = None,
                 progress: Callable[[Verdict], None] | None = None) -> list[Verdict]:
    """Every plan run (``jobs`` at a time), verdicts in plan order; the reports are written to ``reports``."""
    reports.mkdir(parents=True, exist_ok=True)
    todo = list(chosen) if chosen is not None else plans()

    def one(plan: Plan) -> Verdict:
        verdict = run_plan(plan, reports)
        if progress is not None:
            progress(verdict)
        return verdict

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, todo))


def table(verdicts: Sequence[Verdict]) -> list[str]:
    """The verdicts as a text table: fixture, expectation, what was seen, seconds, ok or FAILED."""
    name_width = max([len("fixture"), *(len(v.plan.name) for v in verdicts)])
    expect_width = max([len("expected"), *(len(v.plan.expectation) for v in verdicts)])
    lines = [f"{'fixture':{name_width}}  {'expected':{expect_width}}  {'time':>6}  verdict  seen"]
    for v in verdicts:
        lines.append(f"{v.plan.name:{name_width}}  {v.plan.expectation:{expect_width}}  {v.seconds:5.1f}s  "
                     f"{'ok' if v.ok else 'FAILED':7}  {v.seen}")
    return lines
