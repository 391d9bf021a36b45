"""The core of a fuzzed game run: its engines, choices and time limits, and how a failure becomes a Violation."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from oracle.core.causes import CAUSE_KEY, stalled
from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.protocol import DecisionKind, decision_contract, snapshot_contract
from oracle.core.results import Outcome
from oracle.engines.harness import EngineTimeout, Subject, raised_words
from oracle.engines.legal_share import LegalSampler
from oracle.reference import ReferenceEngine
from vale_invariants.actions import Key
from vale_invariants.catalog import ENGINE_FAULT, LOCKSTEP, REFERENCE_FAULT
from vale_invariants.checks import Finding
from vale_invariants.game_choices import Chooser
from vale_invariants.game_settings import STEP_CALLS, GameSettings, Stats
from vale_invariants.guards import GuardProbe
from vale_invariants.lockstep import decision_difference, first_state_difference
from vale_invariants.trace import Divergence, Failure, Signature, Trace, Violation, compact, show_decision


class RunnerCore:
    """What every part of a game run shares; :class:`~vale_invariants.game.GameRunner` plays the game."""

    def __init__(self, settings: GameSettings, chooser: Chooser, stats: Stats | None = None) -> None:
        self.settings = settings
        self.chooser = chooser
        self.stats = stats if stats is not None else Stats()
        self.trace = Trace(setup={})
        self.reference: ReferenceEngine | None = None
        self.reference_snapshot: JSON | None = None
        self.history: list[JSON | None] = []
        self.can_export = False
        self.active: frozenset[str] = settings.active
        self.deck: frozenset[str] = frozenset()
        self._subject: Subject | None = None
        self._exported: tuple[JSON, JSON] | None = None
        self._armed = False
        self._calling = "new_game"
        self._twin: Subject | None = None
        self.keep_copies = True
        self.mode = ""
        """The game mode drawn for this game (base, expansion, artifacts)."""
        self.resync_point: tuple[int, JSON] | None = None
        """When the reference was last re-synchronised: the trace actions applied, and the engine's snapshot."""
        self.guarded: defaultdict[DecisionKind, set[GuardProbe]] = defaultdict(set)
        """The guard probes this game has sent (or found no way to build), by decision kind."""
        self.positions_reached = 0
        """Positions this game has reached and checked (its start, then one after each decision)."""
        self.decisions_played = 0
        self.sampler = LegalSampler(settings.legal_share, 0)
        """Which decisions compare the engine's complete legal set (reseeded with each game's deck seed)."""
        self.listed = True
        """The current decision's legal actions are the engine's own list (else the reference's: a sampled-out
        decision, judged by :mod:`oracle.engines.trial`)."""
        self.reloaded = False
        """The engine was loaded with another position during this step (``game_resync``)."""
        self.undone: set[Key] = set()
        """The illegal actions the engine accepted at the current position and went back from (not chosen again)."""
        self.undone_now = False
        self.replayable: int | None = None
        """The positions of ``history`` a replay of the trace can reproduce (None: all): the engine was loaded with
        the reference's position after them."""

    @property
    def subject(self) -> Subject:
        assert self._subject is not None, "no game started"
        return self._subject

    # ------------------------------------------------------------------ choices and failures

    def draw(self, low: int, high: int) -> int:
        value = self.chooser.integer(low, high)
        self.trace.choices.append(value)
        return value

    def fail(self, finding: Finding, step: int, mode: str = "invariants") -> Violation:
        return Violation(Failure(finding.invariant, mode, finding.rules, finding.message, step, self.trace,
                                 finding.expected, finding.actual, finding.outcome, signature=finding.known_as))

    def diverge(self, divergence: Divergence) -> Violation:
        rules = divergence.rules
        shown = show_decision if divergence.kind == "decision" else shown_text
        return Violation(Failure(LOCKSTEP.name, "lockstep", rules, divergence.describe(), divergence.step,
                                 self.trace, shown(divergence.expected), shown(divergence.actual),
                                 Outcome.ILLEGAL_ACCEPTED if divergence.kind == "rejected" else Outcome.FAIL,
                                 divergence, signature=divergence.signature))

    def known(self, signature: Signature, rules: tuple[str, ...]) -> bool:
        """Whether a failure is of a known cause: one this run reported already (``settings.known``), or one
        ``--set-aside`` names by its blamed (first) rule."""
        settings = self.settings
        return signature in settings.known or (bool(rules) and rules[0] in settings.set_aside)

    def aside(self, signature: Signature, rules: tuple[str, ...]) -> bool:
        """Whether a failure is of a known cause (:meth:`known`); it is then counted, and the game goes on."""
        if self.known(signature, rules):
            self.stats.set_aside[rules[0] if rules else str(signature)] += 1
            return True
        return False

    def position(self, snapshot: JSON | None) -> JSON | None:
        """The snapshot to go back to after an illegal action: ``snapshot`` when it is a copy (an engine may change
        what it returned when it moves on), else None (the reference's position is taken)."""
        return snapshot if self.keep_copies else None

    def rejection_changed(self, before: JSON | None, pending: JSON | None, exact: bool) -> str | None:
        """Where the engine's state or pending decision changed across an action it rejected (DEC-4), or None.
        ``exact`` compares the whole snapshot and decision but their free text, the prompt (an invariant), else what
        two engines must agree on (the canonical snapshot, the decision's shape: lock-step, ``before`` the
        reference's snapshot)."""
        if before is not None:
            again = self.subject.export()
            where = first_state_difference(before, again)
            if where is None and exact and snapshot_contract(again) != snapshot_contract(before):
                where = "private"
            if where is not None:
                return where
        if pending is None:
            return None
        decision = self.subject.decision()
        if exact:
            changed = decision is None or decision_contract(decision) != decision_contract(pending)
        else:
            changed = decision_difference(pending, decision) is not None
        return "the pending decision" if changed else None

    def stall(self, finding: Finding, snapshot: JSON | None, pending: JSON | None, step: int) -> Violation:
        """A game that makes no progress (``finding`` names no rule): its cause is the stall itself, the phase, the
        decision and who holds it (:func:`oracle.core.causes.stalled`), never END-1."""
        violation = self.fail(finding, step)
        phase = str(snapshot.get("phase", "")) if snapshot is not None else ""
        violation.failure.fault_details = {CAUSE_KEY: stalled(phase, pending, finding.message).to_json()}
        return violation

    def fault(self, invariant: str, fault: EngineFault, step: int, what: str = "") -> Violation:
        outcome = {"timeout": Outcome.TIMEOUT}.get(fault.kind, Outcome.ERROR)
        detail = fault.message
        if fault.kind == "timeout":
            detail = f"no answer within the step's budget of {self.settings.timeout * STEP_CALLS:g} s " \
                     f"({STEP_CALLS} calls of {self.settings.timeout:g} s)"
        message = f"engine {fault.kind} in {fault.method}(){what}: {detail}"
        contradiction = fault.contradiction
        return Violation(Failure(invariant, "invariants", fault.rules if contradiction else (), message, step,
                                 self.trace, outcome=outcome, fault_details=fault.details if contradiction else {}))

    def on(self, name: str) -> bool:
        if name in self.active:
            self.stats.checks[name] += 1
            return True
        return False

    def _reference(self, step: int, method: str, call: Callable[[], Any]) -> Any:
        try:
            return call()
        except Exception as exc:
            raise Violation(Failure(REFERENCE_FAULT.name, "lockstep", (), f"the reference raised in {method}(): "
                                    f"{type(exc).__name__}: {exc}", step, self.trace, outcome=Outcome.ERROR)) from None

    def _raise(self, finding: Finding | None, step: int) -> None:
        """Raise the finding, unless it is of a known cause (:meth:`aside`): then the game goes on."""
        if finding is not None and not self.aside(finding.known_as, finding.rules):
            raise self.fail(finding, step)

    # ------------------------------------------------------------------ time limits

    @contextlib.contextmanager
    def _alarms(self) -> Iterator[None]:
        """One SIGALRM handler per game, re-armed at each step, instead of one per engine call (the harness's
        per-call guard costs more than a whole decision of the reference engine)."""
        usable = (self.settings.timeout > 0 and hasattr(signal, "setitimer")
                  and threading.current_thread() is threading.main_thread())
        if not usable:
            yield
            return

        def on_alarm(signum: int, frame: object) -> None:
            raise EngineTimeout()

        previous = signal.signal(signal.SIGALRM, on_alarm)
        self._armed = True
        try:
            yield
        except EngineTimeout:
            raise self.fault(ENGINE_FAULT.name, EngineFault("timeout", self._calling, "no answer"), 0) from None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            self._armed = False

    def _arm(self, what: str) -> None:
        """Start the time budget of one step (STEP_CALLS engine calls at most ``timeout`` each)."""
        self._calling = what
        if self._armed:
            signal.setitimer(signal.ITIMER_REAL, self.settings.timeout * STEP_CALLS)

    def _new_subject(self) -> Subject:
        """A Subject whose calls the step alarm times (see :meth:`_alarms`): its start (``create`` and the
        handshake) has the start-up deadline, then the step's budget starts again; else a Subject with its own."""
        if not self._armed:
            return Subject(self.settings.factory, self.settings.impl, self.settings.timeout,
                           self.settings.start_timeout)
        signal.setitimer(signal.ITIMER_REAL, self.settings.start_timeout)
        subject = _LeanSubject(self.settings.factory, self.settings.impl, 0, 0)
        self._arm(self._calling)
        return subject


class _LeanSubject(Subject):
    """A Subject for calls timed by the game's step alarm: the same faults, without a context manager and a
    signal handler per call (they cost more than a decision of the reference engine)."""

    def _guard(self, method: str, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except EngineTimeout:
            raise EngineFault("timeout", method, "no answer within the step's budget") from None
        except EngineFault as fault:
            raise self._declared(method, fault) from None
        except NotImplementedError:
            raise self._declared(method, EngineFault("unsupported", method, "not implemented by this engine")) \
                from None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            raise EngineFault("error", method, raised_words(exc)) from None


class StopGame(Exception):
    """The game cannot go on for a reason no active invariant covers."""


def dedupe_rules(rules: list[str]) -> tuple[str, ...]:
    out: list[str] = []
    for rule in rules:
        if rule and rule not in out:
            out.append(rule)
    return tuple(out[:6])


def shown_text(value: Any) -> str:
    if value is None:
        return ""
    return compact(value) if isinstance(value, dict) and "type" in value else str(value)
