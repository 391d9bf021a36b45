"""The preamble format: a new game (set-up and deck top) and the actions that, played on the reference, reach a
scenario's ``[given]`` position; stored in one ``preambles.json`` per folder, beside the folder's scenario files,
with the finder's reason for every scenario of the folder it could not reach (``docs/scenarios.md``, Preambles).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from oracle.core.bounded_input import Input, InputError, read
from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.core.validation import validation_errors
from oracle.scenarios.bundled import PREAMBLES_FILE

FORMAT = "vale-oracle/preambles/1"
FILE_NAME = PREAMBLES_FILE


class PreambleError(ValueError):
    """The preambles file is not valid; the message names the file and the field."""


@dataclass(frozen=True)
class Preamble:
    """How one scenario's position is reached: ``setup`` as ``new_game`` takes it, but with only the deck's top
    cards (the rest follows in card-id order), then ``actions`` in canonical form, each accepted in turn."""

    setup: JSON
    actions: tuple[JSON, ...]

    def new_game(self) -> JSON:
        """The complete set-up sent to ``new_game``: the deck's top cards, then every other card of the game in
        card-id order (as a scenario's ``[new_game]`` completes its deck)."""
        expansion = bool(self.setup.get("expansion") or self.setup.get("artifacts"))
        cards = catalogue().in_sets(["base", "artifacts"] if expansion else ["base"])
        top = list(self.setup.get("deck", []))
        return {**self.setup, "deck": top + sorted(c.id for c in cards if c.id not in set(top))}

    def to_json(self) -> JSON:
        return {"setup": self.setup, "actions": list(self.actions)}

    @staticmethod
    def from_json(data: JSON) -> Preamble:
        return Preamble(dict(data["setup"]), tuple(data["actions"]))


@dataclass(frozen=True)
class Preambles:
    """The stored preambles of a suite, and the finder's reason for each scenario it did not reach."""

    reached: dict[str, Preamble]
    unreached: dict[str, str]

    def to_json(self) -> JSON:
        return {
            "format": FORMAT,
            "preambles": {k: self.reached[k].to_json() for k in sorted(self.reached)},
            "unreached": {k: self.unreached[k] for k in sorted(self.unreached)},
        }


EMPTY = Preambles({}, {})


def parse_preambles(data: object, file: str) -> Preambles:
    """Validate the JSON of a preambles file against ``preambles.schema.json``; every card of a deck must exist and
    appear once."""
    errors = validation_errors("preambles", data)
    if errors:
        raise PreambleError(f"{file}: {errors[0]}")
    assert isinstance(data, dict)
    known = catalogue().cards
    reached: dict[str, Preamble] = {}
    for scenario_id, entry in data["preambles"].items():
        deck = entry["setup"].get("deck", [])
        unknown = [c for c in deck if c not in known]
        if unknown:
            raise PreambleError(f"{file}: preambles.{scenario_id}.setup.deck: unknown card {unknown[0]!r}")
        if len(set(deck)) != len(deck):
            raise PreambleError(f"{file}: preambles.{scenario_id}.setup.deck: a card is listed twice")
        reached[scenario_id] = Preamble.from_json(entry)
    both = sorted(set(reached) & set(data["unreached"]))
    if both:
        raise PreambleError(f"{file}: {both[0]} is both in preambles and in unreached")
    return Preambles(reached, dict(data["unreached"]))


def read_file(path: Path) -> Preambles:
    """One folder's ``preambles.json``, read bounded (:mod:`oracle.core.bounded_input`) and validated."""
    try:
        data = read(path, Input.PREAMBLES)
    except InputError as error:
        raise PreambleError(str(error)) from None
    return parse_preambles(data, str(path))


def read_preambles(directory: Path) -> Preambles:
    """Every preamble stored in ``directory`` and the folders below it (none without a ``preambles.json``)."""
    reached: dict[str, Preamble] = {}
    unreached: dict[str, str] = {}
    for path in sorted(directory.rglob(FILE_NAME)):
        if path.is_file():
            one = read_file(path)
            reached.update(one.reached)
            unreached.update(one.unreached)
    return Preambles(reached, unreached)


def write_preambles(folders: dict[Path, Preambles]) -> list[Path]:
    """Write each folder's file whole (entries sorted by scenario id, so reruns diff cleanly)."""
    written = []
    for folder, preambles in sorted(folders.items()):
        path = folder / FILE_NAME
        text = json.dumps(preambles.to_json(), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        written.append(path)
    return written
