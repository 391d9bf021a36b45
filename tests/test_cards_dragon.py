"""Dragon family cards (base game): each test pins what is easy to get wrong about one card."""

from __future__ import annotations

from typing import Any

from oracle.reference import ReferenceEngine
from tests.helpers import act, cid, decision, engine_at, reject, score, stones, summon

NO_STONES = {"red": 0, "blue": 0, "purple": 0}


def ids(*names: str) -> list[str]:
    """Card ids, sorted as the snapshot exports hands, areas and the discard pile."""
    return sorted(cid(n) for n in names)


def player(engine: ReferenceEngine, index: int) -> dict[str, Any]:
    value: dict[str, Any] = engine.export()["players"][index]
    return value


def choose(engine: ReferenceEngine, who: int, *names: str) -> list[dict[str, Any]]:
    return act(engine, {"type": "choose_cards", "player": who, "cards": ids(*names)})


def choose_player(engine: ReferenceEngine, who: int, target: int) -> list[dict[str, Any]]:
    return act(engine, {"type": "choose_player", "player": who, "target": target})


def summon_action(name: str, red: int = 0, blue: int = 0, purple: int = 0) -> dict[str, Any]:
    return {"type": "summon", "player": 0, "card": cid(name), "payment": {"red": red, "blue": blue, "purple": purple}}


def test_dragon_egg_discards_itself_then_summons_a_hand_dragon_whose_instant_resolves() -> None:
    engine = engine_at(players=[{"hand": ids("Dragon Egg", "Tidal", "Salamander"), "stones": {"blue": 1}}])
    summon(engine, 0, "Dragon Egg", blue=1)
    pending = decision(engine)
    assert ("choose_cards", cid("Dragon Egg"), ids("Tidal")) == (pending["kind"], pending["source"], pending["cards"])
    choose(engine, 0, "Tidal")
    assert ids("Tidal") == player(engine, 0)["area"]
    assert ids("Dragon Egg") == engine.export()["discard_pile"]
    assert ids("Salamander") == player(engine, 0)["hand"]
    assert 5 == score(engine, 0)


def test_dragon_egg_needs_a_dragon_in_hand_whose_instant_could_resolve() -> None:
    engine = engine_at(players=[{"hand": ids("Dragon Egg", "Ember", "Salamander"), "stones": {"blue": 1}}])
    rejection = reject(engine, summon_action("Dragon Egg", blue=1))
    assert ("INSTANT_UNRESOLVABLE", "SUM-4") == (rejection["code"], rejection["rule"])


def test_dragon_egg_offers_only_dragons_that_can_be_summoned() -> None:
    engine = engine_at(round=2, players=[{"hand": ids("Dragon Egg", "Ember", "Aeris", "Tidal"), "stones": {"blue": 1}}])
    summon(engine, 0, "Dragon Egg", blue=1)
    assert ids("Tidal") == decision(engine)["cards"]


def test_tidal_counts_dragons_including_itself() -> None:
    engine = engine_at(round=3, players=[{"area": ids("Willow", "Salamander"), "hand": ids("Tidal"),
                                          "stones": {"red": 2, "blue": 1}}])
    summon(engine, 0, "Tidal", red=2, blue=1)
    assert 10 == score(engine, 0)


def test_ember_cannot_be_summoned_with_no_water_card_in_play() -> None:
    engine = engine_at(round=2, players=[{"area": ids("Salamander"), "hand": ids("Ember"),
                                          "stones": {"red": 1, "purple": 1}}, {"area": ids("Harpy")}])
    rejection = reject(engine, summon_action("Ember", red=1, purple=1))
    assert ("INSTANT_UNRESOLVABLE", "SUM-4") == (rejection["code"], rejection["rule"])


