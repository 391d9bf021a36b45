"""Every suite of ``oracle check``, listed once in the order they run, and the inline runner by suite name."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from oracle.core.results import CheckResult
from oracle.engines.connect import EngineUnderTest
from oracle.suites import games, invariants, scenarios
from oracle.suites.registry import AnySuite, CheckOptions, Plan, PlanContext, plan, run_suites
from oracle.suites.z3 import suite as z3

__all__ = ["BY_NAME", "SUITES", "plan_named", "run_check", "suite_named"]

SUITES: tuple[AnySuite, ...] = (games.SETUP, games.RANDOM_PLAY, games.ROUNDTRIP, scenarios.SCENARIOS, z3.Z3,
                                invariants.INVARIANTS)

BY_NAME: Mapping[str, AnySuite] = {suite.name: suite for suite in SUITES}
"""Each suite by its name (``--suite``), in the order they run."""


def suite_named(name: str) -> AnySuite:
    """The suite of that name (a KeyError for an unknown one)."""
    return BY_NAME[name]


def plan_named(context: PlanContext, names: Iterable[str]) -> Plan:
    """Plan each named suite once, unfiltered."""
    return plan(context, [suite_named(name) for name in names])


def run_check(eut: EngineUnderTest, options: CheckOptions, suites: Iterable[str]) -> list[CheckResult]:
    """Plan and run the named suites inline, in this process (no supervisor): for the library and tests."""
    return run_suites(eut, options, [suite_named(name) for name in suites])
