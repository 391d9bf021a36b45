"""What the engine's calls cost over a run, by method: how many, how long in all, their median; and what the engine
could declare to make the oracle faster on it (docs/reports.md, The engine's cost per call).

Every guarded call of the engine under test (:class:`~oracle.engines.harness.Subject`) is timed while a
:class:`CostRecorder` is installed (each worker installs one and hands back a unit's costs with its results); the
reference the speed measure times beside the engine is not counted. Durations are kept as counts in buckets a
twentieth of a decade wide, so the costs of many units add up exactly and the median is known to within 6 %.
``legal_actions_by_trial`` is the oracle's own work for an engine without ``legal_actions``: each legal set found by
trying every candidate action on a copy of the engine (the calls it makes are counted under their own names too).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from oracle.core.json_types import JSON

BUCKETS_PER_DECADE = 20
SHORTEST = 1e-9
"""Durations below a nanosecond count as a nanosecond."""
BY_TRIAL = "legal_actions_by_trial"
"""The row of the legal sets the oracle found by trying candidates (the engine does not declare ``legal_actions``)."""


def _bucket(seconds: float) -> int:
    return math.floor(math.log10(max(seconds, SHORTEST)) * BUCKETS_PER_DECADE)


def _bucket_middle(bucket: int) -> float:
    return float(10 ** ((bucket + 0.5) / BUCKETS_PER_DECADE))


@dataclass(frozen=True)
class MethodCost:
    """The calls of one method: how many, their total seconds, and how many fell in each duration bucket."""

    method: str
    calls: int
    seconds: float
    buckets: tuple[tuple[int, int], ...]
    """(bucket, calls), by bucket: bucket ``b`` holds durations from 10^(b/20) to 10^((b+1)/20) seconds."""

    @property
    def median(self) -> float:
        """The seconds of the middle call (the middle of its bucket)."""
        middle, seen = (self.calls + 1) // 2, 0
        for bucket, calls in self.buckets:
            seen += calls
            if seen >= middle:
                return _bucket_middle(bucket)
        return 0.0

    def merged(self, other: MethodCost) -> MethodCost:
        counts = Counter(dict(self.buckets))
        counts.update(dict(other.buckets))
        return MethodCost(self.method, self.calls + other.calls, self.seconds + other.seconds,
                          tuple(sorted(counts.items())))

    def to_json(self) -> JSON:
        return {"method": self.method, "calls": self.calls, "median_ms": round(self.median * 1e3, 6),
                "total_s": round(self.seconds, 6)}

    def text(self) -> str:
        """``apply: 2,912 calls, median 0.021 ms, 0.07 s in all``."""
        calls = f"{self.calls:,} call{'s' if self.calls != 1 else ''}"
        return f"{self.method}: {calls}, median {self.median * 1e3:.3g} ms, {self.seconds:.2f} s in all"


@dataclass(frozen=True)
class EngineCosts:
    """The engine's calls of a run (or of one unit), one :class:`MethodCost` per method, the most time first."""

    methods: tuple[MethodCost, ...] = ()

    def merged(self, other: EngineCosts) -> EngineCosts:
        by_method = {cost.method: cost for cost in self.methods}
        for cost in other.methods:
            mine = by_method.get(cost.method)
            by_method[cost.method] = cost if mine is None else mine.merged(cost)
        return EngineCosts(tuple(sorted(by_method.values(), key=lambda cost: (-cost.seconds, cost.method))))

    def of(self, method: str) -> MethodCost | None:
        return next((cost for cost in self.methods if cost.method == method), None)

    def to_json(self, advice: tuple[str, ...] = ()) -> JSON:
        return {"methods": [cost.to_json() for cost in self.methods], "advice": list(advice)}


class CostRecorder:
    """The durations of the engine's calls as they happen (a worker's), taken as :class:`EngineCosts` per unit."""

    def __init__(self) -> None:
        self._seconds: dict[str, list[float]] = {}

    def record(self, method: str, seconds: float) -> None:
        self._seconds.setdefault(method, []).append(seconds)

    def take(self) -> EngineCosts:
        """The calls recorded since the last take, forgotten here."""
        taken, self._seconds = self._seconds, {}
        costs = (MethodCost(method, len(durations), sum(durations),
                            tuple(sorted(Counter(_bucket(s) for s in durations).items())))
                 for method, durations in taken.items())
        return EngineCosts().merged(EngineCosts(tuple(costs)))


@dataclass(frozen=True)
class Advice:
    """A way to make the oracle faster on an engine: shown when the engine lacks one of ``capabilities`` and the
    run spent time on ``spent_on`` because of it."""

    capabilities: tuple[str, ...]
    spent_on: str
    text: str


ADVICE = (
    Advice(("legal_actions",), BY_TRIAL,
           "declare `legal_actions` (or `try_actions`, where the protocol has it): without it the oracle finds every "
           "legal set by trying each candidate action on a copy of the engine ({cost})"),
    Advice(("export", "load"), "deepcopy",
           "declare `export` and `load`: the oracle copies the engine to try candidates, replay failures and check "
           "round trips, by deepcopy without them ({cost})"),
)
"""What an engine could declare, with what it cost the run not to, in the order shown."""


def advice(costs: EngineCosts, capabilities: frozenset[str]) -> tuple[str, ...]:
    """The advice of :data:`ADVICE` that applies: the engine lacks a capability and the run paid for it."""
    return tuple(entry.text.format(cost=paid.text()) for entry in ADVICE
                 if not set(entry.capabilities) <= capabilities and (paid := costs.of(entry.spent_on)) is not None)
