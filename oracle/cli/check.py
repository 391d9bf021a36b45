"""``oracle check``: plan the suites, run them under the supervisor, and report honestly.

Exit codes (:mod:`oracle.core.exits`, the first that applies): 2 on bad input, before anything runs; 130 and 143 when
SIGINT or SIGTERM stopped it; 5 when a report could not be written; 1 when a check failed (an unsupported one too
with ``--fail-on-unsupported``); 3 when the run stopped early or a check is incomplete; 4 when no check ran
(``--allow-empty``: 0); else 0. Every requested report is written in every case but bad input, marked incomplete
when the run did not finish: SIGINT and SIGTERM are caught from the first moment (:mod:`oracle.run.signals`),
and a report that cannot be written at the end is reported after the summary.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import typer

from oracle.cli.colour import check_echo
from oracle.cli.console import failure_lines
from oracle.core.exits import bad_input
from oracle.core.results import CheckResult, Outcome
from oracle.core.shards import Plan, PlannedUnit, Shard
from oracle.engines.costs import EngineCosts, advice
from oracle.engines.harness import Handshake
from oracle.engines.legal_share import LegalShare
from oracle.engines.speed import BudgetScale
from oracle.reports.common import (
    RunInfo,
    ShardRecord,
    cost_lines,
    exit_code,
    failed_results,
    failing,
    load_line,
    summary_line,
    verdict,
)
from oracle.reports.sanitize import clean_result
from oracle.run.expectations import ExpectedFailure, apply_expectations
from oracle.run.progress import CheckProgress
from oracle.run.request import CheckRequest, ReportTargets, default_jobs, split_values
from oracle.run.signals import Stopped, StopSignals
from oracle.run.supervisor import EngineRefused, RunStatus, Supervisor
from oracle.suites.all import plan_named
from oracle.suites.registry import AnyUnit, PlanContext

__all__ = ["ReportTargets", "default_jobs", "run_check", "split_values", "start_engine"]

Echo = Callable[[str], None]


# ---------------------------------------------------------------------------------------------- reports


def write_reports(targets: ReportTargets, results: list[CheckResult], run: RunInfo, echo: Echo) -> list[str]:
    """Write every requested report; the problems met (a report that could not be written)."""
    from oracle.reports import write_json, write_junit, write_markdown

    problems = []
    writers: list[tuple[Path | None, Callable[[Path], None]]] = [
        (targets.json, lambda path: write_json(path, results, run)),
        (targets.junit, lambda path: write_junit(path, results, run)),
        (targets.markdown, lambda path: write_markdown(path, results, run)),
        (targets.markdown_append, lambda path: write_markdown(path, results, run, append=True)),
    ]
    for path, write in writers:
        if path is None:
            continue
        try:
            write(path)
        except OSError as exc:
            problems.append(f"cannot write {path}: {exc.strerror or exc}")
            continue
        if str(path) != "-":
            echo(f"wrote {path}")
    return problems


# ---------------------------------------------------------------------------------------------- the run


@dataclass
class Collected:
    """Results as they stream in: cleaned, expectations applied, kept by unit index."""

    expected: dict[str, ExpectedFailure]
    max_failures: int | None
    fail_on_unsupported: bool
    by_unit: dict[int, list[CheckResult]] = field(default_factory=dict)
    failures: int = 0

    def add(self, index: int, results: list[CheckResult]) -> bool:
        cleaned = apply_expectations([clean_result(r) for r in results], self.expected)
        self.by_unit[index] = cleaned
        self.failures += sum(not r.outcome.ok or (self.fail_on_unsupported and r.outcome is Outcome.UNSUPPORTED)
                             for r in cleaned)
        return self.max_failures is None or self.failures < self.max_failures

    def ordered(self) -> list[CheckResult]:
        return [r for index in sorted(self.by_unit) for r in self.by_unit[index]]


def start_engine(supervisor: Supervisor) -> Handshake:
    """Load the engine in the first worker; an engine that cannot be loaded is bad input (exit 2)."""
    try:
        return supervisor.start()
    except EngineRefused as exc:
        raise bad_input(str(exc)) from None
    except OSError as exc:
        raise bad_input(f"--impl {supervisor.impl}: {exc}") from None


NO_HANDSHAKE = "unknown"
"""The engine's name and version in the reports of a run stopped before its handshake came."""

NOTES_SHOWN = 10
"""How many notes the console lists (the reports list them all)."""


