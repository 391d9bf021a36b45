"""Forged shards (issue 36): ``oracle report merge`` is green only when every planned check ran, in a real shard.

Each shard's report proves its deal (the plan, the plan's digest, the digest of the units dealt to it and of its
results); the merge deals the plan again and refuses, naming the file and the field, every shard below. Each
forgery starts from real shard reports of the narrow run of tests/test_shards.py (made in this process). A forger
who "reseals" (writes the results digest and the totals again for the results the report now holds) is still
caught by the plan; one who also writes the dealt digest again is caught by the units it was not dealt."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.exits import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_INCOMPLETE
from oracle.core.json_types import JSON
from oracle.core.shards import Plan, PlannedUnit, Shard
from oracle.reports.causes import group_causes
from oracle.reports.common import failed_results
from oracle.reports.json_report import build_report, report_totals, results_sha256
from oracle.reports.merge import MergeError, ShardReport, merge_shards, result_of
from oracle.reports.shard_proof import shard_run
from tests.test_shards import shard_report, shards_of

FIXTURE = "vale_fixtures.superfluous_payment"
"""A broken fixture: the narrow run FAILS with five failing checks, in shards 2 and 3 of 4."""
REFERENCE = "oracle.reference"
runner = CliRunner()


def real(impl: str, count: int) -> list[JSON]:
    """Copies of the real reports of the ``count`` shards of the narrow run, to forge."""
    return [copy.deepcopy(shard_report(impl, k, count)) for k in range(1, count + 1)]


def kept(data: JSON, keep: Callable[[JSON], bool]) -> JSON:
    """The report with only the results ``keep`` keeps (and their positions, so the lists still pair up)."""
    pairs = [(p, r) for p, r in zip(data["run"]["shard"]["positions"], data["results"], strict=True) if keep(r)]
    data["run"]["shard"]["positions"] = [p for p, _ in pairs]
    data["results"] = [r for _, r in pairs]
    return data


def resealed(data: JSON) -> JSON:
    """The report with its results digest and its totals written again for the results it now holds."""
    report = ShardReport(Path("forged.json"), data, tuple(map(result_of, data["results"])))
    run = shard_run(report)
    data["run"]["shard"]["results_sha256"] = results_sha256(data["results"])
    data["totals"] = report_totals(report.results, run, len(group_causes(failed_results(report.results, run))))
    return data


def refused(reports: list[JSON]) -> str:
    """``file: field`` of the merge's refusal of ``reports`` (read as shard-1.json, shard-2.json, ...)."""
    with pytest.raises(MergeError) as refusal:
        merge_shards(shards_of(reports))
    file, field, _ = str(refusal.value).split(": ", 2)
    return f"{file}: {field}"


def passing(result: JSON) -> bool:
    return bool(result["outcome"] == "pass")


# ---------------------------------------------------------------------------------------------- deleted results


def test_the_real_shards_of_a_broken_fixture_merge_to_failed() -> None:
    merged = merge_shards(shards_of(real(FIXTURE, 4)))
    assert (9, "FAILED", 1) == (len(merged.results), *(build_report(merged.results, merged.run)["totals"][k]
                                                       for k in ("verdict", "exit_code")))


def test_shards_with_their_failing_results_deleted_are_refused() -> None:
    forged = [kept(data, passing) for data in real(FIXTURE, 4)]
    assert "shard-2.json: run.shard.results_sha256" == refused(forged)


def test_resealed_shards_with_their_failing_results_deleted_are_refused_for_the_checks_without_a_result() -> None:
    forged = [resealed(kept(data, passing)) for data in real(FIXTURE, 4)]
    assert "shard-2.json: results" == refused(forged)


def test_a_failing_result_edited_to_pass_is_refused() -> None:
    forged = real(FIXTURE, 4)
    failing = next(r for r in forged[2]["results"] if r["outcome"] != "pass")
    failing.update(outcome="pass", message="")
    assert "shard-3.json: run.shard.results_sha256" == refused(forged)


