"""Serving a Python engine on the wire: one request line in, one answer line out, in order.

The server answers each request in the framing it came in (JSON lines, or JSON-RPC 2.0 with batches), makes a
fresh engine from its factory for every ``new_game`` and ``load`` (as the oracle does in-process), answers
``observe`` from ``decision``/``legal_actions``/``export`` for engines of protocol 1.1, and turns exceptions into
error answers: ``NotImplementedError`` is ``unsupported``, anything else ``engine_error`` with the exception's
name and where it was raised.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import traceback
from collections.abc import Callable
from typing import Any, BinaryIO

from oracle.core.json_types import JSON
from oracle.core.limits import MAX_LINE_BYTES
from oracle.core.portable import shown_path
from oracle.engines.wire.framing import JSON_LINES, RpcCode, framing_of_request
from oracle.engines.wire.methods import (
    METHODS,
    ErrorCode,
    Method,
    decode_line,
    encode_line,
    may_send,
    version_tuple,
)

OBSERVE_SINCE = METHODS["observe"].since
READ_CHUNK = 1 << 16
FLUSH_DELAY = 0.002


class BadRequest(Exception):
    """The request itself is wrong (not JSON, unknown method, missing parameter); the message says how, and
    ``rpc_code`` is the JSON-RPC 2.0 error code of the fault."""

    def __init__(self, message: str, rpc_code: int = RpcCode.BAD_REQUEST) -> None:
        super().__init__(message)
        self.rpc_code = rpc_code


def read_request(line: bytes) -> Any:
    """A request line parsed (an object, or in JSON-RPC a batch); BadRequest if it cannot be."""
    if len(line.rstrip(b"\r\n")) > MAX_LINE_BYTES:
        raise BadRequest(f"the request line is longer than {MAX_LINE_BYTES} bytes", RpcCode.INVALID_REQUEST)
    try:
        return decode_line(line)
    except ValueError:
        raise BadRequest("the request line is not JSON", RpcCode.PARSE_ERROR) from None


def refusal(request_id: object, exc: BadRequest) -> tuple[JSON, int | None]:
    return {"id": request_id, "error": {"code": ErrorCode.BAD_REQUEST.value, "message": str(exc)}}, exc.rpc_code


def unencodable(answer: JSON, exc: Exception) -> JSON:
    """The error answer sent instead of an answer that is not JSON data."""
    request_id = answer.get("id")
    return {"id": request_id if isinstance(request_id, int) else None,
            "error": {"code": ErrorCode.ENGINE_ERROR.value, "message": f"the answer is not JSON data: {exc}"}}


class Server:
    """Answers wire requests with one engine at a time from ``factory``."""

    def __init__(self, factory: Callable[[], Any], out: BinaryIO) -> None:
        self.factory = factory
        self.out = out
        self.engine: Any = factory()
        self.version = "1.0"
        self.capabilities: frozenset[str] = frozenset()
        self.running = True
        self.framing = JSON_LINES

    # ------------------------------------------------------------------ the loop

    def run(self, read: Callable[[], bytes]) -> int:
        """Answer every request line until ``quit`` or the end of the input (``read`` returns b"" there).
        Requests that arrive together (pipelined) are answered in one write, so the oracle wakes once."""
        writer = AnswerWriter(self.out)
        pending = b""
        while self.running:
            chunk = read()
            if not chunk:
                return 0
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop()
            if len(pending) > MAX_LINE_BYTES:
                lines.append(pending)
                pending = b""
            for index, line in enumerate(lines):
                answer = self.reply(line)
                if index == len(lines) - 1 or not self.running:
                    writer.write(answer)
                    break
                writer.hold(answer)
        return 0

    def reply(self, line: bytes) -> bytes:
        """The answer line to one request line, in the framing the request is in (docs/wire.md): JSON lines, or
        JSON-RPC 2.0 when it says ``"jsonrpc"`` (a batch gets a batch of answers). A line that cannot be read
        is answered in the framing last spoken."""
        try:
            request = read_request(line)
        except BadRequest as exc:
            return self.encoded(refusal(None, exc))
        self.framing = framing_of_request(request)
        if not isinstance(request, list):
            return self.encoded(self.respond(request))
        if not request:
            return self.encoded(refusal(None, BadRequest("the batch is empty", RpcCode.INVALID_REQUEST)))
        return self.encoded_batch([self.respond(one) for one in request])

    def respond(self, request: object) -> tuple[JSON, int | None]:
        """One request's answer in the 1.x form, with the JSON-RPC code of a protocol fault."""
        request_id = request.get("id") if isinstance(request, dict) else None
        try:
            if not isinstance(request, dict):
                raise BadRequest("the request is not a JSON object", RpcCode.INVALID_REQUEST)
            return {"id": request_id, "result": self.answer(request)}, None
        except BadRequest as exc:
            return refusal(request_id, exc)
        except NotImplementedError as exc:
            return {"id": request_id, "error": {"code": ErrorCode.UNSUPPORTED.value,
                                                "message": str(exc) or "not implemented by this engine"}}, None
        except Exception as exc:
            return {"id": request_id, "error": error_of(exc)}, None

    def encoded(self, answer: tuple[JSON, int | None]) -> bytes:
        try:
            return encode_line(self.framing.outward(*answer))
        except (TypeError, ValueError, OverflowError) as exc:
            return encode_line(self.framing.outward(unencodable(answer[0], exc), None))

    def encoded_batch(self, answers: list[tuple[JSON, int | None]]) -> bytes:
        try:
            return encode_line([self.framing.outward(*answer) for answer in answers])
        except (TypeError, ValueError, OverflowError):
            return b"[" + b",".join(self.encoded(answer).rstrip(b"\n") for answer in answers) + b"]\n"

    # ------------------------------------------------------------------ methods

    def answer(self, request: JSON) -> Any:
        method = METHODS.get(str(request.get("method")))
        if method is None:
            raise BadRequest(f"unknown method {request.get('method')!r}; known: {', '.join(METHODS)}",
                             RpcCode.METHOD_NOT_FOUND)
        params = request.get("params", {})
        if not isinstance(params, dict):
            raise BadRequest(f"{method.name}: params must be an object", RpcCode.INVALID_PARAMS)
        missing = [name for name in method.params if name not in params and method.name != "observe"]
        if missing:
            raise BadRequest(f"{method.name}: missing parameter {missing[0]!r}", RpcCode.INVALID_PARAMS)
        if method.name == "quit":
            self.running = False
            return None
        if method.name == "handshake":
            return self.handshake()
        if method.name == "observe":
            return self.observe(method, params)
        if method.name in ("new_game", "load"):
            self.engine = self.factory()
        answer = getattr(self.engine, method.name, None)
        if answer is None:
            raise NotImplementedError(f"{method.name} is not implemented by this engine")
        return answer(*(params[name] for name in method.params))

    def handshake(self) -> JSON:
        """The engine's handshake, plus ``observe`` (answered here) when the engine speaks 1.1 or later."""
        shake = dict(self.engine.handshake())
        self.version = str(shake.get("protocol", "1.0"))
        capabilities = list(shake.get("capabilities", []))
        try:
            if version_tuple(self.version) >= version_tuple(OBSERVE_SINCE) and "observe" not in capabilities:
                capabilities.append("observe")
        except ValueError:
            pass
        shake["capabilities"] = capabilities
        self.capabilities = frozenset(capabilities)
        return shake

    def observe(self, method: Method, params: JSON) -> JSON:
        """The pending decision, and on request the legal actions and the snapshot, in one answer."""
        if not may_send(method, self.version, self.capabilities):
            raise BadRequest(f"observe is not part of protocol {self.version} (it came in {OBSERVE_SINCE})")
        pending = self.engine.decision()
        out: JSON = {"decision": pending}
        if params.get("legal_actions"):
            out["legal_actions"] = self.engine.legal_actions() if pending is not None else []
        if params.get("snapshot"):
            out["snapshot"] = self.engine.export()
        return out


