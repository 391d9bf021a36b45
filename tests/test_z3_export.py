"""``oracle z3 export DIR``: the boundary scenarios are valid scenario files that the reference passes and
that catch the broken fixture engines."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.z3 import z3_app
from oracle.core.results import Outcome
from oracle.core.rules import rules
from oracle.engines.connect import EngineUnderTest
from oracle.scenarios.loader import load_file
from oracle.scenarios.runner import run_scenario
from oracle.suites.z3.export import export_boundaries
from tests.helpers import CALL_SECONDS

TOP_KEYS = {"id", "title", "rules", "cards", "source", "requires", "given", "steps", "expect_end"}
REQUIRED = {"id", "title", "rules", "source", "given", "steps"}
STEP_KEYS = {"do", "reject", "expect", "decision", "events", "legal", "not_legal", "note"}


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    return export_boundaries(tmp_path_factory.mktemp("z3-export"))


def _sample(exported: dict[str, list[Path]]) -> list[Path]:
    """Every 6th payment, limit and Incense Burner file, and every 2nd upgrade file (loading all ~500 takes several
    seconds)."""
    return exported["payments"][::6] + exported["limit"][::6] + exported["incense"][::6] + exported["upgrades"][::2]


def test_export_writes_each_group(exported: dict[str, list[Path]]) -> None:
    assert {k: len(v) for k, v in exported.items()} == {"payments": 160, "limit": 131, "incense": 160, "upgrades": 84}


def test_every_file_is_toml_with_the_documented_keys(exported: dict[str, list[Path]]) -> None:
    catalogue = rules()
    ids = set()
    assert exported and all(exported.values()), "a kind with no exported file"
    for paths in exported.values():
        for path in paths:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            assert REQUIRED <= set(data) <= TOP_KEYS, path
            assert data["id"] == path.stem and data["id"] not in ids
            ids.add(data["id"])
            assert data["rules"] and all(r in catalogue for r in data["rules"]), path
            assert data["steps"] and all(set(step) <= STEP_KEYS for step in data["steps"]), path


def test_the_scenario_loader_accepts_them_and_the_reference_passes(exported: dict[str, list[Path]]) -> None:
    reference = EngineUnderTest.load("oracle.reference", CALL_SECONDS)
    sample = _sample(exported)
    assert sample, "no exported scenario sampled"
    for path in sample:
        scenario = load_file(path)
        assert Outcome.PASS is run_scenario(reference, scenario).outcome, path.read_text()


@pytest.mark.parametrize(("impl", "group", "step"), [
    ("vale_fixtures.superfluous_payment", "payments", 6),
    ("vale_fixtures.change_given", "payments", 6),
    ("vale_fixtures.z3_limit5", "limit", 6),
    ("vale_fixtures.superfluous_payment", "incense", 6),
    ("vale_fixtures.z3_double_upgrade", "upgrades", 1),
    ("vale_fixtures.z3_downgrade", "upgrades", 3),
])
def test_the_boundary_scenarios_catch_the_broken_engines(
    impl: str, group: str, step: int, exported: dict[str, list[Path]]
) -> None:
    broken = EngineUnderTest.load(impl, CALL_SECONDS)
    outcomes = [run_scenario(broken, load_file(path)).outcome for path in exported[group][::step]]
    assert any(not o.ok for o in outcomes)


def test_export_command(tmp_path: Path) -> None:
    out = CliRunner().invoke(z3_app, ["export", str(tmp_path / "out")])
    assert out.exit_code == 0, out.output
    assert "wrote 535 scenario files" in out.output
    assert len(list((tmp_path / "out").rglob("*.toml"))) == 535
    target = tmp_path / "a-file"
    target.write_text("x")
    assert CliRunner().invoke(z3_app, ["export", str(target)]).exit_code == 2
