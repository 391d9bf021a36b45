"""Scenario files: malformed ones give one `file:line: message` per problem, never a traceback."""

from __future__ import annotations

from pathlib import Path

from oracle.scenarios.loader import default_dir, load_dir, load_file, parse_text, select
from oracle.scenarios.locate import key_lines, line_of, plain_lines
from oracle.scenarios.model import ScenarioError

GOOD = """\
id = "GOOD-1"
title = "With a red and a blue stone, a cost of 1 is paid with either stone, never both"
rules = ["PAY-3"]
cards = ["salamander"]
source = "test"

[given]
round = 1

[[given.players]]
hand = ["Salamander"]
stones = { red = 1, blue = 1 }

[[steps]]
legal = [
  { type = "summon", player = 0, card = "Salamander", payment = { red = 1 } },
  { type = "summon", player = 0, card = "base-fire-05", payment = { blue = 1 } },
]

[[steps]]
do = { type = "summon", player = 0, card = "Salamander", payment = { red = 1, blue = 1 } }
reject = { code = "PAYMENT_SUPERFLUOUS_STONE", rule = "PAY-3" }

[[steps]]
do = { type = "summon", player = 0, card = "SALAMANDER", payment = { blue = 1 } }
expect = { players = [ { area = ["Salamander"], stones = { red = 1, blue = 0 } } ] }
"""


def errors_of(text: str, name: str = "GOOD-1") -> list[str]:
    scenario, errors = parse_text(text, Path(f"{name}.toml"))
    assert (scenario is None) == bool(errors)
    return [str(e) for e in errors]


def write(directory: Path, relative: str, text: str) -> Path:
    path = directory / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_file_resolves_names_to_ids_case_insensitively() -> None:
    scenario, errors = parse_text(GOOD, Path("GOOD-1.toml"))
    assert [] == errors
    assert scenario is not None
    salamander = "base-fire-05"
    assert (salamander,) == scenario.cards
    assert [salamander] == scenario.given["players"][0]["hand"]
    assert [salamander, salamander] == [a["card"] for a in scenario.steps[0].legal]
    assert {"players": [{"area": [salamander], "stones": {"red": 1, "blue": 0}}]} == scenario.steps[2].expect
    assert [14, 20, 24] == [s.line for s in scenario.steps]
    assert [1, 2, 3] == [s.number for s in scenario.steps]
    expected_reject_rules = ("PAY-3",)
    assert expected_reject_rules == scenario.reject_rules


def test_bad_toml_names_the_line() -> None:
    text = GOOD.replace("round = 1", "round = ")
    assert ["GOOD-1.toml:8: not valid TOML: Invalid value"] == errors_of(text)


def test_unknown_keys_name_their_line() -> None:
    text = GOOD.replace('source = "test"', 'source = "test"\nauthor = "me"')
    assert errors_of(text)[0].startswith("GOOD-1.toml:6: author: unknown key 'author'")
    text = GOOD.replace("payment = { blue = 1 } }\nexpect", "payment = { blue = 1 }, colour = 3 }\nexpect")
    assert errors_of(text)[0].startswith("GOOD-1.toml:25: step 3: do.colour: unknown key 'colour'")
    text = GOOD.replace("stones = { red = 1, blue = 1 }", "stones = { red = 1, green = 1 }")
    assert errors_of(text)[0].startswith("GOOD-1.toml:12: given.players[0].stones.green: unknown key 'green'")
    text = GOOD.replace('[[steps]]\ndo = { type = "summon", player = 0, card = "SALAMANDER"',
                        '[[steps]]\nexpected = 3\ndo = { type = "summon", player = 0, card = "SALAMANDER"')
    assert errors_of(text)[0].startswith("GOOD-1.toml:25: step 3: expected: unknown key 'expected'")


def test_unknown_card_names_the_line_and_suggests() -> None:
    text = GOOD.replace('card = "base-fire-05"', 'card = "Salamandr"')
    expected = ["GOOD-1.toml:17: step 1: legal[1].card: unknown card 'Salamandr' (no card has that name or id); "
                "did you mean 'Salamander'?"]
    assert expected == errors_of(text)
    text = GOOD.replace('hand = ["Salamander"]', 'hand = ["Nobody"]')
    assert ["GOOD-1.toml:11: given.players[0].hand[0]: unknown card 'Nobody' (no card has that name or id)"] == (
        errors_of(text)
    )


