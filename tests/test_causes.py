"""Findings grouped by cause, rule-id notes, undrivable decisions and the coverage view (issues 12 and 16)."""

from __future__ import annotations

import json
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.causes import (
    CAUSE_KEY,
    CauseFacts,
    Verdict,
    accepted_illegal,
    decision_kind,
    differs_after,
    field_pattern,
    other_code,
)
from oracle.core.results import CheckResult, Outcome
from oracle.reports.causes import group_causes
from oracle.reports.json_report import SCHEMA_FILE
from oracle.scenarios.from_trace import partial_expect, roundtrip_scenario, start_given
from tests.shared_runs import checked

runner = CliRunner()
SUMMON = {"type": "summon", "player": 0, "card": "base-fire-05", "payment": {"red": 1, "blue": 1, "purple": 0}}
PAY3 = "PAY-3-red-and-blue-for-cost-1"


def check(tmp_path: Path, *args: str) -> tuple[int, str, dict[str, Any]]:
    """Run ``oracle check`` with a JSON report; the exit code, the console and the report (schema-checked)."""
    report = tmp_path / "report.json"
    result = runner.invoke(app, ["check", "--report-json", str(report), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    data = json.loads(report.read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    return result.exit_code, result.stdout, data


def failed(check_id: str, facts: CauseFacts, suite: str = "scenarios") -> CheckResult:
    return CheckResult(suite, check_id, check_id, Outcome.FAIL, details={CAUSE_KEY: facts.to_json()})


# ---------------------------------------------------------------------------------------------- signatures


def test_field_pattern_drops_indices() -> None:
    assert "players[*].stones.red" == field_pattern("players[1].stones.red")


def test_decision_kind_of_an_action_type() -> None:
    assert ("action", "keep_stones", "pay") == (decision_kind("summon"), decision_kind("keep_stones"),
                                                decision_kind("pay"))


def test_signature_does_not_depend_on_the_check_or_the_player() -> None:
    other = {**SUMMON, "player": 2, "card": "base-water-02"}
    removal = {**SUMMON, "type": "remove"}
    signatures = {accepted_illegal(a, "PAYMENT_SUPERFLUOUS_STONE").signature for a in (SUMMON, other, removal)}
    assert {"accepts/action/PAYMENT_SUPERFLUOUS_STONE"} == signatures


def test_most_checks_first_and_code_only_differences_last() -> None:
    code_only = [failed(f"code-{i}", other_code(SUMMON, "PAYMENT_SHORT", "STONES_NOT_HELD")) for i in range(3)]
    accepted = [failed("accepted", accepted_illegal(SUMMON, "PAYMENT_SUPERFLUOUS_STONE"))]
    differs = [failed(f"score-{i}", differs_after(SUMMON, f"players[{i}].score")) for i in range(2)]
    causes = group_causes([*code_only, *differs, *accepted])
    assert [Verdict.ACCEPTS, Verdict.DIFFERS, Verdict.OTHER_CODE] == [c.facts.verdict for c in causes]
    assert [1, 2, 3] == [len(c.members) for c in causes]


def test_an_engine_fault_is_grouped_by_its_kind_and_method() -> None:
    faults = [CheckResult("scenarios", f"s{i}", "", Outcome.ERROR, message="apply: KeyError: 'x'") for i in range(2)]
    assert [("fault/error/apply", 2)] == [(c.facts.signature, len(c.members)) for c in group_causes(faults)]


# ---------------------------------------------------------------------------------------------- end to end


def test_superfluous_payment_is_one_cause_per_decision_kind() -> None:
    code, out, report = checked("--impl", "vale_fixtures.superfluous_payment")
    jsonschema.validate(report, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    causes = report["causes"]
    failing = sum(not Outcome(r["outcome"]).ok for r in report["results"])
    assert 1 == code
    assert ({"accepts"}, {"PAYMENT_SUPERFLUOUS_STONE"}) == ({c["kind"] for c in causes},
                                                            {c["facts"]["code"] for c in causes})
    assert 2 >= len(causes)
    assert failing == sum(c["count"] for c in causes)
    assert f"{len(causes)} causes, {failing} failing checks:" in out


def test_kappa_own_summon_is_one_cause() -> None:
    code, out, report = checked("--impl", "vale_fixtures.kappa_own_summon")
    failing = sum(not Outcome(r["outcome"]).ok for r in report["results"])
    assert (1, 1) == (code, len(report["causes"]))
    assert ("differs", "players[*].score", failing) == (report["causes"][0]["kind"],
                                                         report["causes"][0]["facts"]["field"],
                                                         report["causes"][0]["count"])
    assert f"1 cause, {failing} failing checks:" in out


def test_duduri_king_keeps_first_is_one_cause() -> None:
    code, out, report = checked("--impl", "vale_fixtures.duduri_king_keeps_first")
    failing = sum(not Outcome(r["outcome"]).ok for r in report["results"])
    assert (1, 1) == (code, len(report["causes"]))
    assert ("differs", "sell", "decision.kind", failing) == (report["causes"][0]["kind"],
                                                             report["causes"][0]["facts"]["kind"],
                                                             report["causes"][0]["facts"]["field"],
                                                             report["causes"][0]["count"])
    assert "LIMIT-2" in report["causes"][0]["rules"]
    assert f"1 cause, {failing} failing checks:" in out


def test_the_reference_has_no_failure_and_no_note() -> None:
    code, out, report = checked()
    jsonschema.validate(report, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    assert (0, 0, 0, []) == (code, report["totals"]["causes"], report["totals"]["notes"], report["causes"])
    assert not any(r["notes"] for r in report["results"])
    assert "note" not in out.lower()
    checks = report["totals"]["checks"]
    assert f"PASSED: {checks} checks, {checks - 11} ran, 0 unsupported, 11 not applicable" in out


# ---------------------------------------------------------------------------------------------- rule notes


def test_a_different_rule_id_is_a_note_in_every_report(tmp_path: Path) -> None:
    junit, markdown = tmp_path / "junit.xml", tmp_path / "summary.md"
    code, out, report = check(tmp_path, "--impl", "vale_fixtures.other_rule_ids", "--suite", "scenarios",
                              "--select", PAY3, "--junit-xml", str(junit), "--markdown", str(markdown))
    note = "step 2: PAYMENT_SUPERFLUOUS_STONE cites rule 'DEC-2', the reference cites PAY-3"
    assert (0, "pass", [note], 1) == (code, report["results"][0]["outcome"], report["results"][0]["notes"],
                                      report["totals"]["notes"])
    assert f"NOTE             {PAY3}: {note}" in out
    assert "1 note" in out
    case = ET.parse(junit).getroot().find(".//testcase")
    assert case is not None
    assert (f"note: {note}\n", None) == (case.findtext("system-out"), case.find("failure"))
    assert note in markdown.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------- undrivable


def test_an_undrivable_decision_is_unsupported_with_its_reason(tmp_path: Path) -> None:
    code, out, report = check(tmp_path, "--impl", "vale_fixtures.undrivable_options", "--suite", "scenarios",
                              "--select", "CARD-Hydra-*")
    outcomes = {r["id"]: (r["outcome"], r["details"].get("undrivable")) for r in report["results"]}
    from vale_fixtures.undrivable_options import REASON

    assert 4 == code, out
    assert {("unsupported", REASON)} == set(outcomes.values())
    assert f"{len(outcomes)} undrivable decisions" in out


def test_undrivable_decisions_turn_red_with_fail_on_unsupported(tmp_path: Path) -> None:
    code, _, _ = check(tmp_path, "--impl", "vale_fixtures.undrivable_options", "--suite", "scenarios",
                       "--select", "CARD-Hydra-*", "--fail-on-unsupported")
    assert 1 == code


def test_random_play_moves_on_after_an_undrivable_decision(tmp_path: Path) -> None:
    code, _, report = check(tmp_path, "--impl", "vale_fixtures.undrivable_options", "--suite", "random-play",
                            "--games", "6")
    outcomes = [(r["outcome"], bool(r["details"].get("undrivable"))) for r in report["results"]]
    assert 0 == code
    assert ("unsupported", True) in outcomes
    assert {("pass", False), ("unsupported", True)} == set(outcomes)
    assert report["totals"]["checks"] == len(outcomes)


# ---------------------------------------------------------------------------------------------- trace scenarios


def test_a_failing_game_is_saved_as_a_scenario_that_reproduces_it(tmp_path: Path) -> None:
    saved = tmp_path / "saved"
    code, _, report = check(tmp_path, "--impl", "vale_fixtures.refuses_late_tames", "--suite", "random-play",
                            "--games", "1", "--save-failures", str(saved))
    files = sorted((saved / "games").glob("*.toml"))
    assert (1, len(report["results"])) == (code, len(files))
    on_reference = runner.invoke(app, ["check", "--suite", "scenarios", "--scenarios", str(saved)])
    on_engine = runner.invoke(app, ["check", "--suite", "scenarios", "--scenarios", str(saved),
                                    "--impl", "vale_fixtures.refuses_late_tames"])
    assert (0, 1) == (on_reference.exit_code, on_engine.exit_code)


def test_without_save_failures_the_scenario_is_embedded(tmp_path: Path) -> None:
    _, _, report = check(tmp_path, "--impl", "vale_fixtures.refuses_late_tames", "--suite", "roundtrip",
                         "--games", "1")
    cause = report["causes"][0]
    scenario = tomllib.loads(cause["smallest_scenario"])
    assert ("rejects", "WRONG_DECISION") == (cause["kind"], cause["facts"]["code"])
    assert "tame" == scenario["steps"][-1]["do"]["type"]


def test_a_roundtrip_failure_pins_the_snapshot_that_did_not_survive() -> None:
    snapshot = {"setup": {"players": 2}, "round": 3, "phase": "action", "first_player": 1,
                "players": [{"score": 4}, {"score": 7}], "display": [], "draw_pile": [], "private": {"x": 1}}
    doc = roundtrip_scenario("2p/seed-101", "oracle play", snapshot, "players[1].score")
    assert doc is not None
    assert ([{"expect": {"players": [{}, {"score": 7}]}}], "private" in doc["given"]) == (
        [{k: v for k, v in s.items() if k != "note"} for s in doc["steps"]], False)


def test_start_given_scores_from_the_first_player() -> None:
    given = start_given({"players": 3, "first_player": 1, "deck": ["base-fire-01"]})
    assert [{"score": 3}, {"score": 1}, {"score": 2}] == given["players"]


def test_partial_expect_outside_players() -> None:
    assert {"round": 3} == partial_expect({"round": 3}, "round")


# ---------------------------------------------------------------------------------------------- coverage


@pytest.mark.parametrize("impl", ["oracle.reference", "vale_fixtures.superfluous_payment"])
def test_coverage_counts_checks_per_rule_and_card(tmp_path: Path, impl: str) -> None:
    _, _, report = check(tmp_path, "--impl", impl, "--suite", "scenarios", "--select", PAY3)
    passed = 1 if impl == "oracle.reference" else 0
    rules, cards = report["coverage"]["rules"], report["coverage"]["cards"]
    assert {"ran": 1, "passed": passed, "unsupported": 0, "not_applicable": 0} == rules["PAY-3"]
    assert {"ran": 1, "passed": passed, "unsupported": 0, "not_applicable": 0} == cards["base-fire-05"]
    assert {"ran": 0, "passed": 0, "unsupported": 0, "not_applicable": 0} == rules["END-1"]


def test_coverage_shows_unsupported_apart(tmp_path: Path) -> None:
    _, _, report = check(tmp_path, "--impl", "vale_fixtures.undrivable_options", "--suite", "scenarios",
                         "--select", "CARD-Hydra-two-different-options")
    assert {"ran": 0, "passed": 0, "unsupported": 1, "not_applicable": 0} == report["coverage"]["rules"]["RUL-6"]


# ---------------------------------------------------------------------------------------------- HTML


def _html_report(results: list[CheckResult], drop: str = "") -> Any:
    from datetime import UTC, datetime

    from oracle.reports import RunInfo, build_report
    from oracle.reports.html.load import parse_report

    run = RunInfo(engine="e", engine_version="1", impl="tests.engine", suites=("scenarios",),
                  started=datetime(2024, 5, 1, tzinfo=UTC))
    data = {k: v for k, v in build_report(results, run).items() if k != drop}
    return parse_report(data, Path("r.json"))


COVERED = [CheckResult("scenarios", "a", "", Outcome.PASS, rules=("PAY-3",)),
           CheckResult("scenarios", "b", "", Outcome.FAIL, rules=("PAY-3",)),
           CheckResult("scenarios", "c", "", Outcome.UNSUPPORTED, rules=("PAY-3",))]


@pytest.mark.parametrize("drop", ["", "coverage"])
def test_the_html_reads_the_coverage_or_works_it_out_from_older_reports(drop: str) -> None:
    from oracle.reports.html.load import Coverage

    assert Coverage(ran=2, passed=1, unsupported=1) == _html_report(COVERED, drop).rule_coverage["PAY-3"]


def test_the_html_pages_show_the_coverage() -> None:
    from oracle.reports.html.site import render_site

    one = render_site([_html_report(COVERED)])["index.html"]
    both = render_site([_html_report(COVERED), _html_report(COVERED[:1])])["index.html"]
    assert '<section id="coverage">' in one
    assert "<td>PAY-3</td><td class=\"num\">2</td><td class=\"num\">1</td><td class=\"num\">1</td>" in one
    assert "<th>rules exercised</th>" in both
