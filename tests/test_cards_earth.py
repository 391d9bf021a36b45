"""Earth family cards (base game): each test pins what is easy to get wrong about one card."""


from __future__ import annotations

from oracle.core.json_types import JSON
from oracle.reference import ReferenceEngine
from tests.helpers import act, cid, decision, engine_at, reject, score, stones, summon


def resolve(engine: ReferenceEngine, player: int, name: str) -> list[JSON]:
    return act(engine, {"type": "resolve_active", "player": player, "card": cid(name)})


def choose_cards(engine: ReferenceEngine, player: int, *names: str) -> list[JSON]:
    return act(engine, {"type": "choose_cards", "player": player, "cards": [cid(n) for n in names]})


def held(red: int = 0, blue: int = 0, purple: int = 0) -> JSON:
    return {"red": red, "blue": blue, "purple": purple}


def zone(engine: ReferenceEngine, player: int, name: str) -> list[str]:
    value: list[str] = engine.export()["players"][player][name]
    return value


def ids(*names: str) -> list[str]:
    return sorted(cid(n) for n in names)


def test_young_forest_spirit_summons_the_second_card_free_and_resolves_its_instant() -> None:
    engine = engine_at(round=2, players=[{
        "hand": [cid("Young Forest Spirit"), cid("Imp"), cid("Mud Slime")], "area": [], "stones": held(red=1),
    }])
    summon(engine, 0, "Young Forest Spirit")
    assert ("choose_cards", ids("Imp", "Mud Slime")) == (decision(engine)["kind"], decision(engine)["cards"])
    choose_cards(engine, 0, "Imp")
    assert ids("Mud Slime") == decision(engine)["cards"]
    choose_cards(engine, 0, "Mud Slime")
    assert 6 == score(engine, 0)
    assert held(red=1) == stones(engine, 0)
    assert ids("Young Forest Spirit", "Mud Slime") == zone(engine, 0, "area")
    assert [cid("Imp")] == engine.export()["discard_pile"]


def test_young_forest_spirit_free_summon_pays_no_stones_so_kappa_stays_silent() -> None:
    engine = engine_at(round=3, players=[{
        "hand": [cid("Young Forest Spirit"), cid("Imp"), cid("Salamander")], "area": [cid("Kappa")],
    }])
    summon(engine, 0, "Young Forest Spirit")
    choose_cards(engine, 0, "Imp")
    choose_cards(engine, 0, "Salamander")
    assert 0 == score(engine, 0)
    assert ids("Kappa", "Young Forest Spirit", "Salamander") == zone(engine, 0, "area")


def test_young_forest_spirit_needs_a_free_area_after_taking_one() -> None:
    engine = engine_at(round=1, players=[{"hand": [cid("Young Forest Spirit"), cid("Imp"), cid("Mud Slime")]}])
    rejection = reject(engine, {"type": "summon", "player": 0, "card": cid("Young Forest Spirit"), "payment": held()})
    assert ("INSTANT_UNRESOLVABLE", "SUM-4") == (rejection["code"], rejection["rule"])


def test_young_forest_spirit_needs_a_card_to_discard_and_another_to_summon() -> None:
    engine = engine_at(round=3, players=[{"hand": [cid("Young Forest Spirit"), cid("Imp")]}])
    rejection = reject(engine, {"type": "summon", "player": 0, "card": cid("Young Forest Spirit"), "payment": held()})
    assert "INSTANT_UNRESOLVABLE" == rejection["code"]


def test_young_forest_spirit_cannot_discard_the_only_summonable_card() -> None:
    # Leviathan cannot be summoned (no Dragon anywhere), so discarding Imp would leave nothing to summon.
    engine = engine_at(round=3, players=[{"hand": [cid("Young Forest Spirit"), cid("Imp"), cid("Leviathan")]}])
    summon(engine, 0, "Young Forest Spirit")
    assert ids("Leviathan") == decision(engine)["cards"]
    choose_cards(engine, 0, "Leviathan")
    choose_cards(engine, 0, "Imp")
    assert held(red=2) == stones(engine, 0)


def test_young_forest_spirit_judges_the_second_card_after_the_discard() -> None:
    # Forest Spirit needs another hand card: discarding Mud Slime would leave it nothing to discard.
    engine = engine_at(round=3, players=[{
        "hand": [cid("Young Forest Spirit"), cid("Forest Spirit"), cid("Mud Slime")],
    }])
    summon(engine, 0, "Young Forest Spirit")
    assert ids("Forest Spirit") == decision(engine)["cards"]


