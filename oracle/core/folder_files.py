"""Files written into one folder and nowhere else: never through a symbolic link, a new file by exclusive creation,
an existing file replaced only when it is a regular file, by a new one renamed over it.

Every name is looked up and created relative to the folder's open descriptor, so a link planted in the folder (or a
folder swapped for a link after it was checked) is never followed: ``O_NOFOLLOW`` refuses a link as the file itself,
``O_EXCL`` refuses any entry already there, and a rename replaces the folder's entry, not the file a link or a hard
link shares. The folder a user names is theirs to name and is followed; what is inside it is the oracle's to check.
"""

from __future__ import annotations

import contextlib
import enum
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path

NEW_FILE_MODE = 0o666
"""The mode of a new file before the umask, as ``open`` would give it."""
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC


class Kind(enum.Enum):
    """What a name in a folder is, without following it."""

    ABSENT = "absent"
    REGULAR = "a regular file"
    FOLDER = "a folder"
    LINK = "a symbolic link"
    OTHER = "not a regular file (a FIFO, socket or device)"


class Refused(OSError):
    """A name the oracle will not write through or read from; ``str`` names the path and says why."""

    def __init__(self, path: Path, kind: Kind) -> None:
        super().__init__(f"{path}: is {kind.value}; refused: the oracle reads and replaces only regular files, never "
                         "through a link")
        self.path = path
        self.kind = kind


def kind_of(facts: os.stat_result | None) -> Kind:
    """The kind of an entry from its ``lstat`` (None: there is none)."""
    if facts is None:
        return Kind.ABSENT
    mode = facts.st_mode
    return (Kind.LINK if stat.S_ISLNK(mode) else Kind.REGULAR if stat.S_ISREG(mode)
            else Kind.FOLDER if stat.S_ISDIR(mode) else Kind.OTHER)


def entry_kind(folder: int, name: str) -> Kind:
    """What ``name`` is in the open ``folder``, the entry itself (a link is a link)."""
    try:
        return kind_of(os.stat(name, dir_fd=folder, follow_symlinks=False))
    except FileNotFoundError:
        return Kind.ABSENT


@contextlib.contextmanager
def open_folder(path: Path, create: bool = False, follow: bool = True, mode: int = 0o777) -> Iterator[int]:
    """The folder at ``path`` open as a descriptor, made first (with its parents) when ``create``; with ``follow``
    False a link as the folder itself is refused (:class:`Refused`)."""
    if create:
        path.mkdir(parents=True, exist_ok=True, mode=mode)
    try:
        opened = os.open(path, _FOLDER | (0 if follow else os.O_NOFOLLOW))
    except OSError:
        if not follow and os.path.islink(path):
            raise Refused(path, Kind.LINK) from None
        raise
    try:
        yield opened
    finally:
        os.close(opened)


def write_new(folder: int, name: str, data: bytes, mode: int = NEW_FILE_MODE) -> None:
    """Create ``name`` in ``folder`` with ``data``; refused (``FileExistsError``, or ``OSError`` for a link) when
    any entry has that name. A file left half-written by a failed write is removed."""
    opened = os.open(name, _NEW, mode, dir_fd=folder)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(opened, view):]
    except BaseException:
        os.close(opened)
        os.unlink(name, dir_fd=folder)
        raise
    os.close(opened)


def put(folder: int, name: str, data: bytes, where: Path, mode: int = NEW_FILE_MODE) -> None:
    """Write ``name`` in ``folder`` whole: created anew, or, over a regular file, a new file renamed over it. Any
    other entry by that name (a link, a folder, a FIFO) is :class:`Refused`, named as ``where``."""
    kind = entry_kind(folder, name)
    if kind not in (Kind.ABSENT, Kind.REGULAR):
        raise Refused(where, kind)
    temporary = f".{name}.{secrets.token_hex(6)}.tmp"
    write_new(folder, temporary, data, mode)
    try:
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        os.unlink(temporary, dir_fd=folder)
        raise
