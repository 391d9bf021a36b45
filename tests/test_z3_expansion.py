"""The Z3 checks of the Artifacts expansion: the Incense Burner's price (RUL-9) and the stone upgrades of the
Book of Thoth, Duduri and Duduri King (RUL-8, STONE-2) in the models, the proofs, the conformance rows and the
boundary scenarios; the fixture engines that upgrade a stone twice, "upgrade" a purple stone into a red one or
accept a superfluous stone, and an engine (below) that discounts the price, are each caught with the rule they
break."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
import z3

from oracle.core.model import Family, Stones
from oracle.core.results import CheckResult, Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.reference import ReferenceEngine
from oracle.reference.decisions import DecisionSpec
from oracle.reference.effects.context import EffectContext
from oracle.reference.effects.steps import PayPrice
from oracle.reference.payment import StoneValues, legal_payments
from oracle.scenarios.given import complete_snapshot
from oracle.scenarios.loader import load_file
from oracle.scenarios.runner import run_scenario
from oracle.suites.all import BY_NAME
from oracle.suites.registry import CheckOptions
from oracle.suites.z3 import models, proofs
from oracle.suites.z3 import models as m
from oracle.suites.z3.conformance import ROWS, ConformOptions, case_by_id, check_case, row_named, run_conformance
from oracle.suites.z3.export import choice_upgrade_scenarios, incense_scenarios
from tests.helpers import CALL_SECONDS
from vale_fixtures.broken import BrokenEngine

REFERENCE = "oracle.reference"
PEGASUS = "base-wind-03"
ARTIFACT_ROWS = ("incense-burner-price", "book-of-thoth-upgrade", "duduri-upgrade", "duduri-king-sale")
DOMAINS = {"incense-burner-price": 3528, "book-of-thoth-upgrade": 84, "duduri-upgrade": 84, "duduri-king-sale": 177}
THOTH, DUDURI, KING = m.UpgradeSource.BOOK_OF_THOTH, m.UpgradeSource.DUDURI, m.UpgradeSource.DUDURI_KING


class _BaseOnly(ReferenceEngine):
    """The reference engine declaring the base game only."""

    def handshake(self) -> dict[str, Any]:
        return {**super().handshake(), "expansion": False, "artifacts": False}


class _NoTiles(ReferenceEngine):
    """The reference engine declaring the expansion's cards but not the artifact tiles."""

    def handshake(self) -> dict[str, Any]:
        return {**super().handshake(), "expansion": True, "artifacts": False}


_strict_decide = PayPrice.decide


def _discounted_decide(self: PayPrice, ctx: EffectContext) -> DecisionSpec | None:
    spec = _strict_decide(self, ctx)
    if spec is None or PEGASUS not in ctx.table.state.players[ctx.owner].area:
        return spec
    return dataclasses.replace(spec, cost=max(0, spec.cost - 1))


class _IncenseDiscount(BrokenEngine):
    """Pegasus lowers the Incense Burner's price to 2, as if it were a summoning cost (breaks RUL-9)."""

    BROKEN_RULE = "RUL-9"
    PATCHES = ((PayPrice, "decide", _discounted_decide),)


def incense_discount() -> _IncenseDiscount:
    return _IncenseDiscount()


def base_only() -> _BaseOnly:
    return _BaseOnly()


def no_tiles() -> _NoTiles:
    return _NoTiles()


def _run(impl: str, **options: object) -> list[CheckResult]:
    eut = EngineUnderTest.load(impl, CALL_SECONDS)
    return run_conformance(eut.fresh, ConformOptions(impl=impl, **options))  # type: ignore[arg-type]


def _failures(results: list[CheckResult]) -> list[CheckResult]:
    return [r for r in results if not r.outcome.ok]


# ----------------------------------------------------------------------------- models


def test_upgrade_answers_are_distinct_stones_one_step_each() -> None:
    assert m.upgrade_answers(Stones(red=1), THOTH) == {Stones(red=1)}  # never {red 1, blue 1}: the same stone twice
    assert m.upgrade_answers(Stones(red=2, blue=1), THOTH) == {
        Stones(red=1), Stones(blue=1), Stones(red=2), Stones(red=1, blue=1)}
    assert m.upgrade_answers(Stones(blue=3), THOTH) == {Stones(blue=1), Stones(blue=2)}
    assert m.upgrade_answers(Stones(), THOTH) == frozenset()  # purple is never eligible: nothing is asked
    assert m.upgrade_answers(Stones(red=2, blue=2), DUDURI) == {Stones(red=1), Stones(blue=1)}
    assert m.upgrade_answers(m.sale_stones(Family.WIND), KING) == {Stones(red=1), Stones(blue=1)}
    assert m.upgrade_answers(m.sale_stones(Family.DRAGON), KING) == frozenset()
    assert m.upgraded(Stones(1, 1, 1), Stones(red=1, blue=1)) == Stones(0, 1, 2)


