"""How fast an engine answers next to the reference, measured once at the start of a run: the factor every fixed
wall-clock budget of the run is scaled by, so a slow but correct engine is not cut short (docs/reports.md,
Budgets and the engine's speed).

The measure: on a new game of each engine (the engine under test and the reference, both behind the same guarded
:class:`~oracle.engines.harness.Subject`), the cheap calls ``decision``, ``legal_actions`` and ``export`` (those the
engine declares) are timed together at the first positions of one seeded game, taking turns between the engines;
the factor is the median of the engine's times over the median of the reference's, rounded up to a tenth, 1 below
:data:`AS_FAST` and never above :data:`MAX_SCALE`. ``--budget-scale X`` gives the factor instead, and reproduces a
run exactly. The same measure times the engine's listing, its ``apply`` and (where it declares ``legal_actions`` and
``try_actions``) its ``try_actions`` of a batch of probes, from which :mod:`oracle.engines.legal_share` chooses how the
decisions not compared in full are judged.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.undrivable import undrivable_reason
from oracle.engines.harness import Handshake, Subject
from oracle.engines.play import new_setup
from oracle.engines.trial import trial_actions

POSITIONS = 4
"""Positions of the seeded game at which the calls are timed."""
ROUNDS = 3
"""Times each engine's calls are timed at each position (the engines take turns, the first alternating)."""
CALIBRATION_SECONDS = 2.0
"""Wall-clock seconds the measure may take, and the longest any one of its calls may take."""
MAX_SCALE = 100.0
"""The largest factor a measure gives: an engine slower still is cut short by the budgets, ``incomplete``."""
AS_FAST = 1.25
"""An engine whose calls take less than this many times the reference's is as fast (factor 1): the budgets leave
that margin, and the reference timed against itself varies by a tenth or so."""
SEED = 1
"""The seed of the game whose first positions are timed."""
REFERENCE = "oracle.reference"


class ScaleSource(str, Enum):
    """Where a run's budget scale comes from."""

    MEASURED = "measured"
    GIVEN = "given"
    """``--budget-scale X``."""
    UNMEASURED = "unmeasured"
    """The measure failed (an engine call faulted): the budgets stay as they are (factor 1)."""


@dataclass(frozen=True)
class SpeedSample:
    """The median seconds of one position's cheap calls, by the engine and by the reference."""

    engine_seconds: float
    reference_seconds: float
    samples: int
    listing_seconds: float = 0.0
    """The median seconds of the engine's listing of its legal actions (found by trial without the capability), asked
    again at the same position (so that a wire engine's answer looked ahead does not hide its cost)."""
    step_seconds: float = 0.0
    """The median seconds of the engine's ``apply`` of a step."""
    trying_seconds: float = 0.0
    """The median seconds of the engine's ``try_actions`` of a batch of probes as random play asks it (the chosen
    action, other legal actions, illegal candidates: :func:`oracle.engines.trial.trial_actions`); 0 unless the engine
    declares both ``try_actions`` and ``legal_actions``, the two ways of judging a decision the oracle chooses from."""


@dataclass(frozen=True)
class BudgetScale:
    """The factor of a run's fixed budgets, where it comes from, and the measure behind it."""

    factor: float
    source: ScaleSource
    sample: SpeedSample | None = None
    note: str = ""
    """Why the measure failed (UNMEASURED)."""

    @staticmethod
    def given(factor: float) -> BudgetScale:
        return BudgetScale(factor, ScaleSource.GIVEN)

    @staticmethod
    def unmeasured(note: str) -> BudgetScale:
        return BudgetScale(1.0, ScaleSource.UNMEASURED, note=note)

    @staticmethod
    def of(sample: SpeedSample) -> BudgetScale:
        """The factor a measure gives: the engine's median over the reference's, rounded up to a tenth, up to
        :data:`MAX_SCALE`; 1 when it is below :data:`AS_FAST`."""
        ratio = sample.engine_seconds / sample.reference_seconds if sample.reference_seconds > 0 else 1.0
        factor = 1.0 if ratio < AS_FAST else min(MAX_SCALE, math.ceil(round(ratio * 10, 6)) / 10)
        return BudgetScale(factor, ScaleSource.MEASURED, sample)

    def text(self) -> str:
        """``budget scale 2.3 (measured: the engine's calls took 0.412 ms, the reference's 0.180 ms; --budget-scale
        2.3 reproduces it)``, as the console prints it."""
        if self.source is ScaleSource.GIVEN:
            return f"budget scale {self.factor:g} (given: --budget-scale {self.factor:g})"
        if self.source is ScaleSource.UNMEASURED or self.sample is None:
            return f"budget scale {self.factor:g} (not measured: {self.note})"
        sample = self.sample
        return (f"budget scale {self.factor:g} (measured: the engine's calls took {sample.engine_seconds * 1e3:.3f} "
                f"ms, the reference's {sample.reference_seconds * 1e3:.3f} ms; --budget-scale {self.factor:g} "
                "reproduces it)")

    def to_json(self) -> JSON:
        out: JSON = {"factor": self.factor, "source": self.source.value}
        if self.sample is not None:
            out.update(engine_ms=round(self.sample.engine_seconds * 1e3, 6),
                       reference_ms=round(self.sample.reference_seconds * 1e3, 6), samples=self.sample.samples)
        if self.note:
            out["note"] = self.note
        return out


