"""Starting a worker process: forked from the supervisor with the oracle already imported, or a new interpreter.

A forked worker skips the interpreter's start and the oracle's imports (about 0.35 s of CPU a worker, paid again
for each worker that replaces a lost one); what it inherits is left out of its garbage collections
(``gc.freeze``). Forking is used where it is safe: on a system that has ``fork``, from a
process that runs one thread only (a fork beside other threads, as under pytest-xdist, can copy a lock another
thread holds). Elsewhere, or with ``VALE_ORACLE_WORKER_START=exec``, the worker is ``python -P -m
oracle.run.worker``. Either way it is a process of its own, in a session of its own, with stdin closed, its output
in its log file and the working directory off ``sys.path``: an engine that crashes, hangs or calls ``os._exit``
costs only its unit.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Protocol

START_METHOD_VARIABLE = "VALE_ORACLE_WORKER_START"
"""The environment variable that asks for new interpreters (``exec``) instead of forked workers."""
EXEC = "exec"
_PAUSE = 0.01
_KEPT_STREAMS: list[object] = []
"""The supervisor's own standard streams, kept alive in a forked worker so that no collection of them closes a
descriptor number the worker has reused."""


class WorkerProcess(Protocol):
    """What the supervisor asks of a worker's process (a :class:`subprocess.Popen` has it)."""

    @property
    def pid(self) -> int: ...

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...


def can_fork() -> bool:
    """Whether a worker may be forked from this process: ``fork`` exists, one thread runs, and it was not declined
    through :data:`START_METHOD_VARIABLE`."""
    return (hasattr(os, "fork") and threading.active_count() == 1
            and os.environ.get(START_METHOD_VARIABLE, "") != EXEC)


def start_worker(read_fd: int, write_fd: int, activity_path: Path, log_path: Path) -> WorkerProcess:
    """A worker reading the supervisor's messages from ``read_fd`` and answering on ``write_fd``, with its output in
    ``log_path``; the caller closes its copies of the two descriptors."""
    if can_fork() and min(read_fd, write_fd) > 2:
        return _fork(read_fd, write_fd, activity_path, log_path)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with log_path.open("wb") as log:
        return subprocess.Popen(
            [sys.executable, "-P", "-m", "oracle.run.worker", str(read_fd), str(write_fd), str(activity_path)],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, pass_fds=(read_fd, write_fd),
            start_new_session=True, env=env,
        )


class ForkedWorker:
    """A forked worker's process, answering :meth:`poll` and :meth:`wait` as a :class:`subprocess.Popen` does
    (the exit code, or minus the signal that killed it)."""

    def __init__(self, pid: int) -> None:
        self._pid = pid
        self.returncode: int | None = None

    @property
    def pid(self) -> int:
        return self._pid

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self._pid, os.WNOHANG)
            except ChildProcessError:
                self.returncode = -signal.SIGKILL
                return self.returncode
            if pid == self._pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        give_up = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if give_up is not None and time.monotonic() > give_up:
                raise subprocess.TimeoutExpired(f"worker {self._pid}", timeout or 0.0)
            time.sleep(_PAUSE)
        return code


def _fork(read_fd: int, write_fd: int, activity_path: Path, log_path: Path) -> ForkedWorker:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    log = _log_descriptor(log_path)
    gc.freeze()
    pid = os.fork()
    if pid:
        gc.unfreeze()
        os.close(log)
        return ForkedWorker(pid)
    try:
        _become_worker(read_fd, write_fd, log)
        from oracle.run.worker import work

        work(read_fd, write_fd, activity_path)
    finally:
        os._exit(70)


def _log_descriptor(log_path: Path) -> int:
    """The log file, opened for writing on a descriptor above the three standard ones."""
    import fcntl

    opened = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    if opened > 2:
        return opened
    try:
        return fcntl.fcntl(opened, fcntl.F_DUPFD, 3)
    finally:
        os.close(opened)


def _become_worker(read_fd: int, write_fd: int, log: int) -> None:
    """In the forked child: what a new interpreter started as the worker would have, a session of its own, stdin
    closed, stdout and stderr unbuffered into the log, no other descriptor of the supervisor, default signals, and
    the working directory off ``sys.path``."""
    os.setsid()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    kept = sorted({read_fd, write_fd})
    os.closerange(3, kept[0])
    os.closerange(kept[0] + 1, kept[-1])
    os.closerange(kept[-1] + 1, os.sysconf("SC_OPEN_MAX"))
    _KEPT_STREAMS.extend((sys.stdin, sys.stdout, sys.stderr))
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", errors="backslashreplace",
                                  write_through=True)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace",
                                  write_through=True)
    os.environ["PYTHONUNBUFFERED"] = "1"
    for caught in (signal.SIGTERM, signal.SIGCHLD, signal.SIGHUP):
        signal.signal(caught, signal.SIG_DFL)
    here = os.getcwd()
    sys.path[:] = [entry for entry in sys.path if entry not in ("", ".", here)]
