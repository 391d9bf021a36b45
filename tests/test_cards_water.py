"""Water family cards (base game): each test pins what is easy to get wrong about one card."""


from __future__ import annotations

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.reference import ReferenceEngine
from tests.helpers import act, cid, decision, engine_at, reject, score, stones, summon


def resolve(engine: ReferenceEngine, player: int, name: str) -> list[JSON]:
    return act(engine, {"type": "resolve_active", "player": player, "card": cid(name)})


def choose_options(engine: ReferenceEngine, player: int, *options: str) -> list[JSON]:
    return act(engine, {"type": "choose_options", "player": player, "options": list(options)})


def held(red: int = 0, blue: int = 0, purple: int = 0) -> JSON:
    return {"red": red, "blue": blue, "purple": purple}


def ids(*names: str) -> list[str]:
    """Card ids sorted as the snapshot exports zones."""
    return sorted(cid(n) for n in names)


def zone(engine: ReferenceEngine, player: int, name: str) -> list[str]:
    value: list[str] = engine.export()["players"][player][name]
    return value


def test_yuki_onna_discards_every_stone_and_scores_their_values_in_force() -> None:
    # Agni (red 2) and Water Giant (blue 4, purple 7) are in force: 2 + 4 + 7 = 13 (RUL-16).
    engine = engine_at(round=3, players=[{
        "hand": [cid("Yuki Onna")], "area": [cid("Agni"), cid("Water Giant")], "stones": held(1, 1, 1),
    }])
    summon(engine, 0, "Yuki Onna")
    assert 13 == score(engine, 0)
    assert held() == stones(engine, 0)


def test_yuki_onna_with_no_stones_can_be_summoned_for_nothing() -> None:
    engine = engine_at(players=[{"hand": [cid("Yuki Onna")]}])
    summon(engine, 0, "Yuki Onna")
    assert 0 == score(engine, 0)
    assert [cid("Yuki Onna")] == zone(engine, 0, "area")


def test_kappa_ignores_its_own_summon_and_pays_two_once_for_two_blue_stones() -> None:
    engine = engine_at(round=3, players=[{"hand": [cid("Kappa"), cid("Triton")], "stones": held(blue=3)}])
    summon(engine, 0, "Kappa", blue=1)
    assert 0 == score(engine, 0)
    summon(engine, 0, "Triton", blue=2)
    assert 2 == score(engine, 0)


def test_kappa_gives_nothing_for_a_summon_paid_without_blue() -> None:
    engine = engine_at(round=3, players=[{"hand": [cid("Salamander")], "area": [cid("Kappa")], "stones": held(2, 1)}])
    summon(engine, 0, "Salamander", red=1)
    assert 0 == score(engine, 0)


def test_sea_spirit_counts_blue_stones_not_their_value() -> None:
    engine = engine_at(phase="resolution", round=2, players=[{
        "area": [cid("Sea Spirit"), cid("Water Giant")], "stones": held(blue=2, purple=1),
    }])
    resolve(engine, 0, "Sea Spirit")
    assert 2 == score(engine, 0)


def test_undine_gains_a_blue_stone_then_recovers_itself() -> None:
    engine = engine_at(players=[{"hand": [cid("Undine")], "stones": held(red=1)}])
    summon(engine, 0, "Undine", red=1)
    assert held(blue=1) == stones(engine, 0)
    act(engine, {"type": "end_turn", "player": 0})
    act(engine, {"type": "end_turn", "player": 1})
    resolve(engine, 0, "Undine")
    assert [cid("Undine")] == zone(engine, 0, "hand")
    assert [] == zone(engine, 0, "area")


def test_nessie_scores_unless_a_dragon_is_in_its_own_area() -> None:
    engine = engine_at(phase="resolution", round=2, players=[{"area": [cid("Nessie")]}, {"area": [cid("Ember")]}])
    resolve(engine, 0, "Nessie")
    assert 2 == score(engine, 0)
    engine = engine_at(phase="resolution", round=2, players=[{"area": [cid("Nessie"), cid("Ember")]}])
    resolve(engine, 0, "Nessie")
    assert 0 == score(engine, 0)


def test_hae_tae_swaps_the_blue_and_purple_values() -> None:
    # A single blue now pays a cost of 6, and Rock Golem values the purple stone at 3.
    engine = engine_at(round=2, players=[{
        "hand": [cid("Rock Golem")], "area": [cid("Hae-tae")], "stones": held(blue=1, purple=1),
    }])
    summon(engine, 0, "Rock Golem", blue=1)
    assert 3 == score(engine, 0)


def test_without_hae_tae_a_blue_stone_does_not_pay_a_cost_of_six() -> None:
    engine = engine_at(round=2, players=[{"hand": [cid("Rock Golem")], "stones": held(blue=1, purple=1)}])
    rejection = reject(engine, {"type": "summon", "player": 0, "card": cid("Rock Golem"), "payment": held(blue=1)})
    assert "PAYMENT_SHORT" == rejection["code"]


