"""A signal in the start-up window of ``oracle check`` still yields every report (issue 36, item 8).

The ``oracle`` entry point catches SIGINT and SIGTERM in its first lines, before the command line is imported
(``oracle/run/signals.py``): a signal while Python imports the oracle is kept until ``oracle check`` can act on
it, and every requested report is written, well formed and marked incomplete (an empty run when no plan was made
yet), with exit 143 (130 for SIGINT). Every other command lets the signals go before it imports anything, so it
still ends by a signal as Python would. The installed entry point is started as a CI job starts it; each moment is
hit exactly through the test hook ``VALE_ORACLE_SIGNAL_AT``, and once more in real time after Python is up.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from oracle.run.signals import SIGNAL_AT_ENV, Stage
from tests.test_signals_and_writes import SIGNALS, WAIT, Reports, finish
from vale_fixtures.stalls_before_handshake import MARKER_ENV

ORACLE = Path(sys.executable).with_name("oracle")
"""The installed entry point beside this interpreter (``oracle = "oracle.cli:main"``)."""
STALLS = "vale_fixtures.stalls_before_handshake"
HANDLERS_WITHIN_CPU = 0.2
"""Seconds of its own CPU time by which the oracle catches SIGTERM (it needs about 0.03 s; the imports that used to
come first take 0.35 s and more). CPU time, not the clock, so that a busy machine does not change the answer."""
PROC = Path("/proc/self/status")


def start_oracle(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    assert ORACLE.is_file(), f"no entry point at {ORACLE}: install the package (pip install -e .)"
    return subprocess.Popen([str(ORACLE), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **env})


# ---------------------------------------------------------------------------------------------- each stage, exactly


@SIGNALS
@pytest.mark.parametrize("stage", list(Stage), ids=[s.value for s in Stage])
def test_a_signal_at_each_start_up_stage_writes_every_report_of_an_empty_incomplete_run(
        tmp_path: Path, stage: Stage, signal_name: str, code: int) -> None:
    reports = Reports(tmp_path)
    process = start_oracle("check", "--suite", "setup", *reports.options,
                           env={SIGNAL_AT_ENV: f"{stage.value}:{signal_name}"})
    returned, output = finish(process)
    assert code == returned, output
    run = reports.stopped_run(signal_name)
    assert ({"name": "unknown", "version": "unknown", "impl": "oracle.reference"}, [], []) == \
        (run["engine"], run["suites"], run["not_run"])


@pytest.mark.parametrize("args", [("rules",), ("check", "--help")], ids=["rules", "check-help"])
def test_a_signal_during_the_imports_of_a_command_that_writes_no_report_still_ends_it(args: tuple[str, ...]) -> None:
    process = start_oracle(*args, env={SIGNAL_AT_ENV: Stage.IMPORTED.value})
    out, err = process.communicate(timeout=WAIT)
    assert -signal.SIGTERM == process.returncode, out + err


# ---------------------------------------------------------------------------------------------- in real time


def caught_signals(pid: int) -> int:
    """The set of signals process ``pid`` has a handler for (``SigCgt`` of ``/proc/PID/status``), 0 once gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    except OSError:
        return 0
    return next((int(line.split()[1], 16) for line in status.splitlines() if line.startswith("SigCgt:")), 0)


def catches(pid: int, sig: signal.Signals) -> bool:
    return bool(caught_signals(pid) & (1 << (sig - 1)))


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used (user and system, fields 14 and 15 of ``/proc/PID/stat``), 0 once gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return 0.0
    user, system = stat.rpartition(")")[2].split()[11:13]
    return (int(user) + int(system)) / os.sysconf("SC_CLK_TCK")


def wait_until(done: Callable[[], bool], process: subprocess.Popen[str]) -> None:
    """Poll ``done`` until it holds; fail when ``process`` ends first, or after :data:`WAIT` seconds."""
    until = time.monotonic() + WAIT
    while not done():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < until, f"waited {WAIT:g} s"
        time.sleep(0.002)


def signal_after(process: subprocess.Popen[str], seconds: float, sig: signal.Signals) -> None:
    """Send ``sig`` ``seconds`` after Python is up in ``process`` (it handles SIGINT: no program of its own has run
    yet, nor can it catch anything earlier); on a busy machine, where the process may not have got that far by
    then, as soon after as the oracle catches SIGTERM (it installs both handlers together; Python's own SIGINT
    handler hides its), but no later than when the process has used :data:`HANDLERS_WITHIN_CPU` of CPU time."""
    wait_until(lambda: catches(process.pid, signal.SIGINT), process)
    time.sleep(seconds)
    wait_until(lambda: catches(process.pid, signal.SIGTERM) or cpu_seconds(process.pid) >= HANDLERS_WITHIN_CPU,
               process)
    process.send_signal(sig)


@pytest.mark.skipif(not PROC.exists(), reason="reads /proc/PID/status to see when Python is up")
@pytest.mark.parametrize(("seconds", "signal_name", "code"),
                         [(0.05, "SIGTERM", 143), (0.1, "SIGTERM", 143), (0.2, "SIGTERM", 143),
                          (0.5, "SIGTERM", 143), (0.1, "SIGINT", 130)])
def test_a_signal_soon_after_the_start_writes_every_report_marked_incomplete(
        tmp_path: Path, seconds: float, signal_name: str, code: int) -> None:
    reports = Reports(tmp_path)
    process = start_oracle("check", "--impl", STALLS, "--suite", "setup", *reports.options,
                           env={MARKER_ENV: str(tmp_path / "engine-started")})
    signal_after(process, seconds, signal.Signals[signal_name])
    returned, output = finish(process)
    assert code == returned, output
    reports.stopped_run(signal_name)
