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
from oracle.core.results import FURTHER_FAILURES, CheckResult, Outcome
from oracle.reports.cause_words import cause_title
from oracle.reports.causes import causes_headline, group_causes
from oracle.reports.charges import Charge, charge
from oracle.reports.coverage import Tally, rule_coverage
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


def test_a_checks_further_failures_join_their_causes_under_the_checks_one_id() -> None:
    first = failed("invariants/LOCKSTEP", accepted_illegal(SUMMON, "PAYMENT_SUPERFLUOUS_STONE"), "invariants")
    other = failed("invariants/LOCKSTEP", differs_after(SUMMON, "players[0].score"), "invariants")
    same = failed("invariants/LOCKSTEP", accepted_illegal(SUMMON, "PAYMENT_SUPERFLUOUS_STONE"), "invariants")
    further = [other.to_json(), same.to_json()]
    check = CheckResult("invariants", first.id, first.id, Outcome.FAIL, details={**first.details,
                                                                                FURTHER_FAILURES: further})
    causes = group_causes([check])
    assert [(Verdict.ACCEPTS, 1), (Verdict.DIFFERS, 1)] == [(c.facts.verdict, len(c.members)) for c in causes]
    assert "2 causes, 1 failing check" == causes_headline(causes)


def test_an_engine_fault_is_grouped_by_its_kind_and_method() -> None:
    faults = [CheckResult("scenarios", f"s{i}", "", Outcome.ERROR, message="apply: KeyError: 'x'") for i in range(2)]
    assert [("fault/error/apply", 2)] == [(c.facts.signature, len(c.members)) for c in group_causes(faults)]


# ---------------------------------------------------------------------------------------------- the key (issue 24)


def blamed(verdict: Verdict, rule: str, kind: str = "action", code: str = "", field: str = "",
           **words: Any) -> CauseFacts:
    return CauseFacts(verdict, kind, code, field=field, rule=rule, **words)


def test_one_key_is_one_cause_whatever_the_kinds_cards_and_steps() -> None:
    members = [failed("summon", blamed(Verdict.ACCEPTS, "PAY-3", "action", "PAYMENT_SUPERFLUOUS_STONE",
                                       cards=("base-fire-05",), step=2)),
               failed("pay", blamed(Verdict.ACCEPTS, "PAY-3", "pay", "PAYMENT_SUPERFLUOUS_STONE",
                                    cards=("base-water-02",), step=7)),
               failed("game", blamed(Verdict.ACCEPTS, "PAY-3", "action", "PAYMENT_SUPERFLUOUS_STONE"), "random-play")]
    [cause] = group_causes(members)
    assert ("accepts/PAYMENT_SUPERFLUOUS_STONE/PAY-3", 3) == (cause.facts.signature, len(cause.members))
    assert (("action", "pay"), ("base-fire-05", "base-water-02"), (2, 7)) == (
        cause.facets.kinds, cause.facets.cards, cause.facets.steps)
    assert "kinds: action, pay · cards: Salamander and Kappa · steps: 2, 7" == cause.facets.text


def test_two_blamed_rules_are_two_causes_even_with_the_same_code() -> None:
    members = [failed("a", blamed(Verdict.ACCEPTS, "PAY-3", code="PAYMENT_SHORT")),
               failed("b", blamed(Verdict.ACCEPTS, "PAY-1", code="PAYMENT_SHORT"))]
    assert ["accepts/PAYMENT_SHORT/PAY-1", "accepts/PAYMENT_SHORT/PAY-3"] == sorted(
        c.facts.signature for c in group_causes(members))


def test_rejects_are_keyed_by_the_rule_not_by_the_engines_code() -> None:
    members = [failed("a", blamed(Verdict.REJECTS, "DEC-1", code="NOT_YOUR_TURN", kind="action")),
               failed("b", blamed(Verdict.REJECTS, "DEC-1", code="STONES_NOT_HELD", kind="pay"))]
    [cause] = group_causes(members)
    assert ("rejects/-/DEC-1", ("NOT_YOUR_TURN", "STONES_NOT_HELD")) == (cause.facts.signature,
                                                                          cause.facets.engine_codes)


def test_differs_is_keyed_by_the_field_pattern_and_the_rule() -> None:
    members = [failed(f"s{i}", blamed(Verdict.DIFFERS, "EFF-3", kind=k, field=f"players[{i}].score"))
               for i, k in enumerate(("summon", "choose_options"))]
    members.append(failed("x", blamed(Verdict.DIFFERS, "EFF-3", field="players[0].stones.red")))
    assert [("differs/players[*].score/EFF-3", 2), ("differs/players[*].stones.red/EFF-3", 1)] == [
        (c.facts.signature, len(c.members)) for c in group_causes(members)]


def test_without_a_blamed_rule_the_kind_keeps_unrelated_deviations_apart() -> None:
    members = [failed("a", accepted_illegal(SUMMON, "PAYMENT_SHORT")),
               failed("b", accepted_illegal({**SUMMON, "type": "pay"}, "PAYMENT_SHORT"))]
    assert ["accepts/action/PAYMENT_SHORT", "accepts/pay/PAYMENT_SHORT"] == sorted(
        c.facts.signature for c in group_causes(members))


