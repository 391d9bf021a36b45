"""Requests and answers over one engine process: ids, pipelined requests, error answers, validation.

A :class:`Connection` numbers its requests, may have several on the way (pipelining: the engine answers
them in turn), matches each answer to its request by ``id`` and turns error answers into
:class:`oracle.engines.harness.EngineFault` as the in-process harness would.
"""

from __future__ import annotations

import json
import os
import signal
from typing import Any

from oracle.core.faults import EngineFault, RequestRefused
from oracle.core.json_types import JSON
from oracle.core.protocol import CAPABILITIES
from oracle.core.versions import PROTOCOL_VERSION, __version__
from oracle.engines.wire.channel import ChannelFault, Deadline, EngineProcess
from oracle.engines.wire.framing import (
    JSON_LINES,
    JSON_RPC,
    EnvelopeError,
    Framing,
    incompatibility,
    negotiated,
    refused_as_jsonrpc,
)
from oracle.engines.wire.methods import (
    METHODS,
    WIRE_CAPABILITIES,
    ErrorCode,
    encode_line,
    may_send,
    version_tuple,
)
from oracle.engines.wire.settings import WireSettings

HARNESS_MARGIN = 0.2
STARTUP_SECONDS = 30.0
"""Seconds a new engine process may take to answer its handshake when no harness deadline is running (under the
harness, ``create``'s start-up deadline, ``--start-timeout``, bounds it)."""


def call_deadline(settings: WireSettings, at_least: float = 0.0) -> Deadline:
    """The harness's own deadline if one is running (ours fires just before it, so the fault carries the
    engine's stderr), else the configured timeout (or ``at_least``, if longer)."""
    remaining = signal.getitimer(signal.ITIMER_REAL)[0] if hasattr(signal, "getitimer") else 0.0
    if remaining > 0:
        return Deadline.after(remaining - min(HARNESS_MARGIN, remaining / 4), remaining)
    return Deadline.after(max(settings.timeout, at_least))


def request_line(request_id: int, method: str, params: JSON, framing: Framing = JSON_LINES) -> bytes:
    return encode_line(framing.request(request_id, method, params))


class Renegotiate(Exception):
    """The engine refused the handshake in JSON lines as a JSON-RPC 2.0 library does: ask again in JSON-RPC."""


