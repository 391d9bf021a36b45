"""The Artifacts expansion's tiles: the hunting sequence, Action abilities, shelters, Additional Areas, the
80-point end, each of the 11 tiles, and random games with the tiles."""

from __future__ import annotations

from typing import Any

import pytest

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.engines.play import play_random_game
from oracle.reference import ReferenceEngine
from oracle.reference.effects import load_handlers
from oracle.reference.effects.registry import TILES
from oracle.reference.snapshot import load_state, parse_setup, tiles_for
from oracle.reference.table import Table
from tests.helpers import act, cid, decision, engine_at, reject, score, stones

ART = {"artifacts": True}

INCENSE = "tile-incense-burner"
STAFF = "tile-monkey-king-s-staff"
PIPE = "tile-pied-piper-s-pipe"
BOOTS = "tile-seven-league-boots"
FLEECE = "tile-golden-fleece"
THOTH = "tile-book-of-thoth"
CAP = "tile-cap-of-hades"
GEM = "tile-gem-of-kukulkan"
SEAL = "tile-imperial-seal"
PHILOSOPHER = "tile-philosopher-s-stone"
RING = "tile-ring-of-wishes"
OTHER_ADVANCED = [PHILOSOPHER, RING, SEAL]


def ids(*names: str) -> list[str]:
    return sorted(cid(n) for n in names)


def player(engine: ReferenceEngine, index: int) -> JSON:
    value: JSON = engine.export()["players"][index]
    return value


def artifacts(engine: ReferenceEngine) -> JSON:
    value: JSON = engine.export()["artifacts"]
    return value


def use(engine: ReferenceEngine, who: int = 0) -> list[JSON]:
    return act(engine, {"type": "use_artifact", "player": who})


def options(engine: ReferenceEngine, who: int, *chosen: str) -> list[JSON]:
    return act(engine, {"type": "choose_options", "player": who, "options": sorted(chosen)})


def cards(engine: ReferenceEngine, who: int, *chosen: str) -> list[JSON]:
    return act(engine, {"type": "choose_cards", "player": who, "cards": sorted(chosen)})


def take(engine: ReferenceEngine, who: int, tile_id: str) -> list[JSON]:
    return act(engine, {"type": "take_artifact", "player": who, "tile": tile_id})


def pay(engine: ReferenceEngine, who: int, red: int = 0, blue: int = 0, purple: int = 0) -> JSON:
    return {"type": "pay", "player": who, "payment": {"red": red, "blue": blue, "purple": purple}}


def rest_of_deck(*kept: str) -> list[str]:
    """Every card of the 98-card deck except ``kept`` (to build a short draw pile)."""
    return sorted(c.id for c in catalogue().in_sets(["base", "artifacts"]) if c.id not in kept)


def hunting(n: int = 2, first_player: int = 0, advanced: list[str] | None = None, **partial: Any) -> ReferenceEngine:
    """A Hunting phase right after the reveal: the display holds the first 2n cards of the base deck."""
    setup: JSON = {"players": n, "artifacts": True}
    if advanced is not None:
        setup["advanced_tiles"] = advanced
    display = sorted(c.id for c in catalogue().in_sets(["base"]))[: 2 * n]
    return engine_at(setup=setup, phase="hunting", first_player=first_player, display=display, **partial)


# ---------------------------------------------------------------------- the registry


def test_every_tile_is_registered_with_its_printed_ability_type() -> None:
    load_handlers()
    tiles = catalogue().tiles
    assert sorted(tiles) == sorted(TILES)
    for tile_id, found in tiles.items():
        assert TILES[tile_id].ability == found.ability_type, tile_id
        assert TILES[tile_id].effect is not None, tile_id
    assert TILES[GEM].on_sell is not None


# ---------------------------------------------------------------------- ART-3: the hunting sequence


