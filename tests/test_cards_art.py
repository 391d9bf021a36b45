"""Artifacts expansion cards (art-*): each test pins what is easy to get wrong about one card.

Every position is set up with ``setup.expansion`` (the 98-card deck); no artifact tiles are in play.
"""

from __future__ import annotations

from typing import Any

import pytest

from oracle.core.json_types import JSON
from oracle.engines.play import play_random_game
from oracle.reference import ReferenceEngine
from tests.helpers import act, cid, decision, engine_at, reject, score, stones, summon

EXPANSION: JSON = {"expansion": True}


def at(**partial: Any) -> ReferenceEngine:
    """An engine at a partial position of an expansion game."""
    return engine_at(setup=EXPANSION, **partial)


def ids(*names: str) -> list[str]:
    """Card ids, sorted as the snapshot exports hands, areas and the discard pile."""
    return sorted(cid(n) for n in names)


def player(engine: ReferenceEngine, index: int) -> JSON:
    value: JSON = engine.export()["players"][index]
    return value


def held(red: int = 0, blue: int = 0, purple: int = 0) -> JSON:
    return {"red": red, "blue": blue, "purple": purple}


def choose(engine: ReferenceEngine, who: int, *names: str) -> list[JSON]:
    return act(engine, {"type": "choose_cards", "player": who, "cards": ids(*names)})


def choose_player(engine: ReferenceEngine, who: int, target: int) -> list[JSON]:
    return act(engine, {"type": "choose_player", "player": who, "target": target})


def choose_options(engine: ReferenceEngine, who: int, *options: str) -> list[JSON]:
    return act(engine, {"type": "choose_options", "player": who, "options": list(options)})


def upgrade(engine: ReferenceEngine, who: int, red: int = 0, blue: int = 0) -> list[JSON]:
    return act(engine, {"type": "upgrade_stones", "player": who, "stones": held(red, blue)})


def resolve_active(engine: ReferenceEngine, who: int, name: str) -> list[JSON]:
    return act(engine, {"type": "resolve_active", "player": who, "card": cid(name)})


def remove(engine: ReferenceEngine, who: int, name: str, red: int = 0, blue: int = 0, purple: int = 0) -> list[JSON]:
    return act(engine, {"type": "remove", "player": who, "card": cid(name), "payment": held(red, blue, purple)})


def sell(engine: ReferenceEngine, who: int, name: str) -> list[JSON]:
    return act(engine, {"type": "sell", "player": who, "card": cid(name)})


def summon_action(name: str, red: int = 0, blue: int = 0, purple: int = 0) -> JSON:
    return {"type": "summon", "player": 0, "card": cid(name), "payment": held(red, blue, purple)}


def refusal(engine: ReferenceEngine, action: JSON) -> tuple[str, str]:
    """The code and rule of a rejected action."""
    rejection = reject(engine, action)
    return rejection["code"], rejection["rule"]


def pending_of(engine: ReferenceEngine) -> tuple[str, int | None, list[str]]:
    """The pending decision's kind, player and offered cards or options."""
    pending = decision(engine)
    offered: list[str] = pending["cards"] if "cards" in pending else pending.get("options", [])
    return str(pending["kind"]), pending["player"], offered


# ---------------------------------------------------------------------------------------------------- Fire


def test_ash_removed_is_recovered_with_round_points_and_is_no_discard_for_totem_pole() -> None:
    engine = at(round=3, players=[{"area": ids("Ash", "Totem Pole"), "stones": {"red": 3}}])
    remove(engine, 0, "Ash", red=3)
    assert ids("Ash") == player(engine, 0)["hand"]
    assert ids("Totem Pole") == player(engine, 0)["area"]
    assert (3, held(), []) == (score(engine, 0), stones(engine, 0), engine.export()["discard_pile"])


