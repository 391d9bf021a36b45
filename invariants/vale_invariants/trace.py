"""Traces and failures: what a fuzzed game did, and what went wrong in it.

A trace is the set-up (players, first player, deck order) plus the choices drawn and the actions that
were applied; replaying the actions from the set-up reproduces the game on any deterministic engine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any

from oracle.core.causes import Verdict, field_pattern
from oracle.core.json_types import JSON
from oracle.core.results import Outcome


@dataclass
class Trace:
    setup: JSON
    choices: list[int] = _field(default_factory=list)
    actions: list[JSON] = _field(default_factory=list)
    probe: JSON | None = None
    start: JSON | None = None
    positions: bool = False
    modes: tuple[str, ...] = ("base",)
    scarce: bool = False
    """The game started from a position with an empty draw pile (a forcing game of the rare decision kinds)."""

    def to_json(self) -> JSON:
        out: JSON = {"setup": self.setup, "choices": list(self.choices), "actions": list(self.actions)}
        if self.start is not None:
            out["start"] = self.start
        if self.probe is not None:
            out["probe"] = self.probe
        return out

    def summary(self) -> str:
        setup = self.setup
        where = f"from a random position in round {self.start['round']}" if self.start is not None else "new game"
        mode = "artifacts" if setup.get("artifacts") else "expansion" if setup.get("expansion") else ""
        where += f" ({mode})" if mode else ""
        text = (f"{where}, {setup['players']} players, first player {setup['first_player']}, "
                f"{len(self.actions)} action(s) applied")
        if self.probe is not None:
            text += f", then the illegal action {compact(self.probe)}"
        elif self.actions:
            text += f", the last {compact(self.actions[-1])}"
        return text


@dataclass(frozen=True)
class Signature:
    """What makes two failures of a run the same known cause, whichever check or game found them: the verdict, what
    sets it apart, and the blamed rule (the first rule). A cause reported once is set aside by its signature, and
    the run looks for the next one (docs/invariants.md, "Known causes").

    The signature is the verdict pair, coarser than a report's cause, because one deviation shows in many places
    once the games go on past it: an engine that gives change ends in other stones, another score or another draw
    pile, after a summon, a removal or a price paid, depending on the cards in play. So a state or decision that
    differs is one known cause, whatever differs (the run then looks for divergences of the other kinds), and so are
    the events of an action that differ once the state and decision agree (``events``); an
    illegal answer accepted is known by the reference's rejection code and rule (a wrong kind of answer and a
    malformed payment are two causes); a rejection that changed the state by what changed (an engine that changes
    its state whenever it rejects is one cause whatever it rejects)."""

    verdict: Verdict
    code: str
    """The reference's rejection code (ACCEPTS), what changed (CHANGED_THEN_REJECTED: ``players[*].stones``), the
    invariant's name (OTHER), ``events`` for events that differ (DIFFERS), else ''."""
    rule: str
    """The blamed rule ('' for DIFFERS: which rule a difference points at depends on the cards in play)."""

    def __str__(self) -> str:
        return "/".join(part or "-" for part in (self.verdict.value, self.code, self.rule))


# The verdict of each divergence kind (``accepted``: the engine rejects what the reference accepts).
DIVERGENCE_VERDICTS = {
    "state": Verdict.DIFFERS, "decision": Verdict.DIFFERS, "events": Verdict.DIFFERS, "legal": Verdict.ACCEPTS,
    "rejected": Verdict.ACCEPTS,
    "probe": Verdict.ACCEPTS, "accepted": Verdict.REJECTS, "changed": Verdict.CHANGED_THEN_REJECTED,
}


AFTER_ACTION = ("state", "decision", "events")
"""The divergence kinds seen after the engine accepted the action at ``step`` (the others are about the action
itself)."""


def changed_signature(field: str) -> Signature:
    """The known cause of a rejection that changed the engine's state at ``field`` (DEC-4), by what changed to the
    second level (``players[*].stones``: the stones taken are one cause whatever their colour)."""
    return Signature(Verdict.CHANGED_THEN_REJECTED, ".".join(field_pattern(field).split(".")[:2]), "DEC-4")


