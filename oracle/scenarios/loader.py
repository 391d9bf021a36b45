"""Loading scenario files: TOML, then the JSON Schema, then the checks a schema cannot make.

Every problem becomes a :class:`~oracle.scenarios.model.ScenarioError` naming the file and the line
(never a traceback): TOML syntax errors take tomllib's line; schema and semantic errors take the line
of the offending key or array entry (see :mod:`oracle.scenarios.locate`). The semantic checks are:
rule ids exist in the rules catalogue, card names or ids exist (names are resolved to ids,
case-insensitively), the given position can be completed and loaded, every action the oracle sends or
expects fits ``action.schema.json`` once in canonical form (probes excepted, see :func:`is_probe`), the
file is named after the id, and (across a directory) ids are unique.
"""

from __future__ import annotations

import copy
import difflib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from oracle.core.bounded_input import Input, InputError, decoded, read_bytes
from oracle.core.bounded_input import parse_text as parse_input
from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.core.protocol import DecisionKind
from oracle.core.rules import rules as rules_catalogue
from oracle.core.rules import variant_problem
from oracle.core.validation import schema as protocol_schema
from oracle.scenarios.bundled import BUNDLED_NAME as BUNDLED_NAME
from oracle.scenarios.bundled import PACKAGE
from oracle.scenarios.bundled import default_dir as default_dir
from oracle.scenarios.given import GivenError, complete_snapshot
from oracle.scenarios.locate import KeyPath, key_lines, line_of, plain_lines
from oracle.scenarios.match import ABSENT, DRAW_PILE_TOP, canonical_action, canonical_form
from oracle.scenarios.model import Scenario, ScenarioError, Step
from oracle.scenarios.suite_cache import mark_validated, suite_key, suite_validated

SCHEMA_FILE = PACKAGE / "schemas" / "scenario.schema.json"
SNAPSHOT_CARD_LISTS = ("actives_used", "display", "draw_pile", DRAW_PILE_TOP, "discard_pile")
PLAYER_CARD_LISTS = ("hand", "area", "markers")
# A ``do`` expected to be rejected with one of these codes is a probe: sent as written, it may name a card
# that does not exist or break the action schema.
PROBE_CODES = frozenset({"UNKNOWN_CARD", "MALFORMED_ACTION"})


def display_path(path: Path) -> str:
    """How reports and messages name ``path``: a file of the bundled suite as ``scenarios/<path inside the
    suite>`` wherever the oracle is installed; any other path relative to the working directory when it is below
    it, else as given."""
    try:
        inside = path.resolve().relative_to(default_dir().resolve())
    except ValueError:
        pass
    else:
        return str(Path(BUNDLED_NAME) / inside) if inside.parts else BUNDLED_NAME
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def bundled_file(file: str) -> Path | None:
    """The bundled suite's file that reports name ``file`` (``scenarios/<path>``), or None."""
    parts = Path(file).parts
    if len(parts) < 2 or parts[0] != BUNDLED_NAME or ".." in parts:
        return None
    path = default_dir().joinpath(*parts[1:])
    return path if path.is_file() else None


@cache
def schema() -> JSON:
    data: JSON = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return data


@cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


# The quick yes: fastjsonschema compiles the schema into Python code, 20 times as fast as jsonschema on a valid
# file; jsonschema explains a file the quick check refuses. The schema keeps to keywords whose meaning is the same
# in draft 7 (the newest fastjsonschema compiles) and 2020-12 (tests/test_scenarios_loader.py pins it).
QUICK_DRAFT = "http://json-schema.org/draft-07/schema#"


@cache
def _quick_check() -> Callable[[JSON], object]:
    import fastjsonschema

    check: Callable[[JSON], object] = fastjsonschema.compile({**schema(), "$schema": QUICK_DRAFT})
    return check


def quickly_valid(data: JSON) -> bool:
    """Whether ``data`` fits the scenario schema (the compiled check; no explanation)."""
    from fastjsonschema import JsonSchemaException

    try:
        _quick_check()(data)
    except JsonSchemaException:
        return False
    return True