def test_ash_discarded_by_an_opponents_marina_goes_to_its_owners_hand() -> None:
    engine = at(round=4, players=[{"hand": ids("Marina"), "stones": {"red": 1, "purple": 1}},
                                  {"area": ids("Ash", "Salamander")}])
    summon(engine, 0, "Marina", red=1, purple=1)
    choose_player(engine, 0, 1)
    choose(engine, 1, "Ash")
    assert (ids("Ash"), ids("Salamander"), 4) == (player(engine, 1)["hand"], player(engine, 1)["area"],
                                                  score(engine, 1))
    assert [] == engine.export()["discard_pile"]


def test_fire_rat_counts_cards_of_printed_cost_three_or_less_itself_included() -> None:
    engine = at(round=3, players=[{"area": ids("Troll", "Medusa"), "hand": ids("Fire Rat"), "stones": {"red": 1}}])
    summon(engine, 0, "Fire Rat", red=1)
    assert 2 == score(engine, 0)


def test_bul_gae_gives_three_red_below_four_stones_and_two_points_from_four() -> None:
    few = at(phase="resolution", players=[{"area": ids("Bul-gae"), "stones": {"red": 1}}])
    resolve_active(few, 0, "Bul-gae")
    assert (0, held(red=4)) == (score(few, 0), stones(few, 0))
    many = at(phase="resolution", players=[{"area": ids("Bul-gae"), "stones": {"red": 2, "blue": 2}}])
    resolve_active(many, 0, "Bul-gae")
    assert (2, held(red=2, blue=2)) == (score(many, 0), stones(many, 0))


def test_fireblast_scores_pairs_of_fire_cards_then_recovers_itself_holding_four_stones() -> None:
    engine = at(round=3, players=[{"area": ids("Hestia", "Salamander"), "hand": ids("Fireblast"),
                                   "stones": {"red": 2, "blue": 4}}])
    summon(engine, 0, "Fireblast", red=2)
    assert (1, ids("Fireblast"), ids("Hestia", "Salamander")) == (
        score(engine, 0), player(engine, 0)["hand"], player(engine, 0)["area"])
    kept = at(round=3, players=[{"area": ids("Imp", "Salamander"), "hand": ids("Fireblast"), "stones": {"red": 2}}])
    summon(kept, 0, "Fireblast", red=2)
    assert (1, ids("Fireblast", "Imp", "Salamander")) == (score(kept, 0), player(kept, 0)["area"])


def test_fireblast_recovers_before_the_holding_limit_choice() -> None:
    engine = at(phase="resolution", round=2, players=[{"area": ids("Fireblast", "Horned Salamander"),
                                                      "stones": {"red": 3}}])
    resolve_active(engine, 0, "Horned Salamander")
    assert ids("Fireblast") == player(engine, 0)["hand"]
    assert ("keep_stones", 0) == (decision(engine)["kind"], decision(engine)["player"])


def test_hephaestus_offers_what_can_be_given_up_and_earns_the_other_two() -> None:
    engine = at(phase="resolution", players=[{"area": ids("Hephaestus"), "score": 2, "stones": {"red": 3, "blue": 1}}])
    resolve_active(engine, 0, "Hephaestus")
    assert ("choose_options", 0, ["lose_blue_stone", "lose_three_red_stones", "lose_two_points"]) == pending_of(engine)
    choose_options(engine, 0, "lose_three_red_stones")
    assert (4, held(blue=2)) == (score(engine, 0), stones(engine, 0))


def test_hephaestus_without_blue_or_three_red_must_give_up_the_points() -> None:
    engine = at(phase="resolution", players=[{"area": ids("Hephaestus"), "score": 5, "stones": {"red": 2}}])
    resolve_active(engine, 0, "Hephaestus")
    assert ("choose_options", 0, ["lose_two_points"]) == pending_of(engine)
    choose_options(engine, 0, "lose_two_points")
    assert (3, held(red=5, blue=1)) == (score(engine, 0), stones(engine, 0))