def print_summary(results: list[CheckResult], run: RunInfo, echo: Echo) -> None:
    """The causes first (most checks first, each with its members and smallest reproduction), then each failing
    check, then the counts: checks, how many ran, unsupported, not applicable, notes, and the verdict (``NOTHING
    CHECKED: …`` when no check ran)."""
    from oracle.reports.causes import cause_lines, causes_headline, group_causes, notes_of

    shown = failing(results, run)
    causes = group_causes(failed_results(results, run))
    if causes:
        echo(f"{causes_headline(causes)}:")
        for number, cause in enumerate(causes, 1):
            blame = f", {cause.blame_text}" if cause.blame_text else ""
            echo(f"  {number}. {cause.title}: {len(cause.members)} check(s){blame}")
            for line in cause_lines(cause):
                echo(f"     {line}")
    for result in shown:
        echo(f"{result.outcome.value.upper():16} {result.id}: {result.title}")
        for line in failure_lines(result):
            echo(line)
    noted = [(r, n) for r in results for n in notes_of(r)]
    for result, note in noted[:NOTES_SHOWN]:
        echo(f"{'NOTE':16} {result.id}: {note}")
    if len(noted) > NOTES_SHOWN:
        echo(f"{'NOTE':16} and {len(noted) - NOTES_SHOWN} more (every report lists them)")
    undrivable = [r for r in results if r.outcome is Outcome.UNSUPPORTED and r.details.get("undrivable")]
    for result in undrivable:
        echo(f"{'UNDRIVABLE':16} {result.id}: {result.message}")
    counts: dict[Outcome, int] = {}
    for result in results:
        counts[result.outcome] = counts.get(result.outcome, 0) + 1
    tally = ", ".join(f"{n} {o.value}" for o, n in counts.items()) or "none"
    empty = verdict(results, run) == "NOTHING CHECKED"
    head = summary_line(results, run) + ("" if empty else f" ({tally})")
    counted = [causes_headline(causes)] if causes else []
    if noted:
        counted.append(f"{len(noted)} note{'s' if len(noted) != 1 else ''}")
    if undrivable:
        counted.append(f"{len(undrivable)} undrivable decision{'s' if len(undrivable) != 1 else ''}")
    if counted:
        echo(", ".join(counted))
    if run.budget_scale is not None:
        echo(run.budget_scale.text())
    if run.legal_share is not None:
        echo(run.legal_share.text())
    for line in cost_lines(run.engine_costs, run.speed_advice):
        echo(line)
    echo(f"{head} in {run.duration:.1f} s")
    if load_line(results):
        echo(load_line(results))
    if run.stopped:
        echo(f"the run stopped early: {run.stopped}; the reports are marked incomplete")
    elif run.held_nothing:
        echo(f"shard {run.shard.shard.text if run.shard else ''} was dealt none of the checks: nothing to run "
             "(exit 0; the other shards have the work)")
    elif empty:
        echo("every check is unsupported or not applicable for this engine: nothing ran"
             + (" (--allow-empty: exit 0)" if run.allow_empty else " (exit 4; --allow-empty makes it 0)"))


def run_check(asked: dict[str, Any], signals: StopSignals) -> int:
    """Run ``oracle check`` with the options it was given (:func:`oracle.cli.check_command.check_command`), under
    the signals caught since the start: read the request, run it, report it; the exit code."""
    clock = Clock.start()
    request = CheckRequest.from_cli(**asked)
    echo: Echo = check_echo(err=request.reports.json_to_stdout)
    ran = Ran(Collected({}, request.max_failures, request.fail_on_unsupported))
    status = run_request(request, signals, echo, ran)
    return report_run(request, ran, status, clock, echo)


@dataclass(frozen=True)
class Clock:
    """When the run started: the wall-clock date for the reports, the counter for its duration."""

    started_at: datetime
    counter: float

    @classmethod
    def start(cls) -> Clock:
        return cls(datetime.now(UTC), time.perf_counter())

    def seconds(self) -> float:
        return time.perf_counter() - self.counter


@dataclass
class Ran:
    """What a run got to before it ended or was stopped: the handshake, the units and suites run, the results."""

    collected: Collected
    handshake: Handshake | None = None
    units: list[AnyUnit] = field(default_factory=list)
    suites: list[str] = field(default_factory=list)
    scale: BudgetScale | None = None
    """The factor of the run's fixed budgets (None until the engine has started)."""
    share: LegalShare | None = None
    """The share of decisions compared with the engine's complete legal set (None until the engine has started)."""
    dealt: Dealt | None = None
    """With ``--shard``: the whole plan and where this shard's units sit in it."""
    costs: EngineCosts | None = None
    """The engine's calls in the units that ended (None until the run has begun)."""


@dataclass(frozen=True)
class Dealt:
    """A shard's part of the whole plan: the whole plan, and the index in it of each of this shard's units, dealt by
    :meth:`oracle.core.shards.Plan.deal` (the dealing ``oracle report merge`` checks the shard's report against)."""

    shard: Shard
    plan: Plan
    places: tuple[int, ...]

    @classmethod
    def deal(cls, shard: Shard, units: list[AnyUnit]) -> Dealt:
        """Deal the units of the whole plan: this shard's are those whose id (``suite/key``) it holds."""
        plan = Plan(tuple(PlannedUnit(unit.name, tuple(c.id for c in unit.wanted)) for unit in units))
        return cls(shard, plan, plan.deal(shard))

    def record(self, collected: Collected, units: list[AnyUnit], not_run: list[int]) -> ShardRecord:
        """Where each result and each check not run sits in the whole plan (its unit's index there)."""
        return ShardRecord(self.shard, self.plan,
                           tuple(self.places[i] for i in sorted(collected.by_unit) for _ in collected.by_unit[i]),
                           tuple(self.places[i] for i in not_run for _ in units[i].wanted))


