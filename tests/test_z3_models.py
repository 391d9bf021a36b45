"""The Z3 models themselves: they agree with the reference's payment rules over the whole bounded domain,
and give the documented answers for the holding limit, upgrades and costs."""

from __future__ import annotations

import pytest

from oracle.core.cards import catalogue
from oracle.core.model import Family, Stones
from oracle.reference import ReferenceEngine
from oracle.reference.payment import StoneValues, legal_payments
from oracle.scenarios.given import complete_snapshot
from oracle.suites.z3 import models as m
from oracle.suites.z3.conformance import COST_CARDS, FILLER, HESTIA, SUMMON_CARDS


def test_the_domains_have_the_documented_sizes() -> None:
    assert len(m.stone_collections(6)) == 84
    assert len(m.ALL_VALUE_CARDS) == 8
    assert len(set(m.stone_collections(6))) == 84
    assert all(s.total <= 6 for s in m.stone_collections(6))


def test_card_values_follow_rul_16() -> None:
    engine = ReferenceEngine()
    for cards in m.ALL_VALUE_CARDS:
        engine.load(complete_snapshot({"round": 3, "players": [{"area": cards.card_ids}]}))
        assert engine.table is not None
        in_force = engine.table.stone_values(0)
        assert tuple(cards.values) == (in_force.red, in_force.blue, in_force.purple), cards.label
        assert m.ValueCards.parse(cards.label) == cards
    assert m.ValueCards(agni=True, water_giant=True, hae_tae=True).values == m.Values(2, 7, 4)


def test_model_payments_equal_the_reference_payments_over_the_whole_domain() -> None:
    assert m.ALL_VALUE_CARDS and m.stone_collections(m.MAX_STONES) and m.MIN_COST <= m.MAX_COST, "an empty domain"
    for cards in m.ALL_VALUE_CARDS:
        values = StoneValues(*cards.values)
        for cost in range(m.MIN_COST, m.MAX_COST + 1):
            for held in m.stone_collections(m.MAX_STONES):
                assert m.payments(held, cards.values, cost) == frozenset(legal_payments(held, values, cost)), (
                    held, cards.label, cost)


def test_payment_problem_names_the_rule() -> None:
    held = Stones(red=1, blue=1)
    assert m.payment_problem(Stones(red=1, blue=1), held, m.PRINTED_VALUES, 1) == "PAY-3"
    assert m.payment_problem(Stones(red=1), held, m.PRINTED_VALUES, 2) == "PAY-1"
    assert m.payment_problem(Stones(purple=1), held, m.PRINTED_VALUES, 1) == "PAY-5"
    assert m.payment_problem(Stones(blue=1), held, m.PRINTED_VALUES, 1) is None


def test_keep_choices_are_every_collection_of_exactly_the_limit() -> None:
    assert m.holding_limit(False) == 4 and m.holding_limit(True) == 6
    assert m.keep_choices(Stones(red=4), 4) == frozenset()
    assert m.keep_choices(Stones(red=4, blue=1), 4) == {Stones(red=4), Stones(red=3, blue=1)}
    held = Stones(2, 2, 3)
    expected = {k for k in held.sub_collections() if k.total == 6}
    assert m.keep_choices(held, 6) == expected


def test_upgrades_one_step_each_never_twice_never_down() -> None:
    thoth = m.UpgradeSource.BOOK_OF_THOTH
    assert m.upgrades(Stones(red=1), thoth) == {Stones(red=1), Stones(blue=1)}  # never red -> purple
    assert m.upgrades(Stones(purple=2), thoth) == {Stones(purple=2)}  # nothing to upgrade, no downgrade
    assert m.upgrades(Stones(red=2, blue=1), thoth) == {
        Stones(2, 1, 0), Stones(1, 2, 0), Stones(2, 0, 1), Stones(0, 3, 0), Stones(1, 1, 1)}
    duduri = m.UpgradeSource.DUDURI
    assert m.upgrades(Stones(red=1, blue=1), duduri) == {Stones(blue=2), Stones(red=1, purple=1)}
    assert m.upgrades(Stones(purple=1), duduri) == {Stones(purple=1)}


def test_duduri_king_upgrades_one_stone_of_the_sale_only() -> None:
    held = Stones(blue=1)
    assert m.duduri_king_sale(held, Family.FIRE) == {Stones(red=2, blue=2)}
    assert m.duduri_king_sale(held, Family.EARTH) == {Stones(red=3, blue=2)}
    assert m.duduri_king_sale(held, Family.WATER) == {Stones(blue=1, purple=1)}
    assert m.duduri_king_sale(held, Family.DRAGON) == {Stones(blue=1, purple=1)}
    assert m.duduri_king_sale(held, Family.WIND) == {Stones(blue=3), Stones(red=1, blue=1, purple=1)}
    for family in Family:
        assert m.sale_stones(family).to_json() == {"red": 0, "blue": 0, "purple": 0} | dict(
            catalogue().sell_values[family])


def test_summoning_costs() -> None:
    assert m.card_cost(0, Family.FIRE, belphegor=True) == 1  # Hestia under Belphegor
    assert m.card_cost(4, Family.FIRE, pegasus=True, belphegor=True) == 1  # Pegasus does not lower a fixed cost
    assert m.card_cost(3, Family.WIND, pegasus=True, hippogriff=True) == 0  # stops at 0
    assert m.card_cost(7, Family.WIND, pegasus=True, hippogriff=True) == 4  # reductions stack
    assert m.card_cost(7, Family.EARTH, hippogriff=True) == 7  # Hippogriff: Wind only
    assert m.card_cost(12, Family.DRAGON, pegasus=True) == 11


@pytest.mark.parametrize("cost", sorted(SUMMON_CARDS))
def test_each_summon_card_depends_on_its_payment_alone(cost: int) -> None:
    """Summoning the row's card of this cost, with any legal payment, only pays: no stone gained or lost."""
    card = SUMMON_CARDS[cost]
    assert catalogue().cards[card].cost == cost
    held = Stones(red=2, blue=2, purple=2)
    engine = ReferenceEngine()
    player = {"hand": [card], "area": [HESTIA], "stones": held.to_json()}
    snapshot = complete_snapshot({"round": 2, "players": [player]})
    for paid in m.payments(held, m.PRINTED_VALUES, cost):
        engine.load(snapshot)
        action = {"type": "summon", "player": 0, "card": card, "payment": paid.to_json()}
        assert action in engine.legal_actions()
        assert engine.apply(action)["accepted"]
        assert Stones.from_json(engine.export()["players"][0]["stones"]) == held - paid


def test_cost_cards_and_the_filler_have_no_value_limit_or_cost_effect() -> None:
    special = {HESTIA, "base-fire-12", "base-water-06", "base-water-13", "base-wind-03", "base-wind-07"}
    assert not (set(COST_CARDS) | set(SUMMON_CARDS.values()) | {FILLER}) & special
    assert {catalogue().cards[c].family for c in COST_CARDS} == set(Family)
