"""Wind family cards (base game): each test pins what is easy to get wrong about one card."""

from __future__ import annotations

from typing import Any

from oracle.core.cards import catalogue
from oracle.reference import ReferenceEngine
from tests.helpers import act, cid, decision, engine_at, reject, score, stones, summon


def ids(*names: str) -> list[str]:
    """Card ids, sorted as the snapshot exports hands, areas and the discard pile."""
    return sorted(cid(n) for n in names)


def player(engine: ReferenceEngine, index: int) -> dict[str, Any]:
    value: dict[str, Any] = engine.export()["players"][index]
    return value


def resolve_active(engine: ReferenceEngine, name: str, who: int = 0) -> list[dict[str, Any]]:
    return act(engine, {"type": "resolve_active", "player": who, "card": cid(name)})


def choose(engine: ReferenceEngine, who: int, *names: str) -> list[dict[str, Any]]:
    return act(engine, {"type": "choose_cards", "player": who, "cards": ids(*names)})


def test_dandelion_spirit_draws_on_summon_and_recovers_itself_at_resolution() -> None:
    engine = engine_at(players=[{"hand": ids("Dandelion Spirit"), "stones": {"blue": 1}}],
                       draw_pile=ids("Salamander"))
    summon(engine, 0, "Dandelion Spirit", blue=1)
    assert ids("Salamander") == player(engine, 0)["hand"]
    assert ids("Dandelion Spirit") == player(engine, 0)["area"]
    act(engine, {"type": "end_turn", "player": 0})
    act(engine, {"type": "end_turn", "player": 1})
    resolve_active(engine, "Dandelion Spirit")
    assert ids("Salamander", "Dandelion Spirit") == player(engine, 0)["hand"]
    assert [] == player(engine, 0)["area"]


def test_harpy_scores_three_only_when_hand_and_area_sizes_match() -> None:
    matching = engine_at(round=2, phase="resolution",
                         players=[{"area": ids("Harpy", "Hestia"), "hand": ids("Imp", "Salamander")}])
    resolve_active(matching, "Harpy")
    assert 3 == score(matching, 0)
    off_by_one = engine_at(round=2, phase="resolution", players=[{"area": ids("Harpy", "Hestia"), "hand": ids("Imp")}])
    resolve_active(off_by_one, "Harpy")
    assert 0 == score(off_by_one, 0)


def test_pegasus_does_not_reduce_its_own_cost_but_reduces_later_summons() -> None:
    short = engine_at(round=2, players=[{"hand": ids("Pegasus"), "stones": {"red": 2}}])
    assert "PAYMENT_SHORT" == reject(short, {"type": "summon", "player": 0, "card": cid("Pegasus"),
                                             "payment": {"red": 2, "blue": 0, "purple": 0}})["code"]
    engine = engine_at(round=2, players=[{"hand": ids("Pegasus", "Salamander"), "stones": {"blue": 1}}],
                       draw_pile=ids("Imp"))
    summon(engine, 0, "Pegasus", blue=1)
    assert ids("Salamander", "Imp") == player(engine, 0)["hand"]
    summon(engine, 0, "Salamander")
    assert ids("Pegasus", "Salamander") == player(engine, 0)["area"]


def test_pegasus_and_hippogriff_stack_on_wind_cards_and_costs_floor_at_zero() -> None:
    engine = engine_at(round=5, players=[{"area": ids("Pegasus", "Hippogriff"),
                                          "hand": ids("Griffon", "Dandelion Spirit", "Hestia"),
                                          "stones": {"red": 4}}])
    table = engine.table
    assert table is not None
    cards = catalogue().cards
    assert 4 == table.summon_cost(0, cards[cid("Griffon")])
    assert 0 == table.summon_cost(0, cards[cid("Dandelion Spirit")])
    assert 0 == table.summon_cost(0, cards[cid("Hestia")])
    assert "PAYMENT_SHORT" == reject(engine, {"type": "summon", "player": 0, "card": cid("Griffon"),
                                              "payment": {"red": 3, "blue": 0, "purple": 0}})["code"]
    summon(engine, 0, "Griffon", red=4)
    summon(engine, 0, "Hestia")
    assert ids("Pegasus", "Hippogriff", "Griffon", "Hestia") == player(engine, 0)["area"]