def test_two_bugs_give_the_same_two_causes_in_either_order() -> None:
    first = [failed(f"limit-{i}", blamed(Verdict.DIFFERS, "LIMIT-1", kind="keep_stones",
                                         field="decision.kind", step=i)) for i in range(3)]
    second = [failed(f"setup-{i}", blamed(Verdict.DIFFERS, "SETUP-2", kind="new_game",
                                          field=f"players[{i}].score"), "setup") for i in range(2)]

    def seen(results: list[CheckResult]) -> list[tuple[str, tuple[str, ...], str]]:
        return sorted((c.facts.signature, tuple(sorted(m.id for m in c.members)), c.title)
                      for c in group_causes(results))

    assert seen([*first, *second]) == seen([*reversed(second), *first])
    assert ["differs/decision/LIMIT-1", "differs/players[*].score/SETUP-2"] == [
        signature for signature, _, _ in seen([*first, *second])]


def test_the_cause_takes_the_facts_of_its_smallest_member() -> None:
    game = failed("random-play/2p/seed-1", blamed(Verdict.ACCEPTS, "PAY-3", code="X", step=40), "random-play")
    scenario = failed("PAY-3-x", blamed(Verdict.ACCEPTS, "PAY-3", code="X", step=2, cards=("base-fire-05",)))
    [cause] = group_causes([game, scenario])
    assert (scenario, 2) == (cause.smallest, cause.facts.step)
    assert cause.title.startswith("Salamander, step 2: ")


# ---------------------------------------------------------------------------------------------- rules charged


def test_a_failure_is_charged_to_its_blamed_rule_only() -> None:
    assert Charge(("DEC-1",), ("SETUP-1", "HUNT-1")) == charge(Outcome.FAIL, ("SETUP-1", "DEC-1", "HUNT-1"), "DEC-1")


def test_a_failure_blamed_on_a_rule_it_does_not_cite_is_charged_there() -> None:
    assert Charge(("DEC-1",), ("SETUP-1",)) == charge(Outcome.WRONGLY_REJECTED, ("SETUP-1",), "DEC-1")


@pytest.mark.parametrize(("outcome", "blame"), [(Outcome.FAIL, ""), (Outcome.PASS, "DEC-1"),
                                                (Outcome.UNSUPPORTED, "DEC-1")])
def test_without_a_blame_or_a_failure_every_cited_rule_is_charged(outcome: Outcome, blame: str) -> None:
    assert Charge(("SETUP-1", "DEC-1")) == charge(outcome, ("SETUP-1", "DEC-1", "SETUP-1"), blame)


WIDE = ("SETUP-1", "HUNT-1", "DEC-1", "TAME-1")


def _blamed_failure(check_id: str, rule: str = "DEC-1", rules: tuple[str, ...] = WIDE) -> CheckResult:
    facts = blamed(Verdict.REJECTS, rule, code="NOT_YOUR_TURN", engine_message="not your turn, player 1")
    return CheckResult("scenarios", check_id, check_id, Outcome.WRONGLY_REJECTED, rules=rules,
                       details={CAUSE_KEY: facts.to_json()})


def test_the_coverage_charges_the_blamed_rule_and_counts_the_others_not_reached() -> None:
    results = [_blamed_failure("a"), _blamed_failure("b"), CheckResult("scenarios", "c", "", Outcome.PASS,
                                                                       rules=("SETUP-1",))]
    coverage = rule_coverage(results)
    assert (Tally(ran=2), Tally(ran=1, passed=1, not_reached=2), Tally(not_reached=2)) == (
        coverage["DEC-1"], coverage["SETUP-1"], coverage["TAME-1"])


def test_a_cause_counts_against_its_blamed_rule_and_keeps_the_engines_words() -> None:
    [cause] = group_causes([_blamed_failure("a"), _blamed_failure("b")])
    assert (("DEC-1",), "rule DEC-1", "not your turn, player 1") == (cause.rules, cause.blame_text,
                                                                     cause.engine_message)
    unknown = CheckResult("scenarios", "x", "", Outcome.FAIL, rules=("PAY-3", "PAY-1"),
                          details={CAUSE_KEY: accepted_illegal(SUMMON, "PAYMENT_SHORT").to_json()})
    assert (("PAY-3", "PAY-1"), "rules PAY-3, PAY-1 (blame not known)") == (group_causes([unknown])[0].rules,
                                                                            group_causes([unknown])[0].blame_text)


