"""Line numbers for keys and array entries of a TOML document (``tomllib`` reports none).

:func:`key_lines` scans a document that ``tomllib`` has already accepted and maps every key path
(``("steps", 2, "do", "card")``) to the line where it starts: table headers (``[[steps]]`` counts
as entry 0, 1, …), ``key = value`` lines, dotted keys, and the entries and keys of inline arrays and
tables, however they are spread over lines. :func:`line_of` answers for the longest known prefix.
"""

from __future__ import annotations

import bisect

KeyPath = tuple[str | int, ...]

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.newlines = [i for i, ch in enumerate(text) if ch == "\n"]
        self.lines: dict[KeyPath, int] = {}
        self.arrays: dict[KeyPath, int] = {}

    # ------------------------------------------------------------------ basics

    def line(self, pos: int | None = None) -> int:
        return bisect.bisect_left(self.newlines, self.pos if pos is None else pos) + 1

    def record(self, path: KeyPath, pos: int | None = None) -> None:
        self.lines.setdefault(path, self.line(pos))

    def peek(self, n: int = 1) -> str:
        return self.text[self.pos:self.pos + n]

    def skip_blank(self, newlines: bool) -> None:
        text = self.text
        while self.pos < len(text):
            ch = text[self.pos]
            if ch in " \t\r" or (newlines and ch == "\n"):
                self.pos += 1
            elif ch == "#":
                end = text.find("\n", self.pos)
                self.pos = len(text) if end < 0 else end
            else:
                return

    def skip_line(self) -> None:
        end = self.text.find("\n", self.pos)
        self.pos = len(self.text) if end < 0 else end + 1

    # ------------------------------------------------------------------ keys and strings

    def string(self) -> str:
        """Consume a string starting at ``pos``; return its (roughly unescaped) content."""
        text = self.text
        for quote in ('"""', "'''"):
            if text.startswith(quote, self.pos):
                start = self.pos + 3
                i = start
                while i < len(text):
                    if quote == '"""' and text[i] == "\\":
                        i += 2
                        continue
                    if text.startswith(quote, i):
                        end = i
                        i += 3
                        extra = 0
                        while extra < 2 and i < len(text) and text[i] == quote[0]:
                            i += 1
                            extra += 1
                            end += 1
                        self.pos = i
                        return text[start:end]
                    i += 1
                self.pos = len(text)
                return text[start:]
        quote = text[self.pos]
        i = self.pos + 1
        while i < len(text) and text[i] != quote and text[i] != "\n":
            if quote == '"' and text[i] == "\\":
                i += 1
            i += 1
        content = text[self.pos + 1:i]
        self.pos = i + 1
        return content

    def key(self) -> list[str]:
        parts: list[str] = []
        while self.pos < len(self.text):
            self.skip_blank(newlines=False)
            ch = self.peek()
            if ch in ('"', "'"):
                parts.append(self.string())
            else:
                start = self.pos
                while self.pos < len(self.text) and self.text[self.pos] in _BARE:
                    self.pos += 1
                parts.append(self.text[start:self.pos])
            self.skip_blank(newlines=False)
            if self.peek() != ".":
                break
            self.pos += 1
        return parts

    # ------------------------------------------------------------------ values

    def value(self, path: KeyPath) -> None:
        ch = self.peek()
        if ch in ('"', "'"):
            self.string()
        elif ch == "[":
            self.pos += 1
            index = 0
            while self.pos < len(self.text):
                self.skip_blank(newlines=True)
                if self.peek() == "]":
                    self.pos += 1
                    return
                before = self.pos
                self.record((*path, index))
                self.value((*path, index))
                index += 1
                self.skip_blank(newlines=True)
                if self.peek() == "," or self.pos == before:
                    self.pos += 1
        elif ch == "{":
            self.pos += 1
            while self.pos < len(self.text):
                self.skip_blank(newlines=True)
                if self.peek() == "}":
                    self.pos += 1
                    return
                start = self.pos
                parts = self.key()
                self.record_key(path, parts, start)
                self.skip_blank(newlines=False)
                if self.peek() == "=":
                    self.pos += 1
                self.skip_blank(newlines=False)
                self.value((*path, *parts))
                self.skip_blank(newlines=True)
                if self.peek() == ",":
                    self.pos += 1
                elif self.peek() != "}" or self.pos == start:
                    return
        else:
            while self.pos < len(self.text) and self.text[self.pos] not in ",]}\n#":
                self.pos += 1

    def record_key(self, prefix: KeyPath, parts: list[str], pos: int) -> None:
        for n in range(1, len(parts) + 1):
            self.record((*prefix, *parts[:n]), pos)

    # ------------------------------------------------------------------ document

    def resolve(self, parts: list[str]) -> KeyPath:
        """A header's key path, with the current entry of each array of tables it goes through."""
        path: KeyPath = ()
        for part in parts:
            path = (*path, part)
            if path in self.arrays:
                path = (*path, self.arrays[path] - 1)
        return path

    def document(self) -> dict[KeyPath, int]:
        prefix: KeyPath = ()
        while True:
            self.skip_blank(newlines=True)
            if self.pos >= len(self.text):
                return self.lines
            start = self.pos
            if self.text.startswith("[[", self.pos):
                self.pos += 2
                parts = self.key()
                array = (*self.resolve(parts[:-1]), parts[-1])
                count = self.arrays.get(array, 0)
                self.arrays[array] = count + 1
                self.record(array, start)
                prefix = (*array, count)
                self.record(prefix, start)
                self.skip_line()
            elif self.peek() == "[":
                self.pos += 1
                parts = self.key()
                prefix = self.resolve(parts)
                self.record_key(self.resolve(parts[:-1]), parts[-1:], start)
                self.skip_line()
            else:
                parts = self.key()
                if not parts or (not parts[0] and self.peek() != "="):
                    self.skip_line()
                    continue
                self.record_key(prefix, parts, start)
                self.skip_blank(newlines=False)
                if self.peek() == "=":
                    self.pos += 1
                self.skip_blank(newlines=False)
                self.value((*prefix, *parts))
                self.skip_blank(newlines=False)
                if self.pos < len(self.text) and self.text[self.pos] == "\n":
                    self.pos += 1