class Connection:
    """A live engine process after its handshake, ready for requests."""

    def __init__(self, argv: list[str], settings: WireSettings, framing: Framing = JSON_LINES) -> None:
        self.settings = settings
        self.framing = framing
        self.shaking = True
        self.owner = os.getpid()
        self.process = EngineProcess(argv)
        self.next_id = 0
        self.waiting: dict[int, str] = {}
        self.unwanted: set[int] = set()
        self.answers: dict[int, JSON] = {}
        self.version = "1.0"
        self.capabilities: frozenset[str] = frozenset()
        self.sendable = frozenset(METHODS)
        shake = self._handshake(call_deadline(settings, at_least=STARTUP_SECONDS))
        if not isinstance(shake, dict):
            raise self.process.fault("error", "the handshake answer is not a JSON object")
        refusal = incompatibility(shake.get("protocol"))
        if refusal:
            self.process.close(request_line(self.next_id, "quit", {}, self.framing))
            raise ChannelFault("error", refusal)
        self.framing = negotiated(self.framing, str(shake["protocol"]))
        self.version = self.framing.methods_version(str(shake["protocol"]))
        declared = shake.get("capabilities", [])
        self.capabilities = frozenset(c for c in declared if isinstance(c, str)) if isinstance(declared, list) \
            else frozenset()
        self.sendable = frozenset(name for name, method in METHODS.items()
                                  if may_send(method, self.version, self.capabilities))
        self.handshake: JSON = {**shake, "protocol": self.version}
        if isinstance(declared, list):
            self.handshake["capabilities"] = harness_capabilities(declared, self.version)

    def _handshake(self, deadline: Deadline) -> Any:
        """The handshake's answer, asked in the framing the oracle starts in; a JSON-RPC 2.0 library that refuses
        JSON lines as an invalid request is asked again in JSON-RPC (docs/wire.md, negotiation)."""
        try:
            return self.call("handshake", {"oracle_version": __version__}, deadline)
        except Renegotiate:
            self.waiting.clear()
            self.framing = JSON_RPC
            return self.call("handshake", {"oracle_version": __version__}, deadline)
        finally:
            self.shaking = False

    def can_send(self, method: str) -> bool:
        return method in self.sendable

    def alive(self) -> bool:
        """Running, and started by this process (a forked worker never talks to its parent's engines)."""
        return self.usable() and self.process.alive()

    def usable(self) -> bool:
        """Not known to be broken (the cheap check before each call: a process that died since shows as a
        closed stdout on the call itself)."""
        return self.owner == os.getpid() and not self.process.broken

    # ------------------------------------------------------------------ requests

    def send(self, requests: list[tuple[str, JSON]], deadline: Deadline) -> list[int]:
        """Write these requests in one go; their ids, in order."""
        ids, lines = [], []
        for method, params in requests:
            self.next_id += 1
            ids.append(self.next_id)
            self.waiting[self.next_id] = method
            lines.append(request_line(self.next_id, method, params, self.framing))
        try:
            self.process.send(lines, deadline)
        except BaseException as exc:
            self._interrupted(exc)
            raise
        return ids

    def forget(self, request_id: int) -> None:
        """The answer to this request will not be read: drop it when it comes."""
        if request_id in self.answers:
            del self.answers[request_id]
        elif request_id in self.waiting:
            self.unwanted.add(request_id)

    def forget_all(self) -> None:
        for request_id in list(self.waiting) + list(self.answers):
            self.forget(request_id)

    def answer(self, request_id: int, deadline: Deadline, caller: str | None = None) -> Any:
        """The result of this request (reading past answers to earlier requests), or its error as a fault
        naming ``caller`` (the Engine method that asked, by default the request's own method)."""
        method = caller or self.waiting.get(request_id, "?")
        try:
            while request_id not in self.answers:
                self._read_one(request_id, deadline)
        except BaseException as exc:
            self._interrupted(exc)
            raise
        message = self.answers.pop(request_id)
        if "error" in message:
            raise error_fault(method, message["error"])
        return message["result"]

    def call(self, method: str, params: JSON, deadline: Deadline, caller: str | None = None) -> Any:
        [request_id] = self.send([(method, params)], deadline)
        return self.answer(request_id, deadline, caller)

    # ------------------------------------------------------------------ reading

    def _unwanted_line(self, line: bytes) -> bool:
        """An answer that will not be read, recognised by its opening (``{"id":N,`` in JSON lines) unparsed."""
        prefix = self.framing.answer_prefix
        if not self.unwanted or not line.startswith(prefix):
            return False
        end = line.find(b",", len(prefix))
        digits = line[len(prefix):end]
        if end < 0 or not digits.isdigit() or int(digits) not in self.unwanted:
            return False
        self.unwanted.discard(int(digits))
        self.waiting.pop(int(digits), None)
        return True

    def _read_one(self, expected: int, deadline: Deadline) -> None:
        """Read one line: an answer, or in JSON-RPC a batch of them."""
        message = self.process.receive(deadline, self._unwanted_line)
        try:
            answers = self.framing.answers(message)
        except EnvelopeError as exc:
            raise self.process.fault("error", f"wrote a line that {exc}: {_short(message)}") from None
        for answer in answers:
            self._take_answer(answer, expected)

    def _take_answer(self, raw: JSON, expected: int) -> None:
        if self.shaking and refused_as_jsonrpc(self.framing, raw):
            raise Renegotiate()
        try:
            message = self.framing.inward(raw)
        except EnvelopeError as exc:
            raise self.process.fault("error", f"wrote an answer that {exc}: {_short(raw)}") from None
        if "id" not in message:
            raise self.process.fault("error", f"wrote a line that is not a response object: {_short(raw)}")
        answered = message["id"]
        if not isinstance(answered, int) or isinstance(answered, bool) or answered not in self.waiting:
            raise self.process.fault("error", f"answered with id {answered!r} while request {expected} "
                                              f"({self.waiting.get(expected, '?')}) was waiting")
        method = self.waiting.pop(answered)
        if ("result" in message) == ("error" in message):
            raise self.process.fault("error", f"the answer to {method} (id {answered}) must carry exactly one "
                                              "of 'result' and 'error'")
        if self.settings.validate:
            from oracle.engines.wire.validate import response_violation

            violation = response_violation(method, raw, self.framing.response_schema)
            if violation:
                raise self.process.fault("error", violation)
        if answered in self.unwanted:
            self.unwanted.discard(answered)
            return
        self.answers[answered] = message

    def _interrupted(self, exc: BaseException) -> None:
        """A read or write stopped half-way by anything but a protocol fault (the harness's alarm): the stream
        can no longer be trusted, so the process goes."""
        if not isinstance(exc, (ChannelFault, Renegotiate)):
            self.process.broken = True
            self.process.kill()

    def close(self) -> None:
        """Ask the engine to quit (only the process that started it may)."""
        if self.owner != os.getpid():
            return
        self.next_id += 1
        self.process.close(request_line(self.next_id, "quit", {}, self.framing))


def harness_capabilities(declared: list[Any], engine_version: str) -> list[Any]:
    """The capabilities the suites see: not the wire's own (``observe``), and, from an engine of a newer
    minor version, only those this oracle knows (a minor version only adds; what it adds, we ignore).
    From an engine of this version or older, an unknown name stays, for the harness to refuse as a typo."""
    kept = [c for c in declared if c not in WIRE_CAPABILITIES]
    if version_tuple(engine_version) > version_tuple(PROTOCOL_VERSION):
        kept = [c for c in kept if c in CAPABILITIES]
    return kept


def error_fault(method: str, error: object) -> EngineFault:
    """An error answer, as the in-process harness reports the same exception."""
    if not isinstance(error, dict):
        return EngineFault("error", method, f"answered with an error that is not an object: {_short(error)}")
    message = str(error.get("message", ""))
    code = error.get("code")
    if code == ErrorCode.UNSUPPORTED.value:
        return EngineFault("unsupported", method, "not implemented by this engine")
    if code == ErrorCode.BAD_REQUEST.value:
        return RequestRefused(method, message)
    exception = error.get("exception")
    where = error.get("where")
    at = f" (at {where})" if isinstance(where, str) and where else ""
    if isinstance(exception, str) and exception:
        return EngineFault("error", method, f"raised {exception}: {message}{at}")
    return EngineFault("error", method, f"failed: {message}{at}")


def _short(data: object) -> str:
    text = json.dumps(data)[:80] if not isinstance(data, bytes) else repr(data[:80])
    return text