def test_artifact_picks_go_clockwise_from_the_first_player_then_the_card_picks_follow() -> None:
    engine = hunting(3, first_player=1)
    pending = decision(engine)
    assert ("artifact_pick", 1) == (pending["kind"], pending["player"])
    assert sorted([INCENSE, STAFF, PIPE, BOOTS, THOTH, CAP, GEM]) == pending["tiles"]
    take(engine, 1, INCENSE)
    assert ("artifact_pick", 2) == (decision(engine)["kind"], decision(engine)["player"])
    assert INCENSE not in decision(engine)["tiles"]
    take(engine, 2, STAFF)
    take(engine, 0, THOTH)
    pending = decision(engine)
    assert ("hunt_pick", 1) == (pending["kind"], pending["player"])
    assert [THOTH, INCENSE, STAFF] == [player(engine, i)["artifact"] for i in range(3)]
    assert {INCENSE, STAFF, THOTH}.isdisjoint(artifacts(engine)["display"])


def test_a_tile_with_your_own_square_marker_cannot_be_taken() -> None:
    engine = hunting(artifacts={"square_markers": {INCENSE: 0, STAFF: 1}})
    assert INCENSE not in decision(engine)["tiles"]
    assert STAFF in decision(engine)["tiles"]
    rejection = reject(engine, {"type": "take_artifact", "player": 0, "tile": INCENSE})
    assert ("ARTIFACT_NOT_AVAILABLE", "ART-3") == (rejection["code"], rejection["rule"])


def test_taking_a_tile_with_another_players_marker_gives_that_marker_back() -> None:
    engine = hunting(artifacts={"square_markers": {INCENSE: 0, STAFF: 1}})
    events = take(engine, 0, STAFF)
    assert {"type": "artifact_taken", "player": 0, "tile": STAFF} in events
    assert {} == artifacts(engine)["square_markers"], "both markers moved: P1's back, P0's onto the Staff"
    assert STAFF not in artifacts(engine)["display"]
    assert STAFF == player(engine, 0)["artifact"]


def test_a_tile_not_in_the_display_cannot_be_taken() -> None:
    engine = hunting(players=[{}, {"artifact": STAFF}])
    rejection = reject(engine, {"type": "take_artifact", "player": 0, "tile": STAFF})
    assert ("ARTIFACT_NOT_AVAILABLE", "ART-3") == (rejection["code"], rejection["rule"])


# ---------------------------------------------------------------------- ART-5 / ART-6: using and returning


def test_an_action_ability_is_used_once_then_the_tile_returns_with_your_square_marker() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": STAFF, "hand": ids("Imp", "Goblin", "Troll")}])
    events = use(engine)
    assert {"type": "artifact_used", "player": 0, "tile": STAFF} in events
    assert {"type": "artifact_returned", "player": 0, "tile": STAFF} in events
    assert None is player(engine, 0)["artifact"]
    assert STAFF in artifacts(engine)["display"]
    assert {STAFF: 0} == artifacts(engine)["square_markers"]
    cards(engine, 0, cid("Imp"), cid("Goblin"))
    assert "action" == decision(engine)["kind"]
    rejection = reject(engine, {"type": "use_artifact", "player": 0})
    assert ("NO_USABLE_ARTIFACT", "ART-5") == (rejection["code"], rejection["rule"])


@pytest.mark.parametrize("held", [None, GEM, PIPE])
def test_no_usable_artifact_without_an_action_tile(held: str | None) -> None:
    engine = engine_at(setup=ART, players=[{"artifact": held, "hand": ids("Imp", "Goblin")}])
    rejection = reject(engine, {"type": "use_artifact", "player": 0})
    assert ("NO_USABLE_ARTIFACT", "ART-5") == (rejection["code"], rejection["rule"])
    assert {"type": "use_artifact", "player": 0} not in engine.legal_actions()


def test_a_held_tile_returns_after_the_resolution_turn_and_cannot_be_taken_next_round() -> None:
    engine = engine_at(setup=ART, phase="resolution", players=[{"artifact": INCENSE}, {"artifact": THOTH}])
    assert {INCENSE: 0, THOTH: 1} == artifacts(engine)["square_markers"]
    assert [None, None] == [player(engine, i)["artifact"] for i in range(2)]
    pending = decision(engine)
    assert (2, "artifact_pick", 1) == (engine.export()["round"], pending["kind"], pending["player"])
    assert THOTH not in pending["tiles"] and INCENSE in pending["tiles"]
    take(engine, 1, GEM)
    assert INCENSE not in decision(engine)["tiles"]
    rejection = reject(engine, {"type": "take_artifact", "player": 0, "tile": INCENSE})
    assert ("ARTIFACT_NOT_AVAILABLE", "ART-3") == (rejection["code"], rejection["rule"])
    take(engine, 0, THOTH)
    assert {} == artifacts(engine)["square_markers"], "P0's one marker left the Incense Burner"