def test_hephaestus_with_nothing_to_give_up_does_nothing() -> None:
    engine = at(phase="resolution", players=[{"area": ids("Hephaestus", "Salamander"), "score": 1,
                                              "stones": {"red": 2}}])
    resolve_active(engine, 0, "Hephaestus")
    assert ("next_active", 0, ids("Salamander")) == pending_of(engine)
    assert (1, held(red=2)) == (score(engine, 0), stones(engine, 0))


def test_belphegor_fixes_fire_costs_at_one_even_hestia_and_despite_pegasus() -> None:
    engine = at(round=4, players=[{"area": ids("Belphegor", "Pegasus"), "hand": ids("Hestia", "Undine"),
                                   "stones": {"red": 1}}])
    assert "PAYMENT_SHORT" == reject(engine, summon_action("Hestia"))["code"]
    summon(engine, 0, "Undine")
    summon(engine, 0, "Hestia", red=1)
    assert ids("Belphegor", "Hestia", "Pegasus", "Undine") == player(engine, 0)["area"]


def test_belphegor_gains_one_red_stone() -> None:
    engine = at(players=[{"hand": ids("Belphegor"), "stones": {"red": 1, "blue": 1}}])
    summon(engine, 0, "Belphegor", red=1, blue=1)
    assert held(red=1) == stones(engine, 0)


# ---------------------------------------------------------------------------------------------------- Water


def test_taweret_discards_any_number_of_hand_cards_for_one_blue_each() -> None:
    engine = at(players=[{"hand": ids("Taweret", "Salamander", "Imp", "Troll")}])
    summon(engine, 0, "Taweret")
    pending = decision(engine)
    assert (ids("Imp", "Salamander", "Troll"), 0, 3) == (pending["cards"], pending["min"], pending["max"])
    choose(engine, 0, "Salamander", "Imp")
    assert (held(blue=2), ids("Troll"), ids("Imp", "Salamander")) == (
        stones(engine, 0), player(engine, 0)["hand"], engine.export()["discard_pile"])


def test_taweret_may_discard_nothing() -> None:
    engine = at(players=[{"hand": ids("Taweret", "Salamander")}])
    summon(engine, 0, "Taweret")
    choose(engine, 0)
    assert (held(), ids("Salamander")) == (stones(engine, 0), player(engine, 0)["hand"])


def test_melusine_discards_up_to_three_for_four_points_each() -> None:
    engine = at(players=[{"hand": ids("Melusine", "Salamander", "Imp", "Troll", "Harpy"), "stones": {"blue": 1}}])
    summon(engine, 0, "Melusine", blue=1)
    assert (0, 3) == (decision(engine)["min"], decision(engine)["max"])
    choose(engine, 0, "Salamander", "Imp", "Troll")
    assert (12, ids("Harpy")) == (score(engine, 0), player(engine, 0)["hand"])


def test_thalassa_counts_water_cards_itself_included() -> None:
    engine = at(round=3, players=[{"area": ids("Sea Spirit", "Salamander"), "hand": ids("Thalassa"),
                                   "stones": {"red": 1, "blue": 1}}])
    summon(engine, 0, "Thalassa", red=1, blue=1)
    assert 2 == score(engine, 0)


def test_thalassa_recovers_on_gaining_blue_before_the_holding_limit_discard() -> None:
    engine = at(phase="resolution", round=2, players=[{"area": ids("Thalassa", "Undine Queen"), "stones": {"red": 4}}])
    resolve_active(engine, 0, "Undine Queen")
    assert ids("Thalassa") == player(engine, 0)["hand"]
    assert ("keep_stones", 0) == (decision(engine)["kind"], decision(engine)["player"])


def test_thalassa_stays_when_only_red_stones_are_gained() -> None:
    engine = at(phase="resolution", round=2, players=[{"area": ids("Thalassa", "Salamander")}])
    resolve_active(engine, 0, "Salamander")
    assert ids("Salamander", "Thalassa") == player(engine, 0)["area"]


