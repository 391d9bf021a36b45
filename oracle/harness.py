"""Running an engine under test safely: importing it, guarding every call, and working around gaps.

* :func:`resolve_impl` turns ``package.module`` or ``package.module:factory`` into a factory, with a
  one-line :class:`ImplError` for every way that can fail.
* :class:`Subject` wraps an engine: each call has a timeout (SIGALRM, so a hung pure-Python engine is
  interrupted), any exception becomes an :class:`EngineFault`, and missing capabilities are worked
  around: without ``legal_actions`` the oracle tries candidate actions on copies of the engine.
"""

from __future__ import annotations

import copy
import importlib
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from oracle import PROTOCOL_VERSION
from oracle.protocol import CAPABILITIES, Engine

JSON = dict[str, Any]
DEFAULT_IMPL = "oracle.reference"
DEFAULT_FACTORY = "create"


class ImplError(Exception):
    """The engine named by ``--impl`` cannot be loaded; the message is one line for the user."""


class EngineFault(Exception):
    """The engine raised, hung, or returned something that is not protocol data."""

    def __init__(self, kind: str, method: str, message: str) -> None:
        super().__init__(f"{method}: {message}")
        self.kind = kind
        self.method = method
        self.message = message


class EngineTimeout(BaseException):
    """Raised inside an engine call when its time is up (a BaseException, so engines cannot swallow it)."""


def resolve_impl(spec: str) -> Callable[[], Any]:
    """``package.module`` (factory ``create``) or ``package.module:factory`` -> a zero-argument factory;
    ``cmd:<command>`` runs the command as a wire-protocol engine (docs/wire.md)."""
    if spec.startswith("cmd:"):
        from oracle.wire.impl import wire_factory

        return wire_factory(spec)
    module_name, _, factory_name = spec.partition(":")
    module_name = module_name.strip()
    factory_name = factory_name.strip() or DEFAULT_FACTORY
    if not module_name or not all(part.isidentifier() for part in module_name.split(".")):
        raise ImplError(f"--impl {spec!r}: expected 'package.module' or 'package.module:factory'")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise ImplError(f"--impl {spec!r}: cannot import module {exc.name!r} (is it installed or on PYTHONPATH?)") \
            from None
    except Exception as exc:
        where = where_raised(exc)
        raise ImplError(f"--impl {spec!r}: importing {module_name} raised {type(exc).__name__}: {exc}{where}") \
            from None
    factory = getattr(module, factory_name, None)
    if factory is None:
        raise ImplError(f"--impl {spec!r}: module {module_name} has no factory {factory_name!r}")
    if not callable(factory):
        raise ImplError(f"--impl {spec!r}: {module_name}.{factory_name} is not callable")
    return factory  # type: ignore[no-any-return]


def where_raised(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f" (at {last.filename}:{last.lineno})"


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(signum: int, frame: object) -> None:
        raise EngineTimeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
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


def parse_handshake(data: object) -> Handshake:
    """Validate an engine's handshake; raise EngineFault naming the bad field."""
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
    """An engine under test, every call guarded by a timeout and turned into protocol data or a fault."""

    def __init__(self, factory: Callable[[], Any], impl: str, timeout: float = 5.0) -> None:
        self.factory = factory
        self.impl = impl
        self.timeout = timeout
        self.engine: Engine = self._guard("create", factory)
        self.handshake = parse_handshake(self._guard("handshake", self.engine.handshake))

    @staticmethod
    def load(impl: str, timeout: float = 5.0) -> Subject:
        return Subject(resolve_impl(impl), impl, timeout)

    def _guard(self, method: str, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            with _deadline(self.timeout):
                return fn(*args)
        except EngineTimeout:
            raise EngineFault("timeout", method, f"no answer within {self.timeout:g} s") from None
        except EngineFault:
            raise
        except NotImplementedError:
            raise EngineFault("unsupported", method, "not implemented by this engine") from None
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise EngineFault("error", method, f"raised {type(exc).__name__}: {exc}{where_raised(exc)}") from None

    # ------------------------------------------------------------------ protocol calls

    def new_game(self, setup: JSON) -> list[JSON]:
        events = self._guard("new_game", self.engine.new_game, setup)
        return list(events) if isinstance(events, list) else []

    def decision(self) -> JSON | None:
        pending = self._guard("decision", self.engine.decision)
        if pending is not None and not isinstance(pending, dict):
            raise EngineFault("bad-output", "decision", f"must return an object or null, got {pending!r}")
        return pending

    def apply(self, action: JSON) -> JSON:
        result = self._guard("apply", self.engine.apply, action)
        if not isinstance(result, dict) or not isinstance(result.get("accepted"), bool):
            raise EngineFault("bad-output", "apply", f"must return {{'accepted': bool, ...}}, got {result!r}")
        if not result["accepted"]:
            rejection = result.get("rejection")
            if not isinstance(rejection, dict) or not isinstance(rejection.get("code"), str):
                raise EngineFault("bad-output", "apply", "a rejection must carry {'code': str, 'rule': str}")
        return result

    def export(self) -> JSON:
        snapshot = self._guard("export", self.engine.export)
        if not isinstance(snapshot, dict):
            raise EngineFault("bad-output", "export", "must return a JSON object")
        return snapshot

    def load_snapshot(self, snapshot: JSON) -> None:
        self._guard("load", self.engine.load, snapshot)

    def legal_actions(self) -> list[JSON]:
        """The engine's own list, or (without the capability) the candidates it accepts on a copy."""
        if self.handshake.can("legal_actions"):
            actions = self._guard("legal_actions", self.engine.legal_actions)
            if not isinstance(actions, list):
                raise EngineFault("bad-output", "legal_actions", "must return a list of actions")
            return actions
        return self.probe_legal_actions()

    # ------------------------------------------------------------------ working around gaps

    def clone(self) -> Subject:
        """A copy of this engine in its current state: export/load into a new instance, else deepcopy."""
        twin = object.__new__(Subject)
        twin.factory, twin.impl, twin.timeout, twin.handshake = self.factory, self.impl, self.timeout, self.handshake
        if self.handshake.can("export") and self.handshake.can("load"):
            twin.engine = self._guard("create", self.factory)
            twin.load_snapshot(self.export())
        else:
            twin.engine = self._guard("deepcopy", copy.deepcopy, self.engine)
        return twin

    def probe_legal_actions(self) -> list[JSON]:
        """Try every candidate action on a copy; the accepted ones are the engine's legal actions."""
        from oracle.candidates import candidate_actions

        pending = self.decision()
        if pending is None:
            return []
        snapshot = self.export() if self.handshake.can("export") else None
        legal = []
        for action in candidate_actions(pending, snapshot):
            twin = self.clone()
            if twin.apply(action)["accepted"]:
                legal.append(action)
        return legal


def describe_fault(fault: EngineFault) -> str:
    return f"engine {fault.kind} in {fault.method}(): {fault.message}"


def python_version() -> str:
    return sys.version.split()[0]