def test_the_tile_returns_at_the_end_of_its_holders_own_resolution_turn() -> None:
    engine = engine_at(setup=ART, phase="resolution", players=[{"artifact": INCENSE, "area": ids("Salamander")},
                                                                {"artifact": THOTH}])
    assert "next_active" == decision(engine)["kind"]
    assert INCENSE == player(engine, 0)["artifact"]
    events = act(engine, {"type": "resolve_active", "player": 0, "card": cid("Salamander")})
    assert {"type": "artifact_returned", "player": 0, "tile": INCENSE} in events
    assert {"type": "artifact_returned", "player": 1, "tile": THOTH} in events


# ---------------------------------------------------------------------- ART-2: the 80-point end


def test_with_the_tiles_the_game_does_not_end_at_60_points() -> None:
    engine = engine_at(setup=ART, phase="resolution", players=[{"score": 79}])
    assert 80 == engine.export()["setup"]["end_score"]
    assert engine.decision() is not None
    assert 2 == engine.export()["round"]


def test_with_the_tiles_the_game_ends_at_80_points() -> None:
    engine = engine_at(setup=ART, phase="resolution", players=[{"score": 80}, {"score": 85}])
    assert engine.decision() is None
    assert [1] == engine.export()["winners"]


def test_without_the_tiles_the_game_ends_at_60_points() -> None:
    engine = engine_at(setup={"expansion": True}, phase="resolution", players=[{"score": 60}])
    assert engine.decision() is None


# ---------------------------------------------------------------------- Incense Burner (ART-8, RUL-9)


def test_incense_burner_buys_an_area_paid_like_a_cost_of_3() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": INCENSE, "stones": {"red": 1, "blue": 1},
                                            "hand": ids("Imp", "Salamander")}])
    use(engine)
    pending = decision(engine)
    assert ("choose_options", INCENSE, ["buy_area", "shelter_top_2"]) == (
        pending["kind"], pending["source"], pending["options"])
    options(engine, 0, "buy_area")
    pending = decision(engine)
    assert ("pay", 3, INCENSE) == (pending["kind"], pending["cost"], pending["source"])
    rejection = reject(engine, pay(engine, 0, red=1, blue=1))
    assert ("PAYMENT_SUPERFLUOUS_STONE", "PAY-3") == (rejection["code"], rejection["rule"])
    rejection = reject(engine, pay(engine, 0, red=1))
    assert ("PAYMENT_SHORT", "PAY-1") == (rejection["code"], rejection["rule"])
    assert [pay(engine, 0, blue=1)] == engine.legal_actions()
    events = act(engine, pay(engine, 0, blue=1))
    assert {"type": "area_bought", "player": 0, "extra_areas": 1, "source": INCENSE} in events
    assert 1 == player(engine, 0)["extra_areas"]
    assert {"red": 1, "blue": 0, "purple": 0} == stones(engine, 0)
    # round 1 with one Additional Area: two summoned cards fit (ART-8)
    act(engine, {"type": "summon", "player": 0, "card": cid("Imp"), "payment": {"red": 0, "blue": 0, "purple": 0}})
    act(engine, {"type": "summon", "player": 0, "card": cid("Salamander"),
                 "payment": {"red": 1, "blue": 0, "purple": 0}})
    assert ids("Imp", "Salamander") == player(engine, 0)["area"]


def test_incense_burner_price_ignores_cost_changes_but_not_stone_values() -> None:
    """RUL-9: Agni makes red stones worth 2, so 2 red pay the price of 3."""
    engine = engine_at(setup=ART, round=2, players=[{"artifact": INCENSE, "area": ids("Agni"),
                                                     "stones": {"red": 3}}])
    use(engine)
    options(engine, 0, "buy_area")
    assert [pay(engine, 0, red=2)] == engine.legal_actions()


