"""The scenario keys ``legal_exactly``, ``draw_pile_top`` and the absence marker: matching, and a located
error for each misuse (docs/scenarios.md)."""

from __future__ import annotations

from pathlib import Path

from oracle.scenarios.loader import parse_text
from oracle.scenarios.match import ABSENT, canonical_action, first_mismatch

HEAD = """\
id = "X-1"
title = "t"
rules = ["PAY-3"]
source = "test"

[given]
round = 1

[[given.players]]
hand = ["Salamander"]
stones = { red = 1, blue = 1 }
"""

EXACT = """
[[steps]]
legal_exactly = [
  { type = "summon", player = 0, card = "Salamander", payment = { red = 1 } },
  { type = "summon", player = 0, card = "Salamander", payment = { blue = 1 } },
]
"""


def errors_of(text: str) -> list[str]:
    scenario, errors = parse_text(text, Path("X-1.toml"))
    assert (scenario is None) == bool(errors)
    return [str(e) for e in errors]


# ---------------------------------------------------------------- matching


def test_absent_matches_a_missing_key_and_null() -> None:
    assert None is first_mismatch({"artifact": ABSENT}, {})
    assert None is first_mismatch({"artifact": ABSENT}, {"artifact": None})


def test_absent_fails_on_a_value() -> None:
    mismatch = first_mismatch({"players": [{"artifact": ABSENT}]}, {"players": [{"artifact": "tile-x"}]})
    assert mismatch is not None
    assert ("players[0].artifact", "tile-x") == (mismatch.path, mismatch.actual)


def test_draw_pile_top_matches_the_first_cards_in_order() -> None:
    pile = {"draw_pile": ["a", "b", "c"]}
    assert None is first_mismatch({"draw_pile_top": ["a", "b"]}, pile)
    mismatch = first_mismatch({"draw_pile_top": ["b", "a"]}, pile)
    assert mismatch is not None
    assert ("draw_pile_top", ["a", "b"]) == (mismatch.path, mismatch.actual)


def test_draw_pile_top_longer_than_the_pile_fails() -> None:
    assert first_mismatch({"draw_pile_top": ["a", "b"]}, {"draw_pile": ["a"]}) is not None


# ---------------------------------------------------------------- loading


def test_legal_exactly_is_loaded_in_canonical_form() -> None:
    scenario, errors = parse_text(HEAD + EXACT, Path("X-1.toml"))
    assert [] == [str(e) for e in errors]
    assert scenario is not None
    exact = scenario.steps[0].legal_exactly
    assert exact is not None
    assert {"red": 1, "blue": 0, "purple": 0} == exact[0]["payment"]


def test_legal_exactly_with_legal_in_the_same_step_is_located() -> None:
    text = HEAD + EXACT + 'legal = [ { type = "end_turn", player = 0 } ]\n'
    assert ["X-1.toml:14: step 1: legal_exactly: legal_exactly lists every legal action; drop legal from this step"] \
        == errors_of(text)


def test_legal_exactly_listing_an_action_twice_is_located() -> None:
    text = HEAD + EXACT.replace("payment = { blue = 1 }", "payment = { red = 1, blue = 0 }")
    assert ["X-1.toml:16: step 1: legal_exactly[1]: the same action as entry 1"] == errors_of(text)


def test_legal_exactly_entries_must_be_canonical_actions() -> None:
    text = HEAD + '\n[[steps]]\nlegal_exactly = [ { type = "summon", player = 0 } ]\n'
    errors = errors_of(text)
    assert 1 == len(errors)
    assert "X-1.toml:14: step 1: legal_exactly[0]: 'card' is required" == errors[0]


def test_draw_pile_and_draw_pile_top_together_are_located() -> None:
    text = HEAD + '\n[[steps]]\nexpect = { draw_pile = [], draw_pile_top = ["Imp"] }\n'
    assert ["X-1.toml:14: step 1: expect.draw_pile_top: give draw_pile (the whole pile) or draw_pile_top "
            "(its top cards), not both"] == errors_of(text)


def test_draw_pile_top_is_not_part_of_a_position() -> None:
    text = HEAD.replace("round = 1\n", 'round = 1\ndraw_pile_top = ["Imp"]\n') + EXACT
    errors = errors_of(text)
    assert 1 == len(errors)
    assert errors[0].startswith("X-1.toml:8: given.draw_pile_top: unknown key 'draw_pile_top'")