def test_unknown_rule_id_names_the_line() -> None:
    text = GOOD.replace('rules = ["PAY-3"]', 'rules = ["PAY-3", "PAY-99"]')
    expected = ["GOOD-1.toml:3: rules[1]: unknown rule id 'PAY-99' (not in the rules catalogue); did you mean 'PAY-5'?"]
    assert expected == errors_of(text)
    text = GOOD.replace('rule = "PAY-3" }', 'rule = "QQQ" }')
    assert ["GOOD-1.toml:22: step 2: reject.rule: unknown rule id 'QQQ' (not in the rules catalogue)"] == (
        errors_of(text)
    )


def test_schema_errors_name_the_line() -> None:
    text = GOOD.replace('source = "test"\n', "")
    assert ["GOOD-1.toml:1: top level: 'source' is required"] == errors_of(text)
    text = GOOD.replace('code = "PAYMENT_SUPERFLUOUS_STONE"', 'code = "TOO_EXPENSIVE"')
    assert errors_of(text)[0].startswith("GOOD-1.toml:22: step 2: reject.code: 'TOO_EXPENSIVE' is not one of")
    text = GOOD.replace('player = 0, card = "Salamander", payment = { red = 1 } }',
                        'player = "zero", card = "Salamander", payment = { red = 1 } }')
    assert ["GOOD-1.toml:16: step 1: legal[0].player: 'zero' is not of type 'integer', 'null'"] == errors_of(text)
    text = GOOD + '\n[[steps]]\nreject = { code = "AREA_FULL" }\n'
    assert ["GOOD-1.toml:28: step 4: 'do' is required"] == errors_of(text)
    text = GOOD + '\n[[steps]]\nnote = "nothing"\n'
    needs = "a step needs at least one of do, expect, decision, legal, not_legal, legal_exactly"
    assert [f"GOOD-1.toml:28: step 4: {needs}"] == errors_of(text)


def test_an_impossible_position_names_the_given_line() -> None:
    text = GOOD.replace('hand = ["Salamander"]', 'hand = ["Salamander"]\nmarkers = ["Imp"]')
    expected = ["GOOD-1.toml:7: given: not a possible position: players[0].markers: base-fire-02 is not in the display"]
    assert expected == errors_of(text)


def test_the_file_is_named_after_the_id() -> None:
    expected = ["OTHER.toml:1: id: the file must be named after the id: GOOD-1.toml, not OTHER.toml"]
    assert expected == errors_of(GOOD, "OTHER")


def test_duplicate_ids_across_a_directory(tmp_path: Path) -> None:
    write(tmp_path, "a/GOOD-1.toml", GOOD)
    write(tmp_path, "b/GOOD-1.toml", GOOD)
    loaded = load_dir(tmp_path)
    assert ["GOOD-1"] == [s.id for s in loaded.scenarios]
    expected = [f"{tmp_path / 'b/GOOD-1.toml'}:1: id: duplicate scenario id 'GOOD-1' "
                f"(also in {tmp_path / 'a/GOOD-1.toml'}:1)"]
    assert expected == [str(e) for e in loaded.errors]


def test_load_file_raises_a_scenario_error_and_reads_files(tmp_path: Path) -> None:
    path = write(tmp_path, "GOOD-1.toml", GOOD.replace("round = 1", "round = 1 1"))
    try:
        load_file(path)
    except ScenarioError as err:
        expected = (f"{path}", 8, "not valid TOML: Expected newline or end of document after a statement")
        assert expected == (err.file, err.line, err.message)
    else:
        raise AssertionError("no error")
    path.write_bytes(b"id = \"x\"\n\xff\n")
    assert ["not valid UTF-8"] == [e.message for e in load_dir(tmp_path).errors]


def test_the_bundled_scenarios_are_valid_and_selectable() -> None:
    loaded = load_dir(default_dir())
    assert [] == [str(e) for e in loaded.errors]
    ids = [s.id for s in loaded.scenarios]
    assert len(set(ids)) == len(ids)
    assert len(ids) >= 6
    payment = select(loaded.scenarios, ["PAY-*"])
    assert [] == [s.id for s in payment if not s.id.startswith("PAY-")]
    assert {"PAY-1-cost-4-paid-three-ways", "PAY-3-red-and-blue-for-cost-1"} <= {s.id for s in payment}
    both = select(loaded.scenarios, cards=["salamander"], rule_ids=["PAY-3"])
    assert [] == [s.id for s in both if "base-fire-05" not in s.cards or "PAY-3" not in s.rules]
    assert "PAY-3-red-and-blue-for-cost-1" in {s.id for s in both}