def test_upgrade_answers_agree_with_the_count_model() -> None:
    assert m.stone_collections(m.MAX_STONES), "an empty domain"
    for held in m.stone_collections(m.MAX_STONES):
        eligible = Stones(red=held.red, blue=held.blue)
        for source in (THOTH, DUDURI):
            after = {m.upgraded(held, a) for a in m.upgrade_answers(eligible, source)}
            assert after == m.upgrades(held, source) - {held}, (held, source)


def test_the_incense_burner_pays_like_a_cost_of_3_over_the_whole_domain() -> None:
    assert m.ALL_VALUE_CARDS and m.stone_collections(m.MAX_STONES), "an empty domain"
    for cards in m.ALL_VALUE_CARDS:
        values = StoneValues(*cards.values)
        for held in m.stone_collections(m.MAX_STONES):
            assert m.incense_payments(held, cards.values) == frozenset(legal_payments(held, values, 3))
            offered = m.incense_buy_offered(held, cards.values, 0)
            assert offered == (cards.values.worth(held) >= 3)
            assert not m.incense_buy_offered(held, cards.values, m.MAX_EXTRA_AREAS)


# ----------------------------------------------------------------------------- proofs

NEW_PROPERTIES = ("incense-burner-price-is-3", "incense-burner-buy-offered-iff-worth-3",
                  "upgrade-answers-are-the-upgrades", "upgrade-answer-exists-iff-red-or-blue")


@pytest.mark.parametrize("name", NEW_PROPERTIES)
def test_the_expansion_properties_hold(name: str) -> None:
    result = proofs.prove(proofs.property_named(name))
    assert result.holds, (result.status, result.counterexample)


def test_a_twice_upgrade_model_breaks_the_answer_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    def twice(eligible: m.SymStones, answer: m.SymStones, least: Any, allowed: Any) -> Any:
        steps = answer.red + answer.blue
        return z3.And(answer.purple == 0, answer.red >= 0, answer.blue >= 0, answer.red <= eligible.red,
                      answer.blue <= eligible.blue + answer.red, steps >= least, steps <= allowed)

    monkeypatch.setattr(models, "upgrade_answer_legal", twice)
    result = proofs.prove(proofs.property_named("upgrade-answers-are-the-upgrades"))
    assert result.status == "sat"
    cx = result.counterexample
    assert cx["answer.blue"] > cx["held.blue"] and cx["legal"] is True  # a red gone on to purple


def test_a_discounted_price_breaks_the_incense_proofs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(models, "incense_burner_price_term",
                        lambda pegasus, hippogriff, belphegor: z3.If(pegasus, 2, m.INCENSE_BURNER_PRICE))
    for name in ("incense-burner-price-is-3", "incense-burner-buy-offered-iff-worth-3"):
        result = proofs.prove(proofs.property_named(name))
        assert result.status == "sat" and result.counterexample["pegasus"] is True, name


# ----------------------------------------------------------------------------- conformance rows


