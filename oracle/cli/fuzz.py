"""``oracle fuzz``: fuzz an engine with Hypothesis, checking every invariant after every step and comparing it
in lock-step with the reference engine. ``oracle/cli/app.py`` registers :func:`fuzz_command`.

Exit codes: 0 no failure; 1 a failure (or an engine fault); 2 bad input.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import typer

import oracle.cli.fuzz_options as opt
from oracle.cli.check import budget_scale as check_scale
from oracle.cli.check import legal_share as check_share
from oracle.cli.check import start_engine
from oracle.cli.fuzz_corpus import compact_corpus, refuse_invalid_corpus, replay_corpus
from oracle.core.exits import bad_input
from oracle.core.results import CheckResult
from oracle.core.rules import rules
from oracle.core.shards import Shard
from oracle.engines.connect import DEFAULT_IMPL
from oracle.engines.costs import EngineCosts, advice
from oracle.engines.harness import DEFAULT_START_TIMEOUT, Handshake
from oracle.engines.legal_share import LegalShare
from oracle.engines.legal_share import given_problem as share_problem
from oracle.engines.speed import BudgetScale, given_problem
from oracle.reports.common import RunInfo, cost_lines, exit_code, failed_results, one_line
from oracle.reports.sanitize import clean_result
from oracle.run.request import parse_shard
from oracle.run.supervisor import RunStatus, Supervisor
from oracle.suites.registry import AnyUnit, CheckOptions
from vale_invariants.catalog import ALL_NAMES

if TYPE_CHECKING:
    from vale_invariants.fuzz import FuzzConfig, FuzzReport
    from vale_invariants.game import Stats

DEFAULT_GAMES = opt.DEFAULT_GAMES
_bad = bad_input


def parse_players(text: str) -> tuple[int, ...]:
    """``2-4``, ``3`` or ``2,4`` -> the player counts (each from 2 to 4)."""
    counts: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low, dash, high = part.partition("-")
        try:
            first, last = int(low), int(high) if dash else int(low)
        except ValueError:
            raise ValueError(f"--players {text!r}: expected a count like 3, a range like 2-4, or a list like 2,4") \
                from None
        if not 2 <= first <= last <= 4:
            raise ValueError(f"--players {text!r}: the game is for 2 to 4 players")
        counts.update(range(first, last + 1))
    if not counts:
        raise ValueError(f"--players {text!r}: no player count given")
    return tuple(sorted(counts))


class _Progress:
    """A one-line counter on stderr (only when stderr is a terminal, unless forced)."""

    def __init__(self, total_games: int | None, seconds: float | None, enabled: bool) -> None:
        self.total_games = total_games
        self.seconds = seconds
        self.enabled = enabled
        self.started = time.perf_counter()
        self.shown = 0.0

    def __call__(self, stats: Stats) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.shown < 0.2 and stats.games != self.total_games:
            return
        self.shown = now
        elapsed = now - self.started
        if self.total_games:
            done = stats.games / self.total_games
        elif self.seconds:
            done = min(1.0, elapsed / self.seconds)
        else:
            done = 0.0
        bar = "#" * int(done * 30)
        rate = stats.decisions / elapsed if elapsed > 0 else 0.0
        games = f"{stats.games} game" + ("" if stats.games == 1 else "s")
        sys.stderr.write(f"\r[{bar:<30}] {games}, {stats.decisions} decisions ({rate:.0f}/s) ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _renamed(option: str, value: str | None, old_option: str, old_value: str | None, default: str) -> str:
    """The value of a renamed option, accepting its old spelling with a deprecation note (not both at once)."""
    if old_value is None:
        return value if value is not None else default
    if value is not None:
        raise _bad(f"{old_option} is the old spelling of {option}: give only {option}")
    typer.echo(f"note: {old_option} is deprecated, use {option} (it was too easy to confuse --mode and --modes)",
               err=True)
    return old_value


def fuzz_command(
    impl: opt.Impl = DEFAULT_IMPL,
    games: opt.Games = None,
    time_budget: opt.TimeBudget = None,
    seed: opt.Seed = 0,
    players: opt.Players = "2-4",
    save_failures: opt.SaveFailures = None,
    check: opt.Check = None,
    old_check: opt.OldCheck = None,
    invariant: opt.Invariant = None,
    game_modes: opt.GameModes = None,
    old_game_modes: opt.OldGameModes = None,
    positions: opt.Positions = True,
    shrink_examples: opt.ShrinkExamples = None,
    old_shrink_time: opt.OldShrinkTime = None,
    max_failures: opt.MaxFailures = 5,
    budget_scale: opt.BudgetScale = None,
    legal_share: opt.LegalShare = None,
    set_aside: opt.SetAside = None,
    timeout: opt.Timeout = 5.0,
    start_timeout: opt.StartTimeout = DEFAULT_START_TIMEOUT,
    report_json: opt.ReportJson = None,
    junit_xml: opt.JunitXml = None,
    markdown: opt.Markdown = None,
    progress: opt.Progress = None,
    shard: opt.Shard = None,
    corpus: opt.Corpus = None,
) -> None:
    """Fuzz an engine: random games with invariants checked after every step, in lock-step with the reference."""
    config = fuzz_config(
        games=games, time_budget=time_budget, seed=seed, players=players, save_failures=save_failures,
        check=check, old_check=old_check, game_modes=game_modes, old_game_modes=old_game_modes, invariant=invariant,
        positions=positions, shrink_examples=shrink_examples, old_shrink_time=old_shrink_time,
        max_failures=max_failures, set_aside=set_aside, timeout=timeout, start_timeout=start_timeout, shard=shard,
        corpus=corpus)
    if budget_scale is not None and given_problem(budget_scale):
        raise _bad(given_problem(budget_scale))
    if legal_share is not None and share_problem(legal_share):
        raise _bad(share_problem(legal_share))
    fuzzed = _fuzz(impl, config, sys.stderr.isatty() if progress is None else progress, budget_scale, legal_share)
    fuzzed.print()
    compact_corpus(config)
    run = fuzzed.run_info(impl, fuzzed.config)
    _write_reports(fuzzed.results, run, report_json, junit_xml, markdown)
    raise typer.Exit(exit_code(fuzzed.results, run))


def shrink_count(shrink_examples: int | None, old_shrink_time: float | None) -> int:
    """The games shrinking may replay: ``--shrink-examples``, or from the deprecated ``--shrink-time`` (0 still
    turns shrinking off; any other time is replaced by the default count, with a note), never both."""
    if old_shrink_time is not None:
        if shrink_examples is not None:
            raise _bad("--shrink-time is the old form of --shrink-examples: give only --shrink-examples")
        if old_shrink_time < 0:
            raise _bad("--shrink-time must be 0 or more")
        typer.echo("note: --shrink-time is deprecated, use --shrink-examples N: shrinking is bounded by a count of "
                   "games, so the failure found never depends on the machine's load", err=True)
        return 0 if old_shrink_time == 0 else opt.DEFAULT_SHRINK_EXAMPLES
    if shrink_examples is not None and shrink_examples < 0:
        raise _bad("--shrink-examples must be 0 or more")
    return opt.DEFAULT_SHRINK_EXAMPLES if shrink_examples is None else shrink_examples


def fuzz_config(*, games: int | None, time_budget: float | None, seed: int, players: str, save_failures: Path | None,
                check: str | None, old_check: str | None, game_modes: str | None, old_game_modes: str | None,
                invariant: list[str] | None, positions: bool, shrink_examples: int | None,
                old_shrink_time: float | None, max_failures: int, set_aside: list[str] | None, timeout: float,
                start_timeout: float, shard: str | None = None, corpus: Path | None = None) -> FuzzConfig:
    """The fuzz run the options ask for, or bad input (exit 2) naming the first option at fault."""
    from vale_invariants.fuzz import ALL_MODES, MODES, FuzzConfig

    if games is not None and games < 1:
        raise _bad("--games must be 1 or more")
    if time_budget is not None and time_budget <= 0:
        raise _bad("--time must be more than 0 seconds")
    mode = _renamed("--check", check, "--mode", old_check, "both")
    modes = _renamed("--game-modes", game_modes, "--modes", old_game_modes, ",".join(ALL_MODES))
    if mode not in MODES:
        raise _bad(f"--check {mode!r}: expected one of {', '.join(MODES)}")
    if max_failures < 1:
        raise _bad("--max-failures must be 1 or more")
    shrink = shrink_count(shrink_examples, old_shrink_time)
    if not start_timeout > 0:
        raise _bad(f"--start-timeout must be more than 0 seconds, got {start_timeout:g}")
    try:
        player_counts = parse_players(players)
    except ValueError as exc:
        raise _bad(str(exc)) from None
    played_modes = tuple(m.strip() for m in modes.split(",") if m.strip())
    if not played_modes or any(m not in ALL_MODES for m in played_modes):
        raise _bad(f"--game-modes {modes!r}: expected a comma-separated list of {', '.join(ALL_MODES)}")
    chosen = tuple(invariant or ()) or ALL_NAMES
    unknown = [n for n in chosen if n not in ALL_NAMES]
    if unknown:
        raise _bad(f"--invariant {unknown[0]!r}: known invariants are {', '.join(ALL_NAMES)}")
    known_rules = set(rules())
    unknown_rules = [r for r in set_aside or () if r not in known_rules]
    if unknown_rules:
        raise _bad(f"--set-aside {unknown_rules[0]!r}: not a rule id of the catalogue (oracle/data/rules.toml)")
    if corpus is not None and save_failures is not None:
        raise _bad("--corpus DIR saves the counterexamples into DIR (as --save-failures does): give only one")
    if corpus is not None and corpus.exists() and not corpus.is_dir():
        raise _bad(f"--corpus {corpus}: not a directory")
    if corpus is not None:
        refuse_invalid_corpus(corpus)
    return FuzzConfig(
        games=games if games is not None or time_budget is not None else DEFAULT_GAMES,
        seconds=time_budget, seed=seed, players=player_counts, mode=mode, invariants=chosen,
        shrink_examples=shrink, max_failures=max_failures, timeout=timeout, start_timeout=start_timeout,
        save_failures=corpus if corpus is not None else save_failures, shard=parse_shard(shard) or Shard(),
        positions=positions, modes=played_modes, set_aside=tuple(set_aside or ()),
    )


@dataclass
class _Fuzzed:
    """What a fuzz run under the supervisor gave: the engine's handshake, the results, the run's status, the
    fuzzer's report (when its worker sent it back), and when it started."""

    handshake: Handshake
    config: FuzzConfig
    """The run as played (with the rules of the corpus's causes set aside)."""
    unit: AnyUnit
    results: list[CheckResult]
    status: RunStatus
    report: object
    started_at: datetime
    started: float
    scale: BudgetScale
    share: LegalShare
    costs: EngineCosts

    def print(self) -> None:
        from vale_invariants.fuzz import SUITE, FuzzReport

        for result in failed_results(r for r in self.results if r.suite != SUITE):
            typer.echo(f"{result.outcome.value.upper():16} {result.id} (corpus): {one_line(result)}")
        if isinstance(self.report, FuzzReport):
            _print(self.report)
        else:
            _print_lost(self.results, self.status.stopped)
        typer.echo(self.scale.text())
        typer.echo(self.share.text())
        for line in cost_lines(self.costs, advice(self.costs, self.handshake.capabilities)):
            typer.echo(line)

    def run_info(self, impl: str, config: FuzzConfig) -> RunInfo:
        from vale_invariants.fuzz import SUITE

        stopped, handshake = self.status.stopped, self.handshake
        return RunInfo(
            engine=handshake.engine, engine_version=handshake.version, impl=impl,
            suites=tuple(dict.fromkeys((*(r.suite for r in self.results), SUITE))), started=self.started_at,
            duration=time.perf_counter() - self.started,
            options={"games": config.games, "time": config.seconds, "seed": config.seed,
                     "players": list(config.players), "mode": config.mode,
                     "shrink_examples": config.shrink_examples,
                     "positions": config.positions, "shard": None if config.shard.whole else config.shard.text,
                     "set_aside": list(config.set_aside)},
            stopped=f"stopped by {stopped}" if stopped in ("SIGINT", "SIGTERM") else stopped,
            signal=stopped if stopped in ("SIGINT", "SIGTERM") else "",
            not_run=tuple(c.id for c in self.unit.checks) if self.status.not_run else (), budget_scale=self.scale,
            legal_share=self.share,
            engine_costs=self.costs, speed_advice=advice(self.costs, handshake.capabilities),
        )


