"""Check results: one shape for everything the oracle checks (scenarios, random play, invariants, Z3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from oracle.core.json_types import JSON

UNSUPPORTED_CALL = "unsupported_call"
"""Details key of a check that ended unsupported although the engine's declarations allowed it, because the engine
refused a call (``NotImplementedError``, the wire error code ``unsupported``): the method refused."""

DECLARED_UNSUPPORTED = "declared_unsupported"
"""Details key of a check that ended because the engine refused a call its handshake declared it answers (PROTO-2):
the capability contradicted."""


UNLOCKED_BY_LOAD = "unlocked_by_load"
"""Details key (true) of a check unsupported only because the engine does not declare ``load``: planned for the same
engine with ``load`` declared too, it would run."""
REACHED_BY = "reached_by"
"""The result detail of a scenario whose ``[given]`` position was reached by playing (issue 39): ``preamble``, or
``both`` (loaded and played, under ``--reach both``); a loaded scenario's result has none."""


POSITION_REFUSED = "position_refused"
"""Details key (true) of a check unsupported because the engine's ``load`` refused the position the oracle built for
it (:class:`oracle.core.faults.PositionRefused`)."""


FURTHER_FAILURES = "further_failures"
"""A failing check's details key: the failures of other causes it found after its first (a fuzz run goes on past
each), each a result's JSON under the check's own id. They are members of that one planned result, never results
of their own, so a run's ids and counts are the plan's (docs/reports.md, Causes)."""


class Outcome(str, Enum):
    """How one check ended. PASS, EXPECTED_FAILURE, UNSUPPORTED and NOT_APPLICABLE are ok (nothing failed); only the
    first two ran: an unsupported or not-applicable check was not run and is never counted as passed."""

    PASS = "pass"
    FAIL = "fail"
    WRONGLY_REJECTED = "wrongly-rejected"
    ILLEGAL_ACCEPTED = "illegal-accepted"
    ERROR = "error"
    TIMEOUT = "timeout"
    INCOMPLETE = "incomplete"
    """The check's budget ran out before it checked everything it was to check; never a pass."""
    UNSUPPORTED = "unsupported"
    """Not run: the engine lacks a capability, the expansion or a player count the check needs."""
    NOT_APPLICABLE = "not-applicable"
    """Not run: the check pins a reading of a rule variant other than the one the engine declares."""
    EXPECTED_FAILURE = "expected-failure"
    UNEXPECTED_PASS = "unexpected-pass"

    @property
    def ok(self) -> bool:
        return self in (Outcome.PASS, Outcome.EXPECTED_FAILURE, Outcome.UNSUPPORTED, Outcome.NOT_APPLICABLE)

    @property
    def ran(self) -> bool:
        """The check was run against the engine (every outcome but unsupported and not-applicable)."""
        return self not in (Outcome.UNSUPPORTED, Outcome.NOT_APPLICABLE)


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

    @staticmethod
    def from_json(raw: JSON) -> CheckResult:
        """A result as :meth:`to_json` wrote it."""
        return CheckResult(raw["suite"], raw["id"], raw["title"], Outcome(raw["outcome"]), tuple(raw["rules"]),
                           tuple(raw["cards"]), raw["step"], raw["expected"], raw["actual"], raw["message"],
                           raw["reproduce"], float(raw["duration"]), raw["details"])

    def failures(self) -> tuple[CheckResult, ...]:
        """This result, then each further failure it holds (:data:`FURTHER_FAILURES`), all under its id."""
        further = self.details.get(FURTHER_FAILURES)
        if not isinstance(further, list):
            return (self,)
        return (self, *(CheckResult.from_json({**raw, "id": self.id}) for raw in further if isinstance(raw, dict)))
