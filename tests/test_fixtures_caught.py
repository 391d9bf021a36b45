"""Proof that `oracle check` catches wrong engines: each fixture breaks one rule and must fail on it."""

from __future__ import annotations

import pytest

from oracle.engines.connect import EngineUnderTest
from oracle.suites.all import run_check
from oracle.suites.registry import CheckOptions
from tests.helpers import CALL_SECONDS

FIXTURES = {
    "vale_fixtures.superfluous_payment": "PAY-3",
    "vale_fixtures.change_given": "PAY-2",
    "vale_fixtures.no_holding_limit": "LIMIT-1",
    "vale_fixtures.duduri_king_keeps_first": "LIMIT-2",
    "vale_fixtures.area_off_by_one": "SUM-1",
    "vale_fixtures.ember_without_water": "SUM-4",
    "vale_fixtures.kappa_own_summon": "EFF-3",
    "vale_fixtures.eternity_not_self": "SUM-5",
    "vale_fixtures.fixed_active_order": "EFF-5",
    "vale_fixtures.pegasus_lowers_fixed_cost": "ART-9",
    "vale_fixtures.totem_pole_on_tengu": "ART-10",
    "vale_fixtures.same_artifact_twice": "ART-3",
    "vale_fixtures.third_extra_area": "ART-8",
    "vale_fixtures.hydra_draws_from_nothing": "DECK-1",
    "vale_fixtures.reveals_from_the_bottom": "HUNT-1",
    "vale_fixtures.tile_kept_after_return": "ART-6",
    "vale_fixtures.kappa_per_stone_undeclared": "RUL-1",
    "vale_fixtures.ends_at_once_undeclared": "END-1",
    "vale_fixtures.discards_sorted": "EFF-8",
    "vale_fixtures.simultaneous_discards_undeclared": "EFF-8",
    "vale_fixtures.loki_every_family_undeclared": "ART-11",
    "vale_fixtures.pays_then_rejects": "DEC-4",
}
CAUGHT_IN_PLAY = {
    "vale_fixtures.tries_leniently": "PROTO-2",
}
"""Fixtures no scenario can catch: random play at its default legal-set share does (the oracle asks try_actions
only at the decisions it does not list in full)."""


def _scenario_failures(impl: str) -> list[tuple[str, tuple[str, ...]]]:
    results = run_check(EngineUnderTest.load(impl, timeout=CALL_SECONDS), CheckOptions(), ["scenarios"])
    assert results, "no scenarios ran"
    return [(r.id, r.rules) for r in results if not r.outcome.ok]


def test_reference_engine_passes_every_scenario() -> None:
    assert [] == _scenario_failures("oracle.reference")


@pytest.mark.parametrize(("impl", "rule"), sorted(FIXTURES.items()))
def test_fixture_engine_is_caught_with_its_rule_id(impl: str, rule: str) -> None:
    failures = _scenario_failures(impl)
    caught_rules = {r for _, rules in failures for r in rules}
    assert rule in caught_rules, f"{impl} breaks {rule}; failures: {failures}"


@pytest.mark.parametrize(("impl", "rule"), sorted(CAUGHT_IN_PLAY.items()))
def test_fixture_engine_is_caught_by_random_play_with_its_rule_id(impl: str, rule: str) -> None:
    results = run_check(EngineUnderTest.load(impl, timeout=CALL_SECONDS), CheckOptions(games=1, players=(2,)),
                        ["random-play"])
    assert results, "no game ran"
    assert {rule} == {r for result in results if not result.outcome.ok for r in result.rules}


@pytest.mark.parametrize(("impl", "rule"), sorted(CAUGHT_IN_PLAY.items()))
def test_fixture_is_caught_by_random_play_where_the_listing_judges_every_decision(impl: str, rule: str) -> None:
    """At legal-set share 1 (the listing cheaper than the probes, issue 36 item 10) no decision is judged by
    try_actions, yet a declared try_actions is still asked once per kind of decision and held to its apply."""
    results = run_check(EngineUnderTest.load(impl, timeout=CALL_SECONDS),
                        CheckOptions(games=1, players=(2,), legal_share=1.0), ["random-play"])
    assert {rule} == {r for result in results if not result.outcome.ok for r in result.rules}


def test_fixture_declares_the_rule_it_breaks() -> None:
    import importlib

    assert FIXTURES, "no fixture listed"
    for impl, rule in {**FIXTURES, **CAUGHT_IN_PLAY}.items():
        engine = importlib.import_module(impl).create()
        assert rule == engine.BROKEN_RULE