def test_incense_burner_offers_the_area_only_below_two_and_with_a_legal_payment() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": INCENSE, "extra_areas": 2, "stones": {"purple": 1}}])
    use(engine)
    assert ["shelter_top_2"] == decision(engine)["options"]
    engine = engine_at(setup=ART, players=[{"artifact": INCENSE, "stones": {"red": 2}}])
    use(engine)
    assert ["shelter_top_2"] == decision(engine)["options"]


def test_a_second_area_makes_plus_two_and_a_third_is_never_offered() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": INCENSE, "extra_areas": 1, "stones": {"blue": 2}}])
    use(engine)
    options(engine, 0, "buy_area")
    act(engine, pay(engine, 0, blue=1))
    assert 2 == player(engine, 0)["extra_areas"]
    assert 2 == engine.export()["players"][0]["extra_areas"]
    table = Table(load_state(engine.export()))
    assert 3 == table.area_capacity(0)


def test_incense_burner_shelters_the_top_two_cards_reshuffling_when_the_draw_pile_runs_out() -> None:
    top = cid("Imp")
    engine = engine_at(setup=ART, draw_pile=[top], discard_pile=rest_of_deck(top), players=[{"artifact": INCENSE}])
    use(engine)
    options(engine, 0, "shelter_top_2")
    assert [top] == player(engine, 0)["shelter"]
    pending = decision(engine)
    assert "shuffle" == pending["kind"]
    order = sorted(pending["cards"], reverse=True)
    events = act(engine, {"type": "shuffle", "player": None, "order": order})
    assert {"type": "card_sheltered", "player": 0, "card": order[0], "zone": "draw_pile", "source": INCENSE} in events
    assert sorted([top, order[0]]) == player(engine, 0)["shelter"]
    assert order[1:] == engine.export()["draw_pile"]


def test_incense_burner_needs_a_possible_option() -> None:
    everything = rest_of_deck()
    engine = engine_at(setup=ART, players=[{"artifact": INCENSE, "hand": everything}])
    rejection = reject(engine, {"type": "use_artifact", "player": 0})
    assert ("NO_USABLE_ARTIFACT", "ART-5") == (rejection["code"], rejection["rule"])


# ---------------------------------------------------------------------- Monkey King's Staff


def test_monkey_kings_staff_discards_two_hand_cards_for_two_red_one_blue_one_purple() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": STAFF, "hand": ids("Imp", "Goblin", "Troll")}])
    use(engine)
    pending = decision(engine)
    assert ("choose_cards", 2, 2, ids("Imp", "Goblin", "Troll")) == (
        pending["kind"], pending["min"], pending["max"], pending["cards"])
    cards(engine, 0, cid("Imp"), cid("Goblin"))
    assert ids("Troll") == player(engine, 0)["hand"]
    assert ids("Imp", "Goblin") == engine.export()["discard_pile"]
    assert {"red": 2, "blue": 1, "purple": 1} == stones(engine, 0)


def test_monkey_kings_staff_needs_two_hand_cards() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": STAFF, "hand": ids("Imp")}])
    rejection = reject(engine, {"type": "use_artifact", "player": 0})
    assert ("NO_USABLE_ARTIFACT", "ART-5") == (rejection["code"], rejection["rule"])


# ---------------------------------------------------------------------- Pied Piper's Pipe (ART-4, ART-14)


def test_pied_pipers_pipe_is_used_when_taken_and_draws_a_card() -> None:
    engine = hunting()
    top = engine.export()["draw_pile"][0]
    take(engine, 0, PIPE)
    pending = decision(engine)
    assert ("choose_options", PIPE, ["draw"]) == (pending["kind"], pending["source"], pending["options"])
    options(engine, 0, "draw")
    assert [top] == player(engine, 0)["hand"]
    assert ("artifact_pick", 1) == (decision(engine)["kind"], decision(engine)["player"])


def test_pied_pipers_pipe_retrieves_all_of_your_own_sheltered_cards_only() -> None:
    engine = hunting(players=[{"shelter": ids("Imp", "Goblin")}, {"shelter": ids("Troll")}])
    take(engine, 0, PIPE)
    assert ["draw", "retrieve_all"] == decision(engine)["options"]
    options(engine, 0, "retrieve_all")
    assert ids("Imp", "Goblin") == player(engine, 0)["hand"]
    assert [] == player(engine, 0)["shelter"]
    assert ids("Troll") == player(engine, 1)["shelter"]


