"""The depth guard every TOML and JSON input passes before it is parsed (issue 21, deliverable 3).

The parsers recurse once per level of nesting, so a file nested some thousands deep ends in a RecursionError
instead of a located error. A cheap scan counts the brackets and braces outside strings and comments first; an
input nested deeper than :data:`MAX_DEPTH` is bad input, reported at the line where the limit is crossed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from itertools import accumulate

MAX_DEPTH = 200
"""Far above anything a scenario, an expectations file or a report holds; far below the recursion limit."""


class Syntax(Enum):
    """The languages the oracle reads; each is scanned with its own idea of a string and a comment."""

    JSON = "JSON"
    TOML = "TOML"


_OPENERS = frozenset("[{")
_CLOSERS = frozenset("]}")
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_BASIC_STRING = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'

_SKIPPED: dict[Syntax, re.Pattern[str]] = {
    Syntax.JSON: re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL),
    Syntax.TOML: re.compile(
        r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|' + _BASIC_STRING + r"|'[^'\n]*'|#[^\n]*", re.DOTALL),
}
"""What may hold brackets that are not structure: strings, and TOML's comments."""


def _newlines_of(match: re.Match[str]) -> str:
    return "\n" * match.group().count("\n")


_KEEP_LINES: dict[Syntax, str | Callable[[re.Match[str]], str]] = {Syntax.JSON: "", Syntax.TOML: _newlines_of}
"""What a skipped piece becomes: nothing (a JSON string holds no line break), or its line breaks (TOML's
multi-line strings), so the lines of what is left are the lines of the text."""


@dataclass(frozen=True)
class TooDeep:
    """Where the input first goes deeper than the limit (1-based line), and the message to show there."""

    line: int
    limit: int

    @property
    def message(self) -> str:
        return f"nested more than {self.limit} deep (arrays, tables or objects inside one another)"


_STEPS = {"[": 1, "{": 1, "]": -1, "}": -1}


def _deepest(brackets: str) -> int:
    """The greatest depth the brackets reach (a closer too many only lowers it: the parser stops there)."""
    return max(accumulate(map(_STEPS.__getitem__, brackets)), default=0)


def too_deep(text: str, syntax: Syntax, limit: int = MAX_DEPTH) -> TooDeep | None:
    """The place where ``text`` nests deeper than ``limit``, or None when it never does."""
    if text.count("[") + text.count("{") <= limit:
        return None
    structure = _SKIPPED[syntax].sub(_KEEP_LINES[syntax], text)
    if _deepest(_NOT_BRACKETS.sub("", structure)) <= limit:
        return None
    depth = 0
    for position, char in enumerate(structure):
        if char in _OPENERS:
            depth += 1
            if depth > limit:
                return TooDeep(structure.count("\n", 0, position) + 1, limit)
        elif char in _CLOSERS:
            depth = max(depth - 1, 0)
    return None