def test_ember_chosen_opponent_picks_which_water_card_to_discard() -> None:
    engine = engine_at(round=2, players=[{"hand": ids("Ember"), "stones": {"red": 1, "purple": 1}},
                                         {"area": ids("Sea Spirit", "Undine Queen")}])
    summon(engine, 0, "Ember", red=1, purple=1)
    assert 7 == score(engine, 0)
    pending = decision(engine)
    assert ("choose_player", 0, [1]) == (pending["kind"], pending["player"], pending["players"])
    choose_player(engine, 0, 1)
    pending = decision(engine)
    assert ("choose_cards", 1, ids("Sea Spirit", "Undine Queen")) == (
        pending["kind"], pending["player"], pending["cards"])
    assert "NOT_YOUR_DECISION" == reject(engine, {"type": "choose_cards", "player": 0,
                                                  "cards": ids("Sea Spirit")})["code"]
    choose(engine, 1, "Undine Queen")
    assert ids("Sea Spirit") == player(engine, 1)["area"]
    assert ids("Undine Queen") == engine.export()["discard_pile"]
    assert "action" == decision(engine)["kind"]


def test_ember_may_choose_yourself() -> None:
    engine = engine_at(round=2, players=[{"area": ids("Nessie"), "hand": ids("Ember"),
                                          "stones": {"red": 1, "purple": 1}}, {"area": ids("Sea Spirit")}])
    summon(engine, 0, "Ember", red=1, purple=1)
    assert [0, 1] == decision(engine)["players"]
    choose_player(engine, 0, 0)
    pending = decision(engine)
    assert (0, ids("Nessie")) == (pending["player"], pending["cards"])
    choose(engine, 0, "Nessie")
    assert ids("Ember") == player(engine, 0)["area"]
    assert ids("Sea Spirit") == player(engine, 1)["area"]
    assert 7 == score(engine, 0)


def test_marina_discards_only_fire_cards() -> None:
    engine = engine_at(round=2, players=[{"hand": ids("Marina"), "stones": {"red": 1, "purple": 1}},
                                         {"area": ids("Salamander", "Harpy")}])
    summon(engine, 0, "Marina", red=1, purple=1)
    assert 7 == score(engine, 0)
    choose_player(engine, 0, 1)
    assert ids("Salamander") == decision(engine)["cards"]
    choose(engine, 1, "Salamander")
    assert ids("Harpy") == player(engine, 1)["area"]


def test_boulder_gains_eight_and_discards_a_wind_card() -> None:
    engine = engine_at(round=3, players=[{"area": ids("Harpy", "Salamander"), "hand": ids("Boulder"),
                                          "stones": {"red": 2, "purple": 1}}])
    summon(engine, 0, "Boulder", red=2, purple=1)
    assert 8 == score(engine, 0)
    assert [0] == decision(engine)["players"]
    choose_player(engine, 0, 0)
    assert ids("Harpy") == decision(engine)["cards"]
    choose(engine, 0, "Harpy")
    assert ids("Salamander", "Boulder") == player(engine, 0)["area"]
    assert ids("Harpy") == engine.export()["discard_pile"]


def test_gust_needs_an_earth_card_and_discards_one() -> None:
    blocked = engine_at(round=3, players=[{"hand": ids("Gust"), "stones": {"red": 2, "purple": 1}},
                                          {"area": ids("Harpy", "Salamander", "Nessie")}])
    assert "INSTANT_UNRESOLVABLE" == reject(blocked, summon_action("Gust", red=2, purple=1))["code"]
    engine = engine_at(round=2, players=[{"hand": ids("Gust"), "stones": {"red": 2, "purple": 1}},
                                         {"area": ids("Troll", "Harpy")}])
    summon(engine, 0, "Gust", red=2, purple=1)
    assert 8 == score(engine, 0)
    choose_player(engine, 0, 1)
    choose(engine, 1, "Troll")
    assert ids("Harpy") == player(engine, 1)["area"]