def test_pied_pipers_pipe_offers_no_retrieve_from_another_players_shelter() -> None:
    engine = hunting(players=[{}, {"shelter": ids("Troll")}])
    take(engine, 0, PIPE)
    assert ["draw"] == decision(engine)["options"]


# ---------------------------------------------------------------------- Seven-League Boots (ART-13)


def test_seven_league_boots_reveals_one_more_card_then_shelters_any_display_card() -> None:
    engine = hunting(3)
    display = engine.export()["display"]
    top = engine.export()["draw_pile"][0]
    take(engine, 0, BOOTS)
    pending = decision(engine)
    assert ("choose_cards", BOOTS) == (pending["kind"], pending["source"])
    assert sorted([*display, top]) == pending["cards"]
    cards(engine, 0, display[0])
    assert [display[0]] == player(engine, 0)["shelter"]
    assert sorted([*display[1:], top]) == engine.export()["display"]
    assert ("artifact_pick", 1) == (decision(engine)["kind"], decision(engine)["player"])


def test_seven_league_boots_is_only_in_games_of_three_or_more() -> None:
    assert BOOTS not in decision(hunting(2))["tiles"]
    assert FLEECE not in decision(hunting(3))["tiles"]
    assert {BOOTS, FLEECE} <= set(decision(hunting(4))["tiles"])


# ---------------------------------------------------------------------- Golden Fleece


def test_golden_fleece_gains_two_red_then_retrieves_one_of_your_own_sheltered_cards() -> None:
    engine = engine_at(setup={"players": 4, "artifacts": True},
                       players=[{"artifact": FLEECE, "shelter": ids("Imp", "Goblin")}, {"shelter": ids("Troll")}])
    use(engine)
    assert {"red": 2, "blue": 0, "purple": 0} == stones(engine, 0)
    assert ["retrieve", "shelter_top"] == sorted(decision(engine)["options"])
    options(engine, 0, "retrieve")
    assert ids("Imp", "Goblin") == decision(engine)["cards"]
    cards(engine, 0, cid("Goblin"))
    assert ids("Goblin") == player(engine, 0)["hand"]
    assert ids("Imp") == player(engine, 0)["shelter"]


def test_golden_fleece_shelters_the_top_card_after_the_holding_limit() -> None:
    engine = engine_at(setup={"players": 4, "artifacts": True}, players=[{"artifact": FLEECE, "stones": {"blue": 3}}])
    top = engine.export()["draw_pile"][0]
    use(engine)
    assert "keep_stones" == decision(engine)["kind"]
    act(engine, {"type": "keep_stones", "player": 0, "stones": {"red": 1, "blue": 3, "purple": 0}})
    assert ["shelter_top"] == decision(engine)["options"]
    options(engine, 0, "shelter_top")
    assert [top] == player(engine, 0)["shelter"]


# ---------------------------------------------------------------------- Book of Thoth (RUL-8, STONE-2)


def test_book_of_thoth_upgrades_up_to_two_different_stones_one_step_each() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": THOTH, "stones": {"red": 2, "blue": 1, "purple": 1}}])
    use(engine)
    pending = decision(engine)
    assert ("upgrade_stones", {"red": 2, "blue": 1, "purple": 0}, 1, 2) == (
        pending["kind"], pending["eligible"], pending["min"], pending["max"])
    for bad in ({"red": 0, "blue": 0, "purple": 1}, {"red": 2, "blue": 1, "purple": 0},
                {"red": 0, "blue": 2, "purple": 0}, {"red": 0, "blue": 0, "purple": 0}):
        rejection = reject(engine, {"type": "upgrade_stones", "player": 0, "stones": bad})
        assert ("UPGRADE_INVALID", "STONE-2") == (rejection["code"], rejection["rule"]), bad
    assert 4 == len(engine.legal_actions())  # 1 or 2 red, 1 blue, 1 red + 1 blue
    act(engine, {"type": "upgrade_stones", "player": 0, "stones": {"red": 1, "blue": 1, "purple": 0}})
    assert {"red": 1, "blue": 1, "purple": 2} == stones(engine, 0)


