"""What every report shares: the run's metadata, totals by outcome, and the exit code."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import oracle
from oracle.exits import EXIT_FAILED, EXIT_OK
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
        }


def totals(results: Iterable[CheckResult]) -> dict[str, int]:
    """A count for every outcome (zeros included), in the order of :class:`Outcome`."""
    counts = {o.value: 0 for o in Outcome}
    for result in results:
        counts[result.outcome.value] += 1
    return counts


def passed(results: Iterable[CheckResult]) -> bool:
    return all(r.outcome.ok for r in results)


def exit_code(results: Iterable[CheckResult]) -> int:
    """0 when every check passed, failed as expected or was unsupported; 1 otherwise."""
    return EXIT_OK if passed(results) else EXIT_FAILED


def card_name(card: str) -> str:
    from oracle.cards import catalogue

    found = catalogue().by_name(card)
    return found.name if found is not None else card


def rule_group(rule_id: str) -> str:
    from oracle.rules import rules

    rule = rules().get(rule_id)
    return rule.group if rule is not None else "other"


def one_line(result: CheckResult) -> str:
    """A short summary: the first of message, expected/actual, outcome."""
    if result.message:
        text = result.message
    elif result.expected or result.actual:
        text = f"expected {result.expected}; actual {result.actual}"
    else:
        text = result.outcome.value
    return " ".join(text.split())
