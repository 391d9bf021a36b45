"""Shards: ``--shard K/N``, a deterministic 1/N of a run's work, so a CI matrix of N jobs splits one run.

A unit of ``oracle check`` (a scenario, a game, a Z3 row with its checks, the fuzz run) belongs to the shard that the
SHA-256 of its id names, whatever the machine, the Python or the order of planning (never Python's ``hash()``, which
changes with each process). A fuzz run's batches of games are dealt out by their number: shard K of N plays batches
K-1, K-1+N, K-1+2N, ..., so no two shards ever play a batch of the same seed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

SHARD_FORM = "K/N, two whole numbers with 1 <= K <= N (e.g. 2/4)"


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of ``count``; ``Shard(1, 1)`` is the whole run."""

    index: int = 1
    count: int = 1

    def __post_init__(self) -> None:
        if not 1 <= self.index <= self.count:
            raise ValueError(f"shard {self.index}/{self.count}: expected {SHARD_FORM}")

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``2/4`` -> ``Shard(2, 4)``; a ValueError saying what is expected for anything else."""
        index, slash, count = text.strip().partition("/")
        if not slash or not index.strip().isdigit() or not count.strip().isdigit():
            raise ValueError(f"{text!r}: expected {SHARD_FORM}")
        if not 1 <= int(index) <= int(count):
            raise ValueError(f"{text!r}: expected {SHARD_FORM}")
        return cls(int(index), int(count))

    @property
    def whole(self) -> bool:
        """The shard is the whole run (1/1)."""
        return self.count == 1

    @property
    def text(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, unit_id: str) -> bool:
        """The unit of this id is this shard's: the SHA-256 of the id, as a number, modulo the shard count."""
        digest = hashlib.sha256(unit_id.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1

    def batch_number(self, played: int) -> int:
        """The run-wide number of this shard's ``played``-th batch of fuzz games (counted from 0): batches are dealt
        round the shards, so two shards of one seed never play the same batch."""
        return played * self.count + self.index - 1
