"""The scenario writer (oracle/scenarios/writer.py): what it writes reads back as the same scenario (that saved
scenarios load and run: tests/test_saved_counterexamples.py, tests/test_z3_export.py)."""

from __future__ import annotations

import tomllib

import pytest

from oracle.core.json_types import JSON
from oracle.scenarios.writer import toml_text

SAVED = {
    "id": "games-2p-seed-7-step-12",
    "title": 'A "quoted" title with a back\\slash, a tab\tand Hae-tae ☯',
    "rules": ["PAY-3"],
    "given": {
        "round": 2,
        "display": ["Troll", "Kappa"],
        "players": [{"hand": ["Salamander"], "stones": {"red": 4}}, {}],
    },
    "steps": [
        {"do": {"type": "sell", "player": 0, "card": "Troll"}, "expect": {"players": [{"stones": {"red": 4}}]}},
        {"not_legal": [{"type": "end_turn", "player": 0}], "note": "line one\nline two"},
    ],
}


def test_a_written_scenario_reads_back_as_the_same_document() -> None:
    assert SAVED == tomllib.loads(toml_text(SAVED))


def test_arrays_of_tables_span_lines_and_each_table_follows_a_blank_line() -> None:
    text = toml_text(SAVED)
    assert "\n\n[given]\n" in text
    assert "\n\n[[given.players]]\nhand" in text
    assert "\n\n[[steps]]\ndo = " in text
    assert 'not_legal = [\n    {type = "end_turn", player = 0},\n]\n' in text


@pytest.mark.parametrize("doc", [{"id": "x", "note": None}, {"id": "x", "given": {"players": [{"hand": [None]}]}}])
def test_null_has_no_toml_form(doc: JSON) -> None:
    with pytest.raises(ValueError, match="TOML has no null"):
        toml_text(doc)