def test_tengu_gains_six_and_goes_on_top_of_the_draw_pile_not_to_the_discard_pile() -> None:
    engine = engine_at(players=[{"hand": ids("Tengu"), "stones": {"blue": 1}}], draw_pile=ids("Imp"))
    summon(engine, 0, "Tengu", blue=1)
    assert 6 == score(engine, 0)
    assert [] == player(engine, 0)["area"]
    assert [cid("Tengu"), cid("Imp")] == engine.export()["draw_pile"][:2]
    assert [] == engine.export()["discard_pile"]


def test_boreas_counts_wind_cards_including_itself_then_recovers_itself() -> None:
    engine = engine_at(round=4, players=[{"area": ids("Harpy", "Salamander", "Griffon"), "hand": ids("Boreas"),
                                          "stones": {"red": 1, "blue": 1}}])
    summon(engine, 0, "Boreas", red=1, blue=1)
    assert 3 == score(engine, 0)
    assert ids("Boreas") == player(engine, 0)["hand"]
    assert ids("Harpy", "Salamander", "Griffon") == player(engine, 0)["area"]


def test_genie_resolves_each_active_once_in_the_order_the_owner_chooses() -> None:
    hand = ids("Genie", "Imp", "Hestia", "Tengu", "Boreas", "Rudra")
    engine = engine_at(round=4, players=[{"area": ids("Salamander", "Odin", "Griffon"), "hand": hand,
                                          "stones": {"red": 1, "blue": 1}}], draw_pile=ids("Harpy"))
    summon(engine, 0, "Genie", red=1, blue=1)
    first = decision(engine)
    assert ("choose_cards", 0, cid("Genie")) == (first["kind"], first["player"], first["source"])
    assert sorted(ids("Salamander", "Odin", "Griffon")) == first["cards"]
    choose(engine, 0, "Griffon")
    assert sorted(ids("Salamander", "Odin")) == decision(engine)["cards"]
    choose(engine, 0, "Odin")
    assert ids("Salamander") == decision(engine)["cards"]
    choose(engine, 0, "Salamander")
    assert "action" == decision(engine)["kind"]
    assert 1 == score(engine, 0)
    assert {"red": 1, "blue": 0, "purple": 1} == stones(engine, 0)
    assert 6 == len(player(engine, 0)["hand"])


def test_genie_with_no_active_effect_in_the_area_does_nothing() -> None:
    engine = engine_at(round=2, players=[{"area": ids("Hestia"), "hand": ids("Genie"), "stones": {"red": 4}}])
    summon(engine, 0, "Genie", red=4)
    assert "action" == decision(engine)["kind"]
    assert ids("Hestia", "Genie") == player(engine, 0)["area"]


def test_hippogriff_draws_and_reduces_only_wind_cards() -> None:
    engine = engine_at(round=3, players=[{"hand": ids("Hippogriff", "Harpy", "Salamander"),
                                          "stones": {"red": 2, "blue": 1}}], draw_pile=ids("Imp"))
    summon(engine, 0, "Hippogriff", red=1, blue=1)
    assert ids("Harpy", "Salamander", "Imp") == player(engine, 0)["hand"]
    assert "PAYMENT_SHORT" == reject(engine, {"type": "summon", "player": 0, "card": cid("Salamander"),
                                              "payment": {"red": 0, "blue": 0, "purple": 0}})["code"]
    summon(engine, 0, "Harpy", red=1)
    assert ids("Hippogriff", "Harpy") == player(engine, 0)["area"]


def test_sylph_scores_later_summons_free_ones_included_but_not_its_own() -> None:
    engine = engine_at(round=3, players=[{"hand": ids("Sylph", "Dragon Egg", "Tidal"),
                                          "stones": {"red": 1, "blue": 2}}], draw_pile=ids("Imp"))
    summon(engine, 0, "Sylph", red=1, blue=1)
    assert 0 == score(engine, 0)
    assert ids("Dragon Egg", "Tidal", "Imp") == player(engine, 0)["hand"]
    summon(engine, 0, "Dragon Egg", blue=1)
    assert 1 == score(engine, 0)
    choose(engine, 0, "Tidal")
    assert 1 + 1 + 5 == score(engine, 0)


