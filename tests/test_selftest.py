"""``oracle selftest``: which run each fixture gets, how a run is judged, and the whole self-test passing."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import vale_fixtures
from oracle.cli.app import app
from oracle.cli.selftest import (
    FAULTS,
    REFERENCE,
    Expect,
    Fault,
    Plan,
    broken_rules,
    judge,
    plan_for,
    plans,
    run_selftest,
)
from oracle.core.exits import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_INCOMPLETE, EXIT_OK
from oracle.core.json_types import JSON
from oracle.core.results import Outcome


def _report(*results: tuple[str, tuple[str, ...]]) -> JSON:
    return {"results": [{"id": f"c{i}", "outcome": outcome, "rules": list(rules)}
                        for i, (outcome, rules) in enumerate(results)]}


# ---------------------------------------------------------------------------------------------- the plans


def test_every_fixture_module_with_an_engine_gets_a_plan() -> None:
    every = [p.name for p in plans()]
    modules = sorted(m.name for m in pkgutil.iter_modules(vale_fixtures.__path__))
    assert REFERENCE == every[0]
    assert ["reference ART-11=every_family", "reference EFF-8=simultaneous", "reference END-1=immediately",
            "reference RUL-1=per_stone"] == [
        n for n in every[1:] if n.startswith(f"{REFERENCE} ")]
    names = [n for n in every if not n.startswith(f"{REFERENCE} ")]
    assert sorted(names[1:]) == names[1:]
    skipped = [m for m in modules if m not in names]
    assert "broken" in skipped
    for name in skipped:
        module = importlib.import_module(f"vale_fixtures.{name}")
        assert not callable(getattr(module, "create", None)), f"{name} has an engine but no plan"


def test_each_rule_breaking_fixture_must_be_caught_with_its_declared_rules() -> None:
    caught = [plan for plan in plans() if plan.expect is Expect.CAUGHT]
    assert caught, "no plan expects a fixture to be caught"
    for plan in caught:
        engine = importlib.import_module(plan.impl.split(":")[0]).create()
        assert broken_rules(engine) == plan.rules
        narrowed = [plan.args[i + 1] for i, arg in enumerate(plan.args) if arg == "--rule"]
        assert narrowed in (list(plan.rules), []), plan.name  # by its rules, or by its own SELFTEST_ARGS selection


class _OneBug:
    BROKEN_RULE = "PAY-3"


class _TwoBugs:
    BROKEN_RULE = ""
    BROKEN_RULES = ("LIMIT-1", "SETUP-2")


def test_a_fixture_declares_one_broken_rule_or_a_tuple_of_them() -> None:
    assert (("PAY-3",), ("LIMIT-1", "SETUP-2"), ()) == (broken_rules(_OneBug()), broken_rules(_TwoBugs()),
                                                        broken_rules(object()))


def test_a_fixture_with_several_bugs_runs_every_suite_of_its_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    from oracle.cli import selftest

    monkeypatch.setattr(selftest, "_engine_of", lambda name: (_TwoBugs(), ""))
    plan = plan_for("two_bugs")
    assert plan is not None
    assert (Expect.CAUGHT, ("LIMIT-1", "SETUP-2")) == (plan.expect, plan.rules)
    assert ("--suite", "scenarios", "--suite", "setup", "--rule", "LIMIT-1", "--rule", "SETUP-2") == plan.args
    assert "caught: 2 causes, LIMIT-1, SETUP-2" == plan.expectation


def test_suites_come_from_the_rule_catalogue() -> None:
    setup = plan_for("scores_from_seat_zero")
    payment = plan_for("superfluous_payment")
    assert setup is not None and payment is not None
    assert ("--suite", "setup", "--rule", "SETUP-2") == setup.args
    assert ("--suite", "scenarios", "--rule", "PAY-3") == payment.args


def test_a_fixture_names_its_own_options_where_the_catalogue_suite_cannot_catch_it() -> None:
    pinned = plan_for("pins_a_card_on_top")
    assert pinned is not None
    assert ("--suite", "random-play", "--rule", "DECK-1", "--games", "20") == pinned.args


def test_fault_fixtures_and_the_minimal_adapter() -> None:
    by_name = {p.name: p for p in plans()}
    assert set(FAULTS) <= set(by_name)
    assert (Expect.FAULT_OUTCOME, Outcome.TIMEOUT) == (by_name["hangs"].expect, FAULTS["hangs"].outcome)
    assert (Expect.FAULT_OUTCOME, Outcome.ERROR) == (by_name["crashes"].expect, FAULTS["crashes"].outcome)
    assert (Expect.FAULT_EXIT, EXIT_BAD_INPUT) == (by_name["import_fails"].expect, FAULTS["import_fails"].exit_code)
    assert Expect.PASSES == by_name["minimal_adapter"].expect
    assert Expect.CLEAN == by_name[REFERENCE].expect


FORGED_EVENTS = {"event_of_unknown_type": "PROTO-2", "fake_points_event": "SELL-1",
                 "missing_marker_event": "HUNT-2", "wrong_tamer_event": "TAME-1"}


def test_each_forged_events_fixture_is_caught_by_the_lockstep_with_and_without_load() -> None:
    by_name = {p.name: p for p in plans()}
    expected = {run: (f"vale_fixtures.{run}", Expect.CAUGHT, (rule,), ("--suite", "invariants"))
                for name, rule in FORGED_EVENTS.items() for run in (name, f"{name}:without_load")}
    assert (8, expected) == (len(expected), {run: (by_name[run].impl, by_name[run].expect, by_name[run].rules,
                                                   by_name[run].args) for run in expected})


def test_only_a_module_with_a_without_load_factory_gets_a_run_without_load() -> None:
    names = {p.name for p in plans()}
    assert "superfluous_payment:without_load" not in names
    assert {f"{name}:without_load" for name in FORGED_EVENTS} <= names


def test_a_fault_may_name_one_factory_of_a_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(FAULTS, "minimal_adapter:create", Fault(("--suite", "setup"), outcome=Outcome.ERROR))
    found = {p.name: p for p in plans()}
    plan = found["minimal_adapter:create"]
    assert ("vale_fixtures.minimal_adapter:create", Expect.FAULT_OUTCOME) == (plan.impl, plan.expect)
    assert Expect.PASSES == found["minimal_adapter"].expect


# ---------------------------------------------------------------------------------------------- judging a run


CAUGHT = Plan("superfluous", "x", Expect.CAUGHT, rules=("PAY-3",))
TWO_BUGS = Plan("two_bugs", "x", Expect.CAUGHT, rules=("LIMIT-1", "SETUP-2"))


def _cause(rule: str, title: str = "a cause") -> JSON:
    return {"signature": f"accepts/X/{rule or '-'}", "title": title, "facts": {"verdict": "accepts", "rule": rule}}


def _caught(*causes: JSON) -> JSON:
    return {**_report(("fail", ("PAY-3",)), ("fail", ("PAY-1",))), "causes": list(causes)}


def test_caught_needs_exactly_one_cause_blamed_on_the_broken_rule() -> None:
    assert judge(CAUGHT, EXIT_FAILED, _caught(_cause("PAY-3")), "")[0]
    assert not judge(CAUGHT, EXIT_OK, _caught(_cause("PAY-3")), "")[0]


def test_a_fixture_reported_with_more_causes_than_bugs_fails_naming_them() -> None:
    ok, seen = judge(CAUGHT, EXIT_FAILED, _caught(_cause("PAY-3"), _cause("", "score differs after Kappa")), "")
    assert not ok
    assert seen.startswith("wrong causes: superfluous expects 1 cause, one blamed on each of PAY-3; reported 2: "
                           "a cause [PAY-3]; score differs after Kappa [blame not known]")


def test_a_fixture_whose_cause_is_blamed_elsewhere_fails_naming_it() -> None:
    ok, seen = judge(CAUGHT, EXIT_FAILED, _caught(_cause("PAY-1", "short payment")), "")
    assert (False, True) == (ok, "reported 1: short payment [PAY-1]" in seen)


def test_a_fixture_without_a_cause_is_not_caught() -> None:
    ok, seen = judge(CAUGHT, EXIT_FAILED, _report(("expected-failure", ("PAY-3",))), "")
    assert (False, True) == (ok, seen.startswith("not caught: superfluous expects 1 cause"))


def test_two_bugs_need_two_causes_each_blamed_on_its_own_rule() -> None:
    assert judge(TWO_BUGS, EXIT_FAILED, _caught(_cause("SETUP-2"), _cause("LIMIT-1")), "")[0]
    assert not judge(TWO_BUGS, EXIT_FAILED, _caught(_cause("LIMIT-1")), "")[0]
    assert not judge(TWO_BUGS, EXIT_FAILED, _caught(_cause("LIMIT-1"), _cause("LIMIT-1")), "")[0]
    assert not judge(TWO_BUGS, EXIT_FAILED, _caught(_cause("LIMIT-1"), _cause("SETUP-2"), _cause("PAY-3")), "")[0]


def test_clean_means_every_check_passes_but_other_variant_readings() -> None:
    plan = Plan(REFERENCE, "oracle.reference", Expect.CLEAN)
    other_reading = {"id": "v", "outcome": "not-applicable", "rules": [],
                     "message": "the scenario depends on RUL-1=per_stone; the engine declares RUL-1=per_summon"}
    assert judge(plan, EXIT_OK, _report(("pass", ())), "")[0]
    assert judge(plan, EXIT_OK, {"results": [*_report(("pass", ()))["results"], other_reading]}, "")[0]
    assert not judge(plan, EXIT_OK, _report(("pass", ()), ("unsupported", ())), "")[0]
    assert not judge(plan, EXIT_OK, _report(("pass", ()), ("not-applicable", ())), "")[0]
    assert not judge(plan, EXIT_OK, _report(), "")[0]


def test_a_fixture_that_checks_nothing_must_pass_nothing_and_exit_3() -> None:
    plan = plan_for("ends_at_step_zero")
    assert plan is not None and Expect.CHECKS_NOTHING == plan.expect
    assert judge(plan, EXIT_INCOMPLETE, _report(("incomplete", ()), ("unsupported", ())), "")[0]
    assert not judge(plan, EXIT_INCOMPLETE, _report(("incomplete", ()), ("pass", ())), "")[0]
    assert not judge(plan, EXIT_OK, _report(("unsupported", ())), "")[0]
    assert not judge(plan, EXIT_FAILED, _report(("incomplete", ()), ("fail", ())), "")[0]


def test_passes_allows_unsupported_but_not_failures() -> None:
    plan = Plan("minimal_adapter", "m", Expect.PASSES)
    assert judge(plan, EXIT_OK, _report(("pass", ()), ("unsupported", ())), "")[0]
    assert not judge(plan, EXIT_FAILED, _report(("pass", ()), ("fail", ())), "")[0]


def test_a_fault_is_its_outcome_everywhere_or_its_exit_code() -> None:
    hangs = Plan("hangs", "h", Expect.FAULT_OUTCOME, fault=FAULTS["hangs"])
    assert judge(hangs, EXIT_FAILED, _report(("timeout", ()), ("timeout", ())), "")[0]
    assert not judge(hangs, EXIT_FAILED, _report(("timeout", ()), ("error", ())), "")[0]
    import_fails = Plan("import_fails", "i", Expect.FAULT_EXIT, fault=FAULTS["import_fails"])
    assert judge(import_fails, EXIT_BAD_INPUT, None, "error: --impl 'i': importing i raised ImportError\n")[0]
    assert not judge(import_fails, EXIT_FAILED, None, "Traceback (most recent call last):\n")[0]


# ---------------------------------------------------------------------------------------------- real runs


def test_a_wrong_expectation_is_reported_as_failed(tmp_path: Path) -> None:
    wrong = Plan(REFERENCE, "oracle.reference", Expect.CAUGHT, ("--suite", "scenarios", "--rule", "PAY-3"),
                 rules=("PAY-3",))
    [verdict] = run_selftest(tmp_path, chosen=[wrong])
    assert not verdict.ok
    assert verdict.seen.startswith("not caught")


# The whole self-test (every plan, about 2 minutes on 2 cores) runs in .ci/run after the test command; the test
# run checks one plan of each kind: the reference, a rule-breaking fixture, a fault, and an honest fixture.
SAMPLE = ("reference", "superfluous_payment", "hangs", "internal_shuffle")


def test_oracle_selftest_passes_and_builds_the_matrix(tmp_path: Path) -> None:
    reports, site = tmp_path / "reports", tmp_path / "site"
    only = [arg for name in SAMPLE for arg in ("--only", name)]
    result = CliRunner().invoke(app, ["selftest", "--reports", str(reports), "--html", str(site), *only])
    assert 0 == result.exit_code, result.output
    lines = result.output.splitlines()
    assert lines[-1].startswith(f"selftest PASSED: {len(SAMPLE)} of {len(SAMPLE)} runs as expected")
    assert all(" ok " in line for line in lines[1:len(SAMPLE) + 1])
    assert (reports / "reference.json").is_file()
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "fixture vale_fixtures.superfluous_payment (breaks PAY-3)" in index


def test_an_unknown_plan_is_bad_input() -> None:
    result = CliRunner().invoke(app, ["selftest", "--only", "no_such_fixture"])
    assert 2 == result.exit_code
    assert "--only 'no_such_fixture': no such plan" in result.stderr