def test_the_json_report_carries_the_blame_the_facets_and_the_engines_words() -> None:
    from oracle.reports import RunInfo, build_report

    report = build_report([_blamed_failure("a"), CheckResult("scenarios", "p", "", Outcome.PASS, rules=WIDE)],
                          RunInfo(engine="e", engine_version="1", impl="x"))
    jsonschema.validate(report, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    [cause] = report["causes"]
    assert (["DEC-1"], "not your turn, player 1", ["NOT_YOUR_TURN"]) == (
        cause["rules"], cause["engine_message"], cause["facets"]["engine_codes"])
    assert ["DEC-1", ""] == [r["blamed_rule"] for r in report["results"]]
    rules = report["coverage"]["rules"]
    assert ({"ran": 2, "passed": 1, "unsupported": 0, "not_applicable": 0, "not_reached": 0},
            {"ran": 1, "passed": 1, "unsupported": 0, "not_applicable": 0, "not_reached": 1}) == (
        rules["DEC-1"], rules["TAME-1"])


# ---------------------------------------------------------------------------------------------- causes in words


def test_a_title_says_where_what_each_engine_does_and_the_rule() -> None:
    facts = CauseFacts(Verdict.DIFFERS, "keep_stones", field="decision.kind", rule="LIMIT-1", step=5,
                       cards=("base-fire-01",), engine_does="asks which stones to keep at 5 stones",
                       reference_does="the reference's limit is 6")
    assert ("Hestia, step 5: the engine asks which stones to keep at 5 stones; the reference's limit is 6 "
            "(LIMIT-1)") == cause_title(facts)


def test_a_title_names_the_rule_once_when_the_reference_s_words_end_with_it() -> None:
    facts = CauseFacts(Verdict.ACCEPTS, "summon", "PAYMENT_SHORT", rule="SUM-3", step=1,
                       engine_does="accepts P0 summons Undine paying nothing",
                       reference_does="rejects it: the cost is 1 (SUM-3)")
    assert ("Step 1: the engine accepts P0 summons Undine paying nothing; the reference rejects it: the cost is 1 "
            "(SUM-3)") == cause_title(facts)


def test_a_title_without_words_is_told_from_the_verdict_and_code() -> None:
    facts = CauseFacts(Verdict.ACCEPTS, "pay", "PAYMENT_SHORT", rule="PAY-1", step=3)
    assert ("Step 3: the engine accepts an answer to the pay decision; the reference rejects it with PAYMENT_SHORT "
            "(PAY-1)") == cause_title(facts)


def test_a_title_names_every_card_and_tile() -> None:
    facts = CauseFacts(Verdict.DIFFERS, "choose_options", field="players[*].score", rule="EFF-3",
                       cards=("base-dragon-03", "Gust", "base-water-11", "tile-incense-burner"),
                       engine_does="scores 4")
    assert ("Ember, Gust, Leviathan and Incense Burner: the engine scores 4 (EFF-3)") == cause_title(facts)


@pytest.mark.parametrize("verdict", list(Verdict))
def test_every_verdict_has_a_sentence_without_words(verdict: Verdict) -> None:
    title = cause_title(CauseFacts(verdict, "action", "CODE", "REF_CODE", "players[*].score"))
    assert title.startswith("The engine ") and "{" not in title


# ---------------------------------------------------------------------------------------------- end to end


def test_superfluous_payment_is_one_cause_blamed_on_pay_3() -> None:
    code, out, report = checked("--impl", "vale_fixtures.superfluous_payment")
    jsonschema.validate(report, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    causes = report["causes"]
    failing = sum(not Outcome(r["outcome"]).ok for r in report["results"])
    assert 1 == code
    assert ({"accepts"}, {"PAYMENT_SUPERFLUOUS_STONE"}) == ({c["kind"] for c in causes},
                                                            {c["facts"]["code"] for c in causes})
    assert (1, "PAY-3") == (len(causes), causes[0]["facts"]["rule"])
    assert failing == sum(c["count"] for c in causes)
    assert f"1 cause, {failing} failing checks:" in out


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
    zero = {"unsupported": 0, "not_applicable": 0, "not_reached": 0}
    assert {"ran": 1, "passed": passed, **zero} == rules["PAY-3"]
    assert {"ran": 1, "passed": passed, **zero} == cards["base-fire-05"]
    assert {"ran": 0, "passed": 0, **zero} == rules["END-1"]


def test_coverage_shows_unsupported_apart(tmp_path: Path) -> None:
    _, _, report = check(tmp_path, "--impl", "vale_fixtures.undrivable_options", "--suite", "scenarios",
                         "--select", "CARD-Hydra-two-different-options")
    rule = report["coverage"]["rules"]["RUL-6"]
    assert {"ran": 0, "passed": 0, "unsupported": 1, "not_applicable": 0, "not_reached": 0} == rule


# ---------------------------------------------------------------------------------------------- HTML


def _html_report(results: list[CheckResult], drop: str = "", impl: str = "tests.engine") -> Any:
    from datetime import UTC, datetime

    from oracle.reports import RunInfo, build_report
    from oracle.reports.html.load import parse_report

    run = RunInfo(engine="e", engine_version="1", impl=impl, suites=("scenarios",),
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
    both = render_site([_html_report(COVERED), _html_report(COVERED[:1], impl="tests.other")])["index.html"]
    assert '<section id="coverage">' in one
    assert "<td>PAY-3</td><td class=\"num\">2</td><td class=\"num\">1</td><td class=\"num\">1</td>" in one
    assert "<th>rules exercised</th>" in both
