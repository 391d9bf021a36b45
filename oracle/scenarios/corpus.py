"""A corpus of counterexamples (``oracle fuzz --corpus DIR``): the folder of saved scenarios and traces that later
runs replay first, kept to one file per cause, and the corpora of several shards joined into one.

A saved counterexample is named ``<cause>-<digest>`` (``DEC-2-accepts-end_turn-1a2b3c4d.toml``, or
``….trace.json`` when no scenario could be kept): the cause part is the blamed rule, what the engine does against
the reference and the action's type (``vale_invariants.scenario.counterexample_name``), the digest that of the
counterexample itself. Two files of one cause are the same deviation found twice (by two games, two runs or two
shards): the corpus keeps the smaller, a scenario before a raw trace.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

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


def combine(sources: Iterable[Path], target: Path) -> list[Path]:
    """Copy the counterexamples of every source corpus (and of ``target`` itself) into ``target``, one per cause;
    the files ``target`` holds afterwards."""
    target.mkdir(parents=True, exist_ok=True)
    found = [entry for source in (target, *sources) for entry in entries(source)]
    kept = []
    for entry in best_by_cause(found).values():
        destination = target / entry.path.name
        if entry.path.resolve() != destination.resolve():
            shutil.copyfile(entry.path, destination)
        kept.append(destination)
    compact(target)
    return kept
