"""Where a fuzzed game's choices come from: a Hypothesis draw, a seeded random generator or a recorded list."""

from __future__ import annotations

import random
from typing import Protocol


class Chooser(Protocol):
    def integer(self, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high`` inclusive."""
        ...


class RandomChooser:
    """Choices from ``random.Random(seed)``: for benchmarks and quick runs without Hypothesis."""

    def __init__(self, seed: object) -> None:
        self.rng = random.Random(str(seed))

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


class ReplayChooser:
    """Replays recorded choices (then 0, the default choice, when they run out)."""

    def __init__(self, choices: list[int]) -> None:
        self.choices = list(choices)
        self.index = 0

    def integer(self, low: int, high: int) -> int:
        value = self.choices[self.index] if self.index < len(self.choices) else low
        self.index += 1
        return min(max(value, low), high)
