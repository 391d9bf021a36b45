"""The rules catalogue (``oracle/data/rules.toml``): every rule id the project cites, and the rule variants."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from oracle.core.data_files import RULES_FILE
from oracle.core.suggest import did_you_mean

KINDS = ("rule", "ruling")
SCOPES = ("base", "expansion")


class RulesDataError(ValueError):
    """The rules catalogue is malformed; the message names the file and the entry."""


@dataclass(frozen=True, slots=True)
class Rule:
    """One catalogue entry. ``reason`` says why the project reads it so: every ``ruling`` has one, and a
    ``rule`` has one where the sources disagree or leave part of it open (the project's reading of that part)."""

    id: str
    group: str
    kind: str
    text: str
    source: str
    scope: str = "base"
    checked_by: str = ""
    reason: str = ""

    @property
    def is_project_reading(self) -> bool:
        """True for a ruling, and for a rule the project had to read where the sources disagree or are silent."""
        return self.kind == "ruling" or bool(self.reason)


@dataclass(frozen=True, slots=True)
class Variant:
    """A reading of a rule a reasonable engine may follow instead of the project's: ``values[0]`` is the
    project's ruling (what an engine declaring nothing follows), each value is described in ``meanings``."""

    rule: str
    values: tuple[str, ...]
    meanings: tuple[str, ...]
    source: str

    @property
    def default(self) -> str:
        return self.values[0]


def _read(path: Path) -> dict[str, object]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RulesDataError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesDataError(f"{path}: not valid TOML ({exc})") from None


def load_variants(path: Path, known: dict[str, Rule]) -> dict[str, Variant]:
    """The ``[[variant]]`` tables: ``rule`` (a catalogue id), ``values`` and ``meanings`` (same length, the
    project's ruling first), ``source``."""
    variants: dict[str, Variant] = {}
    entries = _read(path).get("variant", [])
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        where = f"{path}: variant[{i}]"
        rule = entry.get("rule")
        if rule not in known:
            raise RulesDataError(f"{where}: rule must be a rule id of the catalogue, got {rule!r}")
        if rule in variants:
            raise RulesDataError(f"{where}: duplicate variant for {rule!r}")
        values, meanings = entry.get("values"), entry.get("meanings")
        if not isinstance(values, list) or len(values) < 2 or not all(isinstance(v, str) and v for v in values):
            raise RulesDataError(f"{where}: values must list at least two names, the project's ruling first")
        if len(set(values)) != len(values):
            raise RulesDataError(f"{where}: values must be different")
        if not isinstance(meanings, list) or len(meanings) != len(values):
            raise RulesDataError(f"{where}: meanings must describe each value, in the order of values")
        if not isinstance(entry.get("source"), str) or not entry["source"]:
            raise RulesDataError(f"{where}: field 'source' must be a non-empty string")
        variants[rule] = Variant(rule, tuple(values), tuple(str(m) for m in meanings), entry["source"])
    return variants


def load_rules(path: Path) -> dict[str, Rule]:
    data = _read(path)
    rules: dict[str, Rule] = {}
    entries = data.get("rule", [])
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
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
        reason = entry.get("reason", "")
        if not isinstance(reason, str):
            raise RulesDataError(f"{where}: field 'reason' must be a string")
        if entry["kind"] == "ruling" and not reason:
            raise RulesDataError(f"{where}: a ruling needs a 'reason' (why the project reads it so)")
        rules[entry["id"]] = Rule(
            entry["id"], entry["group"], entry["kind"], entry["text"], entry["source"], scope, checked_by, reason
        )
    return rules


@cache
def rules() -> dict[str, Rule]:
    """The project's rules catalogue, by id."""
    return load_rules(RULES_FILE)


@cache
def variants() -> dict[str, Variant]:
    """The rule variants, by the rule id they read otherwise."""
    return load_variants(RULES_FILE, rules())


def variant_problem(name: str, value: str) -> str:
    """Why ``name = value`` is not a variant of the catalogue ('' when it is)."""
    known = variants()
    if name not in known:
        return (f"unknown variant {name!r} (the rules catalogue has variants for {', '.join(sorted(known))})"
                f"{did_you_mean(name, known)}")
    if value not in known[name].values:
        return (f"variant {name} has no value {value!r} (its values: {', '.join(known[name].values)})"
                f"{did_you_mean(value, known[name].values)}")
    return ""