def test_book_of_thoth_upgrades_two_red_to_two_blue_never_one_red_twice() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": THOTH, "stones": {"red": 2}}])
    use(engine)
    act(engine, {"type": "upgrade_stones", "player": 0, "stones": {"red": 2, "blue": 0, "purple": 0}})
    assert {"red": 0, "blue": 2, "purple": 0} == stones(engine, 0)


def test_book_of_thoth_cannot_be_used_with_only_purple_stones() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": THOTH, "stones": {"purple": 2}}])
    rejection = reject(engine, {"type": "use_artifact", "player": 0})
    assert ("NO_USABLE_ARTIFACT", "ART-5") == (rejection["code"], rejection["rule"])


# ---------------------------------------------------------------------- Cap of Hades (ART-7, ART-8)


def test_cap_of_hades_shelters_a_hand_card_which_is_then_in_no_hand() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": CAP, "hand": ids("Imp", "Goblin")}])
    use(engine)
    cards(engine, 0, cid("Imp"))
    assert ids("Imp") == player(engine, 0)["shelter"]
    assert ids("Goblin") == player(engine, 0)["hand"]
    assert ["buy_area", "purple"] == decision(engine)["options"]
    options(engine, 0, "buy_area")
    assert 1 == player(engine, 0)["extra_areas"]
    rejection = reject(engine, {"type": "summon", "player": 0, "card": cid("Imp"),
                                "payment": {"red": 0, "blue": 0, "purple": 0}})
    assert ("CARD_NOT_IN_HAND", "SUM-2") == (rejection["code"], rejection["rule"])


def test_cap_of_hades_gives_a_purple_stone_and_no_third_area() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": CAP, "extra_areas": 2, "hand": ids("Imp")}])
    use(engine)
    cards(engine, 0, cid("Imp"))
    assert ["purple"] == decision(engine)["options"]
    options(engine, 0, "purple")
    assert {"red": 0, "blue": 0, "purple": 1} == stones(engine, 0)
    assert 2 == player(engine, 0)["extra_areas"]


def test_cap_of_hades_needs_a_hand_card() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": CAP}])
    rejection = reject(engine, {"type": "use_artifact", "player": 0})
    assert ("NO_USABLE_ARTIFACT", "ART-5") == (rejection["code"], rejection["rule"])


# ---------------------------------------------------------------------- Gem of Kukulkan (RUL-7)


def gem_sale(held: JSON, sold: str = "Salamander") -> ReferenceEngine:
    return engine_at(setup=ART, display=ids(sold, "Goblin"),
                     players=[{"artifact": GEM, "stones": held, "markers": ids(sold)}])


def test_gem_of_kukulkan_puts_the_sold_card_into_the_hand_for_one_red_stone() -> None:
    engine = gem_sale({})
    act(engine, {"type": "sell", "player": 0, "card": cid("Salamander")})
    pending = decision(engine)
    assert ("choose_options", GEM, ["pay_red", "decline"]) == (pending["kind"], pending["source"], pending["options"])
    options(engine, 0, "pay_red")
    assert ids("Salamander") == player(engine, 0)["hand"]
    assert [] == engine.export()["discard_pile"]
    assert {"red": 2, "blue": 0, "purple": 0} == stones(engine, 0)


def test_gem_of_kukulkan_may_be_declined() -> None:
    engine = gem_sale({})
    act(engine, {"type": "sell", "player": 0, "card": cid("Salamander")})
    options(engine, 0, "decline")
    assert ids("Salamander") == engine.export()["discard_pile"]
    assert {"red": 3, "blue": 0, "purple": 0} == stones(engine, 0)


def test_gem_of_kukulkan_comes_after_the_holding_limit_is_checked() -> None:
    engine = gem_sale({"red": 1, "blue": 2})
    act(engine, {"type": "sell", "player": 0, "card": cid("Salamander")})
    assert ("keep_stones", 4) == (decision(engine)["kind"], decision(engine)["limit"])
    act(engine, {"type": "keep_stones", "player": 0, "stones": {"red": 2, "blue": 2, "purple": 0}})
    assert ("choose_options", GEM) == (decision(engine)["kind"], decision(engine)["source"])
    options(engine, 0, "pay_red")
    assert {"red": 1, "blue": 2, "purple": 0} == stones(engine, 0)
    assert ids("Salamander") == player(engine, 0)["hand"]


