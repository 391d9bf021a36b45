"""Speed in the report (issue 25, item 5): the engine's cost per call by method, how the budgets followed it, and
what the engine could declare to make the oracle faster, in every report; and the workers that measure it start
forked from the supervisor (item 4)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import jsonschema
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.results import CheckResult, Outcome
from oracle.engines.adapter_like import AdapterLike, adapter_like
from oracle.engines.costs import BY_TRIAL, CostRecorder, EngineCosts, MethodCost, advice
from oracle.engines.harness import Subject, on_engine_cost
from oracle.engines.play import new_setup
from oracle.engines.speed import BudgetScale
from oracle.reference import create
from oracle.reports.common import RunInfo
from oracle.reports.json_report import SCHEMA_FILE, write_json
from oracle.reports.junit import junit_tree
from oracle.reports.markdown import markdown_report
from oracle.run.launch import ForkedWorker

runner = CliRunner()


def _costs(method: str, *seconds: float) -> EngineCosts:
    recorder = CostRecorder()
    for duration in seconds:
        recorder.record(method, duration)
    return recorder.take()


# ---------------------------------------------------------------------------------------------- the measure


def test_the_median_is_the_middle_call_to_within_6_percent_and_the_total_is_exact() -> None:
    cost = _costs("apply", 0.001, 0.002, 0.004, 0.5, 0.9).of("apply")
    assert cost is not None
    assert (5, 1.407, True) == (cost.calls, round(cost.seconds, 3), abs(cost.median - 0.004) / 0.004 < 0.06)


def test_costs_of_units_add_up_and_list_the_costliest_method_first() -> None:
    merged = _costs("apply", 0.001, 0.001).merged(_costs("decision", 0.5)).merged(_costs("apply", 0.001))
    assert [("decision", 1), ("apply", 3)] == [(cost.method, cost.calls) for cost in merged.methods]


def test_a_take_forgets_what_it_took() -> None:
    recorder = CostRecorder()
    recorder.record("apply", 0.001)
    assert (1, ()) == (len(recorder.take().methods), recorder.take().methods)


def test_only_the_engine_under_test_is_costed_and_a_legal_set_found_by_trial_has_a_row_of_its_own() -> None:
    recorder = CostRecorder()
    remove = on_engine_cost(recorder.record)
    try:
        engine = Subject(adapter_like(create, AdapterLike(by_trial=True)), "by-trial")
        engine.new_game(new_setup(2, 1, first_player=0))
        tried = len(engine.legal_actions())
        Subject(create, "oracle.reference", costed=False).decision()
    finally:
        remove()
    calls = {cost.method: cost.calls for cost in recorder.take().methods}
    assert {BY_TRIAL: 1, "create": 1 + calls.get("load", 0), "decision": 1} == {
        method: calls.get(method) for method in (BY_TRIAL, "create", "decision")}
    assert tried >= 1


# ---------------------------------------------------------------------------------------------- the advice


def test_the_advice_names_the_capability_the_run_paid_for_lacking() -> None:
    paid = _costs(BY_TRIAL, 0.02).merged(_costs("deepcopy", 0.01))
    texts = advice(paid, frozenset({"legal_actions"}))
    assert (1, True, ()) == (len(texts), texts[0].startswith("declare `export` and `load`"),
                             advice(paid, frozenset({"legal_actions", "export", "load"})))


def test_no_advice_for_a_capability_lacked_that_cost_nothing() -> None:
    assert () == advice(_costs("apply", 0.001), frozenset())


# ---------------------------------------------------------------------------------------------- the reports


def _run() -> RunInfo:
    costs = EngineCosts((MethodCost("legal_actions_by_trial", 3, 0.06, ((-34, 3),)),))
    return RunInfo(engine="e", engine_version="1", impl="cmd:e", budget_scale=BudgetScale.given(2.0),
                   engine_costs=costs, speed_advice=advice(costs, frozenset()))


def test_the_json_report_holds_the_costs_and_the_advice_and_validates(tmp_path: Path) -> None:
    write_json(tmp_path / "r.json", [], _run())
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    jsonschema.validate(report, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    costs = report["run"]["engine_costs"]
    assert ([{"method": BY_TRIAL, "calls": 3, "median_ms": 21.13489, "total_s": 0.06}], 1) == (
        costs["methods"], len(costs["advice"]))


def test_markdown_and_junit_show_the_costs_the_budget_scale_and_the_advice() -> None:
    markdown = markdown_report([], _run())
    passed = CheckResult("setup", "setup/2p", "a set-up", Outcome.PASS)
    root = junit_tree([passed], _run()).getroot()
    assert root is not None
    properties = {p.attrib["name"]: p.attrib["value"] for p in root.iter("property")}
    assert (True, True, True) == ("| `legal_actions_by_trial` | 3 | 21.1 | 0.06 |" in markdown,
                                  "The run's budget scale 2 (given: --budget-scale 2)." in markdown,
                                  "* Faster: declare `legal_actions`" in markdown)
    assert {"budget_scale", f"engine_cost.{BY_TRIAL}", "speed_advice.1"} <= set(properties)


def test_oracle_check_reports_the_calls_its_workers_timed(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    result = runner.invoke(app, ["check", "--suite", "setup", "--jobs", "1", "--budget-scale", "1", "--report-json",
                                 str(report)])
    methods = {m["method"]: m["calls"] for m in json.loads(report.read_text(encoding="utf-8"))["run"]["engine_costs"]
               ["methods"]}
    assert (0, 9) == (result.exit_code, methods.get("new_game"))
    assert "engine calls: " in result.output


# ---------------------------------------------------------------------------------------------- forked workers


def test_a_forked_worker_answers_as_a_subprocess_would_its_exit_code_or_minus_its_signal() -> None:
    codes = []
    for ending in ("exit", "kill"):
        pid = os.fork()
        if pid == 0:
            if ending == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            os._exit(3)
        codes.append(ForkedWorker(pid).wait(30))
    assert [3, -signal.SIGKILL] == codes