def test_kraken_scores_two_per_card_of_the_chosen_family() -> None:
    engine = at(round=4, players=[{"area": ids("Salamander", "Imp", "Horned Salamander"), "hand": ids("Kraken"),
                                   "stones": {"red": 2, "blue": 1}}])
    summon(engine, 0, "Kraken", red=2, blue=1)
    assert ("choose_options", 0, ["fire", "water", "earth", "wind", "dragon"]) == pending_of(engine)
    choose_options(engine, 0, "fire")
    assert 6 == score(engine, 0)


def test_siren_discards_a_hand_card_then_gains_a_blue_and_two_points() -> None:
    engine = at(phase="resolution", players=[{"area": ids("Siren"), "hand": ids("Salamander")}])
    resolve_active(engine, 0, "Siren")
    assert ("choose_cards", 0, ids("Salamander")) == pending_of(engine)
    choose(engine, 0, "Salamander")
    assert (2, held(blue=1), []) == (score(engine, 0), stones(engine, 0), player(engine, 0)["hand"])


def test_siren_with_an_empty_hand_gives_nothing() -> None:
    engine = at(phase="resolution", players=[{"area": ids("Siren", "Salamander")}])
    resolve_active(engine, 0, "Siren")
    assert (0, held()) == (score(engine, 0), stones(engine, 0))


def test_akhlut_summons_a_dragon_from_the_discard_pile_whose_instant_resolves() -> None:
    engine = at(round=2, discard_pile=ids("Tidal", "Ember", "Salamander"),
                players=[{"hand": ids("Akhlut"), "stones": {"purple": 1}}])
    summon(engine, 0, "Akhlut", purple=1)
    assert ("choose_cards", 0, ids("Ember", "Tidal")) == pending_of(engine)
    choose(engine, 0, "Tidal")
    assert (ids("Akhlut", "Tidal"), ids("Ember", "Salamander"), 5) == (
        player(engine, 0)["area"], engine.export()["discard_pile"], score(engine, 0))


def test_akhlut_itself_lets_ember_be_summoned() -> None:
    engine = at(round=2, discard_pile=ids("Ember"), players=[{"hand": ids("Akhlut"), "stones": {"purple": 1}}])
    summon(engine, 0, "Akhlut", purple=1)
    choose(engine, 0, "Ember")
    assert (7, "choose_player", [0]) == (score(engine, 0), decision(engine)["kind"], decision(engine)["players"])
    choose_player(engine, 0, 0)
    choose(engine, 0, "Akhlut")
    assert (ids("Ember"), ids("Akhlut")) == (player(engine, 0)["area"], engine.export()["discard_pile"])


def test_akhlut_needs_room_and_a_dragon_in_the_discard_pile() -> None:
    no_room = at(round=1, discard_pile=ids("Tidal"), players=[{"hand": ids("Akhlut"), "stones": {"purple": 1}}])
    assert ("INSTANT_UNRESOLVABLE", "SUM-4") == refusal(no_room, summon_action("Akhlut", purple=1))
    no_dragon = at(round=2, discard_pile=ids("Salamander"), players=[{"hand": ids("Akhlut"), "stones": {"purple": 1}}])
    assert "INSTANT_UNRESOLVABLE" == reject(no_dragon, summon_action("Akhlut", purple=1))["code"]


# ---------------------------------------------------------------------------------------------------- Earth


def test_duduri_loses_a_point_and_upgrades_the_chosen_stone() -> None:
    engine = at(players=[{"hand": ids("Duduri"), "score": 3, "stones": {"red": 1, "blue": 1}}])
    summon(engine, 0, "Duduri")
    pending = decision(engine)
    assert ("upgrade_stones", held(red=1, blue=1), 1, 1) == (
        pending["kind"], pending["eligible"], pending["min"], pending["max"])
    assert "UPGRADE_INVALID" == reject(engine, {"type": "upgrade_stones", "player": 0,
                                                "stones": held(red=1, blue=1)})["code"]
    upgrade(engine, 0, blue=1)
    assert (2, held(red=1, purple=1)) == (score(engine, 0), stones(engine, 0))


