"""A corpus of counterexamples (``oracle fuzz --corpus DIR``): the folder of saved scenarios and traces that later
runs replay first, kept to one file per cause, and the corpora of several shards joined into one.

A saved counterexample is named ``<cause>-<digest>`` (``DEC-2-accepts-end_turn-1a2b3c4d.toml``, or
``….trace.json`` when no scenario could be kept): the cause part is the blamed rule, what the engine does against
the reference and the action's type (``vale_invariants.scenario.counterexample_name``), the digest that of the
counterexample itself. Two files of one cause are the same deviation found twice (by two games, two runs or two
shards): the corpus keeps the smaller, a scenario before a raw trace.

Joining corpora reads and writes regular files only: a symbolic link anywhere in a shard's corpus or in the target
corpus is refused, naming it, before anything is written (a link in an artifact would copy a file from outside into
the corpus, a link in the target would be written through). Files are written with exclusive creation in the target
folder itself, a kept file replaced by a new one renamed over it (:mod:`oracle.core.folder_files`).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from oracle.core.folder_files import Kind, Refused, open_folder, put

SUFFIXES = (".toml", ".trace.json")
"""The files a corpus holds, in the order one is preferred to the other for one cause (a scenario replays)."""
_DIGEST = re.compile(r"^(?P<cause>.+)-[0-9a-f]{8}$")


@dataclass(frozen=True)
class Entry:
    """One saved counterexample: its file, the cause its name gives, and how it ranks among the files of one cause
    (a scenario before a trace, then the smaller, then by name)."""

    path: Path
    cause: str

    @property
    def rank(self) -> tuple[int, int, str]:
        kind = next(n for n, suffix in enumerate(SUFFIXES) if self.path.name.endswith(suffix))
        return kind, self.path.stat().st_size, self.path.name


def entry_of(path: Path) -> Entry | None:
    """The counterexample a file is (None for a file that is not one: another suffix, or no cause in its name)."""
    suffix = next((s for s in SUFFIXES if path.name.endswith(s)), None)
    if suffix is None or not path.is_file():
        return None
    named = _DIGEST.match(path.name[: -len(suffix)])
    return Entry(path, named.group("cause") if named else path.name[: -len(suffix)])


def entries(directory: Path, nested: bool = True) -> list[Entry]:
    """Every counterexample in ``directory``, with ``nested`` those of its subfolders too (one per shard's
    artifact), by path."""
    if not directory.is_dir():
        return []
    found = (entry_of(path) for path in sorted(directory.rglob("*") if nested else directory.iterdir()))
    return [entry for entry in found if entry is not None]


def best_by_cause(found: Iterable[Entry]) -> dict[str, Entry]:
    """One file per cause: the best ranked (:attr:`Entry.rank`)."""
    best: dict[str, Entry] = {}
    for entry in found:
        if entry.cause not in best or entry.rank < best[entry.cause].rank:
            best[entry.cause] = entry
    return dict(sorted(best.items()))


def compact(directory: Path) -> list[Path]:
    """Keep one file per cause in ``directory`` itself (the others are removed; subfolders are left as they are);
    the files removed."""
    found = entries(directory, nested=False)
    kept = {entry.path for entry in best_by_cause(found).values()}
    removed = [entry.path for entry in found if entry.path not in kept]
    for path in removed:
        path.unlink()
    return removed


def links_below(directory: Path) -> Iterator[Path]:
    """Every symbolic link in ``directory`` and its subfolders (a folder link is named, never entered), by path."""
    with os.scandir(directory) as found:
        items = sorted(found, key=lambda item: item.name)
    for item in items:
        if item.is_symlink():
            yield Path(item.path)
        elif item.is_dir(follow_symlinks=False):
            yield from links_below(Path(item.path))


def _read_regular(path: Path) -> bytes:
    """A corpus file's bytes, opened without following a link (one planted since the folder was looked at)."""
    opened = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(opened, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise Refused(path, Kind.OTHER)
        return stream.read()


def combine(sources: Iterable[Path], target: Path) -> list[Path]:
    """Copy the counterexamples of every source corpus (and of ``target`` itself) into ``target``, one per cause;
    the files ``target`` holds afterwards. A symbolic link in any of them is :class:`Refused` before anything is
    written."""
    folders = [target, *sources] if target.is_dir() else list(sources)
    for folder in folders:
        link = next(links_below(folder), None)
        if link is not None:
            raise Refused(link, Kind.LINK)
    found = [entry for folder in folders for entry in entries(folder)]
    kept = []
    with open_folder(target, create=True) as opened:
        for entry in best_by_cause(found).values():
            destination = target / entry.path.name
            if entry.path.parent != target:
                put(opened, entry.path.name, _read_regular(entry.path), destination)
            kept.append(destination)
    compact(target)
    return kept
