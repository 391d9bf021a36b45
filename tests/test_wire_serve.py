"""``oracle serve`` end to end: the reference over the wire gives the in-process results, broken fixtures
over the wire are caught with the same rule ids, and the Node.js starter kit's example passes the set-up."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from oracle.core.results import CheckResult, Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.suites.all import run_check
from oracle.suites.registry import CheckOptions
from tests.helpers import CALL_SECONDS
from tests.test_fixtures_caught import FIXTURES

ROOT = Path(__file__).resolve().parents[1]
SERVE = f"cmd:{sys.executable} -P -m oracle.cli.app serve"
ALL = os.environ.get("VALE_ORACLE_WIRE_ALL", "") == "1"
REPRESENTATIVE = ("vale_fixtures.superfluous_payment", "vale_fixtures.no_holding_limit",
                  "vale_fixtures.same_artifact_twice")


def _run(impl: str, suites: list[str], options: CheckOptions | None = None) -> list[CheckResult]:
    return run_check(EngineUnderTest.load(impl, CALL_SECONDS), options or CheckOptions(), suites)


def _outcomes(results: list[CheckResult]) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(r.id, r.outcome.value, r.rules) for r in results]


def test_the_reference_served_gives_the_in_process_results() -> None:
    suites, options = ["setup", "random-play", "roundtrip", "scenarios"], CheckOptions(games=1)
    assert _outcomes(_run("oracle.reference", suites, options)) == _outcomes(_run(SERVE, suites, options))


@pytest.mark.skipif(not ALL, reason="all default suites over the wire: set VALE_ORACLE_WIRE_ALL=1")
def test_the_reference_served_gives_the_in_process_results_in_every_default_suite() -> None:
    suites = ["random-play", "setup", "roundtrip", "scenarios", "z3", "invariants"]
    assert _outcomes(_run("oracle.reference", suites)) == _outcomes(_run(SERVE, suites))


@pytest.mark.parametrize("impl", sorted(FIXTURES) if ALL else REPRESENTATIVE)
def test_a_broken_fixture_served_is_caught_with_the_same_rule_ids(impl: str) -> None:
    expected = [(r.id, r.rules) for r in _run(impl, ["scenarios"]) if not r.outcome.ok]
    actual = [(r.id, r.rules) for r in _run(f"{SERVE} --impl {impl}", ["scenarios"]) if not r.outcome.ok]
    assert expected == actual
    assert FIXTURES[impl] in {rule for _, rules in actual for rule in rules}


def test_the_node_set_up_example_from_commonjs_passes_the_setup_suite_and_is_unsupported_elsewhere() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (CI has Node.js 20)")
    impl = f"cmd:{node} {ROOT / 'oracle' / 'kits' / 'node' / 'example.cjs'}"
    setup = _run(impl, ["setup"])
    assert 9 == len(setup)
    assert {Outcome.PASS} == {r.outcome for r in setup}, [r.message for r in setup if not r.outcome.ok]
    others = _run(impl, ["random-play", "roundtrip", "scenarios", "z3"], CheckOptions(games=1))
    assert {Outcome.UNSUPPORTED, Outcome.NOT_APPLICABLE} == {r.outcome for r in others}, {r.outcome for r in others}
    assert all(r.message.startswith("the scenario depends on") for r in others if r.outcome is Outcome.NOT_APPLICABLE)