@dataclass
class Divergence:
    """The first point where the engine under test and the reference disagree.

    ``step`` is the number of trace actions applied before the point of divergence. ``kind`` is one of
    ``state`` (snapshots differ after ``action``), ``decision`` (pending decisions differ after ``action``),
    ``events`` (the events the engine returned with ``action`` differ, :mod:`oracle.engines.events`), ``legal``
    (legal-action sets differ before the next action), ``rejected`` (the reference rejects
    ``action``, which the engine accepted), ``accepted`` (the reference accepts ``action``, which the engine
    rejected), ``probe`` (the engine accepted the illegal ``action`` the reference rejects) or ``changed`` (both
    reject ``action``, the reference with ``rejection``, the engine with ``engine_rejection``, but the engine's
    state changed at ``field``: DEC-4).
    """

    kind: str
    step: int
    action: JSON | None = None
    field: str = ""
    expected: Any = None
    actual: Any = None
    missing: list[JSON] = _field(default_factory=list)
    extra: list[JSON] = _field(default_factory=list)
    rejection: JSON | None = None
    extra_rejections: list[JSON] = _field(default_factory=list)
    reference_snapshot: JSON | None = None
    reference_decision: JSON | None = None
    rules: tuple[str, ...] = ()
    given: JSON | None = None
    """The engine's snapshot the reference was last re-synchronised from (None: the game's start)."""
    given_step: int = 0
    """The number of trace actions applied when ``given`` was taken."""
    engine_rejection: JSON | None = None
    """The engine's own rejection of ``action`` (kind ``changed``)."""

    @property
    def signature(self) -> Signature:
        verdict = Verdict.REJECTS if self.kind == "legal" and not self.extra \
            else DIVERGENCE_VERDICTS.get(self.kind, Verdict.OTHER)
        if verdict is Verdict.CHANGED_THEN_REJECTED:
            return changed_signature(self.field)
        if verdict is Verdict.DIFFERS:
            return Signature(verdict, "events" if self.kind == "events" else "", "")
        code = str((self.rejection or {}).get("code", "")) if verdict is Verdict.ACCEPTS else ""
        return Signature(verdict, code, self.rules[0] if self.rules else "")

    @property
    def cause(self) -> int:
        """The index of the trace action behind the divergence (for a set-up deviation, -1)."""
        return self.step - 1 if self.kind in AFTER_ACTION else self.step

    def describe(self) -> str:
        if self.kind == "state":
            return f"{_after(self.action)}, first difference at {self.field}"
        if self.kind == "decision":
            return (f"{_after(self.action)}, the pending decision differs ({self.field}): the reference asks "
                    f"{show_decision(self.expected)}, the engine {show_decision(self.actual)}")
        if self.kind == "events":
            return (f"{_after(self.action)}, the events differ ({self.field}): the reference emits "
                    f"{_event_text(self.expected) if self.expected is not None else 'no such event'}, the engine "
                    f"{_event_text(self.actual) if self.actual is not None else 'none'}")
        if self.kind == "legal":
            parts = []
            if self.missing:
                parts.append(f"{len(self.missing)} legal action(s) not listed, e.g. {compact(self.missing[0])}")
            if self.extra:
                parts.append(f"{len(self.extra)} illegal action(s) listed, e.g. {compact(self.extra[0])}")
            return "legal-action sets differ: " + "; ".join(parts)
        if self.kind in ("rejected", "probe"):
            return f"the engine accepted {compact(self.action)}; the reference rejects it: {self.rejection}"
        if self.kind == "changed":
            said = (self.engine_rejection or {}).get("message", "")
            return (f"the engine rejected {compact(self.action)} (its message: {said!r}) but changed its state first, "
                    f"at {self.field}; the reference rejects it with {(self.rejection or {}).get('code')} and "
                    "changes nothing (DEC-4)")
        return f"the engine rejected {compact(self.action)}; the reference accepts it"

    def to_json(self) -> JSON:
        return {
            "kind": self.kind, "step": self.step, "action": self.action, "field": self.field,
            "missing": self.missing[:5], "extra": self.extra[:5], "rejection": self.rejection,
            "engine_rejection": self.engine_rejection, "rules": list(self.rules),
        }


