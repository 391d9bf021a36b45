"""The wire's two envelopes, chosen from a table by protocol major version: JSON lines (1.x) and JSON-RPC 2.0 (2.x).

Both carry the same methods, parameters and results (:mod:`oracle.engines.wire.methods`); only the envelope
differs. The client and the server work in the 1.x form (``{"id", "result"}`` or ``{"id", "error": {"code":
name, "message", "exception", "where"}}``); a :class:`Framing` turns it into its own envelope and back
(docs/wire.md, "Protocol 2.0: JSON-RPC 2.0").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from oracle.core.json_types import JSON
from oracle.core.versions import PROTOCOL_VERSION
from oracle.engines.wire.methods import ErrorCode, version_tuple

JSONRPC = "2.0"


class RpcCode(IntEnum):
    """JSON-RPC 2.0 error codes: the specification's reserved ones for protocol faults, and the oracle's own
    three in the range it leaves to implementations (-32000 to -32099)."""

    PARSE_ERROR = -32700
    INVALID_REQUEST = -32600
    METHOD_NOT_FOUND = -32601
    INVALID_PARAMS = -32602
    INTERNAL_ERROR = -32603
    ENGINE_ERROR = -32000
    UNSUPPORTED = -32001
    BAD_REQUEST = -32002


NAME_OF_CODE: dict[int, ErrorCode] = {
    RpcCode.PARSE_ERROR: ErrorCode.BAD_REQUEST,
    RpcCode.INVALID_REQUEST: ErrorCode.BAD_REQUEST,
    RpcCode.METHOD_NOT_FOUND: ErrorCode.UNSUPPORTED,
    RpcCode.INVALID_PARAMS: ErrorCode.BAD_REQUEST,
    RpcCode.INTERNAL_ERROR: ErrorCode.ENGINE_ERROR,
    RpcCode.ENGINE_ERROR: ErrorCode.ENGINE_ERROR,
    RpcCode.UNSUPPORTED: ErrorCode.UNSUPPORTED,
    RpcCode.BAD_REQUEST: ErrorCode.BAD_REQUEST,
}
"""What an engine's error code means to the oracle when ``error.data.name`` does not name one of its codes (that
name decides when it does): a method the engine has no handler for (-32601, what every JSON-RPC library answers
for one) is ``unsupported``; any code not listed is ``engine_error``."""

NAMED: dict[str, ErrorCode] = {code.value: code for code in ErrorCode}

CODE_OF_NAME: dict[ErrorCode, RpcCode] = {
    ErrorCode.ENGINE_ERROR: RpcCode.ENGINE_ERROR,
    ErrorCode.UNSUPPORTED: RpcCode.UNSUPPORTED,
    ErrorCode.BAD_REQUEST: RpcCode.BAD_REQUEST,
}

ERROR_DETAILS = ("exception", "where")
"""The optional fields of a 1.x error object, carried in ``error.data`` in JSON-RPC."""


class EnvelopeError(ValueError):
    """An answer line that is not an answer of the framing in use; the message says why, in one clause."""


def _lines_request(request_id: int, method: str, params: JSON) -> JSON:
    return {"id": request_id, "method": method, "params": params}


def _jsonrpc_request(request_id: int, method: str, params: JSON) -> JSON:
    return {"jsonrpc": JSONRPC, "id": request_id, "method": method, "params": params}


def _lines_answers(message: object) -> list[JSON]:
    if not isinstance(message, dict):
        raise EnvelopeError("is not a response object")
    return [message]


def _jsonrpc_answers(message: object) -> list[JSON]:
    """A response, or a batch of them (a JSON array: each is matched to its request by ``id``)."""
    batch: list[object] = message if isinstance(message, list) else [message]
    if not batch:
        raise EnvelopeError("is an empty batch")
    answers = [answer for answer in batch if isinstance(answer, dict)]
    if len(answers) != len(batch):
        raise EnvelopeError("is not a response object or a batch of them")
    return answers


def _lines_inward(answer: JSON) -> JSON:
    return answer


def _jsonrpc_inward(answer: JSON) -> JSON:
    """A JSON-RPC 2.0 response in the 1.x form: the error's integer code becomes the oracle's name for it."""
    if answer.get("jsonrpc") != JSONRPC:
        raise EnvelopeError(f'is not a JSON-RPC 2.0 response (it needs "jsonrpc": "2.0", got '
                            f'{answer.get("jsonrpc")!r})')
    inward = {key: value for key, value in answer.items() if key != "jsonrpc"}
    error = answer.get("error")
    if isinstance(error, dict):
        inward["error"] = _error_inward(error)
    return inward


def _error_inward(error: JSON) -> JSON:
    code = error.get("code")
    given = error.get("data")
    data: JSON = given if isinstance(given, dict) else {}
    named = data.get("name")
    by_code = NAME_OF_CODE.get(code) if isinstance(code, int) and not isinstance(code, bool) else None
    name = (NAMED.get(named) if isinstance(named, str) else None) or by_code or ErrorCode.ENGINE_ERROR
    inward: JSON = {"code": name.value, "message": error.get("message", "")}
    inward.update({key: data[key] for key in ERROR_DETAILS if key in data})
    return inward


def _lines_outward(answer: JSON, rpc_code: int | None) -> JSON:
    return answer


def _jsonrpc_outward(answer: JSON, rpc_code: int | None) -> JSON:
    """A 1.x answer as a JSON-RPC 2.0 response: the error's code is ``rpc_code`` (a protocol fault's reserved
    code) or the oracle's own for its name, and the name goes to ``error.data.name``."""
    outward: JSON = {"jsonrpc": JSONRPC, **answer}
    error = answer.get("error")
    if isinstance(error, dict):
        name = ErrorCode(error.get("code", ErrorCode.ENGINE_ERROR.value))
        data = {"name": name.value, **{key: error[key] for key in ERROR_DETAILS if key in error}}
        outward["error"] = {"code": int(rpc_code if rpc_code is not None else CODE_OF_NAME[name]),
                            "message": error.get("message", ""), "data": data}
    return outward


