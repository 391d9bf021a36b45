"""The depth guard every TOML and JSON input passes before it is parsed (issue 21, deliverable 3; issue 36, item 5).

The parsers recurse once per level of nesting, so a file nested some thousands deep ends in a RecursionError
instead of a located error. A cheap scan counts the levels outside strings and comments first; an input nested
deeper than :data:`~oracle.core.limits.MAX_DEPTH` is bad input, reported at the line where the limit is crossed.
In JSON a level is a bracket or a brace. In TOML it is also each part of a table header (``[a.b.c]``, and the
array of ``[[a.b]]``) and of a dotted key (``a.b.c = 1``, inside inline tables too); a key or header of more than
:data:`~oracle.core.limits.MAX_KEY_PARTS` parts is refused as well, for the parser's cost grows with its square,
and so is a file of more than :data:`~oracle.core.limits.MAX_TABLE_NAMES` different table headers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from itertools import accumulate

from oracle.core.limits import MAX_DEPTH, MAX_KEY_PARTS, MAX_TABLE_NAMES

__all__ = ["MAX_DEPTH", "Syntax", "TooDeep", "too_deep"]


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


class Excess(Enum):
    """What an input has too much of, and how the error says it (the limit is filled in)."""

    DEPTH = "nested more than {limit} deep (tables, arrays, objects, dotted keys or table headers inside one another)"
    KEY_PARTS = "a key or table header of more than {limit} parts (a.b.c...)"
    TABLE_NAMES = "more than {limit} different table headers"


@dataclass(frozen=True)
class TooDeep:
    """Where the input first goes past a limit (1-based line), which limit, and the message to show there."""

    line: int
    limit: int
    excess: Excess = Excess.DEPTH

    @property
    def message(self) -> str:
        return self.excess.value.format(limit=self.limit)


_STEPS = {"[": 1, "{": 1, "]": -1, "}": -1}


def _deepest(brackets: str) -> int:
    """The greatest depth the brackets reach (a closer too many only lowers it: the parser stops there)."""
    return max(accumulate(map(_STEPS.__getitem__, brackets)), default=0)


def too_deep(text: str, syntax: Syntax, limit: int = MAX_DEPTH) -> TooDeep | None:
    """The place where ``text`` nests deeper than ``limit`` (or, in TOML, has a key of too many parts), or None
    when it never does."""
    if syntax is Syntax.TOML:
        if text.count("[") + text.count("{") + text.count(".") < min(limit, MAX_KEY_PARTS, MAX_TABLE_NAMES):
            return None
        return _TomlScan(limit).first_excess(_SKIPPED[syntax].sub(_KEEP_LINES[syntax], text))
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


_TOML_TOKENS = re.compile(r"\[\[|[\[\]{}=,.\n]")
"""What shapes a TOML document once its strings and comments are gone: brackets (``[[`` opens an array of tables),
the key parts' dots, the ``=`` that ends a key, the ``,`` that starts the next key of an inline table, line ends."""


class _Mode(Enum):
    """Where a TOML scan is on a line or inside an inline table."""

    START = "a line's start"
    KEY = "a key"
    HEADER = "a table header"
    VALUE = "a value"


@dataclass
class _Frame:
    """An open inline table or array: its depth, and for a table whether a key or a value is being read."""

    closer: str
    depth: int
    mode: _Mode
    key_parts: int = 1


class _TomlScan:
    """One pass over a TOML document's structure, counting the containers around every key and value: the root
    table, a header's parts (and the array of each ``[[...]]`` it names or lies in), a dotted key's parts, and
    each open inline table or array. A file too broken to follow is left to the parser, which locates its error."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.line = 1
        self.table_depth = 1
        self.mode = _Mode.START
        self.key_parts = 1
        self.frames: list[_Frame] = []
        self.header_start = 0
        self.header_is_array = False
        self.arrays: set[tuple[str, ...]] = set()
        self.names: set[tuple[str, ...]] = set()

    def first_excess(self, structure: str) -> TooDeep | None:
        for match in _TOML_TOKENS.finditer(structure):
            found = self._take(match.group(), structure, match.end())
            if found is not None:
                return found
        return None

    def _excess(self, value: int, limit: int, excess: Excess) -> TooDeep | None:
        return TooDeep(self.line, limit, excess) if value > limit else None

    def _take(self, token: str, structure: str, end: int) -> TooDeep | None:
        if token == "\n":
            self.line += 1
            if not self.frames:
                self.mode, self.key_parts = _Mode.START, 1
            return None
        if self.frames:
            return self._inside(self.frames[-1], token)
        if self.mode is _Mode.START and token in ("[", "[["):
            self.mode, self.key_parts = _Mode.HEADER, 1
            self.header_start, self.header_is_array = end, token == "[["
            return None
        if self.mode is _Mode.HEADER:
            return self._header(token, structure, end)
        if self.mode in (_Mode.START, _Mode.KEY):
            return self._key(token)
        if token in ("[", "[[", "{"):
            return self._open(token, self.table_depth + self.key_parts - 1)
        return None

    def _header(self, token: str, structure: str, end: int) -> TooDeep | None:
        if token == ".":
            self.key_parts += 1
            return self._excess(self.key_parts, MAX_KEY_PARTS, Excess.KEY_PARTS)
        if token == "]":
            parts = tuple(part.strip() for part in structure[self.header_start:end - 1].split("."))
            arrays = sum(parts[:length] in self.arrays for length in range(1, len(parts)))
            if self.header_is_array:
                self.arrays.add(parts)
            self.names.add(parts)
            if len(self.names) > MAX_TABLE_NAMES:
                return TooDeep(self.line, MAX_TABLE_NAMES, Excess.TABLE_NAMES)
            self.table_depth = 1 + len(parts) + arrays + self.header_is_array
            self.mode, self.key_parts = _Mode.VALUE, 1
            return self._excess(self.table_depth, self.limit, Excess.DEPTH)
        return None

    def _key(self, token: str) -> TooDeep | None:
        self.mode = _Mode.KEY
        return self._key_part(self, self.table_depth, token)

    def _key_part(self, holder: _Frame | _TomlScan, around: int, token: str) -> TooDeep | None:
        """A dot adds a part to the key being read (in a table, or an inline table ``holder``); ``=`` ends it, its
        value ``around`` containers and one more for each part past the first."""
        if token == ".":
            holder.key_parts += 1
            return self._excess(holder.key_parts, MAX_KEY_PARTS, Excess.KEY_PARTS)
        if token == "=":
            holder.mode = _Mode.VALUE
            return self._excess(around + holder.key_parts - 1, self.limit, Excess.DEPTH)
        return None

    def _inside(self, frame: _Frame, token: str) -> TooDeep | None:
        if token in ("]", "}"):
            self.frames.pop()
            return None
        if frame.mode is _Mode.VALUE or frame.closer == "]":
            if token in ("[", "[[", "{"):
                return self._open(token, frame.depth + frame.key_parts - 1)
            if token == "," and frame.closer == "}":
                frame.mode, frame.key_parts = _Mode.KEY, 1
            return None
        return self._key_part(frame, frame.depth, token)

    def _open(self, token: str, around: int) -> TooDeep | None:
        for _ in range(len(token)):
            closer = "}" if token == "{" else "]"
            mode = _Mode.KEY if closer == "}" else _Mode.VALUE
            around += 1
            self.frames.append(_Frame(closer, around, mode))
            if around > self.limit:
                return TooDeep(self.line, self.limit, Excess.DEPTH)
        return None
