"""Running an engine under test safely: importing it, guarding every call, and working around gaps.

* :mod:`oracle.engines.connect` turns an ``--impl`` string into a factory (and an :class:`EngineUnderTest`).
* :class:`Subject` wraps an engine: each call has a timeout (SIGALRM, so a hung pure-Python engine is
  interrupted, and a call that outlasts it counts as timed out even when the engine swallowed the alarm);
  starting an engine (``create`` and the handshake) has a deadline of its own, ``start_timeout`` (default
  :data:`DEFAULT_START_TIMEOUT`), since a process that starts on a busy machine may take far longer than a call,
  any exception becomes an :class:`EngineFault`, everything handed to the engine is a fresh copy, and
  everything it returns passes the engine-text gate (:mod:`oracle.core.engine_text`: no control character, no
  lone surrogate, in answers, the handshake, exceptions and their type names) and is checked for shape
  (:mod:`oracle.core.shapes`, PROTO-2) before the oracle uses it.
  Missing capabilities are worked around: without ``legal_actions`` the oracle judges candidate actions, in one
  ``try_actions`` call where the engine has it, else on copies of the engine. The verdicts ``try_actions`` gave
  at a position are remembered: an ``apply`` there that contradicts one is a protocol error (PROTO-2).

Under ``oracle check`` and ``oracle fuzz`` all of this runs in a worker process; the supervisor
(:mod:`oracle.run`) keeps each unit's deadline from outside, so nothing the engine does can defeat it.
"""

from __future__ import annotations

import copy
import json
import marshal
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from oracle.core import shapes
from oracle.core.defaults import DEFAULT_START_TIMEOUT as DEFAULT_START_TIMEOUT
from oracle.core.engine_text import clean_data, clean_snapshot
from oracle.core.faults import DeclaredButUnsupported, EngineFault, PositionRefused, TriedThenContradicted
from oracle.core.json_types import JSON
from oracle.core.narrate import action_text
from oracle.core.portable import shown_path
from oracle.core.protocol import CAPABILITIES, CAPABILITY_METHODS, SHUFFLES_INSIDE, Engine
from oracle.core.validation import validation_errors
from oracle.core.versions import PROTOCOL_VERSION
from oracle.engines.costs import BY_TRIAL

HANDSHAKE_SCHEMA = "handshake.schema.json"
START_METHODS = frozenset({"create", "handshake"})
"""The calls timed by the start-up deadline rather than the per-call timeout."""
_AS_IS: Callable[[Any], Any] = lambda value: value  # noqa: E731
ANSWER_GATES: dict[str, Callable[[Any], Any]] = {"create": _AS_IS, "deepcopy": _AS_IS, "export": clean_snapshot}
"""How each call's answer passes the engine-text gate, by method: an engine object as it is, a snapshot all but its
private state, every other answer (the handshake included) as engine data (:func:`clean_data`)."""


# Seconds a call may run past its timeout before it counts as timed out (timer and scheduling jitter).
_TIMEOUT_SLACK = 0.25


class EngineTimeout(BaseException):
    """Raised inside an engine call when its time is up (a BaseException, so engines cannot swallow it)."""


def raised_words(exc: BaseException) -> str:
    """``raised ValueError: the message (at pkg/module.py:12)``, for an exception an engine raised; an exception
    whose own ``str`` raises is named by its type alone (the text passes the gate in :class:`EngineFault`)."""
    try:
        said = str(exc)
    except Exception:
        said = "(its message could not be read)"
    return f"raised {type(exc).__name__}: {said}{where_raised(exc)}"