def test_snail_maiden_offers_only_the_exchange_the_stones_allow() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Snail Maiden")], "stones": held(blue=1)}])
    resolve(engine, 0, "Snail Maiden")
    assert ["blue_for_purple"] == decision(engine)["options"]
    choose_options(engine, 0, "blue_for_purple")
    assert held(purple=1) == stones(engine, 0)


def test_snail_maiden_turns_one_purple_into_three_blue() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Snail Maiden")], "stones": held(blue=1, purple=1)}])
    resolve(engine, 0, "Snail Maiden")
    assert ["blue_for_purple", "purple_for_three_blue"] == decision(engine)["options"]
    choose_options(engine, 0, "purple_for_three_blue")
    assert held(blue=4) == stones(engine, 0)


def test_snail_maiden_with_neither_stone_asks_nothing() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Snail Maiden")], "stones": held(red=2)}])
    resolve(engine, 0, "Snail Maiden")
    assert "choose_options" != decision(engine)["kind"]
    assert held(red=2) == stones(engine, 0)


def test_undine_queen_gains_a_blue_stone_and_stays() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Undine Queen")]}])
    resolve(engine, 0, "Undine Queen")
    assert held(blue=1) == stones(engine, 0)
    assert [cid("Undine Queen")] == zone(engine, 0, "area")


def test_yuki_onna_exalted_scores_the_blue_stones_value_in_force_and_keeps_them() -> None:
    # Water Giant makes a blue stone worth 4; one of the three pays the cost, two remain: 8 points.
    engine = engine_at(round=2, players=[{
        "hand": [cid("Yuki Onna Exalted")], "area": [cid("Water Giant")], "stones": held(blue=3),
    }])
    summon(engine, 0, "Yuki Onna Exalted", blue=1)
    assert 8 == score(engine, 0)
    assert held(blue=2) == stones(engine, 0)


def test_water_giant_and_hae_tae_combine_blue_becomes_seven() -> None:
    # RUL-16: Water Giant makes 4 and 7, then Hae-tae swaps them: one blue stone is worth 7.
    engine = engine_at(round=3, players=[{
        "hand": [cid("Yuki Onna Exalted")], "area": [cid("Water Giant"), cid("Hae-tae")],
        "stones": held(red=3, blue=1),
    }])
    summon(engine, 0, "Yuki Onna Exalted", red=3)
    assert 7 == score(engine, 0)


def test_hydra_rejects_two_identical_options_and_a_single_one() -> None:
    engine = engine_at(players=[{"hand": [cid("Hydra")], "stones": held(red=1, blue=1)}])
    summon(engine, 0, "Hydra", red=1, blue=1)
    pending = decision(engine)
    assert ("choose_options", 2, 2) == (pending["kind"], pending["min"], pending["max"])
    twice = {"type": "choose_options", "player": 0, "options": ["gain_four_points", "gain_four_points"]}
    assert "INVALID_CHOICE" == reject(engine, twice)["code"]
    once = {"type": "choose_options", "player": 0, "options": ["gain_four_points"]}
    assert "INVALID_CHOICE" == reject(engine, once)["code"]


def test_hydra_gives_both_chosen_options_purple_and_a_draw() -> None:
    engine = engine_at(players=[{"hand": [cid("Hydra")], "stones": held(red=1, blue=1)}], draw_pile=[cid("Imp")])
    summon(engine, 0, "Hydra", red=1, blue=1)
    choose_options(engine, 0, "gain_purple", "draw")
    assert held(purple=1) == stones(engine, 0)
    assert [cid("Imp")] == zone(engine, 0, "hand")
    assert 0 == score(engine, 0)


def test_hydra_blue_stones_and_points() -> None:
    engine = engine_at(players=[{"hand": [cid("Hydra")], "stones": held(red=1, blue=1)}])
    summon(engine, 0, "Hydra", red=1, blue=1)
    choose_options(engine, 0, "gain_four_points", "gain_two_blue")
    assert held(blue=2) == stones(engine, 0)
    assert 4 == score(engine, 0)
    assert [] == zone(engine, 0, "hand")


def test_hydra_draw_from_an_empty_draw_pile_first_shuffles_the_discard_pile() -> None:
    others = [c.id for c in catalogue().base() if c.id not in (cid("Hydra"), cid("Imp"))]
    engine = engine_at(players=[{"hand": [cid("Hydra")], "stones": held(red=1, blue=1)}, {"hand": others}],
                       discard_pile=[cid("Imp")])
    summon(engine, 0, "Hydra", red=1, blue=1)
    choose_options(engine, 0, "draw", "gain_four_points")
    assert "shuffle" == decision(engine)["kind"]
    act(engine, {"type": "shuffle", "player": None, "order": [cid("Imp")]})
    assert [cid("Imp")] == zone(engine, 0, "hand")
    assert 4 == score(engine, 0)