def test_key_lines_follow_tables_arrays_and_inline_values() -> None:
    lines = key_lines(GOOD)
    expected = {
        ("id",): 1,
        ("given", "players", 0, "stones", "blue"): 12,
        ("steps", 0): 14,
        ("steps", 0, "legal", 1, "card"): 17,
        ("steps", 2, "expect", "players", 0, "area", 0): 26,
    }
    assert expected == {k: lines[k] for k in expected}
    expected_line = lines[("steps", 2, "expect", "players", 0)]
    assert expected_line == line_of(lines, ("steps", 2, "expect", "players", 0, "nothing", "here"))


def test_plain_lines_agree_with_key_lines_on_every_bundled_file_they_place() -> None:
    import tomllib

    from oracle.scenarios.loader import scenario_files

    disagree, placed = [], 0
    for path in scenario_files(default_dir()):
        text = path.read_text(encoding="utf-8")
        plain = plain_lines(text)
        if plain is None:
            continue
        placed += 1
        full = key_lines(text)
        steps = len(tomllib.loads(text)["steps"])
        for key in [("id",), ("expect_end",), *(("steps", n) for n in range(steps))]:
            if line_of(plain, key) != line_of(full, key):
                disagree.append(f"{path.name} {key}")
    assert ([], True) == (disagree, placed > 400)


def test_plain_lines_leave_any_other_layout_to_key_lines() -> None:
    others = [
        'id = "X"\nnote = """\n[[steps]]\n"""\n',
        'id = "X"\nsteps = [ { do = {} } ]\n',
        'id = "X"\n[[steps]]\n[steps.expect]\nround = 1\n',
        '"id" = "X"\n',
        'title = "t"\n[given]\nid = "X"\n',
        'id = "X"\n[[ steps ]]\n',
    ]
    assert [None] * len(others) == [plain_lines(text) for text in others]


# ---------------------------------------------------------------------- the quick check


SAME_IN_DRAFT_7_AND_2020_12 = frozenset({
    "$defs", "$id", "$ref", "$schema", "additionalProperties", "allOf", "anyOf", "const", "description", "else",
    "enum", "if", "items", "maxItems", "maximum", "minItems", "minLength", "minProperties", "minimum", "not", "oneOf",
    "pattern", "properties", "required", "then", "title", "type",
})


def _schema_objects(node: object, named: bool = False) -> list[dict[str, object]]:
    """Every schema object below ``node`` (the values of ``properties`` and ``$defs`` are schemas, not keywords)."""
    if isinstance(node, list):
        return [found for item in node for found in _schema_objects(item)]
    if not isinstance(node, dict):
        return []
    found = [] if named else [node]
    for key, value in node.items():
        found += _schema_objects(value, named=key in ("properties", "$defs") and not named)
    return found


def test_the_quick_check_compiles_a_schema_whose_keywords_mean_the_same_in_draft_7() -> None:
    """fastjsonschema compiles draft 7; the scenario schema is 2020-12. Their meanings agree on these keywords, and
    a ``$ref`` has no validating siblings (draft 7 ignores them)."""
    from oracle.scenarios.loader import schema

    objects = _schema_objects(schema())
    used = {key for obj in objects for key in obj}
    with_siblings = [sorted(obj) for obj in objects if "$ref" in obj and set(obj) - {"$ref", "description", "title"}]
    assert (set(), []) == (used - SAME_IN_DRAFT_7_AND_2020_12, with_siblings)


def test_the_quick_check_and_jsonschema_agree_on_every_bundled_scenario_and_on_broken_ones() -> None:
    import copy
    import tomllib

    from oracle.scenarios.loader import _validator, default_dir, quickly_valid, scenario_files

    documents = [tomllib.loads(path.read_text(encoding="utf-8")) for path in scenario_files(default_dir())]
    broken = []
    for document in documents[:40]:
        for key in ("id", "steps", "rules"):
            changed = copy.deepcopy(document)
            changed[key] = 7
            broken.append(changed)
        extra = copy.deepcopy(document)
        extra["steps"][0]["surprise"] = True
        broken.append(extra)
    verdicts = [(quickly_valid(d), not list(_validator().iter_errors(d))) for d in documents + broken]
    assert [pair for pair in verdicts if pair[0] != pair[1]] == []
    assert (len(documents), len(broken)) == (sum(ok for ok, _ in verdicts), sum(not ok for ok, _ in verdicts))