def budget_scale(given: float | None, supervisor: Supervisor) -> BudgetScale:
    """``--budget-scale`` when given, else the engine's speed against the reference as the first worker measures it
    (:mod:`oracle.engines.speed`): one factor, handed to every worker in the run's options."""
    return BudgetScale.given(given) if given is not None else supervisor.measure_scale()


def legal_share(given: float | None, scale: BudgetScale) -> LegalShare:
    """``--legal-share`` when given, else the share the engine's measured speed gives
    (:mod:`oracle.engines.legal_share`), handed to every worker in the run's options."""
    return LegalShare.given(given) if given is not None else LegalShare.of_scale(scale)


def run_request(request: CheckRequest, signals: StopSignals, echo: Echo, ran: Ran) -> RunStatus:
    """Start the engine, plan the suites once, refuse an empty plan or bad expectations, and run the units under the
    supervisor; a signal before or during the run stops it."""
    supervisor: Supervisor | None = None
    try:
        signals.check()
        if request.validate_protocol:
            from oracle.engines.wire.validate import enable_protocol_validation

            enable_protocol_validation()
        supervisor = Supervisor(request.impl, request.options.timeout, request.options, jobs=request.jobs,
                                signals=signals, reap_descendants=True)
        handshake = ran.handshake = start_engine(supervisor)
        ran.scale = budget_scale(request.budget_scale, supervisor)
        ran.share = legal_share(request.legal_share, ran.scale)
        options = dataclasses.replace(request.options, budget_scale=ran.scale.factor, legal_share=ran.share.share)
        supervisor.set_options(options)
        plan = plan_named(PlanContext(request.impl, handshake, options), request.to_plan)
        request.refuse_unmatched_selects(plan)
        planned = plan.narrowed(request.chosen, options)
        request.refuse_empty(planned)
        expected = request.expected_failures(plan)
        ran.units = [unit for name in request.chosen for unit in planned[name]]
        ran.suites = [name for name in request.chosen if planned[name]]
        echo(f"oracle check: {handshake.engine} {handshake.version} ({request.impl}), "
             f"suites: {', '.join(ran.suites)}, {sum(len(u.wanted) for u in ran.units)} checks")
        if request.shard is not None:
            ran.dealt = Dealt.deal(request.shard, ran.units)
            ran.units = [ran.units[n] for n in ran.dealt.places]
            echo(f"shard {request.shard.text}: {len(ran.units)} unit(s), {sum(len(u.wanted) for u in ran.units)} "
                 f"of the {ran.dealt.plan.checks} checks")
        ran.collected = Collected(expected, request.max_failures, request.fail_on_unsupported)
        progress = CheckProgress(sum(len(u.wanted) for u in ran.units), sys.stderr)
        try:
            return supervisor.run(ran.units, progress.wrap(ran.collected.add), request.time_budget)
        finally:
            progress.close()
            ran.costs = supervisor.costs
    except Stopped as stop:
        return RunStatus(stopped=stop.signal_name)
    finally:
        if supervisor is not None:
            supervisor.close()


def report_run(request: CheckRequest, ran: Ran, status: RunStatus, clock: Clock, echo: Echo) -> int:
    """Print the summary, write every requested report, and return the exit code."""
    results = ran.collected.ordered()
    not_run = tuple(c.id for index in status.not_run for c in ran.units[index].wanted)
    engine, version = (ran.handshake.engine, ran.handshake.version) if ran.handshake is not None \
        else (NO_HANDSHAKE, NO_HANDSHAKE)
    signal_name = status.stopped if status.stopped in ("SIGINT", "SIGTERM") else ""
    run = RunInfo(engine=engine, engine_version=version, impl=request.impl, suites=tuple(ran.suites),
                  started=clock.started_at, duration=clock.seconds(), options=request.report_options(),
                  stopped=f"stopped by {signal_name}" if signal_name else status.stopped, signal=signal_name,
                  not_run=not_run, fail_on_unsupported=request.fail_on_unsupported, allow_empty=request.allow_empty,
                  budget_scale=ran.scale, legal_share=ran.share,
                  shard=ran.dealt.record(ran.collected, ran.units, status.not_run) if ran.dealt else None,
                  engine_costs=ran.costs,
                  speed_advice=advice(ran.costs, ran.handshake.capabilities)
                  if ran.costs is not None and ran.handshake is not None else ())
    print_summary(results, run, echo)
    problems = write_reports(request.reports, results, run, echo)
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    return exit_code(results, run, report_failed=bool(problems))
