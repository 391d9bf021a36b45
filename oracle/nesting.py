"""The depth guard every TOML and JSON input passes before it is parsed (issue 21, deliverable 3).

The parsers recurse once per level of nesting, so a file nested some thousands deep ends in a RecursionError
instead of a located error. A cheap scan counts the brackets and braces outside strings and comments first; an
input nested deeper than :data:`MAX_DEPTH` is bad input, reported at the line where the limit is crossed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

MAX_DEPTH = 200
"""Far above anything a scenario, an expectations file or a report holds; far below the recursion limit."""


class Syntax(Enum):
    """The languages the oracle reads; each is scanned with its own idea of a string and a comment."""

    JSON = "JSON"
    TOML = "TOML"


_OPENERS = frozenset("[{")
_CLOSERS = frozenset("]}")

_TOKENS: dict[Syntax, re.Pattern[str]] = {
    Syntax.JSON: re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL),
    Syntax.TOML: re.compile(
        r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]', re.DOTALL),
}


@dataclass(frozen=True)
class TooDeep:
    """Where the input first goes deeper than the limit (1-based line), and the message to show there."""

    line: int
    limit: int

    @property
    def message(self) -> str:
        return f"nested more than {self.limit} deep (arrays, tables or objects inside one another)"


def too_deep(text: str, syntax: Syntax, limit: int = MAX_DEPTH) -> TooDeep | None:
    """The place where ``text`` nests deeper than ``limit``, or None when it never does."""
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for token in _TOKENS[syntax].finditer(text):
        char = token.group()
        if char in _OPENERS:
            depth += 1
            if depth > limit:
                return TooDeep(text.count("\n", 0, token.start()) + 1, limit)
        elif char in _CLOSERS:
            depth = max(depth - 1, 0)
    return None
