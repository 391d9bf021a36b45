"""Writing scenario files (format: ``docs/scenarios.md``) for counterexamples and boundary cases.

The standard library reads TOML but does not write it, so this module has a small writer for the
shapes a scenario uses: top-level scalars and arrays, a ``[given]`` table with ``[[given.players]]``,
and ``[[steps]]`` whose values are scalars, arrays and inline tables. Card fields hold card ids (which
every scenario reader accepts); names appear in titles and notes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.core.path_names import path_component

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_ID_CHARS = re.compile(r"[^A-Za-z0-9_.-]+")


def scenario_id(text: str) -> str:
    """A scenario id / file stem: letters, digits, ``-``, ``_`` and ``.`` only."""
    return _ID_CHARS.sub("-", text).strip("-")


def card_name(card_id: str) -> str:
    card = catalogue().cards.get(card_id)
    return card.name if card is not None else card_id


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key)


def _value(value: Any, nested: bool = False) -> str:
    """``value`` as TOML; arrays of tables or long arrays span lines, except inside an inline table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        items = [_value(v, nested=True) for v in value]
        if not nested and (any(isinstance(v, dict) for v in value) or sum(len(i) for i in items) > 80):
            return "[\n" + "".join(f"  {i},\n" for i in items) + "]"
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_value(v, nested=True)}" for k, v in value.items()) + " }"
    if value is None:
        raise ValueError("TOML has no null")
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _lines(table: JSON) -> list[str]:
    for key, value in table.items():
        if value is None:
            raise ValueError(f"TOML has no null ({key})")
    return [f"{_key(k)} = {_value(v)}" for k, v in table.items()]


def toml_text(doc: JSON) -> str:
    """A scenario document as TOML: scalars first, then ``[given]``, ``[[given.players]]``, ``[[steps]]``."""
    given: JSON = dict(doc.get("given", {}))
    players = given.pop("players", None)
    steps = doc.get("steps", [])
    head = {k: v for k, v in doc.items() if k not in ("given", "steps")}
    out = _lines(head)
    out += ["", "[given]", *_lines(given)]
    for player in players or []:
        out += ["", "[[given.players]]", *_lines(player)]
    for step in steps:
        out += ["", "[[steps]]", *_lines(step)]
    return "\n".join(out) + "\n"


def write_scenario(directory: Path, doc: JSON, subdir: str = "") -> Path:
    """Write ``doc`` as ``directory/subdir/<id>.toml`` and return the path."""
    target = directory / subdir if subdir else directory
    target.mkdir(parents=True, exist_ok=True)
    path = target / f"{path_component(str(doc['id']))}.toml"
    path.write_text(toml_text(doc), encoding="utf-8")
    return path
