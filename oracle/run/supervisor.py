"""The supervisor: hands units to worker processes, keeps their deadlines, replaces workers that fail.

:meth:`Supervisor.run` streams each unit's results to a sink as the unit ends. It stops early, marking the
run incomplete, on SIGINT or SIGTERM, when the global time budget runs out, when the sink asks (too many
failures), or when the engine can no longer be started. A unit whose worker dies or shows no sign of life for its
silence limit ends as ``error`` or ``timeout`` with the engine's last output; one that overruns its deadline while
the engine still answers ends ``incomplete`` (a budget cut it short, not a fault of the engine).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from oracle.core.engine_text import clean_text
from oracle.core.results import CheckResult, Outcome
from oracle.engines.costs import EngineCosts
from oracle.engines.harness import START_METHODS, Handshake
from oracle.engines.speed import BudgetScale
from oracle.run import activity
from oracle.run.launch import start_worker
from oracle.run.reaper import Reaper
from oracle.run.signals import Stopped, StopSignals
from oracle.suites.registry import AnyUnit, CheckOptions, lost_results, skipped_results

# Results of one unit, by its index in the list given to run(); the sink returns False to stop the run.
Sink = Callable[[int, list[CheckResult]], bool]
Progress = Callable[[Any], None]
IMPORT_SECONDS = 30.0
"""Seconds a new worker may take to import the oracle and the engine, on top of the engine's start-up deadline
(``--start-timeout``, for ``create`` and the handshake)."""
RESTART_LIMIT = 3
"""Workers in a row that may fail to start before the run stops."""
MEASURE_SECONDS = 10.0
"""Seconds a worker may take to time the engine against the reference (the measure itself stops after 2 s)."""
SILENCE_MARGIN = 2.0
"""Seconds past three per-call timeouts (or the start-up deadline, while an engine starts) that a unit may go
without a new engine call before it counts as hung."""
TAIL_BYTES = 4000
POLL = 0.2


class EngineRefused(Exception):
    """The engine cannot be loaded at all (bad ``--impl``, an import that fails, a handshake that fails)."""


@dataclass
class RunStatus:
    """How a run ended: complete, or stopped early (and why), with the units that never ran."""

    stopped: str = ""
    not_run: list[int] = field(default_factory=list)
    restarts: int = 0

    @property
    def complete(self) -> bool:
        return not self.stopped


class _Worker:
    """One worker process, its pipes, its log file and its activity record."""

    def __init__(self, folder: Path, number: int) -> None:
        self.log_path = folder / f"worker-{number}.log"
        activity_path = folder / f"worker-{number}.activity"
        activity.create(activity_path)
        to_worker_r, to_worker_w = os.pipe()
        from_worker_r, from_worker_w = os.pipe()
        self.process = start_worker(to_worker_r, from_worker_w, activity_path, self.log_path)
        os.close(to_worker_r)
        os.close(from_worker_w)
        self.outbox = Connection(to_worker_w, readable=False)
        self.inbox = Connection(from_worker_r, writable=False)
        self.activity = activity.ActivityReader(activity_path)
        self.unit: tuple[int, AnyUnit] | None = None
        self.started = 0.0
        self.last_sign = 0.0
        self.last_calls = 0

    def hello(self, impl: str, timeout: float, options: CheckOptions, signals: StopSignals) -> Handshake:
        """Send the engine to load; its handshake, or EngineRefused / a dead-worker error (Stopped, with the
        worker killed, when a signal comes first)."""
        self.outbox.send(("hello", impl, timeout, options))
        allowed = IMPORT_SECONDS + options.start_timeout
        if not self.answered(allowed, signals):
            raise OSError(f"the worker did not answer within {allowed:g} s of starting (--start-timeout "
                          f"{options.start_timeout:g} s for the engine){self.tail_note()}")
        try:
            message = self.inbox.recv()
        except (EOFError, OSError):
            raise OSError(f"the worker died while loading the engine ({self.exit_text()}){self.tail_note()}") \
                from None
        if message[0] == "refused":
            self.kill()
            raise EngineRefused(message[1])
        handshake: Handshake = message[1]
        return handshake

    def answered(self, allowed: float, signals: StopSignals) -> bool:
        """Wait up to ``allowed`` seconds for the worker's next message: False (the worker killed) when none came;
        Stopped, with the worker killed, when a signal comes first."""
        deadline = time.monotonic() + allowed
        while not self.inbox.poll(POLL):
            if signals.received:
                self.kill()
                signals.check()
            if time.monotonic() > deadline:
                self.kill()
                return False
        return True

    def measure(self, signals: StopSignals) -> BudgetScale:
        """Have the worker time the engine against the reference (:mod:`oracle.engines.speed`); unmeasured (factor
        1) when the worker dies or overruns doing it: the run goes on, and the engine's fault shows in its checks."""
        self.outbox.send(("measure",))
        if not self.answered(MEASURE_SECONDS, signals):
            return BudgetScale.unmeasured(f"timing the engine took more than {MEASURE_SECONDS:g} s")
        try:
            message = self.inbox.recv()
        except (EOFError, OSError):
            self.kill()
            return BudgetScale.unmeasured(f"the worker died timing the engine ({self.exit_text()})")
        scale: BudgetScale = message[1]
        return scale

    def assign(self, index: int, unit: AnyUnit) -> None:
        self.unit = (index, unit)
        self.started = self.last_sign = time.monotonic()
        self.last_calls = self.activity.calls
        self.outbox.send(("run", index, unit))

    def sign_of_life(self, now: float) -> None:
        calls = self.activity.calls
        if calls != self.last_calls:
            self.last_calls = calls
            self.last_sign = now

    def exit_text(self) -> str:
        code = self.process.poll()
        if code is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.process.wait(0.5)
        if code is None:
            return "still running"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"

    def tail(self) -> str:
        try:
            with self.log_path.open("rb") as log:
                log.seek(0, os.SEEK_END)
                size = log.tell()
                log.seek(max(0, size - TAIL_BYTES))
                text = log.read().decode("utf-8", "replace")
        except OSError:
            return ""
        return clean_text(text if size <= TAIL_BYTES else "…" + text, limit=TAIL_BYTES + 1)

    def tail_note(self) -> str:
        lines = [line for line in self.tail().splitlines() if line.strip()][-3:]
        return f"; its last output: {' | '.join(lines)}" if lines else ""

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        for connection in (self.outbox, self.inbox):
            with contextlib.suppress(OSError):
                connection.close()
        self.activity.close()

    def quit(self) -> None:
        with contextlib.suppress(OSError, BrokenPipeError):
            self.outbox.send(("quit",))
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(2)
        self.kill()


