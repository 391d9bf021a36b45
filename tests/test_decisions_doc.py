"""The decision reference (docs/decisions.md) and the option vocabulary it is generated from (options.toml)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from oracle.core.options import OPTIONS_FILE, OptionsDataError, load_options, option, option_sets
from oracle.core.protocol import DecisionKind
from oracle.core.rules import rules

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("decisions_doc", ROOT / "tools" / "decisions_doc.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules.get("decisions_doc")
    if module is None:
        module = importlib.util.module_from_spec(spec)
        sys.modules["decisions_doc"] = module
        spec.loader.exec_module(module)
    return module


def test_docs_decisions_md_is_what_the_generator_writes() -> None:
    tool = _tool()
    assert tool.render() == (ROOT / "docs" / "decisions.md").read_text(encoding="utf-8"), \
        "docs/decisions.md is out of date: run python tools/decisions_doc.py"


def test_every_card_asking_for_options_is_in_the_vocabulary_and_only_those() -> None:
    assert set(option_sets()) == _tool().option_sources()


def test_every_rule_the_reference_cites_is_catalogued() -> None:
    cited = {rule for row in _tool().rows() for rule in row.rules}
    assert set() == cited - set(rules())


def test_hydra_basilisk_and_cerberus_are_documented() -> None:
    by_name = {(row.name, row.kind): row for row in _tool().rows()}
    hydra = by_name[("Hydra", DecisionKind.CHOOSE_OPTIONS)]
    assert "`gain_purple`, `draw`, `gain_two_blue`, `gain_four_points`" == hydra.answers
    assert "`lose_0_gain_red`" in by_name[("Basilisk", DecisionKind.CHOOSE_OPTIONS)].answers
    assert "0 to 3 cards (at most as many as on offer)" == by_name[("Cerberus", DecisionKind.CHOOSE_CARDS)].bounds


def test_only_cerberus_discards_several_cards_in_order() -> None:
    ordered = sorted(row.name for row in _tool().rows() if row.ordered)
    assert ["Cerberus"] == ordered


def test_an_option_the_vocabulary_does_not_list_is_an_error() -> None:
    assert "draw" == option("base-water-10", "draw")
    with pytest.raises(OptionsDataError, match="base-water-10 has no option 'fly'"):
        option("base-water-10", "fly")


@pytest.mark.parametrize(("text", "error"), [
    ('[[source]]\nid = "x"\n[[source.option]]\nname = "a"\n', r"source\[0\]\.option\[0\]: 'text' must be"),
    ('[[source]]\nid = "x"\n', r"source\[0\]: x must list its options or set 'families = true'"),
    ('[[source]]\nid = "x"\nfamilies = true\n[[source]]\nid = "x"\nfamilies = true\n', r"'x' is listed twice"),
    ("[[source]\n", "not valid TOML"),
])
def test_a_malformed_vocabulary_is_one_clear_error(tmp_path: Path, text: str, error: str) -> None:
    path = tmp_path / "options.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OptionsDataError, match=error):
        load_options(path)


def test_the_shipped_vocabulary_loads() -> None:
    assert load_options(OPTIONS_FILE) == option_sets()
