"""Wire-protocol figures, wall-clock with the engine process's time included (not in the default test run).

Four engines side by side, each round running every engine once (so a change of the machine's load hits all):
the reference in-process, ``oracle serve``, ``oracle serve --legal-by-trial`` (no ``legal_actions``: the oracle
tries candidates on copies, as for most real adapters) and ``oracle serve --legal-cost 20`` (an adapter that lists
by trying candidates itself, 20 ms a call; real ones measured 20 to 150 ms). Figures and targets
(``docs/performance.md``, issue 25; quiet 2-core machine, best of 3):

* the round trip of a trivial call (``decision``), one at a time and pipelined ten at a time, in µs;
* lock-step fuzz on 12 seeded games, decisions per second, each engine at the legal-set share its measured speed
  gives (``oracle.engines.legal_share``, printed beside it; the served engines judge the sampled-out decisions with
  ``try_actions``): ``--legal-by-trial`` >= 1,000/s (or >= 0.5x in-process lock-step, whichever is lower) and
  ``--legal-cost 20`` >= 400/s; ``oracle serve`` alone also without ``observe``, without pipelining and without
  either, and ``--legal-by-trial --no-try-actions`` (every judgement on a copy) to show what ``try_actions`` saves;
* the default ``oracle check``, wall-clock, at the budget scale and legal-set share it measures: at most 60 s on
  ``--legal-by-trial`` and on ``--legal-cost 20``, and ``oracle serve`` at most 1.5x the in-process run. These
  run the suites in this one process (no supervisor, no workers); ``ci/bench_cli.py`` times ``oracle check`` as
  a user runs it, start-up and workers included, for the targets on the reference (at most 3 s) and on
  ``cmd:oracle serve`` (at most 1.5x the reference).

Run: ``python3 ci/bench_wire.py`` (about 15 minutes on a busy 2-core machine); ``--quick`` runs one round and
skips the ``oracle check`` comparison; ``--repeats N`` sets the rounds (default 3).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from oracle.core.results import Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.engines.harness import Subject
from oracle.engines.legal_share import LegalShare
from oracle.engines.play import new_setup
from oracle.engines.speed import BudgetScale, measure_scale
from oracle.engines.wire.channel import Deadline
from oracle.engines.wire.connection import Connection
from oracle.engines.wire.impl import command_of, wire_factory
from oracle.engines.wire.pool import POOLS
from oracle.engines.wire.settings import OBSERVE, PIPELINE, current_settings
from oracle.reference import create
from oracle.suites.all import BY_NAME, run_check
from oracle.suites.registry import CheckOptions
from vale_invariants.game import GameRunner, GameSettings, RandomChooser, Stats

SERVE = f"cmd:{sys.executable} -P -m oracle.cli serve"
"""``oracle serve`` as the ``oracle`` command starts it (its own module only, oracle/cli/__init__.py)."""
LOCKSTEP_GAMES = 12
REPEATS = 3
IN_PROCESS = "oracle.reference"


@dataclass(frozen=True)
class Bench:
    """One engine of the side-by-side run: its label, its ``--impl``, the wire settings it runs under (environment
    variables) and its lock-step and check targets."""

    label: str
    impl: str
    env: tuple[tuple[str, str], ...] = ()
    lockstep_target: str = ""
    check_target: str = ""

    def factory(self) -> Callable[[], Any]:
        return create if self.impl == IN_PROCESS else wire_factory(self.impl)

    @contextmanager
    def settings(self) -> Iterator[None]:
        os.environ.update(dict(self.env))
        try:
            yield
        finally:
            for name, _ in self.env:
                del os.environ[name]


ENGINES = (
    Bench("in-process reference", IN_PROCESS),
    Bench("oracle serve", SERVE, check_target="<= 1.5x in-process"),
    Bench("oracle serve --legal-by-trial", f"{SERVE} --legal-by-trial",
          lockstep_target=">= 1,000/s or >= 0.5x in-process", check_target="<= 60 s"),
    Bench("oracle serve --legal-cost 20", f"{SERVE} --legal-cost 20", lockstep_target=">= 400/s",
          check_target="<= 60 s"),
)
"""The four engines of issue 25: lock-step and the default ``oracle check`` on each."""

SHORTCUTS_OFF = (
    Bench("--legal-by-trial --no-try-actions", f"{SERVE} --legal-by-trial --no-try-actions"),
    Bench("oracle serve without observe", SERVE, ((OBSERVE, "0"),)),
    Bench("oracle serve without pipelining", SERVE, ((PIPELINE, "0"),)),
    Bench("oracle serve without either", SERVE, ((OBSERVE, "0"), (PIPELINE, "0"))),
)
"""``oracle serve --legal-by-trial`` without ``try_actions``, and ``oracle serve`` without the wire's shortcuts
(docs/wire.md, "Few round trips"): lock-step only."""


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


def measured(factory: Callable[[], Any], impl: str) -> tuple[BudgetScale, LegalShare]:
    """The budget scale and the legal-set share ``oracle check`` would measure for this engine."""
    scale = measure_scale(Subject(factory, impl))
    return scale, LegalShare.of_scale(scale)


def lockstep_rate(factory: Callable[[], Any], impl: str, share: float,
                  games: int = LOCKSTEP_GAMES) -> tuple[float, int]:
    """Lock-step decisions per wall-clock second at this legal-set share, and the decisions played."""
    settings = GameSettings(factory, impl, (2, 3, 4), frozenset({"LOCKSTEP"}), lockstep=True, legal_share=share)
    stats = Stats()
    started = time.perf_counter()
    for index in range(games):
        GameRunner(settings, RandomChooser(f"bench-wire-{index}"), stats).play()
    return stats.decisions / (time.perf_counter() - started), stats.decisions


def check_seconds(impl: str) -> tuple[float, int, str]:
    """Wall-clock seconds of the default ``oracle check`` suites (at the budget scale and legal-set share measured
    first, as ``oracle check`` does; the measure is timed too), the number of checks, and the outcomes that are
    not ok, counted (a slow engine runs out of a Z3 row's budget: ``incomplete``; any failure is a bug)."""
    suites = list(BY_NAME)
    started = time.perf_counter()
    eut = EngineUnderTest.load(impl, 5.0)
    scale, share = measured(eut.factory, impl)
    options = CheckOptions(budget_scale=scale.factor, legal_share=share.share)
    results = run_check(eut, options, suites)
    seconds = time.perf_counter() - started
    assert not [r.id for r in results if not r.outcome.ok and r.outcome is not Outcome.INCOMPLETE]
    incomplete = sum(r.outcome is Outcome.INCOMPLETE for r in results)
    return seconds, len(results), (f", {incomplete} incomplete" if incomplete else "") + \
        f", scale {scale.factor:g}, share {share.share:g}"


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def lockstep_side_by_side(repeats: int) -> None:
    """Each engine's best lock-step rate over ``repeats`` rounds, printed against the in-process rate."""
    benches = (*ENGINES, *SHORTCUTS_OFF)
    factories = {bench.label: bench.factory() for bench in benches}
    shares = {}
    for bench in benches:
        with bench.settings():
            shares[bench.label] = measured(factories[bench.label], bench.impl)[1].share
    best = dict.fromkeys(factories, 0.0)
    decisions = 0
    for _ in range(repeats):
        for bench in benches:
            with bench.settings():
                rate, decisions = lockstep_rate(factories[bench.label], bench.impl, shares[bench.label])
            best[bench.label] = max(best[bench.label], rate)
    in_rate = best[ENGINES[0].label]
    print(f"lock-step fuzz, {LOCKSTEP_GAMES} games ({decisions} decisions), best of {repeats}, "
          f"load {load_average()}:", flush=True)
    for bench in benches:
        rate = best[bench.label]
        target = f"  (target {bench.lockstep_target})" if bench.lockstep_target else ""
        print(f"  {bench.label:34s} {rate:7.0f}/s = {rate / in_rate:5.2f}x at legal-set share "
              f"{shares[bench.label]:g}{target}", flush=True)


def checks_side_by_side() -> None:
    print(f"oracle check, default suites, wall-clock, load {load_average()}:", flush=True)
    in_seconds = 0.0
    for bench in ENGINES:
        seconds, checks, incomplete = check_seconds(bench.impl)
        in_seconds = in_seconds or seconds
        target = f"  (target {bench.check_target})" if bench.check_target else ""
        print(f"  {bench.label:32s} {seconds:6.1f} s ({checks} checks{incomplete}) = {seconds / in_seconds:5.2f}x"
              f"{target}", flush=True)


def main(argv: list[str]) -> int:
    quick = "--quick" in argv
    repeats = int(argv[argv.index("--repeats") + 1]) if "--repeats" in argv else 1 if quick else REPEATS
    print(f"round trip, one request at a time: {round_trip_us():7.1f} µs", flush=True)
    print(f"round trip, pipelined 10 per write: {round_trip_us(batch=10):7.1f} µs per request", flush=True)
    lockstep_side_by_side(repeats)
    if not quick:
        checks_side_by_side()
    started = sum(pool.started for pool in POOLS.values())
    print(f"engine processes started: {started}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
