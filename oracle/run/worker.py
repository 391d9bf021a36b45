"""The worker process: loads the engine once, then runs the units the supervisor sends, one at a time.

Started by the supervisor (:mod:`oracle.run.launch`: forked with the oracle already imported, or as ``python -P -m
oracle.run.worker READ_FD WRITE_FD ACTIVITY_FILE``), with its stdout and stderr sent to a log file (so whatever the
engine prints can be shown when it fails) and the working directory off ``sys.path``
(:func:`oracle.engines.connect.allow_from_working_directory`). Messages are
pickled tuples over the two pipes:

* supervisor -> worker: ``("hello", impl, timeout, options)`` once, then ``("measure",)`` (time the engine
  against the reference), ``("options", options)`` (the run's options once its budget scale is known),
  ``("run", index, unit)``, ``("quit",)``;
* worker -> supervisor: ``("ready", handshake)`` or ``("refused", message)``; ``("measured", scale)`` (a
  :class:`~oracle.engines.speed.BudgetScale`); then per unit any number of ``("beat", index, progress)`` and one
  ``("done", index, results, attachment, costs)`` (``costs``: the engine's calls during the unit, an
  :class:`~oracle.engines.costs.EngineCosts`).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from oracle.core.faults import EngineFault, ImplError, describe_fault
from oracle.core.portable import shown_traceback
from oracle.core.results import CheckResult, Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.engines.costs import CostRecorder, EngineCosts
from oracle.engines.harness import hold_alarm_handler, on_engine_call, on_engine_cost
from oracle.engines.speed import BudgetScale, measure_scale
from oracle.run.activity import ActivityWriter
from oracle.suites.all import suite_named
from oracle.suites.registry import AnyUnit, CheckOptions, RunContext, lost_results, run_unit

_PR_SET_PDEATHSIG = 1


def _die_with_the_supervisor() -> None:
    """Ask Linux to kill this worker if the supervisor dies first (best effort elsewhere)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _send(out: Connection, message: tuple[Any, ...]) -> None:
    out.send(message)


def _send_results(out: Connection, index: int, unit: AnyUnit, results: list[CheckResult], attachment: object,
                  costs: EngineCosts) -> None:
    """Send a unit's results; results that cannot be pickled become errors rather than a lost unit."""
    try:
        out.send(("done", index, results, attachment, costs))
    except Exception as exc:
        try:
            out.send(("done", index, results, None, costs))
        except Exception:
            message = f"the unit's results could not be sent to the supervisor: {type(exc).__name__}: {exc}"
            out.send(("done", index, lost_results(unit, Outcome.ERROR, message), None, costs))


def serve(inbox: Connection, out: Connection, costs: CostRecorder) -> None:
    """Answer the hello, then run units until told to quit or the supervisor goes away; each unit's results go with
    the engine's costs ``costs`` recorded while it ran."""
    _, impl, timeout, options = inbox.recv()
    assert isinstance(options, CheckOptions)
    try:
        eut = EngineUnderTest.load(impl, timeout, options.start_timeout)
        handshake = eut.fresh().handshake
    except ImplError as exc:
        _send(out, ("refused", str(exc)))
        return
    except EngineFault as fault:
        _send(out, ("refused", f"--impl {impl}: {describe_fault(fault)}"))
        return
    except BaseException as exc:
        _send(out, ("refused", f"--impl {impl}: loading the engine raised {type(exc).__name__}: {exc}"))
        return
    _send(out, ("ready", handshake))
    while True:
        try:
            message = inbox.recv()
        except EOFError:
            return
        if message[0] == "quit":
            return
        if message[0] == "options":
            options = message[1]
            continue
        if message[0] == "measure":
            _send(out, ("measured", _measured(eut)))
            continue
        _, index, unit = message

        def beat(progress: object, index: int = index) -> None:
            out.send(("beat", index, progress))

        context = RunContext(eut, options, heartbeat=beat)
        costs.take()
        try:
            results = run_unit(suite_named(unit.suite), unit, context)
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            text = shown_traceback("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
            results = lost_results(unit, Outcome.ERROR, f"the check raised {type(exc).__name__}: {exc}",
                                   {"traceback": text[-4000:]})
        _send_results(out, index, unit, results, context.attachment, costs.take())


def _measured(eut: EngineUnderTest) -> BudgetScale:
    """The budget scale of a fresh engine, or why it could not be measured (whatever the engine does, the run goes
    on)."""
    try:
        return measure_scale(eut.fresh())
    except EngineFault as fault:
        return BudgetScale.unmeasured(f"starting the engine to time it failed: {describe_fault(fault)}")
    except Exception as exc:
        return BudgetScale.unmeasured(f"timing the engine raised {type(exc).__name__}: {exc}")


def main(argv: list[str]) -> None:
    """The worker started as a new interpreter (``python -P -m oracle.run.worker READ_FD WRITE_FD ACTIVITY``)."""
    work(int(argv[0]), int(argv[1]), Path(argv[2]))


def work(read_fd: int, write_fd: int, activity_path: Path) -> None:
    """Serve the supervisor over the two pipes until told to quit, then end the process (never returns); a new
    interpreter and a worker forked from the supervisor (:mod:`oracle.run.launch`) both end here."""
    _die_with_the_supervisor()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    hold_alarm_handler()
    activity = ActivityWriter(activity_path)
    on_engine_call(activity.record)
    costs = CostRecorder()
    on_engine_cost(costs.record)
    inbox = Connection(read_fd, writable=False)
    out = Connection(write_fd, readable=False)
    try:
        serve(inbox, out, costs)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