def test_duduri_needs_a_red_or_blue_stone_and_recovers_itself() -> None:
    engine = at(players=[{"hand": ids("Duduri"), "stones": {"purple": 1}}])
    assert ("INSTANT_UNRESOLVABLE", "SUM-4") == refusal(engine, summon_action("Duduri"))
    active = at(phase="resolution", players=[{"area": ids("Duduri")}])
    resolve_active(active, 0, "Duduri")
    assert ids("Duduri") == player(active, 0)["hand"]


def test_duduri_king_upgrades_one_received_stone_of_a_one_colour_sale() -> None:
    engine = at(display=ids("Salamander"), players=[{"area": ids("Duduri King"), "markers": ids("Salamander"),
                                                     "stones": {"blue": 1}}])
    sell(engine, 0, "Salamander")
    assert held(red=2, blue=2) == stones(engine, 0)
    assert "action" == decision(engine)["kind"]


def test_duduri_king_asks_which_stone_of_a_wind_sale_and_cannot_upgrade_purple() -> None:
    engine = at(display=ids("Harpy", "Tidal"), players=[{"area": ids("Duduri King"), "markers": ids("Harpy", "Tidal"),
                                                         "stones": {"red": 1}}])
    sell(engine, 0, "Harpy")
    pending = decision(engine)
    assert ("upgrade_stones", cid("Duduri King"), held(red=1, blue=1)) == (
        pending["kind"], pending["source"], pending["eligible"])
    upgrade(engine, 0, blue=1)
    assert held(red=2, purple=1) == stones(engine, 0)
    sell(engine, 0, "Tidal")
    assert (held(red=2, purple=2), "action") == (stones(engine, 0), decision(engine)["kind"])


def test_duduri_king_wind_sale_over_the_limit_upgrades_first_then_keeps() -> None:
    engine = at(display=ids("Harpy"), players=[{"area": ids("Duduri King"), "markers": ids("Harpy"),
                                                "stones": {"blue": 4}}])
    sell(engine, 0, "Harpy")
    pending = decision(engine)
    assert ("upgrade_stones", held(red=1, blue=1)) == (pending["kind"], pending["eligible"])
    upgrade(engine, 0, blue=1)
    assert ("keep_stones", held(red=1, blue=4, purple=1)) == (decision(engine)["kind"], stones(engine, 0))
    act(engine, {"type": "keep_stones", "player": 0, "stones": held(red=1, blue=3)})
    assert (held(red=1, blue=3), "action") == (stones(engine, 0), decision(engine)["kind"])


def test_anubis_discards_another_summoned_card_for_its_printed_cost() -> None:
    engine = at(round=3, players=[{"area": ids("Medusa", "Salamander"), "hand": ids("Anubis"),
                                   "stones": {"purple": 1}}])
    summon(engine, 0, "Anubis", purple=1)
    assert ("choose_cards", 0, ids("Medusa", "Salamander")) == pending_of(engine)
    choose(engine, 0, "Medusa")
    assert (4, ids("Anubis", "Salamander"), ids("Medusa")) == (
        score(engine, 0), player(engine, 0)["area"], engine.export()["discard_pile"])


def test_anubis_needs_another_summoned_card_and_ash_is_recovered_instead() -> None:
    alone = at(players=[{"hand": ids("Anubis"), "stones": {"purple": 1}}])
    assert ("INSTANT_UNRESOLVABLE", "SUM-4") == refusal(alone, summon_action("Anubis", purple=1))
    engine = at(round=2, players=[{"area": ids("Ash"), "hand": ids("Anubis"), "stones": {"purple": 1}}])
    summon(engine, 0, "Anubis", purple=1)
    choose(engine, 0, "Ash")
    assert (ids("Ash"), 1 + 2) == (player(engine, 0)["hand"], score(engine, 0))