@cache
def _action_validators() -> dict[str, Any]:
    """One validator per action type: its branch of ``action.schema.json``, with the shared definitions."""
    from jsonschema import Draft202012Validator

    whole = protocol_schema("action")
    return {
        branch["properties"]["type"]["const"]: Draft202012Validator({**branch, "$defs": whole["$defs"]})
        for branch in whole["oneOf"]
    }


def action_schema_problem(action: JSON) -> str:
    """Why ``action`` does not fit ``action.schema.json`` ('' when it fits), naming the first field at fault."""
    validator = _action_validators().get(action.get("type"))  # type: ignore[arg-type]
    if validator is None:
        return f"unknown action type {action.get('type')!r}"
    for err in sorted(validator.iter_errors(action), key=lambda e: list(map(str, e.absolute_path))):
        where = ".".join(str(p) for p in err.absolute_path)
        return f"{where}: {err.message}" if where else err.message
    return ""


def is_probe(action: JSON, reject: JSON | None) -> bool:
    """A ``do`` is a probe when it is meant to be refused as malformed or as an unknown card, or when it is a
    ``shuffle`` sent by a player, refused as not theirs: only chance answers a shuffle (``player`` null, DEC-1),
    so that answer cannot be written canonically."""
    if reject is None:
        return False
    code = reject.get("code")
    if code in PROBE_CODES:
        return True
    return code == "NOT_YOUR_DECISION" and action.get("type") == "shuffle" and action.get("player") is not None


def describe_path(path: KeyPath) -> str:
    """``("steps", 2, "do", "card")`` -> ``step 3: do.card``; ``("given", "players", 0)`` -> ``given.players[0]``."""
    head = ""
    rest = list(path)
    if len(rest) >= 2 and rest[0] == "steps" and isinstance(rest[1], int):
        head = f"step {rest[1] + 1}"
        rest = rest[2:]
    text = ""
    for part in rest:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    if head:
        return f"{head}: {text}" if text else head
    return text or "top level"


# ---------------------------------------------------------------------- one file


