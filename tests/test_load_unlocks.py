"""The reports say how many checks ``load`` would unlock: the checks unsupported only because the engine does not
declare ``load`` (planned again with ``load`` declared, they would run), in the JSON report's totals and on a line
of the console and Markdown summaries (issue 26, item 7)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.results import UNLOCKED_BY_LOAD
from oracle.engines.connect import EngineUnderTest
from oracle.suites.all import plan_named
from oracle.suites.registry import AnyUnit, CheckOptions, PlanContext, ScenarioOptions

ROOT = Path(__file__).resolve().parents[1]
MINIMAL = "vale_fixtures.minimal_adapter"
"""Declares ``export`` only: no ``load``, no ``legal_actions``, no events, no expansion."""
runner = CliRunner()


def unlocked_units(impl: str, suite: str) -> tuple[int, int]:
    """How many units of the suite are unsupported, and how many of them ``load`` alone keeps from running."""
    units = planned(impl, suite)
    return sum(bool(u.unsupported) for u in units), sum(u.unlocked_by_load for u in units)


def planned(impl: str, suite: str, options: CheckOptions | None = None) -> tuple[AnyUnit, ...]:
    handshake = EngineUnderTest.load(impl, 5.0).fresh().handshake
    return plan_named(PlanContext(impl, handshake, options or CheckOptions()), [suite]).units[suite]


def test_an_engine_without_load_is_told_how_many_checks_load_would_unlock_in_every_summary(tmp_path: Path) -> None:
    report, summary = tmp_path / "report.json", tmp_path / "summary.md"
    done = runner.invoke(app, ["check", "--impl", MINIMAL, "--suite", "roundtrip,z3", "--allow-empty",
                               "--budget-scale", "1", "--report-json", str(report), "--markdown", str(summary)])
    data = json.loads(report.read_text(encoding="utf-8"))
    unlocked = [r["id"] for r in data["results"] if r["details"].get(UNLOCKED_BY_LOAD)]
    line = 'load would unlock 19 of the 34 unsupported checks (docs/wire.md, "Writing export and load")'
    assert (0, 34, 19, 19) == (done.exit_code, data["totals"]["unsupported"], data["totals"]["load_would_unlock"],
                               len(unlocked))
    assert line in done.stdout.splitlines()
    assert 'load would unlock 19 of the 34 unsupported checks (docs/wire\u200b.md, "Writing export and load").' \
        in summary.read_text(encoding="utf-8").splitlines()


def test_load_unlocks_the_round_trips_and_the_base_z3_rows_not_the_expansion_rows_it_lacks_too() -> None:
    handshake = EngineUnderTest.load(MINIMAL, 5.0).fresh().handshake
    units = plan_named(PlanContext(MINIMAL, handshake, CheckOptions()), ["roundtrip", "z3"]).units
    assert (3, 3) == (len(units["roundtrip"]), sum(u.unlocked_by_load for u in units["roundtrip"]))
    assert {"the engine does not declare expansion, artifacts", "the engine does not declare expansion"} >= {
        u.unsupported for u in units["z3"] if not u.unlocked_by_load}
    assert [] != [u for u in units["z3"] if not u.unlocked_by_load]


def test_scenarios_starting_from_a_position_are_unlocked_by_load_unless_they_pin_another_variant() -> None:
    ending = CheckOptions(scenarios=ScenarioOptions(directory=ROOT / "scenarios" / "end"))
    units = planned(MINIMAL, "scenarios", ending)
    no_load = {u.name for u in units
               if u.unsupported.startswith("the engine cannot load snapshots (no 'load' capability)")
               and not u.not_applicable}
    assert no_load == {u.name for u in units if u.unlocked_by_load}
    assert 0 < len(no_load) < sum(bool(u.unsupported) for u in units)


def test_an_engine_that_declares_load_has_nothing_to_unlock() -> None:
    assert (0, 0) == unlocked_units("oracle.reference", "roundtrip")