# ---------------------------------------------------------------------------------------------- relabelled shards


def relabelled(data: JSON, index: int, count: int) -> JSON:
    data["run"]["shard"].update(index=index, count=count)
    data["run"]["options"]["shard"] = None if count == 1 else f"{index}/{count}"
    return data


def test_a_shard_relabelled_as_the_whole_run_is_refused() -> None:
    shard = relabelled(real(FIXTURE, 3)[1], 1, 1)
    assert "shard-1.json: run.shard.dealt_sha256" == refused([shard])


def test_a_shard_relabelled_as_the_whole_run_with_its_dealt_digest_written_again_is_refused() -> None:
    shard = relabelled(real(FIXTURE, 3)[1], 1, 1)
    shard["run"]["shard"]["dealt_sha256"] = ShardReport(Path("x"), shard, ()).plan.dealt_sha256(Shard(1, 1))
    assert "shard-1.json: results" == refused([shard])


def test_a_shard_copied_under_another_index_is_refused() -> None:
    first, second, third = real(FIXTURE, 3)
    assert "shard-1.json: run.shard.dealt_sha256" == refused([relabelled(copy.deepcopy(second), 1, 3), second,
                                                               third])
    assert "shard-4.json: run.shard.index" == refused([first, second, third, relabelled(copy.deepcopy(first), 4, 3)])


# ---------------------------------------------------------------------------------------------- checks not run


def not_run_last(data: JSON, stopped: str) -> JSON:
    """The report with its last result listed as not run instead, the run stopped for ``stopped`` ('' for none)."""
    result = data["results"].pop()
    data["run"]["not_run"].append(result["id"])
    data["run"]["shard"]["not_run_positions"].append(data["run"]["shard"]["positions"].pop())
    data["run"].update(stopped=stopped, complete=not stopped)
    return resealed(data)


def test_checks_not_run_with_no_stop_reason_are_refused() -> None:
    first, second, third = real(REFERENCE, 3)
    assert "shard-2.json: run.stopped" == refused([first, not_run_last(second, ""), third])


def test_a_run_marked_complete_while_it_states_a_stop_is_refused() -> None:
    first, second, third = real(REFERENCE, 3)
    second = not_run_last(second, "stopped by the time budget")
    second["run"]["complete"] = True
    assert "shard-2.json: run.complete" == refused([first, second, third])


def test_checks_not_run_for_a_stated_stop_leave_the_merged_run_incomplete_never_passed() -> None:
    first, second, third = real(REFERENCE, 3)
    merged = merge_shards(shards_of([first, not_run_last(second, "stopped by the time budget"), third]))
    totals = build_report(merged.results, merged.run)["totals"]
    assert ("INCOMPLETE", EXIT_INCOMPLETE, False, 1) == (totals["verdict"], totals["exit_code"], totals["passed"],
                                                         totals["not_run"])


# ---------------------------------------------------------------------------------------------- results out of place


def test_a_duplicated_result_is_refused() -> None:
    first, second, third = real(FIXTURE, 3)
    second["results"].append(copy.deepcopy(second["results"][0]))
    second["run"]["shard"]["positions"].append(second["run"]["shard"]["positions"][0])
    assert "shard-2.json: results[" + str(len(second["results"]) - 1) + "]" == refused(
        [first, resealed(second), third])


@pytest.mark.parametrize(("edit", "field"), [
    (lambda shard, others: 99, "run.shard.positions[0]"),
    (lambda shard, others: others[0], "run.shard.positions[0]"),
], ids=["past-the-plan", "another-shards-unit"])
def test_a_result_out_of_range_or_of_another_shards_unit_is_refused(edit: Callable[[list[int], list[int]], int],
                                                                    field: str) -> None:
    first, second, third = real(FIXTURE, 3)
    others = first["run"]["shard"]["positions"] + third["run"]["shard"]["positions"]
    second["run"]["shard"]["positions"][0] = edit(second["run"]["shard"]["positions"], others)
    assert f"shard-2.json: {field}" == refused([first, second, third])