@dataclass(frozen=True, slots=True)
class Framing:
    """One envelope: how a request is written, how an answer line is split into answers and read into the 1.x
    form, how the server writes an answer, and which protocol versions use it. ``first_methods`` is the
    in-process protocol version whose methods version ``major.0`` of this framing carries."""

    name: str
    major: int
    version: str
    first_methods: tuple[int, int]
    request: Callable[[int, str, JSON], JSON]
    answers: Callable[[object], list[JSON]]
    inward: Callable[[JSON], JSON]
    outward: Callable[[JSON, int | None], JSON]
    answer_prefix: bytes
    response_schema: str

    def methods_version(self, declared: str) -> str:
        """The in-process protocol version whose methods an engine declaring ``declared`` has (2.0 has 1.1's)."""
        major, minor = version_tuple(declared)
        first_major, first_minor = self.first_methods
        return f"{first_major}.{first_minor + minor}" if major == self.major else declared


RESPONSE_SCHEMA = "wire-response.schema.json"
JSON_LINES = Framing("JSON lines", 1, PROTOCOL_VERSION, (1, 0), _lines_request, _lines_answers, _lines_inward,
                     _lines_outward, b'{"id":', f"{RESPONSE_SCHEMA}#/$defs/lines")
JSON_RPC = Framing("JSON-RPC 2.0", 2, JSONRPC, version_tuple(PROTOCOL_VERSION), _jsonrpc_request, _jsonrpc_answers,
                   _jsonrpc_inward, _jsonrpc_outward, b'{"jsonrpc":"2.0","id":', f"{RESPONSE_SCHEMA}#/$defs/jsonrpc")

FRAMINGS: dict[int, Framing] = {framing.major: framing for framing in (JSON_LINES, JSON_RPC)}
"""Each wire protocol major version's framing."""

FRAMING_OF_REQUEST: dict[bool, Framing] = {False: JSON_LINES, True: JSON_RPC}
"""The framing a request is in, by whether it says ``"jsonrpc"`` (a batch is JSON-RPC): the server answers in it."""


def framing_of_request(request: Any) -> Framing:
    return FRAMING_OF_REQUEST[isinstance(request, list) or (isinstance(request, dict) and "jsonrpc" in request)]


def versions_spoken() -> str:
    return " or ".join(framing.version for framing in FRAMINGS.values())


def incompatibility(engine_version: object) -> str | None:
    """Why the oracle refuses an engine's declared protocol version (a major it has no framing for), or None."""
    try:
        major, _ = version_tuple(str(engine_version))
    except ValueError:
        return f"protocol {engine_version!r} is not a version number like {PROTOCOL_VERSION!r} or {JSONRPC!r}"
    if major not in FRAMINGS:
        return (f"protocol {engine_version} is not compatible with the oracle's {versions_spoken()} "
                f"(major versions differ)")
    return None


def negotiated(start: Framing, declared: str) -> Framing:
    """The framing after the handshake: the newer of the one the oracle started in and the declared version's
    (an engine declaring 2.x gets JSON-RPC from then on; one started in JSON-RPC keeps it)."""
    return max(start, FRAMINGS[version_tuple(declared)[0]], key=lambda framing: framing.major)


def refused_as_jsonrpc(start: Framing, answer: JSON) -> bool:
    """A JSON-RPC 2.0 library refused a request in JSON lines (an invalid request, in a JSON-RPC response)."""
    error = answer.get("error")
    return (start is JSON_LINES and answer.get("jsonrpc") == JSONRPC and isinstance(error, dict)
            and error.get("code") in (RpcCode.INVALID_REQUEST, RpcCode.PARSE_ERROR))
