"""Where two JSON values first differ, and the value found at such a path."""

from __future__ import annotations

import re


def value_at(data: object, path: str) -> object:
    """The value at ``players[1].score`` in ``data`` (None where the path leads nowhere)."""
    for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path.split(" ")[0]):
        if index and isinstance(data, list) and int(index) < len(data):
            data = data[int(index)]
        elif key and isinstance(data, dict):
            data = data.get(key)
    return data


def first_difference(a: object, b: object, path: str = "") -> str | None:
    """The path of the first place two JSON values differ (``players[1].score``), or None when equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}" if path else str(key)
            found = first_difference(a[key], b[key], f"{path}.{key}" if path else str(key))
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path} (length {len(a)} vs {len(b)})"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else (path or "(root)")
