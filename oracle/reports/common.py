"""What every report shares: the run's metadata, totals by outcome, and the exit code."""

from __future__ import annotations

import signal
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import oracle
from oracle.exits import EXIT_FAILED, EXIT_INCOMPLETE, EXIT_OK
from oracle.harness import python_version
from oracle.results import CheckResult, Outcome

JSON = dict[str, Any]


@dataclass(frozen=True)
class RunInfo:
    """Who was checked, with what, when and for how long."""

    engine: str
    engine_version: str
    impl: str
    suites: tuple[str, ...] = ()
    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    duration: float = 0.0
    options: JSON = field(default_factory=dict)
    suite_version: str = oracle.SUITE_VERSION
    oracle_version: str = oracle.__version__
    protocol: str = oracle.PROTOCOL_VERSION
    python: str = field(default_factory=python_version)
    stopped: str = ""
    """Why the run stopped before the end ('' when it finished): a signal, the time budget, the failure limit."""
    signal: str = ""
    """``SIGINT`` or ``SIGTERM`` when a signal stopped the run."""
    not_run: tuple[str, ...] = ()
    """Ids of the checks that never ran because the run stopped early."""
    fail_on_unsupported: bool = False

    @property
    def complete(self) -> bool:
        return not self.stopped

    @property
    def date(self) -> str:
        """The start of the run, UTC, ISO 8601 (``2024-05-01T12:00:00Z``)."""
        return self.started.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    def to_json(self) -> JSON:
        return {
            "suite_version": self.suite_version,
            "oracle_version": self.oracle_version,
            "protocol": self.protocol,
            "engine": {"name": self.engine, "version": self.engine_version, "impl": self.impl},
            "date": self.date,
            "duration": round(self.duration, 6),
            "python": self.python,
            "suites": list(self.suites),
            "options": self.options,
            "complete": self.complete,
            "stopped": self.stopped,
            "not_run": list(self.not_run),
        }


def totals(results: Iterable[CheckResult]) -> dict[str, int]:
    """A count for every outcome (zeros included), in the order of :class:`Outcome`."""
    counts = {o.value: 0 for o in Outcome}
    for result in results:
        counts[result.outcome.value] += 1
    return counts


def failing(results: Iterable[CheckResult], run: RunInfo | None = None) -> list[CheckResult]:
    """The results that make the run red (unsupported ones too with ``--fail-on-unsupported``)."""
    strict = run is not None and run.fail_on_unsupported
    return [r for r in results if not r.outcome.ok or (strict and r.outcome is Outcome.UNSUPPORTED)]


def exit_code(results: Iterable[CheckResult], run: RunInfo | None = None) -> int:
    """0 only when the run finished and every check passed, failed as expected or is unsupported by the engine;
    1 when a check failed; 3 when the run stopped early with nothing failed; 128 + the signal number when
    SIGINT or SIGTERM stopped it."""
    if run is not None and run.signal:
        return 128 + int(signal.Signals[run.signal])
    if failing(results, run):
        return EXIT_FAILED
    if run is not None and run.stopped:
        return EXIT_INCOMPLETE
    return EXIT_OK


def passed(results: Iterable[CheckResult], run: RunInfo | None = None) -> bool:
    return exit_code(results, run) == EXIT_OK


def verdict(results: Iterable[CheckResult], run: RunInfo | None = None) -> str:
    """PASSED, FAILED or INCOMPLETE (stopped early with nothing failed)."""
    code = exit_code(results, run)
    if code == EXIT_OK:
        return "PASSED"
    return "FAILED" if code == EXIT_FAILED else "INCOMPLETE"


def card_name(card: str) -> str:
    from oracle.cards import catalogue

    found = catalogue().by_name(card)
    return found.name if found is not None else card


def rule_group(rule_id: str) -> str:
    from oracle.rules import rules

    rule = rules().get(rule_id)
    return rule.group if rule is not None else "other"


class Summarised(Protocol):
    """What a one-line summary reads: a check result as run, or as loaded back from a JSON report."""

    @property
    def message(self) -> str: ...
    @property
    def expected(self) -> str: ...
    @property
    def actual(self) -> str: ...
    @property
    def outcome(self) -> Outcome: ...


def one_line(result: Summarised) -> str:
    """A short summary: the first of message, expected/actual, outcome."""
    if result.message:
        text = result.message
    elif result.expected or result.actual:
        text = f"expected {result.expected}; actual {result.actual}"
    else:
        text = result.outcome.value
    return " ".join(text.split())
