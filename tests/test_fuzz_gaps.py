"""The fuzzer's closed gaps of issue 12: every decision kind probed by the default run, undrivable decisions, and
games counted per game mode."""

from __future__ import annotations

import dataclasses

from oracle.check import CheckOptions
from oracle.protocol import DecisionKind
from oracle.reference import ReferenceEngine
from vale_invariants.forcing import KINDS_BY_MODE, kinds_of
from vale_invariants.fuzz import FuzzConfig, run_fuzz
from vale_invariants.game import GameRunner, GameSettings, RandomChooser
from vale_invariants.game_guards import GUARDS
from vale_invariants.suite import fuzz_config

# ---------------------------------------------------------------------------------------------- every kind probed


def test_the_default_invariants_suite_probes_every_decision_kind_of_the_declared_modes() -> None:
    config = fuzz_config(CheckOptions())
    report = run_fuzz(ReferenceEngine, "oracle.reference", config)
    result = next(r for r in report.results() if r.id == f"invariants/{GUARDS}")
    probed = {kind for kind, n in result.details["probes_by_kind"].items() if n > 0}
    assert {k.value for k in DecisionKind} == probed
    assert [] == result.details["kinds_not_probed"]
    assert 0 < result.details["forcing_games"]


def test_the_declared_modes_ask_every_decision_kind() -> None:
    assert set(DecisionKind) == kinds_of(("base", "expansion", "artifacts"))
    assert KINDS_BY_MODE["base"] < KINDS_BY_MODE["expansion"] < KINDS_BY_MODE["artifacts"]


def test_a_scarce_position_forces_a_shuffle_decision() -> None:
    settings = GameSettings(ReferenceEngine, "oracle.reference", (2,), frozenset({GUARDS}), False, positions=True,
                            scarce=True)
    runner = GameRunner(settings, RandomChooser("shuffle"))
    runner.play()
    assert runner.trace.start is not None
    assert [] == runner.trace.start["draw_pile"]
    assert 0 < runner.stats.probes[DecisionKind.SHUFFLE]


def test_without_positions_the_kinds_not_probed_are_reported() -> None:
    config = dataclasses.replace(fuzz_config(CheckOptions()), positions=False, games=1)
    report = run_fuzz(ReferenceEngine, "oracle.reference", config)
    assert 0 == report.stats.forcing_games
    assert "shuffle" in report.unprobed
    assert "decision kinds not probed" in report.summary()