def test_goblin_against_an_opponent_at_zero_gains_nothing() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Goblin")], "score": 5}, {"score": 0}])
    resolve(engine, 0, "Goblin")
    act(engine, {"type": "choose_player", "player": 0, "target": 1})
    assert (5, 0) == (score(engine, 0), score(engine, 1))


def test_goblin_steals_one_point_from_the_chosen_opponent() -> None:
    engine = engine_at(setup={"players": 3}, phase="resolution",
                       players=[{"area": [cid("Goblin")]}, {"score": 4}, {"score": 3}])
    resolve(engine, 0, "Goblin")
    assert [1, 2] == decision(engine)["players"]
    act(engine, {"type": "choose_player", "player": 0, "target": 2})
    assert (1, 4, 2) == (score(engine, 0), score(engine, 1), score(engine, 2))


def test_forest_spirit_discards_a_hand_card_for_its_printed_cost() -> None:
    engine = engine_at(players=[{"hand": [cid("Forest Spirit"), cid("Mud Slime"), cid("Imp")], "stones": held(2)}])
    summon(engine, 0, "Forest Spirit", red=2)
    assert ids("Imp", "Mud Slime") == decision(engine)["cards"]
    choose_cards(engine, 0, "Mud Slime")
    assert 6 == score(engine, 0)
    assert [cid("Imp")] == zone(engine, 0, "hand")


def test_forest_spirit_cannot_be_summoned_from_an_otherwise_empty_hand() -> None:
    engine = engine_at(players=[{"hand": [cid("Forest Spirit")], "stones": held(2)}])
    rejection = reject(engine, {"type": "summon", "player": 0, "card": cid("Forest Spirit"), "payment": held(2)})
    assert ("INSTANT_UNRESOLVABLE", "SUM-4") == (rejection["code"], rejection["rule"])


def test_gargoyle_ignores_its_own_summon_and_pays_three_once_per_purple_summon() -> None:
    engine = engine_at(round=3, players=[{"hand": [cid("Gargoyle"), cid("Behemoth")], "stones": held(purple=3)}])
    summon(engine, 0, "Gargoyle", purple=1)
    assert 0 == score(engine, 0)
    summon(engine, 0, "Behemoth", purple=2)
    # Behemoth scores 3 (one family, Earth); Gargoyle adds 3 once although two purple stones were paid.
    assert 6 == score(engine, 0)


def test_basilisk_at_one_point_cannot_take_the_purple_pairing() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Basilisk")], "score": 1}])
    resolve(engine, 0, "Basilisk")
    assert ["lose_0_gain_red", "lose_1_gain_blue"] == decision(engine)["options"]
    purple = {"type": "choose_options", "player": 0, "options": ["lose_2_gain_purple"]}
    assert "INVALID_CHOICE" == reject(engine, purple)["code"]
    act(engine, {"type": "choose_options", "player": 0, "options": ["lose_1_gain_blue"]})
    assert (0, held(blue=1)) == (score(engine, 0), stones(engine, 0))


def test_basilisk_purple_pairing_costs_two_points() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Basilisk")], "score": 5}])
    resolve(engine, 0, "Basilisk")
    act(engine, {"type": "choose_options", "player": 0, "options": ["lose_2_gain_purple"]})
    assert (3, held(purple=1)) == (score(engine, 0), stones(engine, 0))


def test_troll_scores_three_only_while_holding_a_purple_stone() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Troll")], "stones": held(purple=2)}])
    resolve(engine, 0, "Troll")
    assert 3 == score(engine, 0)
    engine = engine_at(phase="resolution", players=[{"area": [cid("Troll")], "stones": held(blue=2)}])
    resolve(engine, 0, "Troll")
    assert 0 == score(engine, 0)


def test_goblin_soldier_gains_four_when_an_opponent_leads() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Goblin Soldier")], "score": 3}, {"score": 4}])
    resolve(engine, 0, "Goblin Soldier")
    assert 7 == score(engine, 0)


def test_goblin_soldier_loses_four_when_tied_but_not_below_zero() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Goblin Soldier")], "score": 2}, {"score": 2}])
    resolve(engine, 0, "Goblin Soldier")
    assert 0 == score(engine, 0)


def test_medusa_must_discard_a_hand_card_and_then_gains_a_purple_stone() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Medusa")], "hand": [cid("Imp"), cid("Hydra")]}])
    resolve(engine, 0, "Medusa")
    pending = decision(engine)
    assert (ids("Hydra", "Imp"), 1, 1) == (pending["cards"], pending["min"], pending["max"])
    assert "INVALID_CHOICE" == reject(engine, {"type": "choose_cards", "player": 0, "cards": []})["code"]
    choose_cards(engine, 0, "Hydra")
    assert (held(purple=1), [cid("Imp")]) == (stones(engine, 0), zone(engine, 0, "hand"))


