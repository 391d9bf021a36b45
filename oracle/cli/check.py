"""``oracle check``: plan the suites, run them under the supervisor, and report honestly.

Exit codes (:mod:`oracle.core.exits`, the first that applies): 2 on bad input, before anything runs; 130 and 143 when
SIGINT or SIGTERM stopped it; 5 when a report could not be written; 1 when a check failed (an unsupported one too
with ``--fail-on-unsupported``); 3 when the run stopped early or a check is incomplete; 4 when no check ran
(``--allow-empty``: 0); else 0. Every requested report is written in every case but bad input, marked incomplete
when the run did not finish: SIGINT and SIGTERM are caught from the first moment (:mod:`oracle.run.signals`),
and a report that cannot be written at the end is reported after the summary.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from oracle.core.exits import bad_input
from oracle.core.results import CheckResult, Outcome
from oracle.engines.connect import DEFAULT_IMPL
from oracle.engines.harness import DEFAULT_START_TIMEOUT, Handshake
from oracle.reports.common import RunInfo, exit_code, failed_results, failing, summary_line, verdict
from oracle.reports.sanitize import clean_result, clean_text
from oracle.run.expectations import ExpectedFailure, apply_expectations, load_expectations
from oracle.run.progress import CheckProgress
from oracle.run.signals import Stopped, StopSignals
from oracle.run.supervisor import EngineRefused, RunStatus, Supervisor
from oracle.suites.registry import SUITES, CheckOptions, PlanContext, Unit, load_suites, plan_suites

Echo = Callable[[str], None]


def default_jobs() -> int:
    """The workers a run uses unless told: one per core."""
    return os.cpu_count() or 1


def split_values(values: list[str] | None) -> tuple[str, ...]:
    """Repeatable, comma-separated option values as one tuple."""
    out: list[str] = []
    for value in values or []:
        out.extend(v.strip() for v in value.split(",") if v.strip())
    return tuple(out)


# ---------------------------------------------------------------------------------------------- reports


@dataclass(frozen=True)
class ReportTargets:
    """Where the reports go; each path is tried for writing before the run starts."""

    json: Path | None = None
    junit: Path | None = None
    markdown: Path | None = None
    markdown_append: Path | None = None

    @property
    def json_to_stdout(self) -> bool:
        return self.json is not None and str(self.json) == "-"

    def files(self) -> list[tuple[str, Path]]:
        """Each report option given, with its path (standard output, ``-``, included)."""
        return [(option, path) for option, path in (
            ("--report-json", self.json), ("--junit-xml", self.junit), ("--markdown", self.markdown),
            ("--markdown-append", self.markdown_append)) if path is not None]

    def refuse_unwritable(self) -> None:
        """Bad input (exit 2) when a report cannot be written where it is asked for, or when two reports name the
        same file (one would overwrite the other)."""
        named: dict[str, tuple[str, Path]] = {}
        for option, path in self.files():
            if option == "--report-json" and str(path) == "-":
                continue
            if str(path) == "-":
                raise bad_input(f"{option} -: only --report-json can write to standard output")
            problem = _unwritable(path)
            if problem:
                raise bad_input(f"{option} {path}: cannot write the report there ({problem})")
            first = named.setdefault(os.path.realpath(path), (option, path))
            if first[0] != option:
                raise bad_input(f"{first[0]} {first[1]} and {option} {path} name the same file: give each report "
                                "a file of its own")

    def write(self, results: list[CheckResult], run: RunInfo, echo: Echo) -> list[str]:
        """Write every requested report; the problems met (a report that could not be written)."""
        from oracle.reports import write_json, write_junit, write_markdown

        problems = []
        writers: list[tuple[Path | None, Callable[[], None]]] = [
            (self.json, lambda: write_json(self.json, results, run)),  # type: ignore[arg-type]
            (self.junit, lambda: write_junit(self.junit, results, run)),  # type: ignore[arg-type]
            (self.markdown, lambda: write_markdown(self.markdown, results, run)),  # type: ignore[arg-type]
            (self.markdown_append, lambda: write_markdown(self.markdown_append, results, run,  # type: ignore[arg-type]
                                                          append=True)),
        ]
        for path, write in writers:
            if path is None:
                continue
            try:
                write()
            except OSError as exc:
                problems.append(f"cannot write {path}: {exc.strerror or exc}")
                continue
            if str(path) != "-":
                echo(f"wrote {path}")
        return problems


def _unwritable(path: Path) -> str:
    """Why ``path`` cannot be written ('' when it can), without leaving a file behind."""
    if path.is_dir():
        return "it is a directory"
    parent = path.parent if str(path.parent) else Path(".")
    existing = parent
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        return f"{existing} is not a directory"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{existing} is not writable"
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is not writable"
    return ""


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
    from oracle.reports.causes import causes_headline, group_causes, notes_of

    shown = failing(results, run)
    causes = group_causes(failed_results(results, run))
    if causes:
        echo(f"{causes_headline(causes)}:")
        for number, cause in enumerate(causes, 1):
            echo(f"  {number}. {cause.facts.title}: {len(cause.members)} check(s)"
                 + (f", rules {', '.join(cause.rules)}" if cause.rules else ""))
            members = [m.id for m in cause.members]
            echo(f"     {', '.join(members[:8])}" + (f" and {len(members) - 8} more" if len(members) > 8 else ""))
            echo(f"     smallest: {cause.smallest_text}")
    for result in shown:
        echo(f"{result.outcome.value.upper():16} {result.id}: {result.title}")
        if result.rules:
            echo(f"{'':17}rule {', '.join(result.rules)}" + (f", step {result.step}" if result.step else ""))
        for label, text in (("expected", result.expected), ("actual", result.actual), ("detail", result.message)):
            if text:
                echo(f"{'':17}{label}: {text}")
        if result.reproduce:
            echo(f"{'':17}reproduce: {result.reproduce}")
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
    echo(f"{head} in {run.duration:.1f} s")
    if run.stopped:
        echo(f"the run stopped early: {run.stopped}; the reports are marked incomplete")
    elif empty:
        echo("every check is unsupported or not applicable for this engine: nothing ran"
             + (" (--allow-empty: exit 0)" if run.allow_empty else " (exit 4; --allow-empty makes it 0)"))


def _declared_variants(pairs: Iterable[str], impl: str) -> dict[str, str]:
    """``--variant RUL-1=per_stone``: variants of the rules catalogue, for the reference only (another engine
    declares its variants in its handshake)."""
    from oracle.reference.declared import parse_declared

    pairs = list(pairs)
    if not pairs:
        return {}
    if impl != DEFAULT_IMPL:
        raise bad_input(f"--variant checks the reference ({DEFAULT_IMPL}) playing a variant; {impl} declares its "
                        "variants in its handshake")
    try:
        return parse_declared(",".join(pairs))
    except ValueError as exc:
        raise bad_input(f"--variant: {exc}") from None


def check_command(
    impl: Annotated[str, typer.Option(metavar="ENGINE",
        help="engine: package.module or package.module:factory")] = DEFAULT_IMPL,
    games: Annotated[int, typer.Option(metavar="N", help="random games per player count and mode")] = 2,
    seed: Annotated[int, typer.Option(metavar="N", help="first seed")] = 1,
    timeout: Annotated[float, typer.Option(metavar="SECONDS",
        help="seconds allowed for each engine call (more than 0)")] = 5.0,
    start_timeout: Annotated[float, typer.Option(metavar="SECONDS",
        help="seconds an engine may take to start, create and the handshake, apart from --timeout (more than 0)")]
        = DEFAULT_START_TIMEOUT,
    suite: Annotated[list[str] | None, typer.Option(metavar="SUITE",
        help="run only these suites (repeatable): setup, random-play, roundtrip, scenarios, z3, invariants")] = None,
    select: Annotated[list[str] | None, typer.Option(metavar="GLOB",
        help="run only checks whose id matches (a glob such as 'PAY-*'; repeatable)")] = None,
    rule: Annotated[list[str] | None, typer.Option(metavar="RULE-ID",
        help="run only checks of this rule id (repeatable)")] = None,
    card: Annotated[list[str] | None, typer.Option(metavar="CARD",
        help="run only checks pinning this card, by name or id (repeatable)")] = None,
    expectations: Annotated[Path | None, typer.Option(metavar="FILE",
        help="TOML file of known failures: expected_failure tables with a check id and a reason")] = None,
    report_json: Annotated[Path | None, typer.Option(metavar="FILE",
        help="write the JSON report here ('-': standard output, "
                                                     "with the summary on standard error)")] = None,
    junit_xml: Annotated[Path | None, typer.Option(metavar="FILE", help="write a JUnit XML report here")] = None,
    markdown: Annotated[Path | None, typer.Option(metavar="FILE",
        help="write a Markdown summary here (replacing the file)")] = None,
    markdown_append: Annotated[Path | None, typer.Option(metavar="FILE",
        help="append a Markdown summary to this file (for $GITHUB_STEP_SUMMARY)")] = None,
    scenarios: Annotated[Path | None, typer.Option(metavar="DIR",
        help="scenarios directory (default: the bundled suite)")] = None,
    scenario_timeout: Annotated[float, typer.Option(metavar="SECONDS",
        help="wall-clock seconds allowed for each scenario")] = 10.0,
    z3_budget: Annotated[float, typer.Option(metavar="SECONDS",
        help="wall-clock seconds allowed for each Z3 row")] = 20.0,
    fuzz_budget: Annotated[float, typer.Option(metavar="SECONDS",
        help="wall-clock seconds for the invariants suite's fuzz run; checks it cuts short are incomplete")] = 60.0,
    unit_timeout: Annotated[float, typer.Option(metavar="SECONDS",
        help="wall-clock seconds allowed for each whole game (random-play, roundtrip)")] = 120.0,
    time_budget: Annotated[float | None, typer.Option(metavar="SECONDS",
        help="stop the whole run after this many seconds, with a partial report marked incomplete")] = None,
    max_failures: Annotated[int | None, typer.Option(metavar="N",
        help="stop the run after this many failing checks, with a partial report marked incomplete")] = None,
    fail_on_unsupported: Annotated[bool, typer.Option(metavar="",
        help="count unsupported checks as failures (not-applicable ones never are)")] = False,
    allow_empty: Annotated[bool, typer.Option(metavar="",
        help="exit 0, not 4, when no check ran (every one unsupported or not applicable)")] = False,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", metavar="N",
        help="worker processes running units at once (default: the number of cores; with a cmd: engine, "
             "N engine processes run at once)")] = None,
    save_failures: Annotated[Path | None, typer.Option(metavar="DIR",
        help="write each counterexample found by the z3 and invariants suites as a scenario file here")] = None,
    z3_full: Annotated[bool, typer.Option(metavar="",
        help="check the whole bounded Z3 domain instead of a sample")] = False,
    validate_protocol: Annotated[bool, typer.Option(metavar="",
        help="validate every message a cmd: engine sends against the wire JSON Schemas (slow)")] = False,
    variant: Annotated[list[str] | None, typer.Option(metavar="RULE=VALUE",
        help="check the reference playing this rule variant, RULE=VALUE (repeatable; see oracle/data/rules.toml)")]
        = None,
) -> None:
    """Check an engine against the rules and print a pass/fail summary.

    Exit codes, the first that applies: 2 bad input; 130/143 stopped by SIGINT/SIGTERM; 5 a report could not be
    written; 1 a check failed; 3 the run stopped early or a check is incomplete; 4 no check ran (--allow-empty: 0);
    0 otherwise.
    """
    from oracle.core.rules import rules as rules_catalogue
    from oracle.scenarios.loader import default_dir, display_path, load_dir, resolve_card_names

    signals = StopSignals()
    with signals.caught():
        for name, value, low in (("--timeout", timeout, 0.0), ("--start-timeout", start_timeout, 0.0),
                                 ("--scenario-timeout", scenario_timeout, 0.0),
                                 ("--z3-budget", z3_budget, 0.0), ("--fuzz-budget", fuzz_budget, 0.0),
                                 ("--unit-timeout", unit_timeout, 0.0)):
            if not (math.isfinite(value) and value > low):
                raise bad_input(f"{name} must be more than 0 seconds and finite, got {value:g}")
        if games < 0:
            raise bad_input("--games must be 0 or more")
        if jobs is None:
            jobs = default_jobs()
        if jobs < 1:
            raise bad_input("--jobs must be 1 or more")
        if time_budget is not None and not (math.isfinite(time_budget) and time_budget > 0):
            raise bad_input(f"--time-budget must be more than 0 seconds and finite, got {time_budget:g}")
        if max_failures is not None and max_failures < 1:
            raise bad_input("--max-failures must be 1 or more")
        declared = _declared_variants(split_values(variant), impl)
        if declared:
            from oracle.reference.declared import impl_for

            impl = impl_for(declared)
        targets = ReportTargets(report_json, junit_xml, markdown, markdown_append)
        targets.refuse_unwritable()
        echo: Echo = (lambda text: typer.echo(text, err=True)) if targets.json_to_stdout else typer.echo

        started = time.perf_counter()
        started_at = datetime.now(UTC)
        selects, rule_ids, cards = split_values(select), split_values(rule), split_values(card)
        handshake: Handshake | None = None
        supervisor: Supervisor | None = None
        units: list[Unit] = []
        ran: list[str] = []
        collected = Collected({}, max_failures, fail_on_unsupported)
        try:
            load_suites()
            unknown_rules = [r for r in rule_ids if r not in rules_catalogue()]
            if unknown_rules:
                raise bad_input(f"--rule {unknown_rules[0]!r}: no such rule id in the rules catalogue")
            card_ids, unknown_cards = resolve_card_names(cards)
            if unknown_cards:
                raise bad_input(f"--card {unknown_cards[0]!r}: no card has that name or id")
            if scenarios is not None and not scenarios.is_dir():
                raise bad_input(f"--scenarios {scenarios}: no such directory")
            asked = list(split_values(suite))
            unknown = [s for s in asked if s not in SUITES]
            if unknown:
                raise bad_input(f"--suite {unknown[0]!r}: known suites are {', '.join(SUITES)}")
            chosen = asked or list(SUITES)
            scenario_dir = scenarios if scenarios is not None else default_dir()
            if "scenarios" in chosen and scenario_dir.is_dir():
                loaded = load_dir(scenario_dir)
                if loaded.errors:
                    for error in loaded.errors:
                        typer.echo(f"error: {error}", err=True)
                    raise bad_input(f"{len(loaded.errors)} invalid scenario file(s); see `oracle scenarios lint`")
            signals.check()

            extra: dict[str, object] = {"scenario_timeout": scenario_timeout, "z3_budget": z3_budget,
                                        "fuzz_seconds": fuzz_budget}
            if scenarios is not None:
                extra["scenarios_dir"] = str(scenarios)
            if save_failures is not None:
                extra["save_failures"] = str(save_failures)
            if z3_full:
                extra["z3_full"] = True
            if validate_protocol:
                from oracle.engines.wire.validate import enable_protocol_validation

                enable_protocol_validation()
                extra["validate_protocol"] = True
            options = CheckOptions(games=games, seed=seed, timeout=timeout, start_timeout=start_timeout,
                                   select=selects, rules=rule_ids, cards=tuple(card_ids), unit_timeout=unit_timeout,
                                   extra=extra, variants=tuple(sorted(declared.items())))

            supervisor = Supervisor(impl, timeout, options, jobs=jobs, signals=signals, reap_descendants=True)
            handshake = start_engine(supervisor)
            context = PlanContext(impl, handshake, options)
            planned = plan_suites(context, chosen)
            filtering = bool(selects or rule_ids or card_ids)
            empty = [name for name, units in planned.items() if not units]
            if filtering and not any(planned.values()):
                raise bad_input("no check matches --select/--rule/--card")
            if asked and empty:
                why = "its filters leave nothing" if filtering else "it has no checks"
                where = f" (no scenario files in {display_path(scenario_dir)})" \
                    if "scenarios" in empty and not filtering else ""
                raise bad_input(f"--suite {empty[0]}: {why} to run{where}")
            if not asked and "scenarios" in empty and not filtering:
                raise bad_input(f"the scenarios suite found no scenario files in {display_path(scenario_dir)} "
                                "(pass --scenarios DIR, or --suite to run other suites)")
            expected: dict[str, ExpectedFailure] = {}
            if expectations is not None:
                known = {c.id for units in plan_suites(context, list(SUITES), filtered=False).values()
                         for unit in units for c in unit.checks}
                expected, problems = load_expectations(expectations, known)
                if problems:
                    for problem in problems:
                        typer.echo(f"error: {problem}", err=True)
                    raise bad_input(f"--expectations {expectations}: {len(problems)} problem(s)")
            units = [unit for name in chosen for unit in planned.get(name, [])]
            ran = [name for name in chosen if planned.get(name)]
            echo(f"oracle check: {clean_text(handshake.engine)} {clean_text(handshake.version)} ({impl}), "
                 f"suites: {', '.join(ran)}, "
                 f"{sum(len(u.wanted) for u in units)} checks")
            collected = Collected(expected, max_failures, fail_on_unsupported)
            progress = CheckProgress(sum(len(u.wanted) for u in units), sys.stderr)
            try:
                status = supervisor.run(units, progress.wrap(collected.add), time_budget)
            finally:
                progress.close()
        except Stopped as stop:
            status = RunStatus(stopped=stop.signal_name)
        finally:
            if supervisor is not None:
                supervisor.close()

        results = collected.ordered()
        not_run = tuple(c.id for index in status.not_run for c in units[index].wanted)
        engine, version = (clean_text(handshake.engine), clean_text(handshake.version)) if handshake is not None \
            else (NO_HANDSHAKE, NO_HANDSHAKE)
        run = _run_info(engine, version, impl, ran, started_at,
                        time.perf_counter() - started, status, not_run, fail_on_unsupported, allow_empty,
                        {"games": games, "seed": seed, "timeout": timeout, "start_timeout": start_timeout,
                         "scenario_timeout": scenario_timeout,
                         "z3_budget": z3_budget, "fuzz_budget": fuzz_budget, "unit_timeout": unit_timeout,
                         "time_budget": time_budget, "max_failures": max_failures, "jobs": jobs,
                         "fail_on_unsupported": fail_on_unsupported, "allow_empty": allow_empty,
                         "select": list(selects), "rules": list(rule_ids), "cards": list(cards),
                         "scenarios": str(scenarios) if scenarios is not None else None,
                         "expectations": str(expectations) if expectations else None})
        print_summary(results, run, echo)
        problems = targets.write(results, run, echo)
        for problem in problems:
            typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(exit_code(results, run, report_failed=bool(problems)))


def _run_info(engine: str, version: str, impl: str, suites: list[str], started_at: datetime, seconds: float,
              status: RunStatus, not_run: tuple[str, ...], fail_on_unsupported: bool, allow_empty: bool,
              options: dict[str, object]) -> RunInfo:
    signal_name = status.stopped if status.stopped in ("SIGINT", "SIGTERM") else ""
    stopped = f"stopped by {signal_name}" if signal_name else status.stopped
    return RunInfo(engine=engine, engine_version=version, impl=impl, suites=tuple(suites), started=started_at,
                   duration=seconds, options=options, stopped=stopped, signal=signal_name, not_run=not_run,
                   fail_on_unsupported=fail_on_unsupported, allow_empty=allow_empty)

