"""No process the oracle started, nor any descendant, outlives the run (issue 21, deliverable 6): a wire
engine's grandchild in a session of its own, holding the engine's pipes, is gone when ``oracle check`` returns,
whether the run fails to start, passes or is stopped by SIGTERM; the subreaper setting is given back."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from oracle.core.exits import EXIT_BAD_INPUT, EXIT_OK
from oracle.run.reaper import Reaper, child_subreaper, descendants

GONE_WITHIN_SECONDS = 30.0
STARTED_WITHIN_SECONDS = 120.0
EXIT_SIGTERM = 143
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")


def _running(pid: int) -> bool:
    """True while ``pid`` is a process that has not exited (a zombie has exited)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _gone(pid: int) -> bool:
    waited_until = time.monotonic() + GONE_WITHIN_SECONDS
    while _running(pid) and time.monotonic() < waited_until:
        time.sleep(0.1)
    return not _running(pid)


def _command(pid_file: Path, mode: str, suite: str) -> list[str]:
    impl = f"cmd:{sys.executable} -P -m vale_fixtures.wire.leaves_a_grandchild {pid_file} {mode}"
    return [sys.executable, "-P", "-m", "oracle.cli.app", "check", "--impl", impl, "--suite", suite, "--jobs", "1"]


@contextlib.contextmanager
def _grandchild(pid_file: Path) -> Iterator[None]:
    """Kill the grandchild at the end, should the oracle have left it running."""
    try:
        yield
    finally:
        with contextlib.suppress(ValueError, OSError):
            os.kill(int(pid_file.read_text(encoding="utf-8")), signal.SIGKILL)


@pytest.mark.parametrize(("mode", "code", "said"), [("refuse", EXIT_BAD_INPUT, "not JSON"), ("serve", EXIT_OK, "")])
def test_a_grandchild_in_its_own_session_does_not_outlive_the_run(tmp_path: Path, mode: str, code: int,
                                                                  said: str) -> None:
    pid_file = tmp_path / "grandchild.pid"
    with _grandchild(pid_file):
        run = subprocess.run(_command(pid_file, mode, "setup"), cwd=tmp_path, capture_output=True, text=True,
                             timeout=300, check=False)
        pid = int(pid_file.read_text(encoding="utf-8"))
        assert code == run.returncode, run.stdout + run.stderr
        assert said in run.stderr
        assert _gone(pid), f"process {pid} outlived the run"


def test_a_grandchild_does_not_outlive_a_run_stopped_by_sigterm(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild.pid"
    with _grandchild(pid_file), subprocess.Popen(_command(pid_file, "stall", "random-play"), cwd=tmp_path,
                                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as run:
        started_until = time.monotonic() + STARTED_WITHIN_SECONDS
        while not pid_file.exists() and run.poll() is None and time.monotonic() < started_until:
            time.sleep(0.05)
        assert pid_file.exists(), "the engine never started its grandchild"
        time.sleep(0.2)
        run.send_signal(signal.SIGTERM)
        assert EXIT_SIGTERM == run.wait(STARTED_WITHIN_SECONDS)
        pid = int(pid_file.read_text(encoding="utf-8"))
        assert _gone(pid), f"process {pid} outlived the run"


def test_the_reaper_spares_what_was_there_before_it_and_gives_back_the_subreaper_setting() -> None:
    with subprocess.Popen([sys.executable, "-P", "-c", "import time; time.sleep(60)"]) as before:
        try:
            reaper = Reaper()
            after = subprocess.Popen([sys.executable, "-P", "-c", "import time; time.sleep(60)"])
            assert 1 == child_subreaper()
            reaper.finish()
            assert (0, 0) == (reaper.previous, child_subreaper())
            left = {entry.pid for entry in descendants(os.getpid())}
            assert (False, True) == (after.pid in left, before.pid in left)
            assert (False, True) == (_running(after.pid), _running(before.pid))
            after.wait(GONE_WITHIN_SECONDS)
        finally:
            before.kill()