def test_mandrake_gains_three_points() -> None:
    engine = at(players=[{"hand": ids("Mandrake"), "stones": {"purple": 1}}])
    summon(engine, 0, "Mandrake", purple=1)
    assert 3 == score(engine, 0)


def test_mandrake_discarding_itself_is_a_discard_for_totem_pole() -> None:
    engine = at(phase="resolution", round=2, players=[{"area": ids("Mandrake", "Totem Pole"), "score": 2}])
    resolve_active(engine, 0, "Mandrake")
    assert ("choose_options", 0, ["discard_this_card", "lose_two_points"]) == pending_of(engine)
    choose_options(engine, 0, "discard_this_card")
    assert (held(purple=2), ids("Mandrake"), 2) == (stones(engine, 0), engine.export()["discard_pile"],
                                                    score(engine, 0))


def test_mandrake_losing_points_needs_two_points() -> None:
    poor = at(phase="resolution", players=[{"area": ids("Mandrake"), "score": 1}])
    resolve_active(poor, 0, "Mandrake")
    assert ("choose_options", 0, ["discard_this_card"]) == pending_of(poor)
    rich = at(phase="resolution", players=[{"area": ids("Mandrake"), "score": 5}])
    resolve_active(rich, 0, "Mandrake")
    choose_options(rich, 0, "lose_two_points")
    assert (3, held(purple=1), ids("Mandrake")) == (score(rich, 0), stones(rich, 0), player(rich, 0)["area"])


def test_totem_pole_gains_purple_when_another_card_is_discarded_not_when_it_leaves_otherwise() -> None:
    engine = at(round=2, players=[{"area": ids("Totem Pole", "Salamander"), "hand": ids("Tengu"),
                                   "stones": {"red": 3, "blue": 1}}])
    remove(engine, 0, "Salamander", red=2)
    assert held(red=1, blue=1, purple=1) == stones(engine, 0)
    summon(engine, 0, "Tengu", blue=1)
    assert (held(red=1, purple=1), cid("Tengu")) == (stones(engine, 0), engine.export()["draw_pile"][0])


def test_totem_pole_reacts_to_an_opponent_discarding_its_owners_card() -> None:
    engine = at(round=2, players=[{"hand": ids("Marina"), "stones": {"red": 1, "purple": 1}},
                                  {"area": ids("Totem Pole", "Salamander")}])
    summon(engine, 0, "Marina", red=1, purple=1)
    choose_player(engine, 0, 1)
    choose(engine, 1, "Salamander")
    assert held(purple=1) == stones(engine, 1)


def test_wendigo_scores_two_per_earth_card_itself_included() -> None:
    engine = at(round=3, players=[{"area": ids("Troll", "Goblin"), "hand": ids("Wendigo"),
                                   "stones": {"red": 1, "purple": 1}}])
    summon(engine, 0, "Wendigo", red=1, purple=1)
    assert 6 == score(engine, 0)


def test_wendigo_recovers_when_points_are_lost_but_not_at_zero() -> None:
    engine = at(phase="resolution", round=2, players=[{"area": ids("Wendigo", "Goblin Soldier"), "score": 5}])
    resolve_active(engine, 0, "Goblin Soldier")
    assert (1, ids("Wendigo")) == (score(engine, 0), player(engine, 0)["hand"])
    broke = at(phase="resolution", round=2, players=[{"area": ids("Wendigo", "Goblin Soldier")}])
    resolve_active(broke, 0, "Goblin Soldier")
    assert ids("Goblin Soldier", "Wendigo") == player(broke, 0)["area"]


# ---------------------------------------------------------------------------------------------------- Wind


def test_banshee_scores_one_per_family_in_the_area() -> None:
    engine = at(round=4, players=[{"area": ids("Salamander", "Imp", "Sea Spirit"), "hand": ids("Banshee"),
                                   "stones": {"red": 1, "blue": 1}}])
    summon(engine, 0, "Banshee", red=1, blue=1)
    assert 3 == score(engine, 0)