class Supervisor:
    """Runs units on ``jobs`` worker processes for the engine ``impl``.

    With ``reap_descendants`` (the process running ``oracle check``, never a host such as pytest's) this
    process becomes a child subreaper until :meth:`close`, which kills every process the run left behind,
    detached ones included (:mod:`oracle.run.reaper`); without it, :meth:`close` kills the workers'
    process groups only.
    """

    def __init__(self, impl: str, timeout: float, options: CheckOptions, jobs: int = 1,
                 progress: Progress | None = None, signals: StopSignals | None = None,
                 reap_descendants: bool = False) -> None:
        self.impl = impl
        self.timeout = timeout
        self.options = options
        self.jobs = max(1, jobs)
        self.progress = progress
        self._folder = Path(tempfile.mkdtemp(prefix="vale-oracle-"))
        self._spawned = 0
        self._idle: list[_Worker] = []
        self._busy: list[_Worker] = []
        self.signals = signals if signals is not None else StopSignals()
        """The SIGINT / SIGTERM record: ``oracle check`` passes the one it installed before anything started."""
        self.handshake: Handshake | None = None
        self.attachments: dict[int, object] = {}
        """What units handed back besides their results (the fuzz report), by unit index."""
        self._reaper = Reaper() if reap_descendants else None
        self.costs = EngineCosts()
        """The engine's calls in the units that ended so far, by method."""

    # ------------------------------------------------------------------ workers

    def _spawn(self) -> _Worker:
        self._spawned += 1
        worker = _Worker(self._folder, self._spawned)
        try:
            handshake = worker.hello(self.impl, self.timeout, self.options, self.signals)
        except BaseException:
            worker.kill()
            raise
        if self.handshake is None:
            self.handshake = handshake
        return worker

    def start(self) -> Handshake:
        """Start the first worker and return the engine's handshake (EngineRefused / OSError if it cannot,
        Stopped when a signal comes first)."""
        self._idle.append(self._spawn())
        assert self.handshake is not None
        return self.handshake

    def measure_scale(self) -> BudgetScale:
        """The engine's budget scale, timed once by the first worker after :meth:`start` (a worker that dies doing
        it is replaced when the run needs one)."""
        worker = self._idle[-1]
        scale = worker.measure(self.signals)
        if worker.process.poll() is not None or worker.inbox.closed:
            self._idle.remove(worker)
            worker.kill()
        return scale

    def set_options(self, options: CheckOptions) -> None:
        """The options every worker runs units with from now on (the run's, once its budget scale is known): sent
        to the idle workers before :meth:`run`, and in the hello of every worker started later, so all use the
        same factor."""
        self.options = options
        for worker in self._idle:
            worker.outbox.send(("options", options))

    def close(self) -> None:
        for worker in self._idle + self._busy:
            worker.quit()
        self._idle.clear()
        self._busy.clear()
        if self._reaper is not None:
            self._reaper.finish()
            self._reaper = None
        for path in self._folder.glob("*"):
            with contextlib.suppress(OSError):
                path.unlink()
        with contextlib.suppress(OSError):
            self._folder.rmdir()

    # ------------------------------------------------------------------ the run

    def run(self, units: list[AnyUnit], sink: Sink, time_budget: float | None = None) -> RunStatus:
        """Run ``units``, the ones with the longest deadline first (a long unit started last would leave the other
        workers idle at the end), each unit's results to ``sink`` under its index in ``units``."""
        status = RunStatus()
        queue = deque(sorted(range(len(units)), key=lambda index: -units[index].deadline))
        deadline = time.monotonic() + time_budget if time_budget is not None else None
        failed_starts = 0
        with self.signals.caught():
            while queue or self._busy:
                if self.signals.received:
                    status.stopped = self.signals.received
                    break
                if deadline is not None and time.monotonic() > deadline:
                    status.stopped = f"the time budget of {time_budget:g} s ran out"
                    break
                while queue and (self._idle or len(self._busy) < self.jobs):
                    index = queue[0]
                    unit = units[index]
                    if unit.skipped:
                        queue.popleft()
                        if not sink(index, skipped_results(unit)):
                            status.stopped = "the failure limit was reached"
                        continue
                    worker = self._idle.pop() if self._idle else None
                    if worker is None:
                        try:
                            worker = self._spawn()
                            failed_starts = 0
                            status.restarts += 1
                        except Stopped as stop:
                            status.stopped = stop.signal_name
                            break
                        except (OSError, EngineRefused) as exc:
                            queue.popleft()
                            failed_starts += 1
                            message = f"the engine could not be started again for this check: {exc}"
                            sink(index, lost_results(unit, Outcome.ERROR, message))
                            if failed_starts >= RESTART_LIMIT:
                                status.stopped = f"the engine failed to start {failed_starts} times in a row"
                            continue
                    queue.popleft()
                    worker.assign(index, unit)
                    self._busy.append(worker)
                if status.stopped:
                    break
                if self._busy and not self._collect(units, sink):
                    status.stopped = "the failure limit was reached"
                    break
        if status.stopped:
            for worker in self._busy:
                assert worker.unit is not None
                status.not_run.append(worker.unit[0])
                worker.kill()
            self._busy.clear()
            status.not_run.extend(queue)
            status.not_run.sort()
        return status

    def _collect(self, units: list[AnyUnit], sink: Sink) -> bool:
        """Wait briefly for messages; settle finished, dead and overdue units. False when the sink says stop."""
        ready = wait([w.inbox for w in self._busy], timeout=POLL)
        now = time.monotonic()
        keep_going = True
        for worker in list(self._busy):
            assert worker.unit is not None
            index, unit = worker.unit
            if worker.inbox in ready:
                try:
                    message = worker.inbox.recv()
                except (EOFError, OSError):
                    keep_going &= sink(index, self._lost(worker, unit, Outcome.ERROR, "died"))
                    self._retire(worker)
                    continue
                except Exception as exc:
                    keep_going &= sink(index, self._lost(worker, unit, Outcome.ERROR,
                                                         f"sent a message that could not be read ({exc})"))
                    self._retire(worker)
                    continue
                if message[0] == "beat":
                    worker.last_sign = now
                    if self.progress is not None:
                        self.progress(message[2])
                    continue
                _, _, results, attachment, costs = message
                self._add_costs(costs)
                if attachment is not None:
                    self.attachments[index] = attachment
                self._busy.remove(worker)
                worker.unit = None
                self._idle.append(worker)
                keep_going &= sink(index, results)
                continue
            worker.sign_of_life(now)
            silence = unit.silence if unit.silence is not None else 3 * self.timeout + SILENCE_MARGIN
            if worker.activity.method in START_METHODS:
                silence = max(silence, self.options.start_timeout + SILENCE_MARGIN)
            if now - worker.started > unit.deadline:
                keep_going &= sink(index, self._overran(worker, unit))
                self._retire(worker)
            elif now - worker.last_sign > silence:
                keep_going &= sink(index, self._lost(worker, unit, Outcome.TIMEOUT,
                                                     f"stopped responding (no new engine call for "
                                                     f"{silence:g} s)"))
                self._retire(worker)
        return keep_going

    def _add_costs(self, costs: object) -> None:
        """Add a unit's engine costs to the run's; costs mangled in the worker (by an engine running there) are left
        out, never a crash of the run."""
        if not isinstance(costs, EngineCosts):
            return
        with contextlib.suppress(TypeError, ValueError, AttributeError):
            self.costs = self.costs.merged(costs)

    def _lost(self, worker: _Worker, unit: AnyUnit, outcome: Outcome, what: str) -> list[CheckResult]:
        method = worker.activity.method
        during = f" during {method}()" if method else ""
        if outcome is Outcome.TIMEOUT:
            worker.kill()
            why = f"the engine {what}{during}"
        else:
            why = f"the engine's process {what}{during} ({worker.exit_text()})"
        tail = worker.tail()
        message = f"{why}{worker.tail_note()}; the check was lost, the run went on with a new process"
        return lost_results(unit, outcome, message, {"engine_output": tail, "method": method})

    def _overran(self, worker: _Worker, unit: AnyUnit) -> list[CheckResult]:
        """A unit past its deadline while the engine still showed signs of life: its budget cut it short, so its
        checks are ``incomplete``, never the engine's timeout (a hung call is caught by the per-call timeout and
        the sign-of-life limit)."""
        method = worker.activity.method
        worker.kill()
        message = (f"the check ran past its deadline of {unit.deadline:g} s with the engine still answering"
                   f"{f' (last in {method}())' if method else ''}: cut short, not checked to the end (raise "
                   "--unit-timeout, the suite's budget or --budget-scale); the run went on with a new process")
        return lost_results(unit, Outcome.INCOMPLETE, message, {"out_of_budget": True, "method": method})

    def _retire(self, worker: _Worker) -> None:
        worker.kill()
        if worker in self._busy:
            self._busy.remove(worker)
