"""Actions in the conformance checks: their comparison key, canonical form, construction and description."""

from __future__ import annotations

from collections.abc import Hashable

from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.scenarios.writer import card_name
from oracle.suites.z3.conform_types import PLAYER


def stones_of(value: object) -> Stones | None:
    if not isinstance(value, dict):
        return None
    try:
        return Stones.from_json(value)
    except ValueError:
        return None


def action_key(action: JSON) -> Hashable:
    """What identifies an action for the comparison (missing colour counts mean 0)."""
    kind = action.get("type")
    if kind in ("summon", "remove"):
        return (kind, action.get("player"), action.get("card"), stones_of(action.get("payment")) or repr(action))
    if kind in ("keep_stones", "upgrade_stones"):
        return (kind, action.get("player"), stones_of(action.get("stones")) or repr(action))
    if kind == "pay":
        return (kind, action.get("player"), stones_of(action.get("payment")) or repr(action))
    if kind == "choose_options" and isinstance(action.get("options"), list):
        return (kind, action.get("player"), tuple(sorted(map(str, action["options"]))))
    return (str(kind), repr(sorted(action.items(), key=lambda kv: str(kv[0]))))


def canonical(action: JSON) -> JSON | None:
    """An engine's action in the scenario vocabulary (no extra fields), or None if it is malformed."""
    stones = payment_of(action)
    kind, player, card = action.get("type"), action.get("player"), action.get("card")
    if not isinstance(player, int) or isinstance(player, bool):
        return None
    if kind == "use_artifact":
        return {"type": kind, "player": player}
    options = action.get("options")
    if kind == "choose_options" and isinstance(options, list) and all(isinstance(o, str) for o in options):
        return {"type": kind, "player": player, "options": list(options)}
    if kind == "sell" and isinstance(card, str):
        return {"type": kind, "player": player, "card": card}
    if stones is None:
        return None
    if kind in ("summon", "remove") and isinstance(card, str):
        return {"type": kind, "player": player, "card": card, "payment": stones.to_json()}
    if kind == "pay":
        return {"type": kind, "player": player, "payment": stones.to_json()}
    if kind in ("keep_stones", "upgrade_stones"):
        return {"type": kind, "player": player, "stones": stones.to_json()}
    return None


def pay_action(kind: str, card: str, paid: Stones) -> JSON:
    return {"type": kind, "player": PLAYER, "card": card, "payment": paid.to_json()}


def keep_action(kept: Stones) -> JSON:
    return {"type": "keep_stones", "player": PLAYER, "stones": kept.to_json()}


def payment_of(action: JSON) -> Stones | None:
    return stones_of(action.get("payment") if "payment" in action else action.get("stones"))


def describe(actions: list[JSON] | tuple[JSON, ...]) -> str:
    """A short, sorted rendering of a set of actions for reports."""
    if not actions:
        return "none"
    parts = []
    for a in actions:
        stones = payment_of(a)
        what = str(stones) if stones is not None else repr(a.get("payment", a.get("stones")))
        if a.get("type") in ("summon", "remove"):
            parts.append(f"{a['type']} {card_name(str(a.get('card')))} paying [{what}]")
        elif a.get("type") == "keep_stones":
            parts.append(f"keep [{what}]")
        elif a.get("type") == "pay":
            parts.append(f"pay [{what}]")
        elif a.get("type") == "upgrade_stones":
            parts.append(f"upgrade [{_upgrade_text(stones) if stones is not None else what}]")
        elif a.get("type") == "use_artifact":
            parts.append("use the artifact")
        elif a.get("type") == "choose_options":
            parts.append(f"choose {a.get('options')}")
        elif a.get("type") == "sell":
            parts.append(f"sell {card_name(str(a.get('card')))}")
        else:
            parts.append(repr(a))
    return "; ".join(sorted(parts))


def _upgrade_text(answer: Stones) -> str:
    """``1 red -> blue, 1 blue -> purple`` (and a purple "upgrade", which no rule has)."""
    parts = [f"{answer.red} red -> blue"] if answer.red else []
    parts += [f"{answer.blue} blue -> purple"] if answer.blue else []
    parts += [f"{answer.purple} purple -> (no step above purple)"] if answer.purple else []
    return ", ".join(parts) or "nothing"


def parse_label(label: str) -> Stones:
    if not (label.startswith("r") and "b" in label and "p" in label):
        raise ValueError(f"bad stones label {label!r} (expected like r1b0p2)")
    r, rest = label[1:].split("b", 1)
    b, p = rest.split("p", 1)
    return Stones(int(r), int(b), int(p))