def test_hydra_does_not_offer_a_draw_when_no_card_can_be_drawn() -> None:
    others = [c.id for c in catalogue().base() if c.id != cid("Hydra")]
    engine = engine_at(players=[{"hand": [cid("Hydra")], "stones": held(red=1, blue=1)}, {"hand": others}])
    summon(engine, 0, "Hydra", red=1, blue=1)
    assert ["gain_purple", "gain_two_blue", "gain_four_points"] == decision(engine)["options"]


def test_leviathan_cannot_be_summoned_with_no_dragon_anywhere() -> None:
    engine = engine_at(players=[{"hand": [cid("Leviathan")], "stones": held(blue=2)}])
    rejection = reject(engine, {"type": "summon", "player": 0, "card": cid("Leviathan"), "payment": held(blue=2)})
    assert ("INSTANT_UNRESOLVABLE", "SUM-4") == (rejection["code"], rejection["rule"])


def test_leviathan_target_player_picks_which_dragon_to_discard() -> None:
    engine = engine_at(round=3, players=[
        {"hand": [cid("Leviathan")], "stones": held(blue=2)},
        {"area": [cid("Ember"), cid("Marina"), cid("Imp")]},
    ])
    summon(engine, 0, "Leviathan", blue=2)
    assert 7 == score(engine, 0)
    pending = decision(engine)
    assert ("choose_player", 0, [1]) == (pending["kind"], pending["player"], pending["players"])
    act(engine, {"type": "choose_player", "player": 0, "target": 1})
    pending = decision(engine)
    assert ("choose_cards", 1, sorted([cid("Ember"), cid("Marina")])) == (
        pending["kind"], pending["player"], pending["cards"]
    )
    assert "NOT_YOUR_DECISION" == reject(engine, {"type": "choose_cards", "player": 0, "cards": [cid("Ember")]})["code"]
    act(engine, {"type": "choose_cards", "player": 1, "cards": [cid("Marina")]})
    assert ids("Ember", "Imp") == zone(engine, 1, "area")
    assert [cid("Marina")] == engine.export()["discard_pile"]


def test_leviathan_owner_may_choose_themself() -> None:
    engine = engine_at(round=3, players=[
        {"hand": [cid("Leviathan")], "area": [cid("Ember")], "stones": held(blue=2)},
        {"area": [cid("Marina")]},
    ])
    summon(engine, 0, "Leviathan", blue=2)
    assert [0, 1] == decision(engine)["players"]
    act(engine, {"type": "choose_player", "player": 0, "target": 0})
    act(engine, {"type": "choose_cards", "player": 0, "cards": [cid("Ember")]})
    assert [cid("Leviathan")] == zone(engine, 0, "area")
    assert [cid("Marina")] == zone(engine, 1, "area")


def test_triton_gives_two_blue_for_taming_a_water_card_only() -> None:
    engine = engine_at(round=2, players=[{"area": [cid("Triton")], "markers": [cid("Undine"), cid("Imp")]}],
                       display=[cid("Undine"), cid("Imp"), cid("Goblin"), cid("Hestia")])
    act(engine, {"type": "tame", "player": 0, "card": cid("Imp")})
    assert held() == stones(engine, 0)
    act(engine, {"type": "tame", "player": 0, "card": cid("Undine")})
    assert held(blue=2) == stones(engine, 0)


def test_water_giant_gains_two_blue_then_a_blue_stone_pays_a_cost_of_four() -> None:
    engine = engine_at(round=3, players=[{"hand": [cid("Water Giant"), cid("Triton")], "stones": held(red=1, blue=1)}])
    summon(engine, 0, "Water Giant", red=1, blue=1)
    assert held(blue=2) == stones(engine, 0)
    summon(engine, 0, "Triton", blue=1)
    assert held(blue=1) == stones(engine, 0)


def test_charybdis_discards_a_blue_stone_for_five_points() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Charybdis")], "stones": held(blue=2)}])
    resolve(engine, 0, "Charybdis")
    assert (5, held(blue=1)) == (score(engine, 0), stones(engine, 0))


def test_charybdis_without_a_blue_stone_gives_nothing() -> None:
    engine = engine_at(phase="resolution", players=[{"area": [cid("Charybdis")], "stones": held(purple=1)}])
    resolve(engine, 0, "Charybdis")
    assert (0, held(purple=1)) == (score(engine, 0), stones(engine, 0))


def test_poseidon_counts_itself_among_the_water_cards() -> None:
    engine = engine_at(round=3, players=[{
        "hand": [cid("Poseidon")], "area": [cid("Undine"), cid("Imp")], "stones": held(red=1, purple=1),
    }])
    summon(engine, 0, "Poseidon", red=1, purple=1)
    assert 6 == score(engine, 0)
