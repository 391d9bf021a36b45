"""``--impl 'cmd:node my-adapter.mjs --flag'``: an engine factory for a command speaking the wire protocol."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass

from oracle.core.faults import ImplError
from oracle.engines.wire.client import WireEngine
from oracle.engines.wire.pool import pool_for

PREFIX = "cmd:"


def command_of(spec: str) -> list[str]:
    """The argv of a ``cmd:`` spec, split like a shell would (no shell runs it)."""
    try:
        argv = shlex.split(spec[len(PREFIX):])
    except ValueError as exc:
        raise ImplError(f"--impl {spec!r}: cannot split the command: {exc}") from None
    if not argv:
        raise ImplError(f"--impl {spec!r}: expected a command after 'cmd:', e.g. 'cmd:node my-adapter.mjs'")
    return argv


@dataclass(frozen=True)
class WireFactory:
    """A zero-argument factory (picklable, for worker processes): each call is a fresh engine on an idle
    process of this command's pool in the calling process."""

    argv: tuple[str, ...]

    def __call__(self) -> WireEngine:
        return WireEngine(pool_for(list(self.argv)))


def wire_factory(spec: str) -> Callable[[], WireEngine]:
    return WireFactory(tuple(command_of(spec)))