def test_gem_of_kukulkan_is_not_offered_when_no_red_stone_was_kept() -> None:
    engine = gem_sale({"blue": 4})
    act(engine, {"type": "sell", "player": 0, "card": cid("Salamander")})
    act(engine, {"type": "keep_stones", "player": 0, "stones": {"red": 0, "blue": 4, "purple": 0}})
    assert "action" == decision(engine)["kind"]
    assert ids("Salamander") == engine.export()["discard_pile"]


def test_gem_of_kukulkan_is_not_an_action_and_stays_held() -> None:
    engine = gem_sale({"red": 1}, sold="Sea Spirit")
    act(engine, {"type": "sell", "player": 0, "card": cid("Sea Spirit")})
    options(engine, 0, "pay_red")
    assert GEM == player(engine, 0)["artifact"]
    assert ids("Sea Spirit") == player(engine, 0)["hand"]


# ---------------------------------------------------------------------- Imperial Seal (ART-10)


def test_imperial_seal_discards_a_summoned_dragon_for_a_blue_stone() -> None:
    engine = engine_at(setup={"artifacts": True, "advanced_tiles": OTHER_ADVANCED}, round=2,
                       players=[{"artifact": SEAL, "area": ids("Tidal", "Salamander")}])
    use(engine)
    assert ids("Tidal", "Salamander") == decision(engine)["cards"]
    events = cards(engine, 0, cid("Tidal"))
    assert {"type": "card_discarded", "player": 0, "card": cid("Tidal"), "zone": "area", "source": SEAL} in events
    assert {"red": 0, "blue": 1, "purple": 0} == stones(engine, 0)
    assert ids("Salamander") == player(engine, 0)["area"]


def test_imperial_seal_gives_nothing_for_another_family_and_is_a_real_discard() -> None:
    """ART-10: Totem Pole reacts to the Seal's discard."""
    engine = engine_at(setup={"artifacts": True, "advanced_tiles": OTHER_ADVANCED}, round=2,
                       players=[{"artifact": SEAL, "area": ids("Salamander", "Totem Pole")}])
    use(engine)
    cards(engine, 0, cid("Salamander"))
    assert {"red": 0, "blue": 0, "purple": 1} == stones(engine, 0)
    assert ids("Salamander") == engine.export()["discard_pile"]


def test_imperial_seal_on_ash_is_replaced_by_ashs_recovery() -> None:
    """RUL-5: Ash replaces any discard from its owner's area, the Seal's included."""
    engine = engine_at(setup={"artifacts": True, "advanced_tiles": OTHER_ADVANCED}, round=3,
                       players=[{"artifact": SEAL, "area": ids("Ash", "Totem Pole")}])
    use(engine)
    cards(engine, 0, cid("Ash"))
    assert ids("Ash") == player(engine, 0)["hand"]
    assert 3 == score(engine, 0)
    assert {"red": 0, "blue": 0, "purple": 0} == stones(engine, 0)


def test_imperial_seal_discarding_loki_asks_its_family_on_its_owners_turn() -> None:
    """ART-11: the Seal is used on its holder's Action turn; Loki taken as a Dragon for this look gives the stone."""
    engine = engine_at(setup={"artifacts": True, "advanced_tiles": OTHER_ADVANCED}, round=2,
                       players=[{"artifact": SEAL, "area": ids("Loki")}])
    use(engine)
    cards(engine, 0, cid("Loki"))
    assert ("choose_options", cid("Loki"), SEAL) == (decision(engine)["kind"], decision(engine)["source"],
                                                      decision(engine)["looking"])
    options(engine, 0, "dragon")
    assert {"red": 0, "blue": 1, "purple": 0} == stones(engine, 0)


def test_imperial_seal_needs_a_summoned_card() -> None:
    engine = engine_at(setup={"artifacts": True, "advanced_tiles": OTHER_ADVANCED}, players=[{"artifact": SEAL}])
    rejection = reject(engine, {"type": "use_artifact", "player": 0})
    assert ("NO_USABLE_ARTIFACT", "ART-5") == (rejection["code"], rejection["rule"])


# ---------------------------------------------------------------------- Philosopher's Stone (ART-7)