def test_genie_exalted_copy_acts_as_genie_exalted() -> None:
    engine = engine_at(round=3, phase="resolution",
                       players=[{"area": ids("Genie Exalted", "Dandelion Spirit", "Hestia")}])
    resolve_active(engine, "Genie Exalted")
    pending = decision(engine)
    assert ("choose_cards", ids("Dandelion Spirit")) == (pending["kind"], pending["cards"])
    choose(engine, 0, "Dandelion Spirit")
    assert ids("Genie Exalted") == player(engine, 0)["hand"]
    assert ids("Dandelion Spirit", "Hestia") == player(engine, 0)["area"]
    assert ids("Dandelion Spirit") == [a["card"] for a in engine.legal_actions()]


def test_genie_exalted_with_no_other_active_does_nothing() -> None:
    engine = engine_at(round=2, phase="resolution", players=[{"area": ids("Genie Exalted", "Hestia")}])
    resolve_active(engine, "Genie Exalted")
    assert "choose_cards" != decision(engine)["kind"]
    assert 0 == score(engine, 0)
    assert ids("Genie Exalted", "Hestia") == player(engine, 0)["area"]


def test_valkyrie_counts_each_family_once() -> None:
    engine = engine_at(round=5, phase="resolution",
                       players=[{"area": ids("Valkyrie", "Harpy", "Salamander", "Hestia", "Tidal")}])
    resolve_active(engine, "Valkyrie")
    assert 3 == score(engine, 0)


def test_odin_first_with_five_cards_gains_two_points_then_griffon_draws() -> None:
    hand = ids("Imp", "Hestia", "Tengu", "Boreas", "Rudra")
    engine = engine_at(round=2, phase="resolution", players=[{"area": ids("Griffon", "Odin"), "hand": hand}])
    resolve_active(engine, "Odin")
    resolve_active(engine, "Griffon")
    assert 2 == score(engine, 0)
    assert {"red": 0, "blue": 0, "purple": 0} == stones(engine, 0)
    assert 6 == len(player(engine, 0)["hand"])


def test_odin_after_griffon_with_six_cards_gains_a_purple_stone() -> None:
    hand = ids("Imp", "Hestia", "Tengu", "Boreas", "Rudra")
    engine = engine_at(round=2, phase="resolution", players=[{"area": ids("Griffon", "Odin"), "hand": hand}])
    resolve_active(engine, "Griffon")
    resolve_active(engine, "Odin")
    assert 0 == score(engine, 0)
    assert {"red": 0, "blue": 0, "purple": 1} == stones(engine, 0)


def test_freyja_counts_cards_with_an_active_effect_including_itself() -> None:
    engine = engine_at(round=4, phase="resolution",
                       players=[{"area": ids("Freyja", "Salamander", "Dandelion Spirit", "Hestia")}])
    resolve_active(engine, "Freyja")
    assert 3 == score(engine, 0)


def test_griffon_drawing_from_an_empty_draw_pile_asks_for_a_shuffle() -> None:
    placed = ids("Griffon", "Harpy")
    rest = sorted(c.id for c in catalogue().base() if c.id not in placed)
    engine = engine_at(round=2, phase="resolution", players=[{"area": placed}], discard_pile=rest)
    assert [] == engine.export()["draw_pile"]
    resolve_active(engine, "Griffon")
    pending = decision(engine)
    assert ("shuffle", None, rest) == (pending["kind"], pending["player"], pending["cards"])
    order = [cid("Odin"), *[c for c in rest if c != cid("Odin")]]
    act(engine, {"type": "shuffle", "player": None, "order": order})
    assert ids("Odin") == player(engine, 0)["hand"]
    assert order[1:] == engine.export()["draw_pile"]
    assert [] == engine.export()["discard_pile"]


def test_rudra_counts_the_hand_without_itself() -> None:
    engine = engine_at(round=2, players=[{"hand": ids("Rudra", "Imp", "Hestia", "Tengu"),
                                          "stones": {"blue": 1, "purple": 1}}])
    summon(engine, 0, "Rudra", blue=1, purple=1)
    assert 6 == score(engine, 0)


def test_gi_rin_counts_the_area_including_itself() -> None:
    engine = engine_at(round=3, players=[{"area": ids("Hestia", "Salamander"), "hand": ids("Gi-rin", "Imp"),
                                          "stones": {"blue": 2, "purple": 1}}])
    summon(engine, 0, "Gi-rin", blue=2, purple=1)
    assert 6 == score(engine, 0)
