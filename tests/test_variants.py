"""Rule variants: the catalogue's [[variant]] tables, the reference playing them, scenarios pinning them, and
`oracle check --variant`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.rules import RulesDataError, load_rules, load_variants, variant_problem, variants
from oracle.engines.harness import Handshake, parse_handshake
from oracle.reference import ReferenceEngine
from oracle.reference.declared import impl_for, parse_declared
from oracle.reference.snapshot import SnapshotError, load_state
from oracle.scenarios.loader import default_dir, load_dir, parse_text
from oracle.scenarios.runner import not_applicable_reason, pinned_variants, unsupported_reason
from tests.helpers import CALL_SECONDS

runner = CliRunner()
CHARYBDIS_SUMMON = {"type": "summon", "player": 0, "card": "base-water-14",
                    "payment": {"red": 0, "blue": 2, "purple": 0}}


def _handshake(declared: dict[str, str]) -> Handshake:
    return parse_handshake(ReferenceEngine(declared).handshake())


def _kappa_position(variant: dict[str, str]) -> dict[str, object]:
    from oracle.scenarios.given import complete_snapshot

    return complete_snapshot({"round": 4, "setup": {"variants": variant}, "players": [
        {"area": ["base-water-02"], "hand": ["base-water-14"], "stones": {"blue": 2}}]})


# ---------------------------------------------------------------- the catalogue


def test_every_variant_starts_with_the_projects_ruling() -> None:
    assert ("per_summon", "per_stone") == variants()["RUL-1"].values
    assert "per_summon" == variants()["RUL-1"].default


def test_a_variant_of_an_unknown_rule_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text('[[variant]]\nrule = "NOPE-1"\nvalues = ["a", "b"]\nmeanings = ["x", "y"]\nsource = "s"\n')
    with pytest.raises(RulesDataError, match=r"variant\[0\]: rule must be a rule id of the catalogue"):
        load_variants(path, load_rules(path))


def test_variant_problem_names_the_values() -> None:
    assert "" == variant_problem("RUL-1", "per_stone")
    assert "variant RUL-1 has no value 'x' (its values: per_summon, per_stone)" == variant_problem("RUL-1", "x")


# ---------------------------------------------------------------- the reference plays them


def _kappa_points(variant: dict[str, str], declared: dict[str, str] | None = None) -> int:
    engine = ReferenceEngine(declared)
    engine.load(_kappa_position(variant))
    pending = engine.decision()
    assert pending is not None and "action" == pending["kind"]
    result = engine.apply(CHARYBDIS_SUMMON)
    assert result["accepted"], result
    score: int = engine.export()["players"][0]["score"]
    return score


def test_kappa_once_per_summon_by_default() -> None:
    assert 2 == _kappa_points({})


def test_kappa_per_stone_when_the_setup_names_the_variant() -> None:
    assert 4 == _kappa_points({"RUL-1": "per_stone"})


def test_kappa_per_stone_when_the_engine_declares_it_and_the_setup_names_none() -> None:
    assert 4 == _kappa_points({}, {"RUL-1": "per_stone"})


def test_the_setup_wins_over_the_declared_value() -> None:
    assert 2 == _kappa_points({"RUL-1": "per_summon"}, {"RUL-1": "per_stone"})


def _nessie_with_loki(variant: dict[str, str], declared: dict[str, str] | None = None) -> ReferenceEngine:
    from oracle.scenarios.given import complete_snapshot

    engine = ReferenceEngine(declared)
    engine.load(complete_snapshot({"round": 3, "phase": "resolution", "setup": {"expansion": True, "variants": variant},
                                   "players": [{"area": ["base-water-05", "art-wind-05"]}]}))
    result = engine.apply({"type": "resolve_active", "player": 0, "card": "base-water-05"})
    assert result["accepted"], result
    return engine


def test_loki_asks_its_family_for_nessies_look_by_default() -> None:
    pending = _nessie_with_loki({}).decision()
    assert pending is not None
    assert ("choose_options", "art-wind-05", "base-water-05", ["fire", "water", "earth", "wind", "dragon"], 1, 1) == (
        pending["kind"], pending["source"], pending["looking"], pending["options"], pending["min"], pending["max"])


def test_loki_is_every_family_unasked_when_the_setup_names_the_variant() -> None:
    engine = _nessie_with_loki({"ART-11": "every_family"})
    pending = engine.decision()
    assert (0, "next_active") == (engine.export()["players"][0]["score"], pending and pending["kind"])


def test_loki_is_every_family_when_the_engine_declares_it() -> None:
    pending = _nessie_with_loki({}, {"ART-11": "every_family"}).decision()
    assert "next_active" == (pending and pending["kind"])


@pytest.mark.parametrize("answer", [["stone"], ["fire", "wind"], []])
def test_loki_takes_exactly_one_of_the_five_families_dec_2(answer: list[str]) -> None:
    engine = _nessie_with_loki({})
    result = engine.apply({"type": "choose_options", "player": 0, "options": answer})
    assert ("INVALID_CHOICE", "DEC-2", 0) == (result["rejection"]["code"], result["rejection"]["rule"],
                                              engine.export()["players"][0]["score"])


def test_an_unknown_variant_in_a_snapshot_names_the_field() -> None:
    with pytest.raises(SnapshotError, match=r"setup.variants.RUL-1: variant RUL-1 has no value 'twice'"):
        load_state(_kappa_position({"RUL-1": "twice"}))


def test_the_declared_reference_is_an_impl_string() -> None:
    assert "oracle.reference.declared:RUL-1=per_stone" == impl_for({"RUL-1": "per_stone"})
    assert {"RUL-1": "per_stone"} == parse_declared("RUL-1=per_stone")
    with pytest.raises(ValueError, match="expected RULE=VALUE"):
        parse_declared("RUL-1")
    with pytest.raises(ValueError):
        parse_declared("RUL-1=no_such_value")
    import oracle.reference.declared as declared

    with pytest.raises(AttributeError, match="RUL-1=no_such_value"):
        getattr(declared, "RUL-1=no_such_value")


# ---------------------------------------------------------------- scenarios


def test_requires_puts_the_variant_into_the_position() -> None:
    scenario = load_dir(default_dir()).get("RUL-1-per-stone-gargoyle-two-purple")
    assert scenario is not None
    assert {"RUL-1": "per_stone"} == scenario.variants


def test_a_scenario_naming_a_variant_rule_pins_the_default() -> None:
    scenario = load_dir(default_dir()).get("RUL-1-once-per-summon-versus-per-stone")
    assert scenario is not None
    assert {"RUL-1": "per_summon"} == pinned_variants(scenario)
    assert ("", "") == (not_applicable_reason(scenario, _handshake({})), unsupported_reason(scenario, _handshake({})))
    assert ("the scenario depends on RUL-1=per_summon; the engine declares RUL-1=per_stone"
            == not_applicable_reason(scenario, _handshake({"RUL-1": "per_stone"})))
    assert "" == unsupported_reason(scenario, _handshake({"RUL-1": "per_stone"}))


def test_every_variant_value_has_scenarios_of_its_own() -> None:
    loaded = load_dir(default_dir())
    pinned = {(rule, value) for s in loaded.scenarios for rule, value in pinned_variants(s).items()}
    every = {(rule, value) for rule, variant in variants().items() for value in variant.values}
    assert set() == every - pinned


BAD_VARIANT = """\
id = "X-1"
title = "t"
rules = ["RUL-1"]
source = "s"
requires = ["variant:RUL-1=twice"]

