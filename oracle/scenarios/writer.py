"""Writing scenario files (format: ``docs/scenarios.md``) for counterexamples and boundary cases.

The TOML is written by tomlkit in the layout a scenario uses: top-level scalars and arrays, a ``[given]`` table
with ``[[given.players]]``, and ``[[steps]]`` whose values are scalars, arrays and inline tables; an array of
tables or a long array spans lines. Card fields hold card ids (which every scenario reader accepts); names appear
in titles and notes.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import AoT, Array, InlineTable, Item, Table
from tomlkit.toml_document import TOMLDocument

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.core.path_names import path_component

_ID_CHARS = re.compile(r"[^A-Za-z0-9_.-]+")
LONG_ARRAY = 80


def scenario_id(text: str) -> str:
    """A scenario id / file stem: letters, digits, ``-``, ``_`` and ``.`` only."""
    return _ID_CHARS.sub("-", text).strip("-")


def card_name(card_id: str) -> str:
    card = catalogue().cards.get(card_id)
    return card.name if card is not None else card_id


def _value(value: Any, nested: bool = False) -> Item:
    """``value`` as a TOML item; an array of tables or a long array spans lines, except inside an inline table."""
    if value is None:
        raise ValueError("TOML has no null")
    if isinstance(value, list | tuple):
        array: Array = tomlkit.array()
        array.extend(_value(v, nested=True) for v in value)
        long = sum(len(item.as_string()) for item in array) > LONG_ARRAY
        return array.multiline(not nested and (any(isinstance(v, dict) for v in value) or long))
    if isinstance(value, dict):
        inline: InlineTable = tomlkit.inline_table()
        for key, item in value.items():
            inline.append(key, _value(item, nested=True))
        return inline
    if isinstance(value, bool | int | float | str):
        return tomlkit.item(value)
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _fill(target: Table | TOMLDocument, values: JSON) -> None:
    for key, value in values.items():
        if value is None:
            raise ValueError(f"TOML has no null ({key})")
        target.append(key, _value(value))


def _table(values: JSON) -> Table:
    table = tomlkit.table()
    _fill(table, values)
    return table


def _tables(values: list[JSON]) -> AoT:
    tables = tomlkit.aot()
    for value in values:
        tables.append(_table(value))
    return tables


def toml_text(doc: JSON) -> str:
    """A scenario document as TOML: scalars first, then ``[given]``, ``[[given.players]]``, ``[[steps]]``, each
    table after a blank line."""
    given: JSON = dict(doc.get("given", {}))
    players = given.pop("players", None)
    document = tomlkit.document()
    _fill(document, {key: value for key, value in doc.items() if key not in ("given", "steps")})
    given_table = last_table = _table(given)
    document.append("given", given_table)
    if players:
        given_table.add(tomlkit.nl())
        player_tables = _tables(players)
        given_table.append("players", player_tables)
        last_table = player_tables[-1]
    if doc.get("steps"):
        last_table.add(tomlkit.nl())
        document.append("steps", _tables(doc["steps"]))
    return document.as_string()


def write_scenario(directory: Path, doc: JSON, subdir: str = "") -> Path:
    """Write ``doc`` as ``directory/subdir/<id>.toml`` and return the path."""
    target = directory / subdir if subdir else directory
    target.mkdir(parents=True, exist_ok=True)
    path = target / f"{path_component(str(doc['id']))}.toml"
    path.write_text(toml_text(doc), encoding="utf-8")
    return path
