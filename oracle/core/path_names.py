"""Names that came from a file or an engine (scenario ids, above all), made safe to use as one path component.

A scenario id is meant to match ``^[A-Za-z0-9._-]+$``, but a report or an engine may carry any text as an id;
issue 21 found ``Path.with_name`` raising on an id holding ``/``, and issue 36 an engine's 400-character action type
making a counterexample's file name longer than the 255 bytes a file name may have. Every id turned into a file name
passes here: its characters are safe and its length is bounded (:func:`bounded_name`).
"""

from __future__ import annotations

import hashlib
import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
NAME_CHARS = 120
"""The longest name built from engine or file text that a file name is made of, in characters (ASCII, so bytes): well
under the 255 bytes of a file name, leaving room for a digest, a suffix (``.trace.json``) and a temporary name."""
NAME_DIGEST_CHARS = 10
"""Hex digits of the SHA-256 that end a name cut to :data:`NAME_CHARS`."""


def bounded_name(name: str, limit: int = NAME_CHARS) -> str:
    """``name`` when it has at most ``limit`` characters, else its start, ``-`` and the first
    :data:`NAME_DIGEST_CHARS` hex digits of the SHA-256 of the whole name, ``limit`` characters in all: two long names
    that differ anywhere get different bounded names (but for a chance of one in 2**40)."""
    if len(name) <= limit:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:NAME_DIGEST_CHARS]
    return f"{name[:limit - NAME_DIGEST_CHARS - 1]}-{digest}"


def path_component(name: str) -> str:
    """``name`` with every character outside ``[A-Za-z0-9._-]`` replaced by ``_``, at most :data:`NAME_CHARS`
    characters (:func:`bounded_name`); never empty, ``.`` or ``..``."""
    safe = bounded_name(_UNSAFE.sub("_", name))
    return safe if safe.strip(".") else f"_{safe}"
