"""``oracle cards --json`` and ``oracle rules --json``: one JSON document each, valid against the schema shipped in
oracle/schemas, stamped with the oracle's version, and holding every card or rule the text listing shows
(issue 26, item 2)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core import versions
from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.core.rules import rules, variants

SCHEMAS = Path(__file__).resolve().parents[1] / "oracle" / "schemas"
runner = CliRunner()


def printed(*args: str) -> JSON:
    done = runner.invoke(app, list(args))
    assert 0 == done.exit_code, done.stdout + done.stderr
    document: JSON = json.loads(done.stdout)
    return document


@cache
def validator(schema: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((SCHEMAS / schema).read_text(encoding="utf-8")))


def problems(document: JSON, schema: str) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(schema).iter_errors(document)]


# ---------------------------------------------------------------------------------------------- cards (CARD-1)


def test_cards_json_is_valid_and_holds_every_base_card_by_default_and_the_expansion_with_the_option() -> None:
    base, every = printed("cards", "--json"), printed("cards", "--json", "--expansion")
    assert ([], []) == (problems(base, "cards.schema.json"), problems(every, "cards.schema.json"))
    assert [c.id for c in catalogue().base()] == [c["id"] for c in base["cards"]]
    assert [c.to_json() for c in catalogue().cards.values()] == every["cards"]
    assert (70, 98) == (len(base["cards"]), len(every["cards"]))


def test_cards_json_is_stamped_with_the_oracle_and_gives_stone_and_sell_values() -> None:
    document = printed("cards", "--json")
    assert ("vale-oracle/cards/1", versions.__version__, versions.PROTOCOL_VERSION) == (
        document["format"], document["oracle_version"], document["protocol"])
    assert ({"red": 1, "blue": 3, "purple": 6}, {"red": 1, "blue": 1}) == (
        document["stone_values"], document["sell_values"]["wind"])
    assert len(catalogue().tiles) == len(document["artifact_tiles"])


def test_cards_json_follows_the_filters_of_the_text_listing() -> None:
    document = printed("cards", "--json", "--family", "dragon", "--cost", "5")
    listed = runner.invoke(app, ["cards", "--family", "dragon", "--cost", "5"]).stdout
    assert f"{len(document['cards'])} card(s)" == listed.strip().splitlines()[-1]
    assert {("dragon", 5)} == {(c["family"], c["cost"]) for c in document["cards"]}


def test_the_cards_schema_refuses_a_card_without_a_family() -> None:
    document = printed("cards", "--json")
    del document["cards"][0]["family"]
    assert ["cards/0: 'family' is a required property"] == problems(document, "cards.schema.json")


# ---------------------------------------------------------------------------------------------- rules


def test_rules_json_is_valid_and_holds_every_rule_and_variant_in_catalogue_order() -> None:
    document = printed("rules", "--json")
    assert [] == problems(document, "rules.schema.json")
    assert list(rules()) == [r["id"] for r in document["rules"]]
    assert sorted(variants()) == sorted(v["rule"] for v in document["variants"])
    assert ("vale-oracle/rules/1", versions.__version__) == (document["format"], document["oracle_version"])


def test_rules_json_gives_each_rule_its_group_text_source_and_reason() -> None:
    setup_two = next(r for r in printed("rules", "--json")["rules"] if r["id"] == "SETUP-2")
    rule = rules()["SETUP-2"]
    assert {"id": "SETUP-2", "group": "setup", "kind": "rule", "text": rule.text, "source": rule.source,
            "scope": "base", "checked_by": "setup", "reason": ""} == setup_two


def test_rules_group_narrows_both_forms_and_an_unknown_group_is_a_located_refusal() -> None:
    document = printed("rules", "--json", "--group", "setup")
    listed = runner.invoke(app, ["rules", "--group", "setup"]).stdout
    assert ["SETUP-1", "SETUP-2", "SETUP-3"] == [r["id"] for r in document["rules"]]
    assert "3 rule(s)" == listed.strip().splitlines()[-1]
    refused = runner.invoke(app, ["rules", "--group", "setpu"])
    assert 2 == refused.exit_code
    assert "error: --group 'setpu': the catalogue's groups are setup, " in refused.stderr


def test_the_rules_schema_refuses_a_rule_of_an_unknown_kind() -> None:
    document = printed("rules", "--json")
    document["rules"][0]["kind"] = "hint"
    assert ["rules/0/kind: 'hint' is not one of ['rule', 'ruling']"] == problems(document, "rules.schema.json")