def test_the_rows_have_the_documented_domains_and_requirements() -> None:
    for name, size in DOMAINS.items():
        row = row_named(name)
        keys = row.domain()
        assert len(keys) == len(set(keys)) == size
        assert row.sample < size
        for key in (keys[0], keys[len(keys) // 2], keys[-1]):
            assert case_by_id(f"{name}/{key}")[1].id == f"{name}/{key}"
    assert row_named("incense-burner-price").requires == ("expansion", "artifacts")
    assert row_named("book-of-thoth-upgrade").requires == ("expansion", "artifacts")
    assert row_named("duduri-upgrade").requires == ("expansion",)
    assert row_named("duduri-king-sale").requires == ("expansion",)
    assert [r.name for r in ROWS][-4:] == list(ARTIFACT_ROWS)


def test_each_row_passes_on_the_reference() -> None:
    results = _run(REFERENCE, rows=ARTIFACT_ROWS)
    expected = [(f"z3/{name}/{rule}", Outcome.PASS) for name in ARTIFACT_ROWS for rule in row_named(name).rules]
    assert expected == [(r.id, r.outcome) for r in results]
    for result in results:
        assert 0 < result.details["cases_checked"] == result.details["cases_selected"] <= 80
        assert result.details["domain"] == DOMAINS[result.id.split("/")[1]]


def test_the_small_rows_pass_on_the_reference_over_their_whole_domain() -> None:
    rows = ("book-of-thoth-upgrade", "duduri-upgrade", "duduri-king-sale")
    results = _run(REFERENCE, rows=rows, full=True)
    assert all(r.outcome is Outcome.PASS for r in results)
    assert [DOMAINS[n] for n in rows for _ in row_named(n).rules] == [r.details["cases_checked"] for r in results]


def test_the_incense_row_covers_the_cost_cards_and_the_area_limit() -> None:
    keys = row_named("incense-burner-price").domain()
    assert any("/pegasus+hippogriff+belphegor/" in k for k in keys) and any(k.endswith("areas-2") for k in keys)
    _, case = case_by_id("incense-burner-price/r1b0p0/printed/pegasus+hippogriff+belphegor/areas-0")
    assert case.decision["kind"] == "choose_options" and case.expected == ()  # worth 1: buying is not offered
    _, case = case_by_id("incense-burner-price/r3b0p0/printed/pegasus+hippogriff+belphegor/areas-0")
    assert case.decision == {"kind": "pay", "player": 0, "cost": 3}
    assert [a["payment"] for a in case.expected] == [{"red": 3, "blue": 0, "purple": 0}]  # not 2 red (no discount)
    _, case = case_by_id("incense-burner-price/r0b1p0/printed/none/areas-2")
    assert case.decision["kind"] == "choose_options" and case.expected == ()  # ART-8: no third area
    subject = EngineUnderTest.load(REFERENCE, CALL_SECONDS).fresh()
    for key in ("r3b0p0/printed/pegasus+hippogriff+belphegor/areas-0", "r0b1p0/printed/none/areas-1"):
        row, case = case_by_id(f"incense-burner-price/{key}")
        assert check_case(subject, row, case) is None


def test_the_rows_are_unsupported_without_the_declared_features() -> None:
    rows = (*ARTIFACT_ROWS, "holding-limit")
    def by_row(impl: str, rows: tuple[str, ...]) -> dict[str, set[Outcome]]:
        found: dict[str, set[Outcome]] = {}
        for result in _run(impl, rows=rows):
            found.setdefault(result.id.split("/")[1], set()).add(result.outcome)
        return found

    expected = {**{n: {Outcome.UNSUPPORTED} for n in ARTIFACT_ROWS}, "holding-limit": {Outcome.PASS}}
    assert expected == by_row("tests.test_z3_expansion:base_only", rows)
    assert {"incense-burner-price": {Outcome.UNSUPPORTED}, "book-of-thoth-upgrade": {Outcome.UNSUPPORTED},
            "duduri-upgrade": {Outcome.PASS}, "duduri-king-sale": {Outcome.PASS}} == \
        by_row("tests.test_z3_expansion:no_tiles", ARTIFACT_ROWS)


@pytest.mark.parametrize(("impl", "rule", "row"), [
    ("vale_fixtures.z3_double_upgrade", "STONE-2", "book-of-thoth-upgrade"),
    ("vale_fixtures.z3_downgrade", "STONE-2", "book-of-thoth-upgrade"),
    ("vale_fixtures.z3_downgrade", "STONE-2", "duduri-upgrade"),
    ("vale_fixtures.z3_downgrade", "STONE-2", "duduri-king-sale"),
    ("vale_fixtures.superfluous_payment", "PAY-3", "incense-burner-price"),
    ("tests.test_z3_expansion:incense_discount", "RUL-9", "incense-burner-price"),
])
def test_the_z3_suite_catches_each_broken_engine_on_its_row(impl: str, rule: str, row: str, tmp_path: Path) -> None:
    eut = EngineUnderTest.load(impl, CALL_SECONDS)
    results = BY_NAME["z3"](eut, CheckOptions(rules=(rule,), save_failures=tmp_path))
    failures = [r for r in _failures(results) if r.details.get("case", "").startswith(f"{row}/")]
    assert failures, f"{impl} passed the {row} row"
    assert all(rule in r.rules for r in failures), [(r.id, r.rules) for r in failures]
    assert all(r.outcome in (Outcome.ILLEGAL_ACCEPTED, Outcome.FAIL) for r in failures)
    first = failures[0]
    assert first.expected and first.actual and first.details["state"]
    assert first.reproduce.startswith(f"oracle z3 conform --impl {impl} --case {row}/")
    # each counterexample is a scenario that fails on the broken engine and passes on the reference
    reference = EngineUnderTest.load(REFERENCE, CALL_SECONDS)
    for result in failures:
        scenario = load_file(Path(result.details["scenario"]))
        assert rule in scenario.rules and "expansion" in scenario.requires
        assert not run_scenario(eut, scenario).outcome.ok
        assert run_scenario(reference, scenario).outcome is Outcome.PASS


def test_the_upgrade_fixtures_pass_the_rows_they_do_not_break() -> None:
    assert _failures(_run("vale_fixtures.z3_double_upgrade", rows=("incense-burner-price", "duduri-upgrade",
                                                               "duduri-king-sale"))) == []
    assert _failures(_run("vale_fixtures.z3_downgrade", rows=("incense-burner-price",))) == []
    assert _failures(_run("vale_fixtures.superfluous_payment", rows=("book-of-thoth-upgrade", "duduri-upgrade"))) == []


def test_a_double_upgrade_is_diagnosed_as_one_stone_upgraded_twice() -> None:
    results = _failures(_run("vale_fixtures.z3_double_upgrade", case="book-of-thoth-upgrade/r1b0p0"))
    assert len(results) == 1
    result = results[0]
    assert result.outcome is Outcome.ILLEGAL_ACCEPTED and result.rules == ("STONE-2", "RUL-8")
    assert "twice" in result.message
    assert result.details["extra"] == [{"type": "upgrade_stones", "player": 0,
                                        "stones": {"red": 1, "blue": 1, "purple": 0}}]
    engine = EngineUnderTest.load("vale_fixtures.z3_double_upgrade", CALL_SECONDS).fresh()
    engine.load_snapshot(complete_snapshot(case_by_id("book-of-thoth-upgrade/r1b0p0")[1].given))
    engine.apply({"type": "use_artifact", "player": 0})
    assert engine.apply({"type": "upgrade_stones", "player": 0, "stones": {"red": 1, "blue": 1}})["accepted"]
    assert engine.export()["players"][0]["stones"] == {"red": 0, "blue": 0, "purple": 1}  # the red went to purple


def test_a_purple_upgrade_is_diagnosed_and_its_downgrade_shows() -> None:
    results = _failures(_run("vale_fixtures.z3_downgrade", case="duduri-upgrade/r1b0p1"))
    assert [(r.outcome, r.rules) for r in results] == [(Outcome.ILLEGAL_ACCEPTED, ("STONE-2",))]
    assert "purple" in results[0].message
    engine = EngineUnderTest.load("vale_fixtures.z3_downgrade", CALL_SECONDS).fresh()
    engine.load_snapshot(complete_snapshot(case_by_id("duduri-upgrade/r1b0p1")[1].given))
    engine.apply({"type": "summon", "player": 0, "card": "art-earth-01", "payment": {}})
    assert engine.apply({"type": "upgrade_stones", "player": 0, "stones": {"purple": 1}})["accepted"]
    assert engine.export()["players"][0]["stones"] == {"red": 2, "blue": 0, "purple": 0}  # purple -> red


# ----------------------------------------------------------------------------- boundary scenarios


def test_the_boundary_scenarios_declare_what_they_need() -> None:
    incense = incense_scenarios()
    upgrades = choice_upgrade_scenarios()
    assert len(incense) == 160 and len(upgrades) == 35 + 35 + 10
    assert all(doc["requires"] == ["expansion", "artifacts"] and "RUL-9" in doc["rules"] for doc in incense)
    thoth = [d for d in upgrades if "book-of-thoth" in d["id"]]
    assert len(thoth) == 35 and all(d["requires"] == ["expansion", "artifacts"] for d in thoth)
    assert all(d["requires"] == ["expansion"] for d in upgrades if d not in thoth)
    assert all("STONE-2" in d["rules"] for d in upgrades)


def test_an_engine_without_the_tiles_reports_the_tile_scenarios_unsupported(tmp_path: Path) -> None:
    from oracle.suites.z3.export import export_boundaries

    written = export_boundaries(tmp_path)
    engine = EngineUnderTest.load("tests.test_z3_expansion:no_tiles", CALL_SECONDS)
    incense = run_scenario(engine, load_file(written["incense"][0])).outcome
    thoth = next(p for p in written["upgrades"] if "book-of-thoth" in p.name)
    duduri = next(p for p in written["upgrades"] if "upgrade-duduri-r" in p.name)
    assert incense is Outcome.UNSUPPORTED
    assert run_scenario(engine, load_file(thoth)).outcome is Outcome.UNSUPPORTED
    assert run_scenario(engine, load_file(duduri)).outcome is Outcome.PASS