@dataclass(repr=False)
class Failure:
    """One broken invariant (or a lock-step divergence) with the trace that shows it."""

    invariant: str
    mode: str
    rules: tuple[str, ...]
    message: str
    step: int
    trace: Trace
    expected: str = ""
    actual: str = ""
    outcome: Outcome = Outcome.FAIL
    divergence: Divergence | None = None
    shrunk: bool = False
    shrink_games: int = 0
    """Games replayed while shrinking (at most the run's ``shrink_examples``)."""
    scenario: str = ""
    scenario_note: str = ""
    trace_file: str = ""
    """Where the raw trace was saved when no scenario could be kept (``scenario_note`` says why)."""
    fault_details: dict[str, Any] = _field(default_factory=dict)
    """What the failure adds to the result's details: a capability the engine fault that ended the game contradicted,
    or the cause of a game that stalls."""
    cause: JSON | None = None
    """The facts of the trace's first divergence from the reference (``oracle.core.causes.CauseFacts`` as JSON),
    when the replay found one (issue 24)."""
    signature: Signature | None = None
    """The known cause this failure is (set where it was raised; see :attr:`known_as`)."""

    @property
    def known_as(self) -> Signature:
        """The signature that sets this failure's cause aside once it is reported: the one it was raised with, the
        divergence's for a lock-step failure, else the invariant and its rule."""
        if self.signature is not None:
            return self.signature
        if self.mode == "lockstep" and self.divergence is not None:
            return self.divergence.signature
        return Signature(Verdict.OTHER, self.invariant, self.rule)

    @property
    def rule(self) -> str:
        return self.rules[0] if self.rules else ""

    def __repr__(self) -> str:
        return f"Failure({self.invariant}, {self.rules}, step {self.step}, {len(self.trace.actions)} actions)"

    def to_json(self) -> JSON:
        return {
            "invariant": self.invariant, "mode": self.mode, "rules": list(self.rules), "message": self.message,
            "step": self.step, "expected": self.expected, "actual": self.actual, "outcome": self.outcome.value,
            "trace": self.trace.to_json(), "shrunk": self.shrunk, "shrink_games": self.shrink_games,
            "scenario": self.scenario,
            "scenario_note": self.scenario_note, "trace_file": self.trace_file,
            "divergence": None if self.divergence is None else self.divergence.to_json(),
        }


class Violation(Exception):
    """Raised inside a fuzzed game: Hypothesis shrinks the choices that lead to it."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(f"{failure.invariant} ({failure.rule or 'no rule'}): {failure.message}")
        self.failure = failure


def _after(action: JSON | None) -> str:
    return "at the start of the game" if action is None else f"after {compact(action)}"


def _event_text(event: Any) -> str:
    text = json.dumps(event, sort_keys=True, default=repr) if isinstance(event, dict) else repr(event)
    return text if len(text) <= 160 else f"{text[:159]}…"


def show_decision(decision: Any) -> str:
    """``keep_stones of p1 (limit 4)``; ``nothing (game over)`` for None."""
    if not isinstance(decision, dict):
        return "nothing (game over)"
    who = "chance" if decision.get("player") is None else f"p{decision.get('player')}"
    extra = [f"{k} {json.dumps(decision[k]) if isinstance(decision[k], bool) else decision[k]}"
             for k in ("limit", "min", "max", "cards", "players", "options", "ordered", "looking") if k in decision]
    return f"{decision.get('kind')} of {who}" + (f" ({', '.join(extra)})" if extra else "")


def compact(action: JSON | None) -> str:
    """A one-line rendering of an action, for messages."""
    if action is None:
        return "nothing"
    parts = [str(action.get("type"))]
    if action.get("player") is not None:
        parts.append(f"p{action['player']}")
    for key in ("card", "target"):
        if key in action:
            parts.append(str(action[key]))
    for key in ("payment", "stones"):
        value = action.get(key)
        if isinstance(value, dict):
            shown = ",".join(f"{k[0]}{v}" for k, v in value.items() if v)
            parts.append(f"{key}={shown or 'none'}")
    for key in ("cards", "options"):
        if key in action:
            parts.append(f"{key}={action[key]}")
    if "order" in action:
        parts.append(f"order of {len(action['order'])}")
    return " ".join(parts)