def test_a_result_for_a_check_its_unit_does_not_plan_is_refused() -> None:
    first, second, third = real(FIXTURE, 3)
    second["results"][0]["id"] = "PAY-9-invented"
    assert "shard-2.json: results[0].id" == refused([first, resealed(second), third])


# ---------------------------------------------------------------------------------------------- edited records


def test_an_edited_plan_or_plan_count_is_refused() -> None:
    shard = real(FIXTURE, 1)[0]
    shard["run"]["shard"]["plan"].pop()
    assert "shard-1.json: run.shard.plan_sha256" == refused([shard])
    shard = real(FIXTURE, 1)[0]
    shard["run"]["shard"]["planned"] -= 1
    assert "shard-1.json: run.shard.planned" == refused([shard])


@pytest.mark.parametrize(("key", "value"), [("checks", 8), ("verdict", "PASSED"), ("exit_code", 0),
                                            ("passed", True), ("by_outcome", {"pass": 9})])
def test_totals_that_disagree_with_the_results_are_refused(key: str, value: object) -> None:
    shard = real(FIXTURE, 1)[0]
    shard["totals"][key] = value
    assert f"shard-1.json: totals.{key}" == refused([shard])


def test_the_plan_digest_binds_each_unit_to_its_checks_in_order() -> None:
    plan = Plan((PlannedUnit("scenarios/A", ("A",)), PlannedUnit("scenarios/B", ("B",))))
    moved = Plan((PlannedUnit("scenarios/A", ()), PlannedUnit("scenarios/B", ("A", "B"))))
    swapped = Plan(plan.units[::-1])
    assert 3 == len({plan.sha256, moved.sha256, swapped.sha256})
    assert (0, 1) == plan.deal(Shard(1, 1))


# ---------------------------------------------------------------------------------------------- the command


def written(tmp_path: Path, reports: list[JSON]) -> list[str]:
    paths = []
    for k, data in enumerate(reports, 1):
        path = tmp_path / f"shard-{k}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        paths.append(str(path))
    return paths


def test_the_merge_command_fails_the_real_shards_and_refuses_a_forged_one_naming_file_and_field(
        tmp_path: Path) -> None:
    real_run = runner.invoke(app, ["report", "merge", *written(tmp_path, real(FIXTURE, 4))])
    assert (EXIT_FAILED, True) == (real_run.exit_code, "FAILED" in real_run.output), real_run.output
    forged = runner.invoke(app, ["report", "merge", *written(tmp_path, [kept(d, passing) for d in real(FIXTURE, 4)])])
    assert (EXIT_BAD_INPUT, f"error: {tmp_path / 'shard-2.json'}: run.shard.results_sha256: ") == \
        (forged.exit_code, forged.output[: len(f"error: {tmp_path / 'shard-2.json'}: run.shard.results_sha256: ")])


def test_a_shard_report_of_format_2_proves_no_deal_and_is_refused(tmp_path: Path) -> None:
    shards = real(FIXTURE, 1)
    shards[0]["format"] = "vale-oracle/report/2"
    result = runner.invoke(app, ["report", "merge", *written(tmp_path, shards)])
    assert (EXIT_BAD_INPUT, f"error: {tmp_path / 'shard-1.json'}: format: ") == \
        (result.exit_code, result.output[: len(f"error: {tmp_path / 'shard-1.json'}: format: ")])


def test_a_shard_claiming_a_billion_shards_is_refused_naming_ten_missing_ones() -> None:
    shard = relabelled(real(FIXTURE, 1)[0], 1, 10**9)
    with pytest.raises(MergeError) as refusal:
        merge_shards(shards_of([shard]))
    assert ("shard-1.json: run.shard.count: the run has 1000000000 shards; shard 2/1000000000, 3/1000000000, "
            "4/1000000000, 5/1000000000, 6/1000000000, 7/1000000000, 8/1000000000, 9/1000000000, 10/1000000000, "
            "11/1000000000 and 999999989 more is missing") == str(refusal.value)
