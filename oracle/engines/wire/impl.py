"""``--impl 'cmd:node my-adapter.mjs --flag'``: an engine factory for a command speaking the wire protocol.

``cmd+jsonrpc:`` starts the same in JSON-RPC 2.0 (protocol 2.0) instead of negotiating from JSON lines, for
engines built on a JSON-RPC library that refuses anything else (docs/wire.md).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass

from oracle.core.faults import ImplError
from oracle.engines.wire.client import WireEngine
from oracle.engines.wire.framing import FRAMINGS, JSON_LINES, JSON_RPC, Framing
from oracle.engines.wire.pool import pool_for

PREFIX = "cmd:"
JSONRPC_PREFIX = "cmd+jsonrpc:"
STARTING_FRAMING: dict[str, Framing] = {PREFIX: JSON_LINES, JSONRPC_PREFIX: JSON_RPC}
"""The framing a command's processes start in, by the ``--impl`` prefix that names it."""


def prefix_of(spec: str) -> str:
    return spec.partition(":")[0] + ":"


def command_of(spec: str) -> list[str]:
    """The argv of a ``cmd:`` spec, split like a shell would (no shell runs it)."""
    prefix = prefix_of(spec)
    try:
        argv = shlex.split(spec[len(prefix):])
    except ValueError as exc:
        raise ImplError(f"--impl {spec!r}: cannot split the command: {exc}") from None
    if not argv:
        raise ImplError(f"--impl {spec!r}: expected a command after {prefix!r}, e.g. '{prefix}node my-adapter.mjs'")
    return argv


@dataclass(frozen=True)
class WireFactory:
    """A zero-argument factory (picklable, for worker processes): each call is a fresh engine on an idle
    process of this command's pool in the calling process."""

    argv: tuple[str, ...]
    major: int = JSON_LINES.major

    def __call__(self) -> WireEngine:
        return WireEngine(pool_for(list(self.argv), FRAMINGS[self.major]))


def wire_factory(spec: str) -> Callable[[], WireEngine]:
    return WireFactory(tuple(command_of(spec)), STARTING_FRAMING[prefix_of(spec)].major)