def _fuzz(impl: str, config: FuzzConfig, show_progress: bool, budget_scale: float | None = None,
          given_share: float | None = None) -> _Fuzzed:
    """Start the engine (timing it against the reference unless ``budget_scale`` is given) and run the fuzz unit in
    a worker, with a progress line when asked."""
    # Hypothesis takes a third of a second to import: only `oracle fuzz` pays for it, not every oracle command.
    from oracle.suites.invariants import fuzz_unit
    from vale_invariants.fuzz import FuzzReport

    budget = f"{config.games} games per mode" if config.games is not None else ""
    if config.seconds is not None:
        budget += (" or " if budget else "") + f"{config.seconds:g} s"
    bar = _Progress(config.games, config.seconds, show_progress)
    options = CheckOptions(timeout=config.timeout, start_timeout=config.start_timeout, players=config.players)
    supervisor = Supervisor(impl, config.timeout, options, progress=bar, reap_descendants=True)
    try:
        handshake = start_engine(supervisor)
        declared = [m for m in config.modes if m == "base" or getattr(handshake, m, False)]
        if config.games is not None:
            bar.total_games = config.games * max(1, len(declared))
        typer.echo(f"oracle fuzz: {handshake.engine} {handshake.version} ({impl}), "
                   f"mode {config.mode}, {budget}, seed {config.seed}, players {','.join(map(str, config.players))}, "
                   f"games {','.join(config.modes)}")
        started_at = datetime.now(UTC)
        started = time.perf_counter()
        scale = check_scale(budget_scale, supervisor)
        results, config = replay_corpus(supervisor, impl, handshake, config, options)
        share = check_share(given_share, scale)
        config = dataclasses.replace(config, legal_share=share.share)
        unit = fuzz_unit(config, reproduce=FuzzReport(impl, impl, config).reproduce(), scale=scale.factor)

        def collect(index: int, found: list[CheckResult]) -> bool:
            results.extend(clean_result(r) for r in found)
            return True

        status = supervisor.run([unit], collect)
    finally:
        bar.close()
        supervisor.close()
    return _Fuzzed(handshake, config, unit, results, status, supervisor.attachments.get(0), started_at, started, scale,
                   share, supervisor.costs)