[given]
round = 1

[[steps]]
decision = { kind = "action" }
"""


def test_an_unknown_variant_value_in_requires_is_located() -> None:
    _, errors = parse_text(BAD_VARIANT, Path("X-1.toml"))
    assert ["X-1.toml:5: requires[0]: variant RUL-1 has no value 'twice' (its values: per_summon, per_stone)"] \
        == [str(e) for e in errors]


def test_requires_and_given_naming_two_values_is_located() -> None:
    text = BAD_VARIANT.replace("twice", "per_stone").replace(
        "round = 1\n", 'round = 1\n\n[given.setup]\nvariants = { "RUL-1" = "per_summon" }\n')
    _, errors = parse_text(text, Path("X-1.toml"))
    assert ["X-1.toml:5: requires[0]: given.setup.variants names RUL-1 = 'per_summon', requires 'per_stone'"] \
        == [str(e) for e in errors]


# ---------------------------------------------------------------- oracle check --variant


def test_check_variant_runs_the_reference_playing_it(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    result = runner.invoke(app, ["check", "--suite", "scenarios", "--rule", "RUL-1", "--variant", "RUL-1=per_stone",
                                 "--report-json", str(report)])
    assert 0 == result.exit_code, result.output
    outcomes = {r["id"]: r["outcome"] for r in json.loads(report.read_text())["results"]}
    assert "pass" == outcomes["RUL-1-per-stone-gargoyle-two-purple"]
    assert "not-applicable" == outcomes["RUL-1-once-per-summon-versus-per-stone"]


def test_check_variant_refuses_an_unknown_value() -> None:
    result = runner.invoke(app, ["check", "--variant", "RUL-1=twice"])
    assert 2 == result.exit_code
    assert "error: --variant: variant RUL-1 has no value 'twice'" in result.output


def test_check_variant_is_for_the_reference_only() -> None:
    result = runner.invoke(app, ["check", "--impl", "vale_fixtures.kappa_per_stone_declared", "--variant",
                                 "RUL-1=per_stone"])
    assert 2 == result.exit_code
    assert "declares its variants in its handshake" in result.output


# ---------------------------------------------------------------- fixtures


@pytest.mark.parametrize(("fixture", "own_scenario"), [
    ("kappa_per_stone_declared", "RUL-1-per-stone-gargoyle-two-purple"),
    ("ends_at_once_declared", "END-1-immediately-ends-mid-effect"),
    ("simultaneous_discards_declared", "EFF-8-simultaneous-totem-pole-discarded-with-others-gains-nothing"),
    ("loki_every_family_declared", "ART-11-every-family-nessie-with-loki-scores-nothing"),
])
def test_a_fixture_declaring_the_variant_it_follows_passes_the_scenarios(fixture: str, own_scenario: str) -> None:
    from oracle.engines.connect import EngineUnderTest
    from oracle.suites.all import run_check
    from oracle.suites.registry import CheckOptions

    results = run_check(EngineUnderTest.load(f"vale_fixtures.{fixture}", CALL_SECONDS), CheckOptions(), ["scenarios"])
    assert [] == [r.id for r in results if not r.outcome.ok]
    assert "pass" == next(r.outcome.value for r in results if r.id == own_scenario)