class _FileCheck:
    """Collects the errors of one file, each placed at the line of its key path. A file of the bundled suite that
    the cache says validated under the same key (``validated``) is built without the schema and the reference's
    checks: the same scenario, for about a third of the work."""

    def __init__(self, file: str, text: str, validated: bool = False) -> None:
        self.file = file
        self.validated = validated
        plain = plain_lines(text) if validated else None
        self.lines = key_lines(text) if plain is None else plain
        self.errors: list[ScenarioError] = []
        self.paths: set[KeyPath] = set()

    def line(self, path: KeyPath) -> int:
        return line_of(self.lines, path)

    def error(self, path: KeyPath, message: str) -> None:
        """Record one error; only the first for a given key path (the schema may find several)."""
        if path in self.paths:
            return
        self.paths.add(path)
        self.errors.append(ScenarioError(self.file, self.line(path), f"{describe_path(path)}: {message}"))

    # ------------------------------------------------------------------ schema

    def schema_errors(self, data: JSON) -> None:
        if self.validated or quickly_valid(data):
            return
        for err in _validator().iter_errors(data):
            path: KeyPath = tuple(err.absolute_path)
            if err.validator == "additionalProperties" and isinstance(err.instance, dict):
                known = sorted(err.schema.get("properties", {}))
                for key in err.instance:
                    if key not in known:
                        self.error((*path, key), f"unknown key {key!r} (known here: {', '.join(known)})")
            elif err.validator == "anyOf" and len(path) == 2 and path[0] == "steps":
                self.error(path, "a step needs at least one of do, expect, decision, legal, not_legal, legal_exactly")
            elif err.validator == "oneOf" and not path:
                self.error(("id",), "a scenario starts from exactly one of given (a position) and new_game")
            elif err.validator == "required":
                self.error(path, err.message.replace("is a required property", "is required"))
            else:
                self.error(path, err.message)

    # ------------------------------------------------------------------ cards and rules

    def rule(self, rule_id: str, path: KeyPath) -> None:
        known = rules_catalogue()
        if rule_id not in known:
            close = difflib.get_close_matches(rule_id, list(known), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            self.error(path, f"unknown rule id {rule_id!r} (not in the rules catalogue){hint}")

    def card(self, name: str, path: KeyPath, loose: bool = False) -> str:
        if name == ABSENT:
            self.error(path, f"{ABSENT!r} stands for a whole missing or null value (artifact = {ABSENT!r}), "
                             "not for a card; an empty list is written []")
            return name
        found = catalogue().by_name(name)
        if found is not None:
            return found.id
        if not loose:
            names = [c.name for c in catalogue().cards.values()]
            close = difflib.get_close_matches(name, names, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            self.error(path, f"unknown card {name!r} (no card has that name or id){hint}")
        return name

    def cards(self, names: list[str], path: KeyPath) -> list[str]:
        return [self.card(n, (*path, i)) for i, n in enumerate(names)]

    def snapshot_cards(self, partial: JSON, path: KeyPath) -> JSON:
        if DRAW_PILE_TOP in partial and "draw_pile" in partial:
            self.error((*path, DRAW_PILE_TOP), "give draw_pile (the whole pile) or draw_pile_top (its top cards), "
                                               "not both")
        out = copy.deepcopy(partial)
        for key in SNAPSHOT_CARD_LISTS:
            if key in out:
                out[key] = self.cards(out[key], (*path, key))
        for i, player in enumerate(out.get("players", [])):
            for key in PLAYER_CARD_LISTS:
                if key in player:
                    player[key] = self.cards(player[key], (*path, "players", i, key))
        return out

    def move(self, action: JSON, path: KeyPath) -> JSON:
        """An action the oracle sends or expects, in canonical form; an error when it cannot fit the schema."""
        errors_before = len(self.errors)
        out = canonical_form(self.action_cards(action, path))
        problem = action_schema_problem(out) if len(self.errors) == errors_before and not self.validated else ""
        if problem:
            self.error(path, f"not a canonical action ({problem}); a deliberately malformed action needs "
                             "reject = { code = \"MALFORMED_ACTION\" }")
        return out

    def action_cards(self, action: JSON, path: KeyPath, loose: bool = False) -> JSON:
        out = dict(action)
        if "card" in out:
            out["card"] = self.card(out["card"], (*path, "card"), loose)
        for key in ("cards", "order"):
            if key in out:
                out[key] = [self.card(c, (*path, key, i), loose) for i, c in enumerate(out[key])]
        if out.get("type") == "shuffle":
            out.setdefault("player", None)
        return out

    def loose_cards(self, data: JSON, path: KeyPath) -> JSON:
        """Decisions and events: ``card``/``cards``/``order`` must be cards; ``source`` and ``looking`` (ART-11)
        may be one."""
        out = self.action_cards(data, path)
        for key in ("source", "looking"):
            named = out.get(key)
            if isinstance(named, str):
                found = catalogue().by_name(named)
                if found is not None:
                    out[key] = found.id
        return out


def _input_error(exc: InputError) -> ScenarioError:
    """A file that cannot be read, decoded or parsed, as a scenario error (on line 1 when it is the whole file)."""
    return ScenarioError(exc.file, exc.line or 1, exc.reason)


def parse_text(text: str, path: Path, file: str | None = None,
               validated: bool = False) -> tuple[Scenario | None, list[ScenarioError]]:
    """Validate one scenario document; return the scenario (None when invalid) and every error found. With
    ``validated`` (a bundled file the cache vouches for) the schema and the reference's checks are skipped."""
    file = file or display_path(path)
    try:
        data = parse_input(text, Input.SCENARIO, file)
    except InputError as exc:
        return None, [_input_error(exc)]
    check = _FileCheck(file, text, validated)
    check.schema_errors(data)
    if check.errors:
        return None, _sorted(check.errors)
    scenario = _build(check, data, path, file)
    if check.errors:
        return None, _sorted(check.errors)
    return scenario, []


def _sorted(errors: list[ScenarioError]) -> list[ScenarioError]:
    seen: set[str] = set()
    out = []
    for err in sorted(errors, key=lambda e: e.line):
        if str(err) not in seen:
            seen.add(str(err))
            out.append(err)
    return out


def _build(check: _FileCheck, data: JSON, path: Path, file: str) -> Scenario:
    scenario_id: str = data["id"]
    if path.suffix == ".toml" and path.stem != scenario_id:
        check.error(("id",), f"the file must be named after the id: {scenario_id}.toml, not {path.name}")
    for i, rule_id in enumerate(data["rules"]):
        check.rule(rule_id, ("rules", i))
    cards = tuple(check.card(name, ("cards", i)) for i, name in enumerate(data.get("cards", [])))
    new_game: JSON | None = None
    if "new_game" in data:
        given = _with_required_variants(check, data, {"setup": _new_game_setup(data["new_game"])})
        if not check.errors:
            new_game = _check_new_game(check, data["new_game"], given["setup"])
    else:
        given = _with_required_variants(check, data, check.snapshot_cards(data["given"], ("given",)))
        _no_absence_marker(check, data["given"], ("given",))
        if not check.errors and not check.validated:
            _check_given(check, given)
    steps = tuple(_build_step(check, i, raw) for i, raw in enumerate(data["steps"]))
    expect_end = check.snapshot_cards(data["expect_end"], ("expect_end",)) if "expect_end" in data else None
    return Scenario(
        id=scenario_id,
        title=data["title"],
        rules=tuple(data["rules"]),
        cards=cards,
        source=data["source"],
        requires=tuple(data.get("requires", [])),
        given=given,
        steps=steps,
        expect_end=expect_end,
        path=path,
        file=file,
        line=check.line(("id",)),
        end_line=check.line(("expect_end",)),
        raw=data,
        new_game=new_game,
    )


NEW_GAME_ONLY = ("first_player", "deck")


def _new_game_setup(raw: JSON) -> JSON:
    """The set-up part of ``new_game`` (everything but the first player and the deck)."""
    return {k: v for k, v in raw.items() if k not in NEW_GAME_ONLY}


def _check_new_game(check: _FileCheck, raw: JSON, setup: JSON) -> JSON | None:
    """The complete ``new_game`` set-up: the deck's top cards as given, then every other card of the game in
    card-id order; the reference must be able to start it."""
    from oracle.reference.engine import ReferenceEngine, SetupError

    top = check.cards(list(raw.get("deck", [])), ("new_game", "deck"))
    if check.errors:
        return None
    if len(set(top)) != len(top):
        check.error(("new_game", "deck"), "a card is listed twice")
        return None
    expansion = bool(setup.get("expansion") or setup.get("artifacts"))
    cards = catalogue().in_sets(["base", "artifacts"] if expansion else ["base"])
    outside = [c for c in top if c not in {card.id for card in cards}]
    if outside:
        check.error(("new_game", "deck"), f"{outside[0]} is not in this game's deck (expansion cards need "
                                          "expansion = true)")
        return None
    full = {**setup, "first_player": raw.get("first_player", 0),
            "deck": top + sorted(c.id for c in cards if c.id not in top)}
    if check.validated:
        return full
    try:
        ReferenceEngine().new_game(full)
    except SetupError as exc:
        check.error(("new_game",), f"the reference cannot start this game: {exc}")
        return None
    return full


def _with_required_variants(check: _FileCheck, data: JSON, given: JSON) -> JSON:
    """``requires = ["variant:RUL-1=per_stone"]`` makes the position play that variant (``setup.variants``);
    every variant named must be in the rules catalogue, and a position may not name another value."""
    named = dict(given.get("setup", {}).get("variants", {}))
    for name, value in named.items():
        problem = variant_problem(name, value)
        if problem:
            check.error(("given", "setup", "variants", name), problem)
    for i, feature in enumerate(data.get("requires", [])):
        if not feature.startswith("variant:"):
            continue
        name, _, value = feature.removeprefix("variant:").partition("=")
        problem = variant_problem(name, value)
        if problem:
            check.error(("requires", i), problem)
        elif named.get(name, value) != value:
            check.error(("requires", i), f"given.setup.variants names {name} = {named[name]!r}, requires {value!r}")
        named[name] = value
    if not named:
        return given
    return {**given, "setup": {**given.get("setup", {}), "variants": named}}


def _no_absence_marker(check: _FileCheck, value: object, path: KeyPath) -> None:
    """The absence marker states what the engine must report; a position says what there is instead."""
    if value == ABSENT:
        check.error(path, f"{ABSENT!r} belongs in expect, expect_end or decision; in given, leave the key out")
    elif isinstance(value, dict):
        for key, sub in value.items():
            _no_absence_marker(check, sub, (*path, key))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            _no_absence_marker(check, sub, (*path, i))


def _legal_exactly(check: _FileCheck, raw: JSON, path: KeyPath) -> list[JSON] | None:
    """``legal_exactly``: canonical, each action once, and alone (it already says what ``legal`` and
    ``not_legal`` would). Two orders of the same cards are two entries: an ``ordered`` decision (EFF-8) lists
    each order as its own action."""
    if "legal_exactly" not in raw:
        return None
    where: KeyPath = (*path, "legal_exactly")
    for other in ("legal", "not_legal"):
        if other in raw:
            check.error(where, f"legal_exactly lists every legal action; drop {other} from this step")
    moves = [check.move(a, (*where, i)) for i, a in enumerate(raw["legal_exactly"])]
    seen: dict[str, int] = {}
    for i, move in enumerate(moves):
        key = canonical_action(move, ordered=True)
        if key in seen:
            check.error((*where, i), f"the same action as entry {seen[key] + 1}")
        seen.setdefault(key, i)
    return moves


def _check_given(check: _FileCheck, given: JSON) -> None:
    from oracle.reference.snapshot import SnapshotError, load_state

    try:
        completed = complete_snapshot(given)
    except GivenError as exc:
        check.error(("given",), f"cannot complete the position: {exc}")
        return
    try:
        load_state(completed)
    except SnapshotError as exc:
        check.error(("given",), f"not a possible position: {exc}")


def _ordered_decision(check: _FileCheck, decision: JSON, path: KeyPath) -> None:
    """EFF-8: only a ``choose_cards`` decision says whether the order of its answer matters."""
    kind = decision.get("kind")
    if "ordered" in decision and kind is not None and kind != DecisionKind.CHOOSE_CARDS.value:
        check.error((*path, "ordered"), f"only a choose_cards decision can be ordered, not {kind}")


def _build_step(check: _FileCheck, index: int, raw: JSON) -> Step:
    path: KeyPath = ("steps", index)
    reject = raw.get("reject")
    if reject is not None and "rule" in reject:
        check.rule(reject["rule"], (*path, "reject", "rule"))
    probe = "do" in raw and is_probe(raw["do"], reject)
    do: JSON | None = None
    if "do" in raw:
        do = check.action_cards(raw["do"], (*path, "do"), loose=True) if probe else check.move(raw["do"], (*path, "do"))
    decision = raw.get("decision")
    if isinstance(decision, dict):
        decision = check.loose_cards(decision, (*path, "decision"))
        _ordered_decision(check, decision, (*path, "decision"))
    events = [check.loose_cards(e, (*path, "events", i)) for i, e in enumerate(raw.get("events", []))]
    return Step(
        number=index + 1,
        line=check.line(path),
        do=do,
        reject=dict(reject) if reject is not None else None,
        expect=check.snapshot_cards(raw["expect"], (*path, "expect")) if "expect" in raw else None,
        decision=decision,
        events=events if "events" in raw else None,
        legal=[check.move(a, (*path, "legal", i)) for i, a in enumerate(raw.get("legal", []))],
        not_legal=[check.move(a, (*path, "not_legal", i)) for i, a in enumerate(raw.get("not_legal", []))],
        legal_exactly=_legal_exactly(check, raw, path),
        note=raw.get("note", ""),
        probe=probe,
    )


# Validated files by (path, working directory), reused while their bytes do not change: `oracle check`
# lints the directory, then the suite loads it again.
_CHECKED: dict[tuple[str, str], tuple[bytes, tuple[Scenario | None, list[ScenarioError]]]] = {}


def check_file(path: Path, raw: bytes | None = None) -> tuple[Scenario | None, list[ScenarioError]]:
    """Read and validate one file (``raw``: its bytes, already read)."""
    file = display_path(path)
    try:
        raw = read_bytes(path, Input.SCENARIO, file) if raw is None else raw
    except InputError as exc:
        return None, [_input_error(exc)]
    key = (str(path), str(Path.cwd()))
    cached = _CHECKED.get(key)
    if cached is not None and cached[0] == raw:
        return cached[1][0], list(cached[1][1])
    checked = _check_bytes(path, file, raw)
    _CHECKED[key] = (raw, checked)
    return checked[0], list(checked[1])


def _check_bytes(path: Path, file: str, raw: bytes,
                 validated: bool = False) -> tuple[Scenario | None, list[ScenarioError]]:
    try:
        text = decoded(raw, file)
    except InputError as exc:
        return None, [_input_error(exc)]
    return parse_text(text, path, file, validated)


def load_file(path: Path) -> Scenario:
    """One valid scenario, or the first :class:`ScenarioError`."""
    scenario, errors = check_file(path)
    if errors:
        raise errors[0]
    assert scenario is not None
    return scenario


# ---------------------------------------------------------------------- a directory


@dataclass
class ScenarioSet:
    """The scenarios of a directory, in file order, and every error found in it."""

    directory: Path
    scenarios: list[Scenario] = field(default_factory=list)
    errors: list[ScenarioError] = field(default_factory=list)
    files: int = 0
    skipped: list[ScenarioError] = field(default_factory=list)
    """``*.toml`` entries that are not regular files (a FIFO, a socket, a device): never opened, only named."""
    key: str = ""
    """The bundled suite's cache key when it was validated in this process (:mod:`oracle.scenarios.suite_cache`)."""

    def by_id(self) -> dict[str, Scenario]:
        return {s.id: s for s in self.scenarios}

    def get(self, scenario_id: str) -> Scenario | None:
        return self.by_id().get(scenario_id)


def scenario_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*.toml") if p.is_file())


NOT_REGULAR = "not a regular file (a FIFO, socket or device); skipped"


def skipped_files(directory: Path) -> list[ScenarioError]:
    """The ``*.toml`` entries below ``directory`` that are neither regular files nor directories: opening a
    FIFO would block, so they are named and skipped."""
    return [ScenarioError(display_path(p), 0, NOT_REGULAR)
            for p in sorted(directory.rglob("*.toml")) if p.exists() and not p.is_file() and not p.is_dir()]


def load_dir(directory: Path) -> ScenarioSet:
    """Validate every ``*.toml`` below ``directory`` (any depth); ids must be unique across them."""
    if not directory.is_dir():
        found = ScenarioSet(directory)
        found.errors.append(ScenarioError(display_path(directory), 0, "no such directory"))
        return found
    files = scenario_files(directory)
    bundled = directory.resolve() == default_dir().resolve()
    found = _load_bundled(directory, files) if bundled else _load_files(directory, files)
    found.skipped.extend(skipped_files(directory))
    if bundled and not found.errors and not found.skipped:
        _keep_bundled(found)
    return found


# The bundled suite validated in this process, by its key: `oracle check` refuses invalid files, then plans.
_BUNDLED: dict[str, tuple[Scenario, ...]] = {}


def _load_bundled(directory: Path, files: list[Path]) -> ScenarioSet:
    """The bundled suite: as validated before in this process; else read from its files, validated now unless the
    cache says the same files validated under the same key (:mod:`oracle.scenarios.suite_cache`)."""
    try:
        contents = [read_bytes(path, Input.SCENARIO, display_path(path)) for path in files]
    except InputError:  # a file past the limits: each is validated and reported, and the suite is never kept
        return _load_files(directory, files)
    key = suite_key(directory, files, contents)
    kept = _BUNDLED.get(key)
    if kept is None and suite_validated(key, len(files)):
        kept = _read_validated(files, contents)
    if kept is None:
        found = _load_files(directory, files, contents)
        found.key = key
        return found
    _BUNDLED.clear()
    _BUNDLED[key] = kept
    return ScenarioSet(directory, list(kept), files=len(files))


def _read_validated(files: list[Path], contents: list[bytes]) -> tuple[Scenario, ...] | None:
    """The suite's scenarios built from the bytes the key was computed from, without validating them again; None
    (validate them) when any file does not build cleanly or two share an id."""
    found: dict[str, Scenario] = {}
    for path, content in zip(files, contents, strict=True):
        try:
            scenario, errors = _check_bytes(path, display_path(path), content, validated=True)
        except Exception:  # the cache vouched for files that do not build: validate them and report what is wrong
            return None
        if scenario is None or errors or scenario.id in found:
            return None
        found[scenario.id] = scenario
    return tuple(found.values())


def _keep_bundled(found: ScenarioSet) -> None:
    if found.key and found.key not in _BUNDLED:
        _BUNDLED.clear()
        _BUNDLED[found.key] = tuple(found.scenarios)
        mark_validated(found.key, found.files)


def _load_files(directory: Path, files: list[Path], contents: list[bytes] | None = None) -> ScenarioSet:
    found = ScenarioSet(directory)
    first_seen: dict[str, Scenario] = {}
    for number, path in enumerate(files):
        found.files += 1
        scenario, errors = check_file(path, None if contents is None else contents[number])
        found.errors.extend(errors)
        if scenario is None:
            continue
        if scenario.id in first_seen:
            other = first_seen[scenario.id]
            found.errors.append(ScenarioError(
                scenario.file, scenario.line,
                f"id: duplicate scenario id {scenario.id!r} (also in {other.file}:{other.line})",
            ))
            continue
        first_seen[scenario.id] = scenario
        found.scenarios.append(scenario)
    return found


# ---------------------------------------------------------------------- selection


def resolve_card_names(names: Iterable[str]) -> tuple[list[str], list[str]]:
    """Card ids for the given names or ids, and the names that match no card."""
    ids: list[str] = []
    unknown: list[str] = []
    for name in names:
        found = catalogue().by_name(name)
        if found is None:
            unknown.append(name)
        else:
            ids.append(found.id)
    return ids, unknown


def select(
    scenarios: Iterable[Scenario],
    patterns: Iterable[str] = (),
    rule_ids: Iterable[str] = (),
    cards: Iterable[str] = (),
) -> list[Scenario]:
    """The scenarios whose id matches a glob of ``patterns``, that pin one of ``rule_ids`` and one of ``cards``."""
    import fnmatch

    globs = list(patterns)
    wanted_rules = set(rule_ids)
    wanted_cards = set(resolve_card_names(cards)[0])

    def keep(s: Scenario) -> bool:
        return (
            (not globs or any(fnmatch.fnmatchcase(s.id, g) for g in globs))
            and (not wanted_rules or bool(wanted_rules & set(s.rules)))
            and (not wanted_cards or bool(wanted_cards & set(s.cards)))
        )

    return [s for s in scenarios if keep(s)]
