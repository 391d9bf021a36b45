"""No process the run started, nor any descendant of one, outlives the run (issue 21, deliverable 6).

On Linux the process running ``oracle check`` becomes a child subreaper (``PR_SET_CHILD_SUBREAPER``): a
descendant whose parent exits, even one in a session of its own (``setsid``, Node's ``detached``), is
re-parented to it rather than to init, so it stays findable in ``/proc``. When the run ends the
:class:`Reaper` kills every descendant that was not already there when it started, then reaps them, and
gives the process back its former subreaper setting. Elsewhere (no ``prctl``, no ``/proc``) it does
nothing; the supervisor still kills the process groups of its workers, which is all a detached descendant
escapes (docs/wire.md).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37
_PROC = Path("/proc")
REAP_SECONDS = 5.0
"""How long :meth:`Reaper.finish` keeps killing and reaping before it gives up on a process that will not go."""
_PAUSE = 0.01


@dataclass(frozen=True)
class ProcessEntry:
    """One line of the process table: a process, its parent and its state letter (``Z`` for a zombie)."""

    pid: int
    ppid: int
    state: str


def _entry(stat_path: Path) -> ProcessEntry | None:
    try:
        text = stat_path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    head, _, rest = text.rpartition(")")
    fields = rest.split()
    if not head or len(fields) < 2:
        return None
    return ProcessEntry(int(stat_path.parent.name), int(fields[1]), fields[0])


def process_table() -> list[ProcessEntry]:
    """Every process in ``/proc`` (empty where there is no ``/proc``)."""
    try:
        paths = [path / "stat" for path in _PROC.iterdir() if path.name.isdigit()]
    except OSError:
        return []
    return [entry for entry in map(_entry, paths) if entry is not None]


def descendants(root: int, spared: frozenset[int] = frozenset()) -> list[ProcessEntry]:
    """The processes below ``root``, parents before children, leaving out ``spared`` ones and all below them."""
    children: dict[int, list[ProcessEntry]] = {}
    for entry in process_table():
        children.setdefault(entry.ppid, []).append(entry)
    found: list[ProcessEntry] = []
    todo = [root]
    while todo:
        for entry in children.get(todo.pop(), []):
            if entry.pid not in spared and entry.pid != root:
                found.append(entry)
                todo.append(entry.pid)
    return found


def child_subreaper(value: int | None = None) -> int | None:
    """Set this process's child-subreaper flag to ``value`` (or only read it); its former value, None if unknown."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        current = ctypes.c_int(0)
        if libc.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(current), 0, 0, 0) != 0:
            return None
        if value is not None and libc.prctl(_PR_SET_CHILD_SUBREAPER, value, 0, 0, 0) != 0:
            return None
    except (OSError, AttributeError):
        return None
    return current.value


class Reaper:
    """Makes this process a subreaper when made; :meth:`finish` kills and reaps what the run left behind."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.previous = child_subreaper(1)
        self.spared = frozenset(entry.pid for entry in descendants(self.pid))

    @property
    def subreaper(self) -> bool:
        """Whether this process became a child subreaper (Linux)."""
        return self.previous is not None

    def finish(self) -> None:
        """SIGKILL every descendant started since the reaper was made (and all below it), reap the ones
        re-parented here, and restore the former subreaper setting."""
        give_up = time.monotonic() + REAP_SECONDS
        while True:
            left = descendants(self.pid, self.spared)
            if not left or time.monotonic() > give_up:
                break
            for entry in left:
                if entry.state != "Z":
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(entry.pid, signal.SIGKILL)
            for entry in left:
                if entry.ppid == self.pid:
                    with contextlib.suppress(ChildProcessError):
                        os.waitpid(entry.pid, os.WNOHANG)
            time.sleep(_PAUSE)
        if self.previous is not None:
            child_subreaper(self.previous)