def test_philosophers_stone_retrieves_one_and_discards_another_for_a_purple_stone() -> None:
    engine = hunting(advanced=OTHER_ADVANCED, players=[{"shelter": ids("Imp", "Goblin", "Troll")}])
    take(engine, 0, PHILOSOPHER)
    pending = decision(engine)
    assert ("choose_options", 1, 2) == (pending["kind"], pending["min"], pending["max"])
    options(engine, 0, "retrieve", "discard_for_purple")
    cards(engine, 0, cid("Imp"))
    assert ids("Goblin", "Troll") == decision(engine)["cards"]
    cards(engine, 0, cid("Goblin"))
    assert ids("Imp") == player(engine, 0)["hand"]
    assert ids("Troll") == player(engine, 0)["shelter"]
    assert ids("Goblin") == engine.export()["discard_pile"]
    assert {"red": 0, "blue": 0, "purple": 1} == stones(engine, 0)
    assert ("artifact_pick", 1) == (decision(engine)["kind"], decision(engine)["player"])


def test_philosophers_stone_with_one_sheltered_card_does_one_part() -> None:
    engine = hunting(advanced=OTHER_ADVANCED, players=[{"shelter": ids("Imp")}])
    take(engine, 0, PHILOSOPHER)
    assert 1 == decision(engine)["max"]
    options(engine, 0, "discard_for_purple")
    cards(engine, 0, cid("Imp"))
    assert {"red": 0, "blue": 0, "purple": 1} == stones(engine, 0)


def test_philosophers_stone_does_nothing_with_an_empty_shelter() -> None:
    engine = hunting(advanced=OTHER_ADVANCED, players=[{}, {"shelter": ids("Imp")}])
    take(engine, 0, PHILOSOPHER)
    assert ("artifact_pick", 1) == (decision(engine)["kind"], decision(engine)["player"])


# ---------------------------------------------------------------------- Ring of Wishes (ART-15)


def test_ring_of_wishes_resolves_an_active_effect_now_and_it_is_still_available_later() -> None:
    engine = engine_at(setup={"artifacts": True, "advanced_tiles": OTHER_ADVANCED}, round=2,
                       players=[{"artifact": RING, "area": ids("Salamander", "Ifrit")}])
    use(engine)
    assert ids("Salamander") == decision(engine)["cards"]
    cards(engine, 0, cid("Salamander"))
    assert {"red": 1, "blue": 0, "purple": 0} == stones(engine, 0)
    assert 1 == score(engine, 0)
    act(engine, {"type": "end_turn", "player": 0})
    act(engine, {"type": "end_turn", "player": 1})
    pending = decision(engine)
    assert ("next_active", ids("Salamander")) == (pending["kind"], pending["cards"])


def test_ring_of_wishes_needs_a_card_with_an_active_effect() -> None:
    engine = engine_at(setup={"artifacts": True, "advanced_tiles": OTHER_ADVANCED},
                       players=[{"artifact": RING, "area": ids("Ifrit")}])
    rejection = reject(engine, {"type": "use_artifact", "player": 0})
    assert ("NO_USABLE_ARTIFACT", "ART-5") == (rejection["code"], rejection["rule"])


# ---------------------------------------------------------------------- snapshots and random games


def test_an_artifacts_position_survives_export_and_load() -> None:
    engine = engine_at(setup=ART, players=[{"artifact": INCENSE, "shelter": ids("Imp"), "extra_areas": 1}],
                       artifacts={"square_markers": {THOTH: 1}})
    use(engine)
    snapshot = engine.export()
    twin = ReferenceEngine()
    twin.load(snapshot)
    assert snapshot == twin.export()
    assert [THOTH, CAP, GEM] == snapshot["setup"]["advanced_tiles"]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_with_the_tiles_end_cleanly(n: int) -> None:
    for seed in range(20):
        engine = ReferenceEngine()
        play_random_game(engine, n, seed, keep_log=False, artifacts=True)
        final = engine.export()
        assert final["phase"] == "game_over" and engine.decision() is None
        top = max(p["score"] for p in final["players"])
        assert final["round"] == 10 or top >= 80, (n, seed, final["round"], top)
        assert [None] * n == [p["artifact"] for p in final["players"]]
        assert tiles_for(parse_setup(final["setup"])) == final["artifacts"]["display"]
        load_state(final)