def key_lines(text: str) -> dict[KeyPath, int]:
    """Every key path of the document and the (1-based) line where it starts."""
    try:
        return _Scanner(text).document()
    except (IndexError, ValueError):  # pragma: no cover - the scan is best effort; tomllib has the final word
        return {}


def line_of(lines: dict[KeyPath, int], path: KeyPath) -> int:
    """The line of ``path``, or of its longest prefix that has one (1 when nothing matches)."""
    for n in range(len(path), 0, -1):
        found = lines.get(path[:n])
        if found is not None:
            return found
    return 1


PLAIN_HEADERS = {"[[steps]]": "steps", "[expect_end]": "expect_end"}
"""The two headers :func:`plain_lines` places: each ``[[steps]]`` entry and the ``[expect_end]`` table."""
_PLACED = ("id", "steps", "expect_end")


def plain_lines(text: str) -> dict[KeyPath, int] | None:
    """The lines of the top-level ``id``, of each ``[[steps]]`` entry and of ``[expect_end]``, read line by line, as
    :func:`key_lines` gives them, in a tenth of the time; None (ask :func:`key_lines`) unless the document is laid
    out plainly: ``id = …`` before any header, those two headers written exactly so, no multi-line string and no
    other way of writing the three keys."""
    if '"""' in text or "'''" in text:
        return None
    lines: dict[KeyPath, int] = {}
    steps = 0
    in_table = False
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if line.startswith("["):
            in_table = True
            placed = PLAIN_HEADERS.get(line)
            if placed == "steps":
                lines[("steps", steps)] = number
                steps += 1
            elif placed == "expect_end":
                lines[("expect_end",)] = number
            elif line.lstrip("[ \"'").startswith(_PLACED):
                return None
        elif line.lstrip("\"'").startswith(_PLACED):
            if in_table or not line.startswith("id") or line[2:].lstrip()[:1] != "=" or ("id",) in lines:
                return None
            lines[("id",)] = number
    return lines
