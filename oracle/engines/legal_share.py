"""The share of decisions at which the engine's complete legal set is compared (issue 25): what it is, where it
comes from, and which decisions of a game it picks.

Listing every legal action is the costly call of most real engines (their adapters try every candidate), so the
lock-step, random play and the invariants compare the engine's whole legal set at a sampled share of the decisions
only, and at every other one judge the chosen action and a few probes (:mod:`oracle.engines.trial`). A game always
compares the first decision of each kind in full (the one where a kind's legal set is first computed), and every
other decision with probability ``share``, drawn from the game's seed and the decision's number alone, never from
timing: ``--legal-share F`` reproduces a run exactly, and ``--legal-share 1`` compares at every decision. An engine
whose listing costs no more than its ``try_actions`` of the probes (both measured where it declares both) is judged
by its listing at every decision: share 1 (issue 36, item 10).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from enum import Enum

from oracle.core.json_types import JSON
from oracle.engines.speed import BudgetScale

MIN_SHARE = 0.05
"""The smallest share: at least one decision in twenty is compared in full."""
DEFAULT_SHARE = 0.5
"""The share of an engine whose listing costs little next to its other calls (the reference's, in process)."""
LISTING_BUDGET = 0.5
"""The time full comparisons may add to a game, as a fraction of the time of its steps: the share is this budget
over the listing's cost relative to a step's ``apply``, between :data:`MIN_SHARE` and :data:`DEFAULT_SHARE`."""


class ShareSource(str, Enum):
    """Where a run's legal-set share comes from."""

    MEASURED = "measured"
    GIVEN = "given"
    """``--legal-share F``."""
    DEFAULT = "default"
    """The engine's speed was not measured (``--budget-scale`` given, or the measure failed)."""


@dataclass(frozen=True)
class LegalShare:
    """A run's share of decisions compared in full, where it comes from, and why it is what it is."""

    share: float
    source: ShareSource
    reason: str

    @staticmethod
    def given(share: float) -> LegalShare:
        return LegalShare(share, ShareSource.GIVEN, f"given: --legal-share {share:g}")

    @staticmethod
    def default(why: str) -> LegalShare:
        return LegalShare(DEFAULT_SHARE, ShareSource.DEFAULT, f"the default, {why}")

    @staticmethod
    def of(listing_seconds: float, step_seconds: float, trying_seconds: float = 0.0) -> LegalShare:
        """The share a measure gives: :data:`LISTING_BUDGET` times a step over one listing, rounded down to a
        hundredth, between :data:`MIN_SHARE` and :data:`DEFAULT_SHARE`; but 1 where the engine's listing costs no
        more than its ``try_actions`` of the probes (``trying_seconds``, measured when it declares both): the
        decisions not compared in full would each cost a batch of probes, so listing every one is cheaper."""
        if listing_seconds <= 0 or step_seconds <= 0:
            return LegalShare.default("the listing's cost could not be told apart")
        measured = f"measured: a listing took {listing_seconds * 1e3:.3f} ms, a step {step_seconds * 1e3:.3f} ms"
        if trying_seconds > 0:
            measured += f", a try_actions of the probes {trying_seconds * 1e3:.3f} ms"
            if listing_seconds <= trying_seconds:
                return LegalShare(1.0, ShareSource.MEASURED, f"{measured}: every decision is judged by the "
                                  "listing, the cheaper; --legal-share 1 reproduces it")
        budget = math.floor(LISTING_BUDGET * step_seconds / listing_seconds * 100) / 100
        share = min(DEFAULT_SHARE, max(MIN_SHARE, budget))
        probed = "; the others by try_actions, the cheaper" if trying_seconds > 0 else ""
        return LegalShare(share, ShareSource.MEASURED, f"{measured}{probed}; --legal-share {share:g} reproduces it")

    @staticmethod
    def of_scale(scale: BudgetScale) -> LegalShare:
        """The share the run's measure of the engine gives (:mod:`oracle.engines.speed`); the default without one."""
        sample = scale.sample
        if sample is None:
            return LegalShare.default("the engine's speed was not measured")
        return LegalShare.of(sample.listing_seconds, sample.step_seconds, sample.trying_seconds)

    def text(self) -> str:
        """``legal-set share 0.05 (measured: …)``, as the console prints it."""
        return f"legal-set share {self.share:g} ({self.reason})"

    def to_json(self) -> JSON:
        return {"share": self.share, "source": self.source.value}


def given_problem(share: float) -> str:
    """Why ``--legal-share F`` is refused ('' when it is not)."""
    if math.isfinite(share) and MIN_SHARE <= share <= 1:
        return ""
    return f"--legal-share must be a number from {MIN_SHARE:g} to 1, got {share:g}"


@dataclass
class LegalSampler:
    """Which decisions of one game compare the engine's complete legal set: the first of each kind, and each
    other with probability ``share`` drawn from ``seed`` and the decision's number."""

    share: float
    seed: object
    seen: set[str] = field(default_factory=set)

    def full(self, kind: object, step: int) -> bool:
        first = str(kind) not in self.seen
        self.seen.add(str(kind))
        if first or self.share >= 1:
            return True
        return random.Random(f"legal-{self.seed}-{step}").random() < self.share
