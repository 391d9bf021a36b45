"""The rules catalogue (``oracle/data/rules.toml``): every rule id the project cites."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

RULES_FILE = Path(__file__).parent / "data" / "rules.toml"
KINDS = ("rule", "ruling")
SCOPES = ("base", "expansion")


class RulesDataError(ValueError):
    """The rules catalogue is malformed; the message names the file and the entry."""


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    group: str
    kind: str
    text: str
    source: str
    scope: str = "base"
    checked_by: str = ""


def load_rules(path: Path) -> dict[str, Rule]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RulesDataError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesDataError(f"{path}: not valid TOML ({exc})") from None
    rules: dict[str, Rule] = {}
    for i, entry in enumerate(data.get("rule", [])):
        where = f"{path}: rule[{i}]"
        for key in ("id", "group", "kind", "text", "source"):
            if not isinstance(entry.get(key), str) or not entry[key]:
                raise RulesDataError(f"{where}: field {key!r} must be a non-empty string")
        if entry["kind"] not in KINDS:
            raise RulesDataError(f"{where}: kind must be one of {KINDS}, got {entry['kind']!r}")
        scope = entry.get("scope", "base")
        if scope not in SCOPES:
            raise RulesDataError(f"{where}: scope must be one of {SCOPES}, got {scope!r}")
        if entry["id"] in rules:
            raise RulesDataError(f"{where}: duplicate rule id {entry['id']!r}")
        checked_by = entry.get("checked_by", "")
        if not isinstance(checked_by, str):
            raise RulesDataError(f"{where}: checked_by must name a suite")
        rules[entry["id"]] = Rule(
            entry["id"], entry["group"], entry["kind"], entry["text"], entry["source"], scope, checked_by
        )
    return rules


@cache
def rules() -> dict[str, Rule]:
    """The project's rules catalogue, by id."""
    return load_rules(RULES_FILE)
