"""The rules catalogue: every rule id cited anywhere exists, and every rule and card is pinned by two scenarios.

Coverage, as docs/scenarios.md defines it: a rule or card is covered when at least two scenarios in
different positions (different ``given``) name it, at least one of them positive (a step without
``reject`` that makes the engine act or checks what it must do); a rule that forbids something needs a
negative scenario too (a ``reject`` step citing it).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from oracle.core.cards import catalogue
from oracle.core.rules import RulesDataError, load_rules, rules
from oracle.scenarios.given import complete_snapshot
from oracle.scenarios.loader import default_dir, load_dir
from oracle.scenarios.model import Scenario
from oracle.suites.all import BY_NAME

ROOT = Path(__file__).resolve().parent.parent
GROUPS = "SETUP|ROUND|HUNT|DECK|ACT|SELL|TAME|SUM|PAY|REM|STONE|LIMIT|EFF|SCORE|END|DEC|RUL|PROTO"
RULE_ID = re.compile(rf'"((?:{GROUPS})-\d+)"')
CODE_ROW = re.compile(r"^\| `[A-Z_]+` \| ([A-Z0-9 /-]+?) \|", re.MULTILINE)
# Rules that forbid something although no rejection code cites them: the engine refuses with the code of
# another rule (INVALID_CHOICE for Hydra's two options, INSTANT_UNRESOLVABLE for Young Forest Spirit, ...).
FORBIDDING_WITHOUT_A_CODE = frozenset({
    "LIMIT-1", "EFF-1", "RUL-3", "RUL-6", "RUL-8", "RUL-9", "RUL-14", "RUL-15", "ART-8", "ART-9", "ART-12", "ART-14",
})
MINIMUM_POSITIONS = 2


def _cited_in_code() -> dict[str, str]:
    cited: dict[str, str] = {}
    for folder in ("oracle", "fixtures", "invariants"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for match in RULE_ID.finditer(path.read_text(encoding="utf-8")):
                cited.setdefault(match.group(1), str(path.relative_to(ROOT)))
    return cited


def test_every_rule_id_cited_in_code_is_in_the_catalogue() -> None:
    missing = {rule: where for rule, where in _cited_in_code().items() if rule not in rules()}
    assert {} == missing


def test_every_rule_id_cited_by_a_scenario_is_in_the_catalogue() -> None:
    loaded = load_dir(default_dir())
    assert [] == [str(e) for e in loaded.errors]
    missing = sorted({r for s in loaded.scenarios for r in s.rules if r not in rules()})
    assert [] == missing


def _coded_rules() -> frozenset[str]:
    """The rule ids the rejection-code tables of docs/protocol.md cite (``PAY-5 / LIMIT-2`` cites both)."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    cited = {part.strip() for row in CODE_ROW.finditer(text) for part in row.group(1).split("/")}
    return frozenset(cited & set(rules()))


def _position(scenario: Scenario) -> str:
    return json.dumps(scenario.given, sort_keys=True)


def _is_positive(scenario: Scenario) -> bool:
    """A step without ``reject`` that makes the engine act or states what it must do."""
    return scenario.expect_end is not None or any(
        step.reject is None
        and (step.do is not None or step.legal or step.legal_exactly is not None
             or step.expect is not None or step.decision)
        for step in scenario.steps
    )


def _is_negative_for(scenario: Scenario, rule_id: str, coded: frozenset[str]) -> bool:
    """A ``reject`` step citing the rule; for a rule no code cites, any ``reject`` step of a scenario naming it."""
    if rule_id in scenario.reject_rules:
        return True
    return rule_id not in coded and rule_id in scenario.rules and any(s.reject is not None for s in scenario.steps)


def _pinnable_rules() -> list[str]:
    suites = BY_NAME
    return [rule.id for rule in rules().values() if rule.checked_by not in suites]


def _coverage() -> tuple[dict[str, list[Scenario]], dict[str, list[Scenario]]]:
    """The scenarios naming each rule id (in ``rules`` or a ``reject``) and each card id."""
    by_rule: dict[str, list[Scenario]] = defaultdict(list)
    by_card: dict[str, list[Scenario]] = defaultdict(list)
    for scenario in load_dir(default_dir()).scenarios:
        for rule_id in dict.fromkeys((*scenario.rules, *scenario.reject_rules)):
            by_rule[rule_id].append(scenario)
        for card_id in scenario.cards:
            by_card[card_id].append(scenario)
    return by_rule, by_card


def _too_few_positions(named: dict[str, list[Scenario]], ids: list[str]) -> dict[str, int]:
    counts = {i: len({_position(s) for s in named.get(i, [])}) for i in ids}
    return {i: n for i, n in counts.items() if n < MINIMUM_POSITIONS}


def test_every_rule_is_pinned_by_a_scenario_or_its_suite() -> None:
    by_rule, _ = _coverage()
    assert [] == sorted(r for r in _pinnable_rules() if not by_rule.get(r))


def test_every_rule_is_named_by_scenarios_in_two_positions() -> None:
    by_rule, _ = _coverage()
    assert {} == _too_few_positions(by_rule, _pinnable_rules())


def test_every_rule_has_a_positive_scenario() -> None:
    by_rule, _ = _coverage()
    assert [] == sorted(r for r in _pinnable_rules() if not any(_is_positive(s) for s in by_rule.get(r, [])))


def test_every_forbidding_rule_has_a_negative_scenario() -> None:
    by_rule, _ = _coverage()
    coded = _coded_rules()
    forbidding = sorted(coded | FORBIDDING_WITHOUT_A_CODE)
    assert [] == [r for r in forbidding if not any(_is_negative_for(s, r, coded) for s in by_rule.get(r, []))]