def given_problem(factor: float) -> str:
    """Why ``--budget-scale FACTOR`` is refused ('' when it is not): a factor is 1 or more, and finite."""
    if math.isfinite(factor) and factor >= 1:
        return ""
    return f"--budget-scale must be 1 or more and finite, got {factor:g}"


def measure_scale(engine: Subject) -> BudgetScale:
    """The budget scale of ``engine`` (a fresh engine, used up by the measure) next to a fresh reference declaring
    the same variants; UNMEASURED with the reason when a call faults."""
    from oracle.reference import ReferenceEngine

    started = time.perf_counter()
    timeout = engine.timeout
    engine.timeout = min(timeout or CALIBRATION_SECONDS, CALIBRATION_SECONDS)
    try:
        reference = Subject(lambda: ReferenceEngine(engine.handshake.variants), REFERENCE, engine.timeout,
                            costed=False)
        sample = _sample(engine, reference, started)
    except EngineFault as fault:
        return BudgetScale.unmeasured(f"{fault.method}() failed while timing the engine: {fault.message}")
    finally:
        engine.timeout = timeout
    return BudgetScale.of(sample)


def _sample(engine: Subject, reference: Subject, started: float) -> SpeedSample:
    players = min(engine.handshake.players)
    setup = new_setup(players, SEED, first_player=0)
    engine.new_game(setup)
    reference.new_game(setup)
    times: tuple[list[float], list[float]] = ([], [])
    listings: list[float] = []
    steps: list[float] = []
    tries: list[float] = []
    both = engine.handshake.can("try_actions") and engine.handshake.can("legal_actions")
    for position in range(POSITIONS):
        for turn in range(ROUNDS):
            pair = (engine, reference) if (position + turn) % 2 == 0 else (reference, engine)
            for subject in pair:
                times[subject is reference].append(_timed(subject, engine.handshake))
        engine.legal_actions()
        listings.append(_seconds(engine.legal_actions))
        trying = _trying(engine, reference, position) if both else 0.0
        tries += [trying] if trying > 0 else []
        applied = _advance(engine, reference) if time.perf_counter() - started <= CALIBRATION_SECONDS else None
        if applied is None:
            break
        steps.append(applied)
    return SpeedSample(statistics.median(times[0]), statistics.median(times[1]), len(times[0]),
                       statistics.median(listings), statistics.median(steps) if steps else 0.0,
                       statistics.median(tries) if tries else 0.0)


def _trying(engine: Subject, reference: Subject, position: int) -> float:
    """Seconds of the engine's ``try_actions`` of the probes random play would ask at this position, 0 when it
    faults (the probes are then kept, and the checks meet the fault); its verdicts are forgotten (the measure judges
    no engine)."""
    legal = reference.legal_actions()
    pending = reference.decision()
    if not legal or pending is None:
        return 0.0
    probes = trial_actions(legal[0], legal, pending, reference.export(), f"speed-{position}")
    try:
        seconds = _seconds(lambda: engine.try_actions(probes))
    except EngineFault:
        return 0.0
    finally:
        engine.tried = {}
    return seconds


def _seconds(call: Callable[[], object]) -> float:
    began = time.perf_counter()
    call()
    return time.perf_counter() - began


def _timed(subject: Subject, declared: Handshake) -> float:
    """Seconds of the cheap calls the engine under test declares (``declared``), on ``subject``."""
    calls: list[Callable[[], object]] = [subject.decision]
    calls += [subject.legal_actions] if declared.can("legal_actions") else []
    calls += [subject.export] if declared.can("export") else []
    began = time.perf_counter()
    for call in calls:
        call()
    return time.perf_counter() - began


def _advance(engine: Subject, reference: Subject) -> float | None:
    """Both engines one step further along the same game (the reference's first legal answer, a reshuffle left in
    its order): the seconds of the engine's ``apply``; None when the game cannot go on alike on both."""
    pending = engine.decision()
    if pending is None or undrivable_reason(pending):
        return None
    if pending.get("kind") == "shuffle":
        action: JSON = {"type": "shuffle", "player": None, "order": sorted(pending.get("cards", []))}
    else:
        legal = reference.legal_actions()
        if not legal:
            return None
        action = legal[0]
    began = time.perf_counter()
    accepted = bool(engine.apply(action)["accepted"])
    applied = time.perf_counter() - began
    return applied if accepted and reference.apply(action)["accepted"] else None