def test_draw_pile_top_names_are_resolved() -> None:
    scenario, errors = parse_text(HEAD + '\n[[steps]]\nexpect = { draw_pile_top = ["Imp"] }\n', Path("X-1.toml"))
    assert [] == [str(e) for e in errors]
    assert scenario is not None and scenario.steps[0].expect is not None
    assert ["base-fire-02"] == scenario.steps[0].expect["draw_pile_top"]


def test_the_absence_marker_in_a_position_is_located() -> None:
    text = HEAD.replace('[given]\nround = 1\n', '[given]\nround = 1\n\n[given.setup]\nartifacts = true\n') \
        .replace('stones = { red = 1, blue = 1 }\n', 'stones = { red = 1, blue = 1 }\nartifact = "<absent>"\n') + EXACT
    assert ["X-1.toml:15: given.players[0].artifact: '<absent>' belongs in expect, expect_end or decision; "
            "in given, leave the key out"] == errors_of(text)


def test_the_absence_marker_in_a_card_list_is_located() -> None:
    text = HEAD + '\n[[steps]]\nexpect = { players = [ { hand = ["<absent>"] } ] }\n'
    assert ["X-1.toml:14: step 1: expect.players[0].hand[0]: '<absent>' stands for a whole missing or null value "
            "(artifact = '<absent>'), not for a card; an empty list is written []"] == errors_of(text)


def test_the_absence_marker_is_allowed_for_a_square_marker_and_turn_player() -> None:
    expect = 'expect = { turn_player = "<absent>", artifacts = { square_markers = { "tile-x" = "<absent>" } } }'
    text = HEAD + f"\n[[steps]]\n{expect}\n"
    assert [] == errors_of(text)


def test_canonical_action_keeps_payments_comparable() -> None:
    assert canonical_action({"type": "summon", "player": 0, "card": "c", "payment": {"red": 1}}) \
        == canonical_action({"type": "summon", "player": 0, "card": "c", "payment": {"red": 1, "blue": 0, "purple": 0}})


# ---------------------------------------------------------------- new games

NEW_GAME = """\
id = "X-1"
title = "t"
rules = ["SETUP-2"]
source = "test"

[new_game]
players = 3
first_player = 2
deck = ["Imp", "Kappa"]

[[steps]]
expect = { players = [ { score = 2 }, { score = 3 }, { score = 1 } ] }
"""


def test_new_game_completes_the_deck_after_its_top_cards() -> None:
    scenario, errors = parse_text(NEW_GAME, Path("X-1.toml"))
    assert [] == [str(e) for e in errors]
    assert scenario is not None and scenario.new_game is not None
    assert ["base-fire-02", "base-water-02"] == scenario.new_game["deck"][:2]
    assert 70 == len(scenario.new_game["deck"])
    assert {"players": 3} == scenario.given["setup"]


def test_given_and_new_game_together_are_located() -> None:
    text = NEW_GAME.replace("[new_game]", "[given]\nround = 1\n\n[new_game]")
    assert ["X-1.toml:1: id: a scenario starts from exactly one of given (a position) and new_game"] \
        == errors_of(text)


def test_neither_given_nor_new_game_is_located() -> None:
    text = NEW_GAME.replace('[new_game]\nplayers = 3\nfirst_player = 2\ndeck = ["Imp", "Kappa"]\n', "")
    assert ["X-1.toml:1: id: a scenario starts from exactly one of given (a position) and new_game"] \
        == errors_of(text)


def test_a_first_player_outside_the_table_is_located() -> None:
    text = NEW_GAME.replace("first_player = 2", "first_player = 3")
    assert ["X-1.toml:6: new_game: the reference cannot start this game: setup.first_player: must be a player "
            "index below 3, got 3"] == errors_of(text)


def test_a_deck_card_listed_twice_is_located() -> None:
    text = NEW_GAME.replace('deck = ["Imp", "Kappa"]', 'deck = ["Imp", "imp"]')
    assert ["X-1.toml:9: new_game.deck: a card is listed twice"] == errors_of(text)


def test_an_expansion_card_in_a_base_deck_is_located() -> None:
    text = NEW_GAME.replace('deck = ["Imp", "Kappa"]', 'deck = ["Loki"]')
    assert ["X-1.toml:9: new_game.deck: art-wind-05 is not in this game's deck (expansion cards need "
            "expansion = true)"] == errors_of(text)


def test_an_unknown_deck_card_is_located() -> None:
    text = NEW_GAME.replace('deck = ["Imp", "Kappa"]', 'deck = ["Impp"]')
    assert ["X-1.toml:9: new_game.deck[0]: unknown card 'Impp' (no card has that name or id); did you mean 'Imp'?"] \
        == errors_of(text)
