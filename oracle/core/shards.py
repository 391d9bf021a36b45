"""Shards: ``--shard K/N``, a deterministic 1/N of a run's work, so a CI matrix of N jobs splits one run.

A unit of ``oracle check`` (a scenario, a game, a Z3 row with its checks, the fuzz run) belongs to the shard that the
SHA-256 of its id names, whatever the machine, the Python or the order of planning (never Python's ``hash()``, which
changes with each process). A fuzz run's batches of games are dealt out by their number: shard K of N plays batches
K-1, K-1+N, K-1+2N, ..., so no two shards ever play a batch of the same seed.

A shard's report records the whole run's :class:`Plan` (every unit's id and its checks' ids, in order) and its
digest, so ``oracle report merge`` deals the plan again here, with the same :meth:`Plan.deal` ``oracle check
--shard`` used, and refuses a shard whose results are not those of the units the plan deals it.
"""

from __future__ import annotations

import hashlib
import json
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


def json_sha256(value: object) -> str:
    """The SHA-256 of ``value`` written as JSON in one line, keys in the order they come (a report's values are
    written and read back in that order, so the digest of what a report holds is the digest of what was written)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class PlannedUnit:
    """A unit of the whole plan as a shard's report records it: its id (``suite/key``) and its checks' ids."""

    id: str
    checks: tuple[str, ...]


@dataclass(frozen=True)
class Plan:
    """The whole (unsharded) run's units, in the order they run: what every shard of the run is dealt from."""

    units: tuple[PlannedUnit, ...]

    @property
    def checks(self) -> int:
        """How many checks the whole run plans."""
        return sum(len(unit.checks) for unit in self.units)

    @property
    def sha256(self) -> str:
        """The digest of every unit's id and its checks' ids, in order: shards of one run have the same."""
        return json_sha256([[unit.id, list(unit.checks)] for unit in self.units])

    def deal(self, shard: Shard) -> tuple[int, ...]:
        """The places in the plan of the units dealt to ``shard``: those whose id it :meth:`Shard.holds`."""
        return tuple(n for n, unit in enumerate(self.units) if shard.holds(unit.id))

    def dealt_sha256(self, shard: Shard) -> str:
        """The digest of the ids of the units dealt to ``shard``, in order (what its report says it was dealt)."""
        return json_sha256([self.units[n].id for n in self.deal(shard)])
