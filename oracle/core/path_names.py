"""Names that came from a file or an engine (scenario ids, above all), made safe to use as one path component.

A scenario id is meant to match ``^[A-Za-z0-9._-]+$``, but a report or an engine may carry any text as an id;
issue 21 found ``Path.with_name`` raising on an id holding ``/``. Every id turned into a file name passes here.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def path_component(name: str) -> str:
    """``name`` with every character outside ``[A-Za-z0-9._-]`` replaced by ``_``; never empty, ``.`` or ``..``."""
    safe = _UNSAFE.sub("_", name)
    return safe if safe.strip(".") else f"_{safe}"
