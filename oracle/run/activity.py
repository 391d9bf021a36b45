"""A few shared bytes where a worker records each engine call: a counter (a sign of life) and the method name."""

from __future__ import annotations

import mmap
import struct
from pathlib import Path

SIZE = 128
_COUNTER = struct.Struct("<Q")
_NAME_END = SIZE


def create(path: Path) -> None:
    """Make the file the worker writes and the supervisor reads."""
    path.write_bytes(bytes(SIZE))


class ActivityWriter:
    """The worker's side: :meth:`record` is called before every engine call (a few microseconds)."""

    def __init__(self, path: Path) -> None:
        self._file = path.open("r+b")
        self._map = mmap.mmap(self._file.fileno(), SIZE)
        self._count = 0
        self._last = b""

    def record(self, method: str) -> None:
        self._count += 1
        self._map[0:8] = _COUNTER.pack(self._count)
        name = method.encode("utf-8", "replace")[: _NAME_END - 9]
        if name != self._last:
            self._map[8 : 9 + len(name)] = name + b"\0"
            self._last = name


class ActivityReader:
    """The supervisor's side: how many engine calls so far, and the method of the latest."""

    def __init__(self, path: Path) -> None:
        self._file = path.open("rb")
        self._map = mmap.mmap(self._file.fileno(), SIZE, access=mmap.ACCESS_READ)

    @property
    def calls(self) -> int:
        count: int = _COUNTER.unpack(self._map[0:8])[0]
        return count

    @property
    def method(self) -> str:
        return self._map[8:_NAME_END].split(b"\0", 1)[0].decode("utf-8", "replace")

    def close(self) -> None:
        self._map.close()
        self._file.close()