def _print_lost(results: list[CheckResult], stopped: str) -> None:
    """The fuzz run ended without its report (the engine killed or hung its process, or a signal stopped it)."""
    if stopped:
        typer.echo(f"the run stopped early: {stopped}")
    shown = set()
    for result in results:
        if result.message not in shown:
            shown.add(result.message)
            typer.echo(f"{result.outcome.value.upper():16} {result.id}: {result.message}")


def _print(report: FuzzReport) -> None:
    for failure in report.failures:
        typer.echo(f"{failure.outcome.value.upper():16} {failure.invariant} ({', '.join(failure.rules) or 'no rule'}) "
                   f"[{failure.mode} mode], step {failure.step}")
        typer.echo(f"{'':17}{failure.message}")
        if failure.expected or failure.actual:
            typer.echo(f"{'':17}expected: {failure.expected}")
            typer.echo(f"{'':17}actual:   {failure.actual}")
        typer.echo(f"{'':17}trace: {failure.trace.summary()}" + (" (shrunk)" if failure.shrunk else ""))
        if failure.divergence is not None and failure.mode != "lockstep":
            typer.echo(f"{'':17}against the reference: {failure.divergence.describe()}")
        if failure.scenario:
            typer.echo(f"{'':17}scenario: {failure.scenario}  (oracle check --impl {report.impl} --scenarios "
                       f"{Path(failure.scenario).parent} --suite scenarios)")
        elif failure.trace_file:
            typer.echo(f"{'':17}trace: {failure.trace_file}  (no scenario: {failure.scenario_note})")
    for name, reason in report.unsupported.items():
        typer.echo(f"{'UNSUPPORTED':16} {name}: {reason}")
    if report.failures:
        typer.echo(f"reproduce: {report.reproduce()}")
    typer.echo(report.summary())


def _write_reports(results: list[CheckResult], run: RunInfo, report_json: Path | None, junit_xml: Path | None,
                   markdown: Path | None) -> None:
    from oracle.reports import write_json, write_junit, write_markdown

    for path, writer in ((report_json, write_json), (junit_xml, write_junit), (markdown, write_markdown)):
        if path is not None:
            try:
                writer(path, results, run)
            except OSError as exc:
                raise _bad(f"cannot write {path}: {exc.strerror}") from None
            typer.echo(f"wrote {path}")
