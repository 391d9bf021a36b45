"""Report files written whole or not at all: a new file is written beside its target and renamed into place, and
an appended report goes in with one write.

A reader (a CI step, a browser, another run) sees the old file or the complete new one, never part of one; a run
stopped or failing half-way through a write leaves the target as it was. A target that exists but is not a
regular file (``/dev/stdout``, ``/dev/full``, a FIFO) is written where it is: a device is never replaced by a file.
A symbolic link stays a link; the file it points to is replaced.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

NEW_FILE_MODE = 0o666
"""The mode of a new report before the umask, as ``open`` would give it."""


def _as_bytes(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def _existing_mode(path: Path) -> int | None:
    """The mode of ``path`` (None when there is no such file)."""
    try:
        return os.stat(path).st_mode
    except FileNotFoundError:
        return None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` (the first call offers all of it; a short write goes on with the rest)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_report_file(path: Path, data: str | bytes) -> None:
    """Replace ``path`` with ``data`` (text is UTF-8), creating missing parent folders; OSError when it cannot be
    written, with the target left as it was."""
    payload = _as_bytes(data)
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = _existing_mode(target)
    if mode is not None and not stat.S_ISREG(mode):
        fd = os.open(target, os.O_WRONLY | os.O_TRUNC)
        try:
            _write_all(fd, payload)
        finally:
            os.close(fd)
        return
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        try:
            _write_all(fd, payload)
            os.fchmod(fd, stat.S_IMODE(mode) if mode is not None else NEW_FILE_MODE & ~_umask())
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def append_report_file(path: Path, data: str | bytes, separator: bytes = b"\n") -> None:
    """Add ``data`` at the end of ``path`` (created when missing), after ``separator`` when the file already holds
    something, in one ``write`` of the whole text on an ``O_APPEND`` descriptor: another step appending to the same
    file at the same moment cannot land in the middle of it."""
    payload = _as_bytes(data)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, NEW_FILE_MODE)
    try:
        found = os.fstat(fd)
        lead = separator if stat.S_ISREG(found.st_mode) and found.st_size else b""
        _write_all(fd, lead + payload)
    finally:
        os.close(fd)