def test_banshee_recovers_when_its_owner_draws() -> None:
    engine = at(phase="resolution", round=2, players=[{"area": ids("Banshee", "Griffon")}], draw_pile=ids("Imp"))
    resolve_active(engine, 0, "Griffon")
    assert ids("Banshee", "Imp") == player(engine, 0)["hand"]


def test_nurikabe_draws_one_when_summoned() -> None:
    engine = at(players=[{"hand": ids("Nurikabe"), "stones": {"red": 1, "blue": 1}}], draw_pile=ids("Imp"))
    summon(engine, 0, "Nurikabe", red=1, blue=1)
    assert ids("Imp") == player(engine, 0)["hand"]


def test_nurikabe_active_draws_then_puts_a_hand_card_on_top_of_the_draw_pile() -> None:
    engine = at(phase="resolution", round=2, players=[{"area": ids("Nurikabe", "Harpy"), "hand": ids("Salamander")}],
                draw_pile=ids("Imp"))
    resolve_active(engine, 0, "Nurikabe")
    assert ("choose_cards", 0, ids("Imp", "Salamander")) == pending_of(engine)
    choose(engine, 0, "Salamander")
    assert (ids("Imp"), cid("Salamander")) == (player(engine, 0)["hand"], engine.export()["draw_pile"][0])


def test_rukh_counts_the_chosen_family_with_loki_on_its_owners_turn() -> None:
    engine = at(phase="resolution", round=4, players=[{"area": ids("Rukh", "Salamander", "Imp", "Loki")}])
    resolve_active(engine, 0, "Rukh")
    assert ("choose_options", 0, ["fire", "water", "earth", "wind", "dragon"]) == pending_of(engine)
    choose_options(engine, 0, "fire")
    assert ("choose_options", 0, ["fire", "water", "earth", "wind", "dragon"]) == pending_of(engine)
    choose_options(engine, 0, "fire")
    assert 3 == score(engine, 0)


def test_horus_summons_a_hand_card_for_free_and_gains_its_printed_cost() -> None:
    engine = at(round=2, players=[{"hand": ids("Horus", "Troll", "Ember"), "stones": {"red": 1, "purple": 1}}])
    summon(engine, 0, "Horus", red=1, purple=1)
    assert ("choose_cards", 0, ids("Troll")) == pending_of(engine)
    choose(engine, 0, "Troll")
    assert (3, ids("Horus", "Troll"), held()) == (score(engine, 0), player(engine, 0)["area"], stones(engine, 0))


def test_horus_needs_room_for_the_card_it_summons() -> None:
    engine = at(round=1, players=[{"hand": ids("Horus", "Troll"), "stones": {"red": 1, "purple": 1}}])
    assert ("INSTANT_UNRESOLVABLE", "SUM-4") == refusal(engine, summon_action("Horus", red=1, purple=1))


def test_loki_scores_one_per_card_with_a_permanent_effect_itself_included() -> None:
    engine = at(phase="resolution", round=4, players=[{"area": ids("Loki", "Hestia", "Belphegor", "Salamander")}])
    resolve_active(engine, 0, "Loki")
    assert 3 == score(engine, 0)


def test_loki_is_any_family_on_its_owners_turn_and_wind_otherwise() -> None:
    mine = at(round=2, players=[{"area": ids("Loki"), "hand": ids("Pyro"), "stones": {"red": 1, "purple": 1}}])
    summon(mine, 0, "Pyro", red=1, purple=1)
    assert [0] == decision(mine)["players"]
    theirs = at(round=2, players=[{"hand": ids("Pyro"), "stones": {"red": 1, "purple": 1}}, {"area": ids("Loki")}])
    assert "INSTANT_UNRESOLVABLE" == reject(theirs, summon_action("Pyro", red=1, purple=1))["code"]


def test_anzu_scores_three_per_family_in_the_revealed_hand() -> None:
    engine = at(players=[{"hand": ids("Anzu", "Salamander", "Imp", "Sea Spirit", "Tidal"),
                          "stones": {"blue": 1, "purple": 1}}])
    summon(engine, 0, "Anzu", blue=1, purple=1)
    assert 9 == score(engine, 0)


