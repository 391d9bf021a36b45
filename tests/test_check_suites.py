"""The built-in suites of `oracle check` (setup, random play, round trip) catch what they are for."""

from __future__ import annotations

from oracle.core.results import Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.suites.all import run_check
from oracle.suites.registry import CheckOptions
from tests.helpers import CALL_SECONDS


def _run(impl: str, suite: str) -> list[tuple[str, Outcome, tuple[str, ...]]]:
    results = run_check(EngineUnderTest.load(impl, timeout=CALL_SECONDS), CheckOptions(games=1), [suite])
    return [(r.id, r.outcome, r.rules) for r in results]


def test_setup_suite_passes_the_reference() -> None:
    assert {Outcome.PASS} == {outcome for _, outcome, _ in _run("oracle.reference", "setup")}


def test_setup_suite_catches_starting_scores_counted_from_seat_zero() -> None:
    failures = [(i, rules) for i, outcome, rules in _run("vale_fixtures.scores_from_seat_zero", "setup")
                if outcome is Outcome.FAIL]
    assert ("setup/2p/first-1", ("SETUP-2",)) in failures
    assert not any(i.endswith("first-0") for i, _ in failures)


def test_roundtrip_suite_is_unsupported_without_load() -> None:
    assert {Outcome.UNSUPPORTED} == {outcome for _, outcome, _ in _run("vale_fixtures.minimal_adapter", "roundtrip")}
