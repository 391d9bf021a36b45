"""The option vocabulary (``oracle/data/options.toml``): every ``choose_options`` answer's name, by card or tile."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from oracle.core.data_files import OPTIONS_FILE as OPTIONS_FILE


class OptionsDataError(ValueError):
    """The option vocabulary is malformed, or a handler asks for a name it does not list; the message says where."""


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    text: str
    rule: str = ""
    """The rule that decides when the option is offered, where one does (the first-divergence replay blames an
    option offered or withheld on it)."""


@dataclass(frozen=True, slots=True)
class OptionSet:
    """The options one card or tile offers. ``families``: the options are the family names instead."""

    source: str
    options: tuple[Option, ...] = ()
    families: bool = False
    bounds: str = ""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.options)


def _text(entry: dict[str, object], key: str, where: str, required: bool = True) -> str:
    value = entry.get(key, None if required else "")
    if not isinstance(value, str) or (required and not value):
        raise OptionsDataError(f"{where}: '{key}' must be a non-empty string")
    return value


def load_options(path: Path) -> dict[str, OptionSet]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise OptionsDataError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise OptionsDataError(f"{path}: not valid TOML ({exc})") from None
    out: dict[str, OptionSet] = {}
    for i, entry in enumerate(data.get("source", [])):
        where = f"{path}: source[{i}]"
        source = _text(entry, "id", where)
        if source in out:
            raise OptionsDataError(f"{where}: {source!r} is listed twice")
        options: list[Option] = []
        for j, raw in enumerate(entry.get("option", [])):
            at = f"{where}.option[{j}]"
            option = Option(_text(raw, "name", at), _text(raw, "text", at), _text(raw, "rule", at, required=False))
            if option.name in {o.name for o in options}:
                raise OptionsDataError(f"{at}: option {option.name!r} of {source} is listed twice")
            options.append(option)
        families = entry.get("families", False)
        if not isinstance(families, bool) or families == bool(options):
            raise OptionsDataError(f"{where}: {source} must list its options or set 'families = true', not both")
        out[source] = OptionSet(source, tuple(options), families, _text(entry, "bounds", where, required=False))
    return out


@cache
def option_sets() -> dict[str, OptionSet]:
    return load_options(OPTIONS_FILE)


def option_rule(source: str, name: str) -> str:
    """The rule that decides when ``source`` offers the option ``name`` ('' when none does, or it is not listed)."""
    listed = option_sets().get(source)
    found = [o.rule for o in listed.options if o.name == name] if listed is not None else []
    return found[0] if found else ""


def option(source: str, name: str) -> str:
    """The option ``name`` of ``source`` as the vocabulary lists it (a name it does not list is an error at import)."""
    listed = option_sets().get(source)
    if listed is None or name not in listed.names:
        raise OptionsDataError(f"{OPTIONS_FILE}: {source} has no option {name!r}")
    return name
