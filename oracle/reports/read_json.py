"""Reading a JSON report file, every problem located: the file, and the line where the JSON breaks; never more than
the report limit of ``oracle/core/limits.py`` is read, nor parsed deeper than its depth (issue 36, item 5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from oracle.core.bounded_input import Input, InputError, read


class JsonFileError(ValueError):
    """A report file that cannot be read as JSON; the message names the file (and the line)."""


def read_json_file(path: Path) -> Any:
    """The JSON value in ``path``; unreadable, larger than the limit, not UTF-8, nested too deep or not JSON raises
    :class:`JsonFileError`."""
    try:
        return read(path, Input.REPORT, str(path))
    except InputError as exc:
        raise JsonFileError(str(exc)) from None