class AnswerWriter:
    """Writes answer lines. An answer held back while the next pipelined request is answered goes out
    after ``FLUSH_DELAY`` all the same (a timer signal), so a slow or hung request never delays the
    answers before it."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.held: list[bytes] = []
        self.timer = hasattr(signal, "setitimer")
        if self.timer:
            signal.signal(signal.SIGALRM, lambda signum, frame: self._write_held())

    def hold(self, answer: bytes) -> None:
        self.held.append(answer)
        if self.timer and len(self.held) == 1:
            signal.setitimer(signal.ITIMER_REAL, FLUSH_DELAY)

    def write(self, answer: bytes) -> None:
        if self.timer and self.held:
            signal.setitimer(signal.ITIMER_REAL, 0)
        self.held.append(answer)
        self._write_held()

    def _write_held(self) -> None:
        data, self.held = b"".join(self.held), []
        if data and not self.out.closed:
            with contextlib.suppress(OSError, ValueError):
                self.out.write(data)
                self.out.flush()


def error_of(exc: Exception) -> JSON:
    frames = traceback.extract_tb(exc.__traceback__)
    error: JSON = {"code": ErrorCode.ENGINE_ERROR.value, "message": str(exc), "exception": type(exc).__name__}
    if frames:
        error["where"] = f"{shown_path(frames[-1].filename)}:{frames[-1].lineno}"
    return error


def serve_stdio(factory: Callable[[], Any], server_class: type[Server] = Server) -> int:
    """Serve on this process's stdin/stdout. File descriptor 1 is pointed at stderr first, so whatever the
    engine prints (``print``, a C library, a subprocess) can never land among the protocol lines."""
    protocol_fd = os.dup(1)
    sys.stdout.flush()
    os.dup2(2, 1)
    out = os.fdopen(protocol_fd, "wb", buffering=1 << 16)
    try:
        server = server_class(factory, out)
        return server.run(lambda: os.read(0, READ_CHUNK))
    finally:
        with contextlib.suppress(OSError):
            out.close()
