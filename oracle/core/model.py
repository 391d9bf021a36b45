"""Value types shared by the reference engine, the protocol and the checks.

Everything here is immutable: families, effect types, stone colours and stone collections.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum


class Family(str, Enum):
    """The five card families (rule CARD-1)."""

    FIRE = "fire"
    WATER = "water"
    EARTH = "earth"
    WIND = "wind"
    DRAGON = "dragon"


class EffectType(str, Enum):
    """Instant (on summon), Permanent (while in the area) or Active (Resolution phase); rule EFF-0."""

    INSTANT = "instant"
    PERMANENT = "permanent"
    ACTIVE = "active"


class Color(str, Enum):
    """Magic stone colours, printed values 1, 3 and 6 (rule STONE-1)."""

    RED = "red"
    BLUE = "blue"
    PURPLE = "purple"


COLORS: tuple[Color, ...] = (Color.RED, Color.BLUE, Color.PURPLE)
PRINTED_VALUE: Mapping[Color, int] = {Color.RED: 1, Color.BLUE: 3, Color.PURPLE: 6}


@dataclass(frozen=True, slots=True)
class Stones:
    """A collection of magic stones, counted by colour."""

    red: int = 0
    blue: int = 0
    purple: int = 0

    @staticmethod
    def of(color: Color, n: int = 1) -> Stones:
        return Stones(**{color.value: n})

    @staticmethod
    def from_json(data: Mapping[str, object]) -> Stones:
        red, blue, purple = data.get("red", 0), data.get("blue", 0), data.get("purple", 0)
        if (
            len(data) <= 3
            and type(red) is int and type(blue) is int and type(purple) is int
            and red >= 0 and blue >= 0 and purple >= 0
            and len(data) == (("red" in data) + ("blue" in data) + ("purple" in data))
        ):
            return Stones(red, blue, purple)
        unknown = set(data) - {"red", "blue", "purple"}
        if unknown:
            raise ValueError(f"unknown stone colour(s): {', '.join(sorted(unknown))}")
        counts: dict[str, int] = {}
        for name in ("red", "blue", "purple"):
            value = data.get(name, 0)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"stone count {name!r} must be a whole number >= 0, got {value!r}")
            counts[name] = value
        return Stones(**counts)

    def to_json(self) -> dict[str, int]:
        return {"red": self.red, "blue": self.blue, "purple": self.purple}

    def count(self, color: Color) -> int:
        if color is Color.RED:
            return self.red
        return self.blue if color is Color.BLUE else self.purple

    @property
    def total(self) -> int:
        return self.red + self.blue + self.purple

    def __add__(self, other: Stones) -> Stones:
        return Stones(self.red + other.red, self.blue + other.blue, self.purple + other.purple)

    def __sub__(self, other: Stones) -> Stones:
        return Stones(self.red - other.red, self.blue - other.blue, self.purple - other.purple)

    def contains(self, other: Stones) -> bool:
        return self.red >= other.red and self.blue >= other.blue and self.purple >= other.purple

    def colors(self) -> Iterator[Color]:
        """Each stone's colour, one entry per stone."""
        for color in COLORS:
            for _ in range(self.count(color)):
                yield color

    def sub_collections(self) -> Iterator[Stones]:
        """Every sub-collection (by colour counts) of this collection, the empty one included."""
        for r in range(self.red + 1):
            for b in range(self.blue + 1):
                for p in range(self.purple + 1):
                    yield Stones(r, b, p)

    def __str__(self) -> str:
        parts = [f"{self.count(c)} {c.value}" for c in COLORS if self.count(c)]
        return ", ".join(parts) if parts else "no stones"


NO_STONES = Stones()
