"""Canonical moves: every action a scenario sends fits action.schema.json, probes excepted and marked."""

from __future__ import annotations

from pathlib import Path

from oracle.core.validation import validation_errors
from oracle.scenarios.loader import default_dir, load_dir, parse_text
from oracle.scenarios.match import canonical_form
from oracle.scenarios.model import Step

SUMMON = """\
id = "CANON-1"
title = "t"
rules = ["PAY-1"]
source = "test"

[given]

[[given.players]]
hand = ["Salamander"]
stones = { blue = 1 }

[[steps]]
do = DO
"""


def _steps(do: str) -> list[Step]:
    scenario, errors = parse_text(SUMMON.replace("DO", do), Path("CANON-1.toml"))
    assert [] == [str(e) for e in errors]
    assert scenario is not None
    return list(scenario.steps)


def test_every_bundled_move_fits_the_action_schema() -> None:
    loaded = load_dir(default_dir())
    assert [] == [str(e) for e in loaded.errors]
    unfit = [
        f"{s.where(step)}: {error}"
        for s in loaded.scenarios
        for step in s.steps
        for action in [*([step.do] if step.do is not None and not step.probe else []), *step.legal, *step.not_legal]
        for error in validation_errors("action", action)
    ]
    assert [] == unfit


def test_every_bundled_probe_expects_a_rejection() -> None:
    loaded = load_dir(default_dir())
    probes = [(s.id, step.number) for s in loaded.scenarios for step in s.steps if step.probe]
    assert [] == [p for p in probes if loaded.by_id()[p[0]].steps[p[1] - 1].reject is None]
    expected_some = True
    assert expected_some == bool(probes)


def test_a_partial_payment_is_sent_with_all_three_colours() -> None:
    step = _steps('{ type = "summon", player = 0, card = "Salamander", payment = { blue = 1 } }')[0]
    expected = {"type": "summon", "player": 0, "card": "base-fire-05", "payment": {"red": 0, "blue": 1, "purple": 0}}
    assert expected == step.do
    assert False is step.probe


def test_an_empty_payment_is_sent_as_zero_stones() -> None:
    step = _steps('{ type = "summon", player = 0, card = "Salamander", payment = {} }')[0]
    assert step.do is not None
    assert {"red": 0, "blue": 0, "purple": 0} == step.do["payment"]


def test_canonical_form_keeps_the_order_of_lists_as_written() -> None:
    action = {"type": "choose_cards", "player": 0, "cards": ["base-fire-05", "base-earth-01"]}
    assert ["base-fire-05", "base-earth-01"] == canonical_form(action)["cards"]


def test_a_malformed_probe_is_sent_as_written_and_marked() -> None:
    do = '{ type = "summon", player = 0, card = "Salamander" }\nreject = { code = "MALFORMED_ACTION" }'
    step = _steps(do)[0]
    assert {"type": "summon", "player": 0, "card": "base-fire-05"} == step.do
    assert True is step.probe


def test_a_shuffle_sent_by_a_player_is_a_probe() -> None:
    do = '{ type = "shuffle", player = 0, order = [] }\nreject = { code = "NOT_YOUR_DECISION", rule = "DEC-1" }'
    assert True is _steps(do)[0].probe


def test_a_move_missing_a_field_without_a_malformed_rejection_is_an_error() -> None:
    do = '{ type = "summon", player = 0, card = "Salamander" }\nreject = { code = "PAYMENT_SHORT" }'
    text = SUMMON.replace("DO", do)
    scenario, errors = parse_text(text, Path("CANON-1.toml"))
    assert None is scenario
    assert 1 == len(errors)
    assert str(errors[0]).startswith("CANON-1.toml:13: step 1: do: not a canonical action ('payment' is a required")


def test_a_legal_entry_must_be_canonical_too() -> None:
    do = '{ type = "end_turn", player = 0 }\nlegal = [ { type = "take_artifact", player = 0, tile = "cap" } ]'
    text = SUMMON.replace("DO", do)
    errors = parse_text(text, Path("CANON-1.toml"))[1]
    assert ["CANON-1.toml:14: step 1: legal[0]: not a canonical action (tile: 'cap' does not match '^tile-[a-z-]+$'); "
            'a deliberately malformed action needs reject = { code = "MALFORMED_ACTION" }'] == [str(e) for e in errors]
