"""The rules catalogue: every rule id cited anywhere exists, and every rule and base card is pinned."""

from __future__ import annotations

import re
from pathlib import Path

from oracle.cards import catalogue
from oracle.check import load_suites
from oracle.rules import rules
from oracle.scenarios.loader import default_dir, load_dir

ROOT = Path(__file__).resolve().parent.parent
GROUPS = "SETUP|ROUND|HUNT|DECK|ACT|SELL|TAME|SUM|PAY|REM|STONE|LIMIT|EFF|SCORE|END|DEC|RUL|PROTO"
RULE_ID = re.compile(rf'"((?:{GROUPS})-\d+)"')


def _cited_in_code() -> dict[str, str]:
    cited: dict[str, str] = {}
    for folder in ("oracle", "fixtures", "invariants"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for match in RULE_ID.finditer(path.read_text(encoding="utf-8")):
                cited.setdefault(match.group(1), str(path.relative_to(ROOT)))
    return cited


def test_every_rule_id_cited_in_code_is_in_the_catalogue() -> None:
    missing = {rule: where for rule, where in _cited_in_code().items() if rule not in rules()}
    assert {} == missing


def test_every_rule_id_cited_by_a_scenario_is_in_the_catalogue() -> None:
    loaded = load_dir(default_dir())
    assert [] == [str(e) for e in loaded.errors]
    missing = sorted({r for s in loaded.scenarios for r in s.rules if r not in rules()})
    assert [] == missing


def test_every_rule_is_pinned_by_a_scenario_or_its_suite() -> None:
    suites = load_suites()
    pinned = {r for s in load_dir(default_dir()).scenarios for r in s.rules}
    unpinned = sorted(
        rule.id for rule in rules().values() if rule.id not in pinned and rule.checked_by not in suites
    )
    assert [] == unpinned


def test_every_card_of_both_sets_is_pinned_by_a_scenario() -> None:
    loaded = load_dir(default_dir())
    pinned = {c for s in loaded.scenarios for c in s.cards}
    unpinned = sorted(c.name for c in catalogue().cards.values() if c.id not in pinned)
    assert [] == unpinned


def test_every_artifact_tile_is_used_by_a_scenario() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in default_dir().rglob("*.toml"))
    unused = sorted(t.id for t in catalogue().tiles.values() if f'"{t.id}"' not in text)
    assert [] == unused