def test_the_forbidding_rules_are_catalogued_and_pinnable() -> None:
    coded = _coded_rules()
    expected_coded_at_least = {"DEC-1", "DEC-2", "DEC-3", "PAY-1", "PAY-3", "PAY-5", "LIMIT-2", "SUM-4", "STONE-2"}
    assert expected_coded_at_least <= coded
    assert [] == sorted((coded | FORBIDDING_WITHOUT_A_CODE) - set(_pinnable_rules()))


def test_every_card_of_both_sets_is_pinned_by_a_scenario() -> None:
    _, by_card = _coverage()
    assert [] == sorted(c.name for c in catalogue().cards.values() if not by_card.get(c.id))


def test_every_card_is_named_by_scenarios_in_two_positions() -> None:
    _, by_card = _coverage()
    short = _too_few_positions(by_card, list(catalogue().cards))
    assert {} == {catalogue().cards[c].name: n for c, n in short.items()}


def test_every_card_has_a_positive_scenario() -> None:
    _, by_card = _coverage()
    cards = catalogue().cards.values()
    assert [] == sorted(c.name for c in cards if not any(_is_positive(s) for s in by_card.get(c.id, [])))


def test_every_artifact_tile_is_used_by_a_scenario() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in default_dir().rglob("*.toml"))
    unused = sorted(t.id for t in catalogue().tiles.values() if f'"{t.id}"' not in text)
    assert [] == unused


# ---------------------------------------------------------------- scenarios that depend on a variant

KAPPA, GARGOYLE = "base-water-02", "base-earth-04"


def _kappa_or_gargoyle_sees_two_stones(scenario: Scenario) -> bool:
    """RUL-1's situation: Kappa (Gargoyle) could be in play while a summon pays 2 or more blue (purple) stones."""
    in_play = set(scenario.cards) | {c for p in scenario.given.get("players", []) for c in p.get("area", [])}
    for step in scenario.steps:
        payment = (step.do or {}).get("payment") if (step.do or {}).get("type") == "summon" else None
        if not isinstance(payment, dict):
            continue
        kappa = KAPPA in in_play and payment.get("blue", 0) >= 2
        if kappa or (GARGOYLE in in_play and payment.get("purple", 0) >= 2):
            return True
    return False


def _someone_has_the_end_score(scenario: Scenario) -> bool:
    """END-1's situation: a player holds or reaches the end score (in the position or in an expected state)."""
    if scenario.new_game is not None:
        return False
    position = complete_snapshot(scenario.given)
    expected = [step.expect for step in scenario.steps if step.expect is not None] + [scenario.expect_end or {}]
    scores = [p["score"] for p in position["players"]] + [
        p.get("score", 0) for state in expected for p in state.get("players", []) if isinstance(p, dict)]
    return bool(max(scores) >= position["setup"]["end_score"])


TOTEM_POLE = "art-earth-05"


def _totem_pole_discarded_with_others(scenario: Scenario) -> bool:
    """EFF-8's situation: one answer discards Totem Pole together with another card (Cerberus)."""
    answers = [step.do.get("cards") for step in scenario.steps
               if step.do is not None and step.do.get("type") == "choose_cards"]
    return any(isinstance(cards, list) and TOTEM_POLE in cards and len(cards) >= 2 for cards in answers)


LOKI = "art-wind-05"


def _loki_is_involved(scenario: Scenario) -> bool:
    """ART-11's situation: Loki is a card the scenario pins, in a player's area in its position, or summoned by a
    step (Loki merely held, in a pile or on display has no family anyone looks at: it is Wind there)."""
    in_area = {c for p in scenario.given.get("players", []) for c in p.get("area", [])}
    summoned = {(s.do or {}).get("card") for s in scenario.steps if (s.do or {}).get("type") == "summon"}
    return LOKI in set(scenario.cards) | in_area | summoned


VARIANT_SITUATIONS = {"RUL-1": _kappa_or_gargoyle_sees_two_stones, "END-1": _someone_has_the_end_score,
                      "EFF-8": _totem_pole_discarded_with_others, "ART-11": _loki_is_involved}


def test_every_variant_has_its_situation_here() -> None:
    from oracle.core.rules import variants

    assert sorted(variants()) == sorted(VARIANT_SITUATIONS)


def test_every_scenario_in_a_variants_situation_names_the_ruling() -> None:
    """Such a scenario is ``unsupported`` for an engine declaring another value, so it must say so."""
    from oracle.scenarios.runner import pinned_variants

    loaded = load_dir(default_dir())
    for rule, situation in VARIANT_SITUATIONS.items():
        assert [] != [s.id for s in loaded.scenarios if situation(s)], f"no scenario is in {rule}'s situation"
    unnamed = sorted(
        (rule, s.id) for s in loaded.scenarios for rule, situation in VARIANT_SITUATIONS.items()
        if situation(s) and rule not in pinned_variants(s)
    )
    assert [] == unnamed


# ---------------------------------------------------------------- the project's own readings

def test_every_ruling_and_every_rule_citing_a_project_ruling_gives_its_reason() -> None:
    """A reader must see why the project reads a rule so (rulings.md): every ruling, and every rule whose source
    names a project ruling, carries a ``reason``."""
    needing = [r.id for r in rules().values() if r.kind == "ruling" or "project ruling" in r.source]
    assert [] == [rule_id for rule_id in needing if not rules()[rule_id].reason]
    assert all(rules()[rule_id].is_project_reading for rule_id in needing)


def test_a_ruling_without_a_reason_is_refused_naming_the_entry(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text('[[rule]]\nid = "RUL-1"\ngroup = "rulings"\nkind = "ruling"\ntext = "t"\nsource = "s"\n',
                    encoding="utf-8")
    with pytest.raises(RulesDataError, match=r"rule\[0\]: a ruling needs a 'reason'"):
        load_rules(path)
