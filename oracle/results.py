"""Check results: one shape for everything the oracle checks (scenarios, random play, invariants, Z3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

JSON = dict[str, Any]


class Outcome(str, Enum):
    """How one check ended. Only PASS and EXPECTED_FAILURE (and UNSUPPORTED) leave a run green."""

    PASS = "pass"
    FAIL = "fail"
    WRONGLY_REJECTED = "wrongly-rejected"
    ILLEGAL_ACCEPTED = "illegal-accepted"
    ERROR = "error"
    TIMEOUT = "timeout"
    INCOMPLETE = "incomplete"
    """The check's budget ran out before it checked everything it was to check; never a pass."""
    UNSUPPORTED = "unsupported"
    EXPECTED_FAILURE = "expected-failure"
    UNEXPECTED_PASS = "unexpected-pass"

    @property
    def ok(self) -> bool:
        return self in (Outcome.PASS, Outcome.EXPECTED_FAILURE, Outcome.UNSUPPORTED)


@dataclass(frozen=True)
class CheckResult:
    """One check of one engine: what was checked, how it ended, and how to reproduce a failure."""

    suite: str
    id: str
    title: str
    outcome: Outcome
    rules: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    step: int | None = None
    expected: str = ""
    actual: str = ""
    message: str = ""
    reproduce: str = ""
    duration: float = 0.0
    details: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "suite": self.suite,
            "id": self.id,
            "title": self.title,
            "outcome": self.outcome.value,
            "rules": list(self.rules),
            "cards": list(self.cards),
            "step": self.step,
            "expected": self.expected,
            "actual": self.actual,
            "message": self.message,
            "reproduce": self.reproduce,
            "duration": round(self.duration, 6),
            "details": self.details,
        }
