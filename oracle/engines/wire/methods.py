"""The wire protocol's one table of methods, shared by the client and the server so they cannot drift.

Each wire method is the in-process :class:`oracle.core.protocol.Engine` method of the same name, with the same
arguments (sent by name in ``params``) and the same result, plus the wire-only ``observe`` and ``quit``.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from enum import Enum
from typing import Any

_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False, allow_nan=False)


_orjson: Any
try:
    _orjson = importlib.import_module("orjson")  # optional: found or not, mypy checks the same code
except ImportError:
    _orjson = None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def encode_line(message: object) -> bytes:
    """One protocol line: compact JSON, UTF-8, ending in a newline (with orjson when it is installed: the
    wire's cost is mostly JSON, and orjson encodes about 5 times as fast; lines are read by the standard library
    alone, :func:`decode_line`)."""
    if _orjson is not None:
        return _orjson.dumps(message, option=_orjson.OPT_APPEND_NEWLINE)  # type: ignore[no-any-return]
    return _ENCODER.encode(message).encode("utf-8") + b"\n"


class NestedTooDeep(ValueError):
    """A line of JSON nested deeper than the parser can follow (about a thousand levels). A scan for depth before
    the parse would cost as much as the parse, on every line."""


def decode_line(line: bytes) -> Any:
    """One protocol line parsed as strict JSON (no NaN or Infinity) by the standard library, whatever else is
    installed: orjson reads lines its own way (it refuses a lone surrogate's escape, and some versions follow any
    depth, which later code cannot), so a verdict would depend on it; ValueError if it is not JSON or is nested too
    deep to parse (:class:`NestedTooDeep`); its length is bounded where it is read (``MAX_LINE_BYTES``)."""
    try:
        return json.loads(line.decode("utf-8"), parse_constant=_no_constant)
    except RecursionError:
        raise NestedTooDeep("nested deeper than the JSON parser can follow") from None


class ErrorCode(str, Enum):
    """What an error response says went wrong (``{"id", "error": {"code", "message", ...}}``)."""

    UNSUPPORTED = "unsupported"
    ENGINE_ERROR = "engine_error"
    BAD_REQUEST = "bad_request"


@dataclass(frozen=True, slots=True)
class Method:
    """One request an engine answers: its argument names (in call order), the capability without which it
    is never sent, and the protocol version that introduced it. Its result's schema is
    ``wire-results.schema.json#/$defs/<name>``."""

    name: str
    params: tuple[str, ...]
    capability: str | None = None
    since: str = "1.0"


METHODS: dict[str, Method] = {
    method.name: method
    for method in (
        Method("handshake", ()),
        Method("new_game", ("setup",)),
        Method("decision", ()),
        Method("legal_actions", (), capability="legal_actions"),
        Method("apply", ("action",)),
        Method("try_actions", ("actions",), capability="try_actions"),
        Method("export", (), capability="export"),
        Method("load", ("snapshot",), capability="load"),
        Method("observe", ("legal_actions", "snapshot"), capability="observe", since="1.1"),
        Method("quit", ()),
    )
}

ENGINE_METHODS = ("handshake", "new_game", "decision", "legal_actions", "apply", "try_actions", "export", "load")
"""The wire methods that are exactly the in-process Engine protocol's methods."""

WIRE_CAPABILITIES = ("observe",)
"""Capabilities only the wire has; the client keeps them out of the handshake it hands the harness."""


def version_tuple(version: str) -> tuple[int, int]:
    """``"1.1"`` -> ``(1, 1)``; raises ValueError for anything else."""
    major, _, minor = version.partition(".")
    return int(major), int(minor or 0)


def may_send(method: Method, engine_version: str, capabilities: frozenset[str]) -> bool:
    """A message goes only to an engine whose declared version has it, with its capability (docs/wire.md)."""
    if version_tuple(engine_version) < version_tuple(method.since):
        return False
    return method.capability is None or method.capability in capabilities
