"""Conformance through the Z3 models: the reference agrees with the models, and each fixture engine that
breaks one stone rule is caught with that rule's id and a scenario file that reproduces it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.z3 import z3_app
from oracle.core.causes import CAUSE_KEY
from oracle.core.results import CheckResult, Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.engines.harness import on_engine_cost
from oracle.scenarios.loader import load_file
from oracle.scenarios.runner import run_scenario
from oracle.suites.all import BY_NAME
from oracle.suites.registry import CheckOptions
from oracle.suites.z3.conformance import ROWS, ConformOptions, case_by_id, row_named, run_conformance
from oracle.suites.z3.suite import conform_options
from tests.helpers import CALL_SECONDS

REFERENCE = "oracle.reference"
BASE_ROWS = tuple(row.name for row in ROWS if not row.requires)


def _run(impl: str, **options: object) -> list[CheckResult]:
    eut = EngineUnderTest.load(impl, CALL_SECONDS)
    return run_conformance(eut.fresh, ConformOptions(impl=impl, **options))  # type: ignore[arg-type]


def _failures(results: list[CheckResult]) -> list[CheckResult]:
    return [r for r in results if not r.outcome.ok]


def test_the_z3_suite_is_registered_and_the_reference_passes_it() -> None:
    results = BY_NAME["z3"](EngineUnderTest.load(REFERENCE, CALL_SECONDS), CheckOptions())
    assert _failures(results) == []
    assert {f"z3/{row.name}/{rule}" for row in ROWS for rule in row.rules} == {r.id for r in results}
    assert all(r.outcome is Outcome.PASS and r.suite == "z3" and r.details["cases_checked"] > 0 for r in results)


def test_the_reference_agrees_on_a_whole_domain() -> None:
    results = _run(REFERENCE, full=True, rows=("holding-limit",))
    assert [Outcome.PASS, Outcome.PASS] == [r.outcome for r in results]
    assert results[0].details["cases_checked"] == results[0].details["domain"] == 295


@pytest.mark.parametrize(("impl", "rule", "outcome"), [
    ("vale_fixtures.superfluous_payment", "PAY-3", Outcome.ILLEGAL_ACCEPTED),
    ("vale_fixtures.change_given", "PAY-2", Outcome.FAIL),
    ("vale_fixtures.z3_limit5", "LIMIT-1", Outcome.FAIL),
    ("vale_fixtures.no_holding_limit", "LIMIT-1", Outcome.FAIL),
])
def test_each_broken_engine_is_caught_with_its_rule(impl: str, rule: str, outcome: Outcome, tmp_path: Path) -> None:
    # the base-game rows (the Artifacts rows and their fixtures: tests/test_z3_expansion.py)
    results = _run(impl, save_failures=tmp_path, rows=BASE_ROWS)
    failures = _failures(results)
    assert failures, f"{impl} passed the z3 suite"
    assert all(rule in r.details["rules_broken"] for r in failures), [(r.id, r.details) for r in failures]
    assert all(r.id == f"z3/{r.id.split('/')[1]}/{r.rules[0]}" for r in failures)
    assert any(r.outcome is outcome for r in failures)
    first = failures[0]
    assert first.suite == "z3" and first.expected and first.actual and first.details["state"]
    assert first.reproduce.startswith(f"oracle z3 conform --impl {impl} --case {first.details['case']}")
    # every counterexample is a valid scenario: it fails on the broken engine and passes on the reference
    broken, reference = EngineUnderTest.load(impl, CALL_SECONDS), EngineUnderTest.load(REFERENCE, CALL_SECONDS)
    for result in failures:
        path = Path(result.details["scenario"])
        assert path.parent == tmp_path / "z3" and str(path) in result.reproduce
        scenario = load_file(path)
        assert rule in scenario.rules
        assert not run_scenario(broken, scenario).outcome.ok, path.read_text()
        assert run_scenario(reference, scenario).outcome is Outcome.PASS, path.read_text()


def test_a_failure_reproduces_with_its_case_id() -> None:
    failures = _failures(_run("vale_fixtures.superfluous_payment", rows=("summon-payment",)))
    case_id = failures[0].details["case"]
    again = _run("vale_fixtures.superfluous_payment", case=case_id)
    assert [(failures[0].id, failures[0].outcome)] == [(r.id, r.outcome) for r in _failures(again)]
    assert {Outcome.PASS} == {r.outcome for r in _run(REFERENCE, case=case_id)}


def test_the_sample_is_deterministic_and_depends_on_the_seed() -> None:
    rows = ("summon-payment",)
    first = _run("vale_fixtures.superfluous_payment", rows=rows)
    again = _run("vale_fixtures.superfluous_payment", rows=rows)
    assert [(r.id, r.details.get("case")) for r in first] == [(r.id, r.details.get("case")) for r in again]
    other = _run("vale_fixtures.superfluous_payment", seed=7, rows=rows)
    assert [r.id for r in first] == [r.id for r in other]
    assert {r.details["case"] for r in _failures(first)} != {r.details["case"] for r in _failures(other)}


def _run_counting_calls(impl: str, **options: object) -> tuple[list[CheckResult], Counter[str]]:
    calls: Counter[str] = Counter()
    remove = on_engine_cost(lambda method, seconds: calls.update([method]))
    try:
        return _run(impl, **options), calls
    finally:
        remove()


def test_a_row_lists_at_its_first_case_and_judges_the_others_with_try_actions() -> None:
    results, calls = _run_counting_calls(REFERENCE, rows=("remove-payment",))
    checked = results[0].details["cases_checked"]
    assert checked > 1
    assert 1 == calls["legal_actions"]
    assert checked - 1 <= calls["try_actions"]
    assert calls["load"] <= 2 * checked  # a follow-up the model rejects is judged where the case's decision is
    _, listed = _run_counting_calls(REFERENCE, rows=("remove-payment",), list_every_case=True)
    assert checked == listed["legal_actions"]


def test_try_actions_verdicts_catch_what_the_listing_catches() -> None:
    rows = ("summon-cost",)
    tried = _failures(_run("vale_fixtures.superfluous_payment", rows=rows))
    listed = _failures(_run("vale_fixtures.superfluous_payment", rows=rows, list_every_case=True))
    assert ["z3/summon-cost/PAY-3"] == [r.id for r in tried]
    assert [(r.id, r.outcome, r.details["divergent_cases"], r.details["case"], r.details[CAUSE_KEY]) for r in listed] \
        == [(r.id, r.outcome, r.details["divergent_cases"], r.details["case"], r.details[CAUSE_KEY]) for r in tried]


def test_a_try_actions_verdict_that_apply_contradicts_is_proto_2_not_a_payment_rule() -> None:
    results = _run("vale_fixtures.tries_leniently", rows=("summon-cost",))
    assert {Outcome.ERROR} == {r.outcome for r in results}
    assert {"PROTO-2"} == {r.details[CAUSE_KEY]["rule"] for r in results}


def test_the_suite_lists_at_every_case_when_the_engine_lists_cheaply() -> None:
    assert conform_options("", CheckOptions(legal_share=0.5)).list_every_case
    assert not conform_options("", CheckOptions(legal_share=0.49)).list_every_case


def test_an_engine_that_cannot_load_positions_is_unsupported() -> None:
    results = _run("vale_fixtures.minimal_adapter")
    assert [f"z3/{row.name}/{rule}" for row in ROWS for rule in row.rules] == [r.id for r in results]
    assert {Outcome.UNSUPPORTED} == {r.outcome for r in results}


def test_the_suite_runs_only_the_rows_of_the_selected_rules() -> None:
    eut = EngineUnderTest.load("vale_fixtures.z3_limit5", CALL_SECONDS)
    results = BY_NAME["z3"](eut, CheckOptions(rules=("LIMIT-1",)))
    assert {r.id.split("/")[1] for r in results} == {"holding-limit"}
    assert BY_NAME["z3"](eut, CheckOptions(rules=("HUNT-1",))) == []


def test_a_budget_that_runs_out_is_incomplete_never_pass() -> None:
    results = _run(REFERENCE, budget=0.05, rows=("summon-payment",))
    assert [f"z3/summon-payment/{rule}" for rule in row_named("summon-payment").rules] == [r.id for r in results]
    assert {Outcome.INCOMPLETE} == {r.outcome for r in results}
    assert all(r.details["out_of_budget"] and "budget" in r.message for r in results)
    assert results[0].details["cases_checked"] < results[0].details["cases_selected"]


def test_a_row_that_checks_no_case_is_incomplete_never_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    from oracle.suites.z3 import conformance

    monkeypatch.setattr(conformance, "select_keys", lambda row, options: ([], len(row.domain())))
    results = _run(REFERENCE, rows=("holding-limit",))
    assert {Outcome.INCOMPLETE} == {r.outcome for r in results}
    assert all(0 == r.details["cases_checked"] and "the row exercised nothing" in r.message for r in results)


def test_case_ids_round_trip() -> None:
    assert ROWS, "no conformance row"
    for row in ROWS:
        keys = row.domain()
        assert len(keys) == len(set(keys))
        for key in (keys[0], keys[len(keys) // 2], keys[-1]):
            found_row, case = case_by_id(f"{row.name}/{key}")
            assert found_row is row and case.id == f"{row.name}/{key}"
    with pytest.raises(KeyError):
        case_by_id("no-such-row/x")


def test_conform_command_exit_codes() -> None:
    runner = CliRunner()
    ok = runner.invoke(z3_app, ["conform", "--row", "holding-limit"])
    assert ok.exit_code == 0, ok.output
    assert "PASS             z3/holding-limit/LIMIT-1" in ok.output
    bad = runner.invoke(z3_app, ["conform", "--impl", "vale_fixtures.z3_limit5", "--row", "holding-limit"])
    assert bad.exit_code == 1
    assert "rule LIMIT-1" in bad.output
    assert "reproduce: oracle z3 conform --impl vale_fixtures.z3_limit5 --case" in bad.output
    assert runner.invoke(z3_app, ["conform", "--row", "nope"]).exit_code == 2
    assert runner.invoke(z3_app, ["conform", "--case", "summon-payment/r0b0p0/printed/cost-11"]).exit_code == 2
    assert runner.invoke(z3_app, ["conform", "--impl", "no.such.module"]).exit_code == 2


def test_the_rows_are_unsupported_for_an_engine_without_two_player_games() -> None:
    from oracle.engines.harness import parse_handshake
    from oracle.reference import ReferenceEngine
    from oracle.suites.registry import PlanContext

    handshake = parse_handshake({**ReferenceEngine().handshake(), "players": [3, 4]})
    units = BY_NAME["z3"].plan(PlanContext(REFERENCE, handshake, CheckOptions()))
    assert len(ROWS) == len(units)
    assert all("2-player positions" in unit.unsupported for unit in units)
