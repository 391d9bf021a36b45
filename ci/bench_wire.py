"""Wire-protocol figures, wall-clock with the engine process's time included (not in the default test run).

* the round trip of a trivial call (``decision``), one at a time and pipelined ten at a time, in µs;
* lock-step fuzz of the reference served over the wire against in-process lock-step, side by side
  (target: at least 0.35x the in-process decisions per second);
  and the same without ``observe``, without pipelining, and without either;
* the default ``oracle check`` with ``--impl 'cmd:oracle serve'`` against in-process (target: at most 3x).

Run: ``python3 ci/bench_wire.py`` (add ``--quick`` to skip the default ``oracle check`` comparison).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

from oracle.engines.connect import EngineUnderTest
from oracle.engines.play import new_setup
from oracle.engines.wire.channel import Deadline
from oracle.engines.wire.connection import Connection
from oracle.engines.wire.impl import command_of, wire_factory
from oracle.engines.wire.pool import POOLS
from oracle.engines.wire.settings import OBSERVE, PIPELINE, current_settings
from oracle.reference import create
from oracle.suites.all import BY_NAME, run_check
from oracle.suites.registry import CheckOptions
from vale_invariants.game import GameRunner, GameSettings, RandomChooser, Stats

SERVE = f"cmd:{sys.executable} -m oracle.cli.app serve"
LOCKSTEP_GAMES = 12
REPEATS = 3
LOCKSTEP_TARGET = 0.35
CHECK_TARGET = 3.0


def round_trip_us(calls: int = 3000, batch: int = 1) -> float:
    """Microseconds per ``decision`` request answered by the served reference, ``batch`` requests per write."""
    connection = Connection(command_of(SERVE), current_settings())
    try:
        connection.call("new_game", {"setup": new_setup(2, 1)}, Deadline.after(10))
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            for _ in range(calls // batch):
                ids = connection.send([("decision", {})] * batch, Deadline.after(10))
                for request_id in ids:
                    connection.answer(request_id, Deadline.after(10))
            best = min(best, (time.perf_counter() - started) / calls * 1e6)
        return best
    finally:
        connection.close()


def lockstep_rate(factory: Callable[[], Any], impl: str, games: int = LOCKSTEP_GAMES) -> tuple[float, int]:
    """Lock-step decisions per wall-clock second, and the decisions played."""
    settings = GameSettings(factory, impl, (2, 3, 4), frozenset({"LOCKSTEP"}), lockstep=True)
    stats = Stats()
    started = time.perf_counter()
    for index in range(games):
        GameRunner(settings, RandomChooser(f"bench-wire-{index}"), stats).play()
    return stats.decisions / (time.perf_counter() - started), stats.decisions


def check_seconds(impl: str) -> tuple[float, int]:
    """Wall-clock seconds of the default ``oracle check`` suites, and the number of checks."""
    suites = list(BY_NAME)
    started = time.perf_counter()
    results = run_check(EngineUnderTest.load(impl, 5.0), CheckOptions(), suites)
    assert all(r.outcome.ok for r in results), [r.id for r in results if not r.outcome.ok]
    return time.perf_counter() - started, len(results)


def main(argv: list[str]) -> int:
    print(f"round trip, one request at a time: {round_trip_us():7.1f} µs", flush=True)
    print(f"round trip, pipelined 10 per write: {round_trip_us(batch=10):7.1f} µs per request", flush=True)
    wire = wire_factory(SERVE)
    wire()
    in_rate = wire_rate = 0.0
    decisions = 0
    for _ in range(REPEATS):
        rate, decisions = lockstep_rate(create, "oracle.reference")
        in_rate = max(in_rate, rate)
        wire_rate = max(wire_rate, lockstep_rate(wire, SERVE)[0])
    print(f"lock-step fuzz, {LOCKSTEP_GAMES} games ({decisions} decisions), best of {REPEATS}: "
          f"in-process {in_rate:7.0f}/s, wire {wire_rate:7.0f}/s = {wire_rate / in_rate:.2f}x "
          f"(target >= {LOCKSTEP_TARGET}x)", flush=True)
    for label, env in (("without observe", {OBSERVE: "0"}), ("without pipelining", {PIPELINE: "0"}),
                       ("without either", {OBSERVE: "0", PIPELINE: "0"})):
        os.environ.update(env)
        try:
            rate, _ = lockstep_rate(wire, SERVE)
        finally:
            for name in env:
                del os.environ[name]
        print(f"  lock-step over the wire {label}: {rate:7.0f}/s = {rate / in_rate:.2f}x", flush=True)
    if "--quick" not in argv:
        in_seconds, checks = check_seconds("oracle.reference")
        wire_seconds, wire_checks = check_seconds(SERVE)
        print(f"oracle check, default suites: in-process {in_seconds:.1f} s ({checks} checks), wire "
              f"{wire_seconds:.1f} s ({wire_checks} checks) = {wire_seconds / in_seconds:.2f}x "
              f"(target <= {CHECK_TARGET}x)", flush=True)
    started = sum(pool.started for pool in POOLS.values())
    print(f"engine processes started: {started}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