def test_medusa_with_an_empty_hand_gives_no_purple_stone() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Medusa")]}])
    resolve(engine, 0, "Medusa")
    assert held() == stones(engine, 0)


def test_cerberus_discards_up_to_three_of_its_other_cards() -> None:
    engine = engine_at(round=5, players=[{
        "hand": [cid("Cerberus")], "area": [cid("Imp"), cid("Salamander"), cid("Hestia"), cid("Undine")],
        "stones": held(red=2, blue=1),
    }])
    summon(engine, 0, "Cerberus", red=2, blue=1)
    pending = decision(engine)
    assert (ids("Imp", "Salamander", "Hestia", "Undine"), 0, 3) == (pending["cards"], pending["min"], pending["max"])
    four = {"type": "choose_cards", "player": 0, "cards": ids("Imp", "Salamander", "Hestia", "Undine")}
    assert "INVALID_CHOICE" == reject(engine, four)["code"]
    choose_cards(engine, 0, "Imp", "Hestia")
    assert ids("Salamander", "Undine", "Cerberus") == zone(engine, 0, "area")
    assert ids("Imp", "Hestia") == engine.export()["discard_pile"]


def test_cerberus_may_discard_nothing() -> None:
    engine = engine_at(round=2, players=[{"hand": [cid("Cerberus")], "area": [cid("Imp")], "stones": held(2, 1)}])
    summon(engine, 0, "Cerberus", red=2, blue=1)
    choose_cards(engine, 0)
    assert ids("Imp", "Cerberus") == zone(engine, 0, "area")


def test_mimic_takes_an_earth_card_only_from_the_discard_pile() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Mimic")]}],
                       discard_pile=[cid("Imp"), cid("Goblin"), cid("Troll")])
    resolve(engine, 0, "Mimic")
    assert ids("Goblin", "Troll") == decision(engine)["cards"]
    choose_cards(engine, 0, "Troll")
    assert [cid("Troll")] == zone(engine, 0, "hand")
    assert ids("Imp", "Goblin") == engine.export()["discard_pile"]


def test_mud_slime_gains_six_points_then_recovers_itself() -> None:
    engine = engine_at(players=[{"hand": [cid("Mud Slime")], "stones": held(purple=1)}])
    summon(engine, 0, "Mud Slime", purple=1)
    assert 6 == score(engine, 0)
    act(engine, {"type": "end_turn", "player": 0})
    act(engine, {"type": "end_turn", "player": 1})
    resolve(engine, 0, "Mud Slime")
    assert ([cid("Mud Slime")], []) == (zone(engine, 0, "hand"), zone(engine, 0, "area"))


def test_rock_golem_scores_the_purple_value_in_force_and_keeps_the_stones() -> None:
    # Water Giant makes purple worth 7: one of three purple pays, two remain: 14 points.
    engine = engine_at(round=2, players=[{
        "hand": [cid("Rock Golem")], "area": [cid("Water Giant")], "stones": held(purple=3),
    }])
    summon(engine, 0, "Rock Golem", purple=1)
    assert (14, held(purple=2)) == (score(engine, 0), stones(engine, 0))


def test_stone_golem_turns_each_held_stone_purple() -> None:
    engine = engine_at(players=[{"hand": [cid("Stone Golem")], "stones": held(red=2, blue=1, purple=1)}])
    summon(engine, 0, "Stone Golem", purple=1)
    assert held(purple=3) == stones(engine, 0)


def test_behemoth_counts_each_family_once_its_own_included() -> None:
    engine = engine_at(round=4, players=[{
        "hand": [cid("Behemoth")], "area": [cid("Imp"), cid("Salamander"), cid("Undine")],
        "stones": held(blue=1, purple=1),
    }])
    summon(engine, 0, "Behemoth", blue=1, purple=1)
    assert 9 == score(engine, 0)


def test_sand_giant_counts_itself_among_the_earth_cards() -> None:
    engine = engine_at(round=3, players=[{
        "hand": [cid("Sand Giant")], "area": [cid("Goblin"), cid("Imp")], "stones": held(red=1, blue=1, purple=1),
    }])
    summon(engine, 0, "Sand Giant", red=1, blue=1, purple=1)
    assert 8 == score(engine, 0)
