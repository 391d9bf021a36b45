"""Reading a JSON report file, every problem located: the file, and the line where the JSON breaks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from oracle.core.nesting import Syntax, too_deep


class JsonFileError(ValueError):
    """A report file that cannot be read as JSON; the message names the file (and the line)."""


def read_json_file(path: Path) -> Any:
    """The JSON value in ``path``; unreadable, not UTF-8, nested too deep or not JSON raises
    :class:`JsonFileError`."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise JsonFileError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise JsonFileError(f"{path}: not UTF-8 text") from None
    deep = too_deep(text, Syntax.JSON)
    if deep is not None:
        raise JsonFileError(f"{path}:{deep.line}: not valid JSON ({deep.message})")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonFileError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