def test_aeris_recovers_another_card_and_gains_its_printed_cost() -> None:
    engine = engine_at(round=3, players=[{"area": ids("Salamander", "Griffon"), "hand": ids("Aeris"),
                                          "stones": {"blue": 1, "purple": 1}}])
    summon(engine, 0, "Aeris", blue=1, purple=1)
    assert ids("Salamander", "Griffon") == decision(engine)["cards"]
    choose(engine, 0, "Griffon")
    assert 7 == score(engine, 0)
    assert ids("Griffon") == player(engine, 0)["hand"]
    assert ids("Salamander", "Aeris") == player(engine, 0)["area"]


def test_aeris_cannot_be_summoned_into_an_otherwise_empty_area() -> None:
    engine = engine_at(round=2, players=[{"hand": ids("Aeris", "Salamander"), "stones": {"blue": 1, "purple": 1}}])
    assert "INSTANT_UNRESOLVABLE" == reject(engine, summon_action("Aeris", blue=1, purple=1))["code"]


def test_scorch_copying_tengu_moves_scorch_to_the_draw_pile() -> None:
    engine = engine_at(round=3, players=[{"area": ids("Tengu", "Salamander"), "hand": ids("Scorch"),
                                          "stones": {"blue": 1, "purple": 1}}])
    summon(engine, 0, "Scorch", blue=1, purple=1)
    assert ids("Tengu") == decision(engine)["cards"]
    choose(engine, 0, "Tengu")
    assert 6 == score(engine, 0)
    assert ids("Tengu", "Salamander") == player(engine, 0)["area"]
    assert cid("Scorch") == engine.export()["draw_pile"][0]
    assert [] == engine.export()["discard_pile"]


def test_scorch_copying_tidal_counts_scorch_as_a_dragon() -> None:
    engine = engine_at(round=2, players=[{"area": ids("Tidal"), "hand": ids("Scorch"),
                                          "stones": {"blue": 1, "purple": 1}}])
    summon(engine, 0, "Scorch", blue=1, purple=1)
    choose(engine, 0, "Tidal")
    assert 10 == score(engine, 0)


def test_scorch_needs_another_instant_that_could_resolve_with_scorch_acting() -> None:
    no_instant = engine_at(round=2, players=[{"area": ids("Salamander"), "hand": ids("Scorch"),
                                              "stones": {"blue": 1, "purple": 1}}])
    assert "INSTANT_UNRESOLVABLE" == reject(no_instant, summon_action("Scorch", blue=1, purple=1))["code"]
    no_water = engine_at(round=2, players=[{"area": ids("Ember"), "hand": ids("Scorch"),
                                            "stones": {"blue": 1, "purple": 1}}])
    assert "INSTANT_UNRESOLVABLE" == reject(no_water, summon_action("Scorch", blue=1, purple=1))["code"]
    engine = engine_at(round=3, players=[{"area": ids("Ember", "Tidal"), "hand": ids("Scorch"),
                                          "stones": {"blue": 1, "purple": 1}}])
    summon(engine, 0, "Scorch", blue=1, purple=1)
    assert ids("Tidal") == decision(engine)["cards"]


def test_willow_gains_three_stones_and_three_points_then_draws() -> None:
    engine = engine_at(players=[{"hand": ids("Willow"), "stones": {"red": 1, "blue": 1, "purple": 1}}],
                       draw_pile=ids("Imp"))
    summon(engine, 0, "Willow", red=1, blue=1, purple=1)
    assert {"red": 1, "blue": 1, "purple": 1} == stones(engine, 0)
    assert 3 == score(engine, 0)
    assert ids("Imp") == player(engine, 0)["hand"]


def test_eternity_counts_the_dragon_family_through_itself() -> None:
    alone = engine_at(players=[{"hand": ids("Eternity"), "stones": {"purple": 2}}])
    summon(alone, 0, "Eternity", purple=2)
    assert 4 == score(alone, 0)
    assert NO_STONES == stones(alone, 0)
    engine = engine_at(round=4, players=[{"area": ids("Salamander", "Hestia", "Harpy"), "hand": ids("Eternity"),
                                          "stones": {"purple": 2}}])
    summon(engine, 0, "Eternity", purple=2)
    assert 12 == score(engine, 0)
