"""The one reader of every TOML and JSON input the oracle did not write itself, bounded in bytes and in depth
(issue 36, item 5).

An input is read only up to its kind's limit (``oracle/core/limits.py``), decoded as UTF-8, scanned for depth
(:mod:`oracle.core.nesting`) and only then parsed. Whatever is wrong with it is one :class:`InputError` naming the
file and, where there is one, the line: never a traceback, and never more time or memory than the limit allows.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from oracle.core.limits import (
    MAX_EXPECTATIONS_BYTES,
    MAX_PREAMBLES_BYTES,
    MAX_REPORT_BYTES,
    MAX_SCENARIO_BYTES,
    shown_bytes,
)
from oracle.core.nesting import Syntax, too_deep


class InputError(ValueError):
    """An input that cannot be used: its file, the line where that shows (None: the file as a whole), and why."""

    def __init__(self, file: str, line: int | None, reason: str) -> None:
        super().__init__(f"{file}:{line}: {reason}" if line is not None else f"{file}: {reason}")
        self.file = file
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class InputKind:
    """What an input is (as an error names it), the language it is written in, and the most bytes it may hold."""

    name: str
    syntax: Syntax
    max_bytes: int


class Input(Enum):
    """Every kind of input the oracle reads back, each with its limit."""

    SCENARIO = InputKind("scenario file", Syntax.TOML, MAX_SCENARIO_BYTES)
    PREAMBLES = InputKind("preambles file", Syntax.JSON, MAX_PREAMBLES_BYTES)
    EXPECTATIONS = InputKind("expectations file", Syntax.TOML, MAX_EXPECTATIONS_BYTES)
    REPORT = InputKind("report", Syntax.JSON, MAX_REPORT_BYTES)
    SUITE_CACHE = InputKind("suite cache", Syntax.JSON, MAX_REPORT_BYTES)


def read_bytes(path: Path, kind: Input, file: str | None = None) -> bytes:
    """The bytes of ``path``, never more than the kind's limit read (a file whose size says it is larger is not
    read at all, and a device that never ends cannot flood the read); raises :class:`InputError` when it cannot be
    read or is larger."""
    file = file if file is not None else str(path)
    limit = kind.value.max_bytes
    try:
        with path.open("rb") as stream:
            stated = os.fstat(stream.fileno()).st_size
            raw = stream.read(limit + 1) if stated <= limit else b""
    except OSError as exc:
        raise InputError(file, None, f"cannot read the {kind.value.name} ({exc.strerror})") from None
    if stated > limit or len(raw) > limit:
        raise InputError(file, None, _too_large(kind))
    return raw


def decoded(raw: bytes, file: str) -> str:
    """``raw`` as UTF-8 text; raises :class:`InputError` at the line of the first byte that is not."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(file, raw[:exc.start].count(b"\n") + 1, "not valid UTF-8") from None


def read_text(path: Path, kind: Input, file: str | None = None) -> str:
    """The text of ``path``, bounded (:func:`read_bytes`) and decoded (:func:`decoded`)."""
    file = file if file is not None else str(path)
    return decoded(read_bytes(path, kind, file), file)


def parse_text(text: str, kind: Input, file: str) -> Any:
    """The value ``text`` holds, parsed in the kind's language once its size and depth are known to be within
    the limits; raises :class:`InputError` naming the line."""
    if len(text) > kind.value.max_bytes:
        raise InputError(file, None, _too_large(kind))
    syntax = kind.value.syntax
    deep = too_deep(text, syntax)
    if deep is not None:
        raise InputError(file, deep.line, f"not valid {syntax.value}: {deep.message}")
    try:
        return _PARSERS[syntax](text)
    except tomllib.TOMLDecodeError as exc:
        found = _TOML_PLACE.search(str(exc))
        raise InputError(file, int(found.group(1)) if found else 1,
                         f"not valid TOML: {_TOML_PLACE.sub('', str(exc))}") from None
    except json.JSONDecodeError as exc:
        raise InputError(file, exc.lineno, f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:  # pragma: no cover - the depth scan refuses such input first; this is the backstop
        raise InputError(file, None, f"not valid {syntax.value}: nested too deep") from None


def read(path: Path, kind: Input, file: str | None = None) -> Any:
    """The value in ``path``: read bounded, decoded, scanned and parsed; any problem is an :class:`InputError`."""
    file = file if file is not None else str(path)
    return parse_text(read_text(path, kind, file), kind, file)


def read_json_bytes(raw: bytes, kind: Input, file: str) -> Any:
    """The JSON value of bytes already read (a cache entry, a file read once for its digest too), bounded as a
    file of ``kind`` is."""
    if len(raw) > kind.value.max_bytes:
        raise InputError(file, None, _too_large(kind))
    return parse_text(decoded(raw, file), kind, file)


def _too_large(kind: Input) -> str:
    article = "an" if kind.value.name[0] in "aeiou" else "a"
    return f"too large: more than {shown_bytes(kind.value.max_bytes)}, the limit for {article} {kind.value.name}"


_TOML_PLACE = re.compile(r"\s*\(at line (\d+), column \d+\)")
_PARSERS: dict[Syntax, Callable[[str], Any]] = {Syntax.TOML: tomllib.loads, Syntax.JSON: json.loads}
