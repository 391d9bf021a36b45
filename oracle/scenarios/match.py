"""Partial matching of snapshots, decisions and events, and canonical actions (``docs/scenarios.md``).

* a table matches when each key it gives matches;
* a list of tables matches entry by entry for the entries given;
* a list of cards matches exactly, ignoring order except in ``draw_pile`` (top first) and a shuffle ``order``;
* the absence marker ``"<absent>"`` matches a key that is missing or null (TOML cannot write null);
* ``draw_pile_top`` matches the first cards of ``draw_pile``, top first;
* anything else must be equal (a boolean is never equal to a number).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from oracle.core.cards import catalogue

UNORDERED_CARD_LISTS = frozenset({
    "hand", "area", "markers", "display", "discard_pile", "actives_used", "cards", "shelter", "tiles", "options",
    "players",
})
STONE_KEYS = frozenset({"stones", "payment", "paid", "before", "after"})
COLOURS = ("red", "blue", "purple")
MISSING = "<missing>"
ABSENT = "<absent>"
DRAW_PILE_TOP = "draw_pile_top"


@dataclass(frozen=True)
class Mismatch:
    """The first field where the actual value differs from the expected one."""

    path: str
    expected: Any
    actual: Any

    def describe(self) -> tuple[str, str]:
        """``(expected, actual)`` as readable text, card ids shown as names."""
        where = self.path or "(root)"
        return f"{where} = {show(self.expected)}", f"{where} = {show(self.actual)}"


def _equal(expected: object, actual: object) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    return expected == actual


def first_mismatch(expected: object, actual: object, path: str = "", key: str = "") -> Mismatch | None:
    """Where ``actual`` fails to match the partial ``expected``, or None when it matches."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return Mismatch(path, expected, actual)
        for name, want in expected.items():
            sub = f"{path}.{name}" if path else str(name)
            if name == DRAW_PILE_TOP and isinstance(want, list):
                found = _top_mismatch(want, actual.get("draw_pile", MISSING), sub)
                if found is not None:
                    return found
                continue
            if want == ABSENT:
                if actual.get(name) is not None:
                    return Mismatch(sub, ABSENT, actual[name])
                continue
            if name not in actual:
                if key in STONE_KEYS and name in COLOURS and want == 0:
                    continue
                return Mismatch(sub, want, MISSING)
            found = first_mismatch(want, actual[name], sub, str(name))
            if found is not None:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return Mismatch(path, expected, actual)
        if expected and all(isinstance(e, dict) for e in expected):
            for i, want in enumerate(expected):
                if i >= len(actual):
                    return Mismatch(f"{path}[{i}]", want, MISSING)
                found = first_mismatch(want, actual[i], f"{path}[{i}]", key)
                if found is not None:
                    return found
            return None
        if key in UNORDERED_CARD_LISTS and all(isinstance(x, str) for x in [*expected, *actual]):
            return None if sorted(expected) == sorted(actual) else Mismatch(path, sorted(expected), sorted(actual))
        if len(expected) == len(actual) and all(_equal(e, a) for e, a in zip(expected, actual, strict=True)):
            return None
        return Mismatch(path, expected, actual)
    return None if _equal(expected, actual) else Mismatch(path, expected, actual)


def _top_mismatch(top: list[Any], pile: object, path: str) -> Mismatch | None:
    """``draw_pile_top``: the pile starts with these cards, in this order (top first)."""
    if not isinstance(pile, list) or pile[: len(top)] != top:
        shown = pile[: len(top)] if isinstance(pile, list) else pile
        return Mismatch(path, top, shown)
    return None


def first_difference(before: object, after: object, path: str = "") -> Mismatch | None:
    """The first field that differs between two full values (both directions)."""
    if isinstance(before, dict) and isinstance(after, dict):
        for name in sorted(set(before) | set(after), key=str):
            sub = f"{path}.{name}" if path else str(name)
            if name not in before or name not in after:
                return Mismatch(sub, before.get(name, MISSING), after.get(name, MISSING))
            found = first_difference(before[name], after[name], sub)
            if found is not None:
                return found
        return None
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (x, y) in enumerate(zip(before, after, strict=True)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    return None if _equal(before, after) else Mismatch(path, before, after)


# ---------------------------------------------------------------------- actions


def canonical_form(action: dict[str, Any]) -> dict[str, Any]:
    """The action as the protocol sends it (``docs/protocol.md``, Actions): every stone object with all
    three colours (a colour left out is 0), a ``shuffle`` answered by chance (``player`` null); every other
    field, and the order of every list, as written."""
    out: dict[str, Any] = {}
    for key, value in action.items():
        if key in STONE_KEYS and isinstance(value, dict):
            value = {c: value.get(c, 0) for c in COLOURS} | {k: v for k, v in value.items() if k not in COLOURS}
        out[key] = value
    if out.get("type") == "shuffle":
        out.setdefault("player", None)
    return out


def canonical_action(action: object, ordered: bool = False) -> str:
    """One string per action, for comparing: its canonical form, with card and option lists sorted unless the
    decision it answers is ``ordered`` (EFF-8: then the order is part of the answer)."""
    if not isinstance(action, dict):
        return json.dumps(action, sort_keys=True, default=str)
    out = canonical_form(action)
    if not ordered:
        for key in ("cards", "options"):
            if isinstance(out.get(key), list):
                out[key] = sorted(out[key], key=str)
    return json.dumps(out, sort_keys=True, default=str)


# ---------------------------------------------------------------------- readable values


def names(value: object) -> object:
    """``value`` with every card id replaced by the card's name."""
    if isinstance(value, str):
        card = catalogue().cards.get(value)
        return card.name if card is not None else value
    if isinstance(value, list):
        return [names(v) for v in value]
    if isinstance(value, dict):
        return {k: names(v) for k, v in value.items()}
    return value


def show(value: object, limit: int = 400) -> str:
    """A compact, readable rendering (card names, JSON syntax), shortened past ``limit`` characters."""
    if value == MISSING:
        return "(missing)"
    if value == ABSENT:
        return "(absent or null)"
    text = json.dumps(names(value), ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"
