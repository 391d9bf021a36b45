"""Engines over time, without any HTML: the reports grouped by engine, each engine's runs in date order and kept
apart by suite (version and digest), each run compared with the run before it on the same suite only.

An engine is its name and its ``--impl`` (the engine's version may change from run to run; fixtures sharing the
reference's name stay apart by their ``--impl``). The matrix shows each engine's latest run; its page, that run and
the history.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from oracle.reports.badge import Score, report_score
from oracle.reports.html.load import Cause, Report


@dataclass(frozen=True)
class EngineKey:
    """What makes two reports runs of one engine: the handshake's engine name and the ``--impl``."""

    name: str
    impl: str

    @classmethod
    def of(cls, report: Report) -> EngineKey:
        return cls(report.engine, report.impl)


@dataclass(frozen=True)
class SuiteKey:
    """The checks a run ran: the human suite version and the suite digest ('' in reports written before it)."""

    version: str
    digest: str

    @classmethod
    def of(cls, report: Report) -> SuiteKey:
        return cls(report.suite_version, report.suite_digest)

    @property
    def label(self) -> str:
        """``0.2.0 · 9d271074b365``, or ``0.2.0 (no digest)`` for a report written before the digest."""
        version = self.version or "(unknown)"
        return f"{version} · {self.digest}" if self.digest else f"{version} (no digest)"


class Change(Enum):
    """How a run compares with the run before it on the same suite (a run on another suite is never compared)."""

    FIRST = "first"
    DROP = "drop"
    RISE = "rise"
    SAME = "same"

    @property
    def symbol(self) -> str:
        return {Change.FIRST: "•", Change.DROP: "▼", Change.RISE: "▲", Change.SAME: "="}[self]

    @property
    def label(self) -> str:
        return {Change.FIRST: "first run on this suite: compared with nothing",
                Change.DROP: "a drop: fewer passes, more failures or a new cause than the run before",
                Change.RISE: "a rise: more passes or a cause gone, and no drop",
                Change.SAME: "the same figures and causes as the run before"}[self]


def cause_key(cause: Cause) -> str:
    """A cause as one run compares it with another: its signature, or its title in a report without signatures."""
    return cause.signature or cause.title


@dataclass(frozen=True)
class RunFigures:
    """One run of an engine: its report, its figures (as on the badge), and what changed since the run before it
    on the same suite."""

    report: Report
    score: Score
    change: Change
    new_causes: tuple[Cause, ...] = ()
    """Causes of this run that the run before did not have (none for a first run)."""
    gone_causes: tuple[Cause, ...] = ()
    """Causes of the run before that this run does not have."""
    passes_delta: int | None = None
    """Passes minus those of the run before (None for a first run)."""

    @property
    def causes(self) -> tuple[Cause, ...]:
        return self.report.causes


def compared(report: Report, before: RunFigures | None) -> RunFigures:
    """``report``'s figures and its :class:`Change` from ``before`` (the previous run on its suite, or None): a drop
    when it passes fewer checks, fails more or has a cause the run before did not; else a rise when it passes more
    or lost a cause; else the same."""
    score = report_score(report)
    if before is None:
        return RunFigures(report, score, Change.FIRST)
    had = {cause_key(c) for c in before.causes}
    has = {cause_key(c) for c in report.causes}
    new = tuple(c for c in report.causes if cause_key(c) not in had)
    gone = tuple(c for c in before.causes if cause_key(c) not in has)
    delta = score.passes - before.score.passes
    if delta < 0 or score.failed > before.score.failed or new:
        change = Change.DROP
    elif delta > 0 or gone:
        change = Change.RISE
    else:
        change = Change.SAME
    return RunFigures(report, score, change, new, gone, delta)


@dataclass(frozen=True)
class SuiteRuns:
    """An engine's runs on one suite, oldest first."""

    suite: SuiteKey
    runs: tuple[RunFigures, ...]


@dataclass(frozen=True)
class History:
    """One engine's runs: by suite (the suite of its latest run first, then the others by their latest run), each
    suite's runs oldest first."""

    engine: EngineKey
    suites: tuple[SuiteRuns, ...]
    latest: Report

    @property
    def run_count(self) -> int:
        return sum(len(s.runs) for s in self.suites)


def _history(engine: EngineKey, reports: Sequence[Report]) -> History:
    """``reports`` (one engine's, in the order given) by date; a run of the same date keeps its place."""
    runs = sorted(reports, key=lambda r: r.date)
    by_suite: dict[SuiteKey, list[RunFigures]] = {}
    for report in runs:
        earlier = by_suite.setdefault(SuiteKey.of(report), [])
        earlier.append(compared(report, earlier[-1] if earlier else None))
    newest_first = sorted(by_suite.items(), key=lambda item: item[1][-1].report.date, reverse=True)
    return History(engine, tuple(SuiteRuns(suite, tuple(figures)) for suite, figures in newest_first), runs[-1])


def histories(reports: Sequence[Report]) -> list[History]:
    """Every engine's history. The engines come grouped by the suite of their latest run (the suite with the newest
    run first), then in the order of their first report, so the matrix keeps the columns of one suite together."""
    grouped: dict[EngineKey, list[Report]] = {}
    for report in reports:
        grouped.setdefault(EngineKey.of(report), []).append(report)
    engines = [_history(engine, runs) for engine, runs in grouped.items()]
    newest: dict[SuiteKey, str] = {}
    for report in reports:
        suite = SuiteKey.of(report)
        newest[suite] = max(newest.get(suite, ""), report.date)
    rank = {suite: i for i, suite in enumerate(sorted(newest, key=lambda s: newest[s], reverse=True))}
    return sorted(engines, key=lambda h: rank[SuiteKey.of(h.latest)])
