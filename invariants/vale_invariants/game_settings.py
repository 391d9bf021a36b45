"""What a fuzzed game is played with (its settings and limits) and what the games count (stats)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from oracle.protocol import DecisionKind

JSON = dict[str, Any]

MAX_STEPS = 3000
STEP_CALLS = 4
SEED_MAX = 2**32 - 1


@dataclass
class Stats:
    games: int = 0
    decisions: int = 0
    truncated: int = 0
    checks: Counter[str] = field(default_factory=Counter)
    probes: Counter[DecisionKind] = field(default_factory=Counter)
    """Guard probes sent, by the kind of the decision they were sent to."""


@dataclass(frozen=True)
class GameSettings:
    factory: Callable[[], Any]
    impl: str
    players: tuple[int, ...]
    active: frozenset[str]
    lockstep: bool
    timeout: float = 5.0
    max_steps: int = MAX_STEPS
    positions: bool = False
    modes: tuple[str, ...] = ("base",)