def where_raised(exc: BaseException) -> str:
    """`` (at pkg/module.py:12)``: where the exception was raised, by module, never by the machine's paths."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f" (at {shown_path(last.filename)}:{last.lineno})"


CallHook = Callable[[str], None]
_call_hooks: list[CallHook] = []


def on_engine_call(hook: CallHook) -> None:
    """Have ``hook(method)`` called before every guarded engine call (the worker records what it is doing)."""
    _call_hooks.append(hook)


def _announce(method: str) -> None:
    for hook in _call_hooks:
        hook(method)


CostHook = Callable[[str, float], None]
_cost_hooks: list[CostHook] = []


def on_engine_cost(hook: CostHook) -> Callable[[], None]:
    """Have ``hook(method, seconds)`` called after every guarded call of an engine under test (the worker records
    the engine's cost per call, :mod:`oracle.engines.costs`); returns what removes the hook again."""
    _cost_hooks.append(hook)
    return lambda: _cost_hooks.remove(hook)


def _cost(method: str, seconds: float) -> None:
    for hook in _cost_hooks:
        hook(method, seconds)


def _on_alarm(signum: int, frame: object) -> None:
    raise EngineTimeout()


def hold_alarm_handler() -> None:
    """Keep the engine calls' alarm handler installed in this process (a worker, which owns its signals): a guarded
    call then only arms and disarms the timer, instead of installing the handler and putting the previous one back
    (two conversions of the handler, most of the harness's cost per call)."""
    signal.signal(signal.SIGALRM, _on_alarm)


_UNARMED = object()
"""What :func:`_arm` returns when no alarm was armed (no timeout, or no ``setitimer`` on this system)."""


def _arm(seconds: float) -> Any:
    """Start the alarm that interrupts an engine call after ``seconds``; returns what :func:`_disarm` puts back.
    The handler is looked at before every call: when it is not ours (never held, or replaced since, e.g. by
    pytest-timeout) it is installed for the call and the previous one put back after it, so no host's handler ever
    receives the engine's alarm."""
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        return _UNARMED
    previous = signal.getsignal(signal.SIGALRM)
    if previous is not _on_alarm:
        signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return previous


def _disarm(previous: Any) -> None:
    """Stop the alarm :func:`_arm` started, and put back the handler it replaced."""
    if previous is _UNARMED:
        return
    signal.setitimer(signal.ITIMER_REAL, 0)
    if previous is not _on_alarm:
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Handshake:
    protocol: str
    engine: str
    version: str
    players: tuple[int, ...]
    expansion: bool
    artifacts: bool
    capabilities: frozenset[str]
    variants: dict[str, str]

    def can(self, capability: str) -> bool:
        return capability in self.capabilities

    @property
    def reshuffles_inside(self) -> bool:
        """The engine reshuffles the discard pile with its own generator (``internal_shuffle`` or
        ``internal_reshuffle``): it never asks a ``shuffle`` decision (DECK-1)."""
        return any(self.can(c) for c in SHUFFLES_INSIDE)


PARSED_KEPT = 16
"""Handshakes kept once parsed: an engine answers the same one every time it starts (thousands of times a run)."""
_parsed: dict[str, Handshake] = {}


def parse_handshake(data: object) -> Handshake:
    """Validate an engine's handshake, against ``handshake.schema.json`` too (PROTO-2); raise EngineFault naming
    the bad field. A handshake equal to one parsed before is not validated again (the check takes longer than
    starting the reference engine)."""
    try:
        key = json.dumps(data, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return _parse_handshake(data)
    known = _parsed.get(key)
    if known is not None:
        return known
    handshake = _parse_handshake(data)
    if len(_parsed) < PARSED_KEPT:
        _parsed[key] = handshake
    return handshake


def _parse_handshake(data: object) -> Handshake:
    if not isinstance(data, dict):
        raise EngineFault("bad-output", "handshake", "must return a JSON object")
    protocol = data.get("protocol")
    if not isinstance(protocol, str) or protocol.split(".")[0] != PROTOCOL_VERSION.split(".")[0]:
        raise EngineFault("bad-output", "handshake", f"protocol {protocol!r} is not compatible with {PROTOCOL_VERSION}")
    players = data.get("players", [2, 3, 4])
    if not isinstance(players, list) or not all(p in (2, 3, 4) for p in players):
        raise EngineFault("bad-output", "handshake", f"players must be a list drawn from 2, 3, 4, got {players!r}")
    caps = data.get("capabilities", [])
    if not isinstance(caps, list) or not all(isinstance(c, str) for c in caps):
        raise EngineFault("bad-output", "handshake", "capabilities must be a list of strings")
    unknown = sorted(set(caps) - set(CAPABILITIES))
    if unknown:
        raise EngineFault("bad-output", "handshake", f"unknown capabilities {unknown}; known: {list(CAPABILITIES)}")
    variants = data.get("variants", {})
    if not isinstance(variants, dict):
        raise EngineFault("bad-output", "handshake", "variants must be an object")
    problems = validation_errors("handshake", data)
    if problems:
        raise EngineFault("bad-output", "handshake", f"field {problems[0]} (oracle/schemas/{HANDSHAKE_SCHEMA})")
    return Handshake(
        protocol=protocol,
        engine=str(data.get("engine", "unnamed engine")),
        version=str(data.get("version", "")),
        players=tuple(players),
        expansion=bool(data.get("expansion", False)),
        artifacts=bool(data.get("artifacts", False)),
        capabilities=frozenset(caps),
        variants={str(k): str(v) for k, v in variants.items()},
    )


class Subject:
    """An engine under test, every call guarded by a timeout and turned into protocol data or a fault: ``timeout``
    per call, ``start_timeout`` for ``create`` and ``handshake``."""

    def __init__(self, factory: Callable[[], Any], impl: str, timeout: float = 5.0,
                 start_timeout: float = DEFAULT_START_TIMEOUT, costed: bool = True) -> None:
        self.factory = factory
        self.impl = impl
        self.costed = costed
        """Whether the calls count in the engine's costs (not for a reference timed beside it)."""
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.engine: Engine = self._call("create", factory)
        self.handshake = parse_handshake(self._call("handshake", self.engine.handshake))
        self.tried: dict[bytes, JSON] = {}
        """The verdicts ``try_actions`` gave at the current position, by action (marshalled)."""

    def _call(self, method: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Every engine call goes through here: announced to the hooks, guarded, and its answer through the
        engine-text gate (:data:`ANSWER_GATES`), whatever guard a subclass puts in :meth:`_guard`."""
        if _call_hooks:
            _announce(method)
        if not (_cost_hooks and self.costed):
            return ANSWER_GATES.get(method, clean_data)(self._guard(method, fn, *args))
        started = time.perf_counter()
        try:
            return ANSWER_GATES.get(method, clean_data)(self._guard(method, fn, *args))
        finally:
            _cost(method, time.perf_counter() - started)

    def _guard(self, method: str, fn: Callable[..., Any], *args: Any) -> Any:
        allowed = self.start_timeout if method in START_METHODS else self.timeout
        started = time.perf_counter()
        try:
            previous = _arm(allowed)
            try:
                value = fn(*args)
            finally:
                _disarm(previous)
        except EngineTimeout:
            raise EngineFault("timeout", method, f"no answer within {allowed:g} s"
                              + (" (--start-timeout)" if method in START_METHODS else "")) from None
        except EngineFault as fault:
            raise self._declared(method, fault) from None
        except NotImplementedError:
            raise self._declared(method, EngineFault("unsupported", method, "not implemented by this engine")) \
                from None
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise EngineFault("error", method, raised_words(exc)) from None
        elapsed = time.perf_counter() - started
        if allowed > 0 and elapsed > allowed + _TIMEOUT_SLACK:
            raise EngineFault("timeout", method, f"answered after {elapsed:.1f} s, past the {allowed:g} s "
                              "allowed (the engine kept running through the timeout)")
        return value

    def _declared(self, method: str, fault: EngineFault) -> EngineFault:
        """``fault``, unless it refuses a call a declared capability promises: then that contradiction (PROTO-2)."""
        handshake: Handshake | None = getattr(self, "handshake", None)
        if fault.kind != "unsupported" or handshake is None:
            return fault
        for capability, promised in CAPABILITY_METHODS.items():
            if promised == method and handshake.can(capability):
                return DeclaredButUnsupported(capability, method)
        return fault

    # ------------------------------------------------------------------ protocol calls

    def new_game(self, setup: JSON) -> list[JSON]:
        self.tried = {}
        events = self._call("new_game", self.engine.new_game, shapes.fresh(setup))
        if events is None:
            return []
        _check_shape("new_game", shapes.events_problem(events))
        return list(events)

    def decision(self) -> JSON | None:
        pending = self._call("decision", self.engine.decision)
        _check_shape("decision", shapes.decision_problem(pending))
        return pending  # type: ignore[no-any-return]

    def apply(self, action: JSON) -> JSON:
        """The engine's answer; PROTO-2 when it contradicts the verdict ``try_actions`` gave ``action`` here. A
        rejected action leaves the position (and so the verdicts remembered) as it was (DEC-4)."""
        tried = self.tried.get(marshal.dumps(action)) if self.tried else None
        result = self._call("apply", self.engine.apply, shapes.fresh(action))
        _check_shape("apply", shapes.apply_result_problem(result))
        result.setdefault("events", [])
        if result["accepted"]:
            self.tried = {}
        if tried is not None:
            check_verdict(action, tried, result)
        return result  # type: ignore[no-any-return]

    def try_actions(self, actions: list[JSON]) -> list[JSON]:
        """The engine's verdict on each action, without applying any (capability ``try_actions``): ``{"accepted":
        true}`` or ``{"accepted": false, "rejection": {...}}``, one per action, in order (PROTO-2)."""
        if not actions:
            return []
        verdicts = self._call("try_actions", self.engine.try_actions, shapes.fresh(actions))
        _check_shape("try_actions", shapes.try_actions_problem(verdicts, len(actions)))
        for action, verdict in zip(actions, verdicts, strict=True):
            self.tried[marshal.dumps(action)] = verdict
        return verdicts  # type: ignore[no-any-return]

    def judge(self, actions: list[JSON]) -> list[JSON]:
        """The engine's verdict on each action without changing its state: ``try_actions`` where the engine has it,
        else each applied to a copy (:meth:`clone`)."""
        if self.handshake.can("try_actions"):
            return self.try_actions(actions)
        verdicts = []
        for action in actions:
            result = self.clone().apply(action)
            verdicts.append({k: v for k, v in result.items() if k in ("accepted", "rejection")})
        return verdicts

    def export(self) -> JSON:
        snapshot = self._call("export", self.engine.export)
        _check_shape("export", shapes.snapshot_problem(snapshot))
        return snapshot  # type: ignore[no-any-return]

    def load_snapshot(self, snapshot: JSON) -> None:
        self.tried = {}
        self._call("load", self.engine.load, shapes.fresh(snapshot))

    def load_position(self, snapshot: JSON) -> None:
        """``load`` of a position the oracle built (a scenario's, a model case's, a random one): a refusal of it
        is :class:`~oracle.core.faults.PositionRefused` (the check is unsupported), unlike a refusal of the
        engine's own snapshot (PROTO-2, when it declares ``load``)."""
        try:
            self.load_snapshot(snapshot)
        except EngineFault as fault:
            if PositionRefused.refusal(fault):
                raise PositionRefused() from None
            raise

    def legal_actions(self) -> list[JSON]:
        """The engine's own list, or (without the capability) the candidates it accepts on a copy. An action
        listed twice is a failure of its own (PROTO-3)."""
        if self.handshake.can("legal_actions"):
            actions = self._call("legal_actions", self.engine.legal_actions)
            _check_shape("legal_actions", shapes.legal_actions_problem(actions))
            twice = shapes.first_duplicate(actions)
            if twice is not None:
                raise EngineFault("duplicate", "legal_actions", f"lists {twice} more than once")
            return actions  # type: ignore[no-any-return]
        if not (_cost_hooks and self.costed):
            return self.probe_legal_actions()
        started = time.perf_counter()
        try:
            return self.probe_legal_actions()
        finally:
            _cost(BY_TRIAL, time.perf_counter() - started)

    # ------------------------------------------------------------------ working around gaps

    def clone(self) -> Subject:
        """A copy of this engine in its current state: export/load into a new instance, else deepcopy."""
        twin = object.__new__(Subject)
        twin.factory, twin.impl, twin.timeout, twin.handshake = self.factory, self.impl, self.timeout, self.handshake
        twin.start_timeout, twin.tried, twin.costed = self.start_timeout, {}, self.costed
        if self.handshake.can("export") and self.handshake.can("load"):
            twin.engine = self._call("create", self.factory)
            twin.load_snapshot(self.export())
        else:
            twin.engine = self._call("deepcopy", copy.deepcopy, self.engine)
        return twin

    def probe_legal_actions(self) -> list[JSON]:
        """The candidate actions the engine accepts, judged in one batch (:meth:`judge`): its legal actions."""
        from oracle.engines.candidates import candidate_actions

        pending = self.decision()
        if pending is None:
            return []
        snapshot = self.export() if self.handshake.can("export") else None
        candidates = candidate_actions(pending, snapshot)
        return [action for action, verdict in zip(candidates, self.judge(candidates), strict=True)
                if verdict["accepted"]]


def _verdict_words(verdict: JSON) -> str:
    """``accepted``, or ``rejected (CODE)``."""
    if verdict.get("accepted"):
        return "accepted"
    return f"rejected ({(verdict.get('rejection') or {}).get('code', '')})"


def check_verdict(action: JSON, tried: JSON, applied: JSON) -> None:
    """PROTO-2: ``apply`` gives ``action`` the verdict ``try_actions`` gave it (accepted, or the same code)."""
    said, did = _verdict_words(tried), _verdict_words(applied)
    if said != did:
        raise TriedThenContradicted(_action_words(action), said, did)


def _action_words(action: JSON) -> str:
    try:
        return action_text(action)
    except (KeyError, TypeError, AttributeError, ValueError):
        return str(action)[:200]


def _check_shape(method: str, problem: str | None) -> None:
    if problem is not None:
        raise EngineFault("bad-output", method, problem)