# ---------------------------------------------------------------------------------------------------- Dragon


def test_deepdive_swaps_with_the_water_card_the_chosen_player_picks() -> None:
    engine = at(round=2, players=[{"hand": ids("Deepdive"), "stones": {"red": 1, "purple": 1}},
                                  {"area": ids("Sea Spirit", "Undine Queen")}])
    summon(engine, 0, "Deepdive", red=1, purple=1)
    assert (7, "choose_player", [1]) == (score(engine, 0), decision(engine)["kind"], decision(engine)["players"])
    choose_player(engine, 0, 1)
    assert ("choose_cards", 1, ids("Sea Spirit", "Undine Queen")) == pending_of(engine)
    choose(engine, 1, "Undine Queen")
    assert (ids("Undine Queen"), ids("Deepdive", "Sea Spirit")) == (player(engine, 0)["area"],
                                                                    player(engine, 1)["area"])
    assert "action" == decision(engine)["kind"]


def test_pyro_cannot_be_summoned_with_no_fire_card_anywhere_and_choosing_yourself_keeps_both() -> None:
    blocked = at(round=2, players=[{"area": ids("Sea Spirit"), "hand": ids("Pyro"), "stones": {"red": 1, "purple": 1}}])
    assert ("INSTANT_UNRESOLVABLE", "SUM-4") == refusal(blocked, summon_action("Pyro", red=1, purple=1))
    engine = at(round=2, players=[{"area": ids("Salamander"), "hand": ids("Pyro"), "stones": {"red": 1, "purple": 1}},
                                  {"area": ids("Imp")}])
    summon(engine, 0, "Pyro", red=1, purple=1)
    assert [0, 1] == decision(engine)["players"]
    choose_player(engine, 0, 0)
    choose(engine, 0, "Salamander")
    assert (ids("Pyro", "Salamander"), ids("Imp"), 7) == (player(engine, 0)["area"], player(engine, 1)["area"],
                                                          score(engine, 0))


def test_rockscale_swap_is_no_discard_for_totem_pole() -> None:
    engine = at(round=3, players=[{"hand": ids("Rockscale"), "stones": {"red": 2, "purple": 1}},
                                  {"area": ids("Totem Pole", "Troll")}])
    summon(engine, 0, "Rockscale", red=2, purple=1)
    assert 8 == score(engine, 0)
    choose_player(engine, 0, 1)
    choose(engine, 1, "Troll")
    assert (ids("Troll"), ids("Rockscale", "Totem Pole"), held()) == (
        player(engine, 0)["area"], player(engine, 1)["area"], stones(engine, 1))


def test_whisper_takes_an_opponents_loki_as_a_wind_card() -> None:
    engine = at(round=2, players=[{"hand": ids("Whisper"), "stones": {"red": 2, "purple": 1}},
                                  {"area": ids("Loki")}])
    summon(engine, 0, "Whisper", red=2, purple=1)
    choose_player(engine, 0, 1)
    choose(engine, 1, "Loki")
    assert (8, ids("Loki"), ids("Whisper")) == (score(engine, 0), player(engine, 0)["area"], player(engine, 1)["area"])


# ---------------------------------------------------------------------------------------------------- random play


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_expansion_games_end_cleanly(players: int) -> None:
    for seed in range(34):
        engine = ReferenceEngine()
        play_random_game(engine, players, seed=seed * 7919 + players, keep_log=False, expansion=True)
        final = engine.export()
        assert "game_over" == final["phase"]
        assert final["winners"], f"seed {seed}: no winner"
        assert all(p["score"] >= 0 for p in final["players"])
        assert 98 == len(final["draw_pile"]) + len(final["discard_pile"]) + len(final["display"]) + sum(
            len(p["hand"]) + len(p["area"]) for p in final["players"])
