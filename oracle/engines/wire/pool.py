"""Engine processes kept per command: a fresh engine is a ``new_game``/``load`` on an idle process.

Processes start once and are replaced only after a fault; an engine object holds a :class:`Lease` on a
process and gives it back when it is garbage-collected.
"""

from __future__ import annotations

import atexit
import os
from dataclasses import dataclass, field

from oracle.engines.wire.connection import Connection
from oracle.engines.wire.framing import JSON_LINES, Framing
from oracle.engines.wire.settings import WireSettings

IDLE_KEPT = 6
USAGE_WEIGHT = 0.2
USAGE_THRESHOLD = 0.25


@dataclass
class Lease:
    """The process an engine object is using (None after a fault, until its next call)."""

    connection: Connection | None


@dataclass
class Pool:
    """The processes of one command and the framing they start in: idle ones, and what the oracle has learnt
    to ask ``observe`` for."""

    argv: tuple[str, ...]
    framing: Framing = JSON_LINES
    idle: list[Connection] = field(default_factory=list)
    usage: dict[str, float] = field(default_factory=lambda: {"legal_actions": 1.0, "snapshot": 0.0})
    started: int = 0

    def take(self, settings: WireSettings) -> Connection:
        while self.idle:
            connection = self.idle.pop()
            if connection.alive() and connection.settings == settings:
                return connection
            connection.close()
        self.started += 1
        connection = Connection(list(self.argv), settings, self.framing)
        LIVE.append(connection)
        return connection

    def wants(self, part: str) -> bool:
        """Whether ``observe`` should bring ``part``: it was used after most recent observations."""
        return self.usage[part] >= USAGE_THRESHOLD

    def learn(self, part: str, used: bool) -> None:
        self.usage[part] = (1 - USAGE_WEIGHT) * self.usage[part] + (USAGE_WEIGHT if used else 0.0)

    def release(self, lease: Lease) -> None:
        connection, lease.connection = lease.connection, None
        if connection is None:
            return
        if connection.alive() and len(self.idle) < IDLE_KEPT:
            connection.forget_all()
            self.idle.append(connection)
        else:
            retire(connection)


POOLS: dict[tuple[tuple[str, ...], Framing], Pool] = {}
LIVE: list[Connection] = []


def pool_for(argv: list[str], framing: Framing = JSON_LINES) -> Pool:
    key = (tuple(argv), framing)
    if key not in POOLS:
        POOLS[key] = Pool(key[0], framing)
    return POOLS[key]


def retire(connection: Connection) -> None:
    connection.close()
    if connection in LIVE:
        LIVE.remove(connection)


def forget_parent_engines() -> None:
    """In a forked child: the parent's engine processes are the parent's; start afresh."""
    LIVE.clear()
    for pool in POOLS.values():
        pool.idle.clear()
        pool.started = 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=forget_parent_engines)


@atexit.register
def close_all() -> None:
    """Ask every engine process to quit when the oracle exits (and kill the ones that do not)."""
    for connection in list(LIVE):
        retire(connection)
    for pool in POOLS.values():
        pool.idle.clear()
