"""Shards (issue 28): ``--shard K/N`` deals a run's units by the SHA-256 of their id, and ``oracle report merge``
rebuilds the unsharded run's report from the shards' reports: same ids, same outcomes, same causes, same verdict.

The comparisons run the units in this process (the dealing and the merge are those of ``oracle check`` and
``oracle report merge``), with game budgets and the budget factor fixed; tests/test_shards_cli.py runs the shards
as processes."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from oracle.cli.check import Collected, Dealt
from oracle.core.json_types import JSON
from oracle.core.results import CheckResult, Outcome
from oracle.core.shards import Shard
from oracle.engines.connect import EngineUnderTest
from oracle.reference import ReferenceEngine
from oracle.reports.common import RunInfo
from oracle.reports.json_report import build_report
from oracle.reports.merge import MergeError, ShardReport, merge_shards, result_of
from oracle.suites.all import plan_named, suite_named
from oracle.suites.registry import (
    AnyUnit,
    CheckOptions,
    PlanContext,
    PlannedCheck,
    RunContext,
    ScenarioOptions,
    Unit,
    run_unit,
)
from vale_invariants import fuzz
from vale_invariants.game import GameSettings, Stats

SUITES = ("setup", "random-play", "scenarios")
PAYMENT = Path(__file__).resolve().parent.parent / "scenarios" / "payment"
OPTIONS = CheckOptions(games=1, players=(2,), select=("PAY-*", "setup/*", "random-play/2p/*"), budget_scale=1.0,
                       scenarios=ScenarioOptions(PAYMENT))
"""A narrow run of every kind of unit but Z3 rows and the fuzz run: a few games and the payment scenarios (read
from their folder alone: planning the whole bundled suite costs more than running this run)."""
ENGINES = ("oracle.reference", "vale_fixtures.superfluous_payment", "vale_fixtures.two_bugs")


@functools.cache
def engine(impl: str) -> EngineUnderTest:
    return EngineUnderTest.load(impl, timeout=5.0)


@functools.cache
def planned_of(impl: str) -> tuple[AnyUnit, ...]:
    eut = engine(impl)
    plan = plan_named(PlanContext(eut.impl, eut.fresh().handshake, OPTIONS), SUITES)
    narrowed = plan.narrowed(SUITES, OPTIONS)
    return tuple(unit for name in SUITES for unit in narrowed[name])


def planned(eut: EngineUnderTest) -> list[AnyUnit]:
    """The units of the narrow run, planned once per engine."""
    return list(planned_of(eut.impl))


def report_of(eut: EngineUnderTest, units: list[AnyUnit], shard: Shard | None) -> JSON:
    """The JSON report of the run of ``units`` (of the whole plan's ``shard``, when given), each unit run here."""
    dealt = Dealt.deal(shard, units) if shard is not None else None
    mine = [units[n] for n in dealt.places] if dealt is not None else units
    collected = Collected({}, None, False)
    for index, unit in enumerate(mine):
        collected.add(index, run_unit(suite_named(unit.suite), unit, RunContext(eut, OPTIONS)))
    run = RunInfo(engine="engine", engine_version="1", impl=eut.impl, suites=SUITES,
                  options={"games": 1, "shard": shard.text if shard is not None and not shard.whole else None},
                  shard=dealt.record(collected, mine, []) if dealt is not None else None)
    data: JSON = json.loads(json.dumps(build_report(collected.ordered(), run), default=str))
    return data


@functools.cache
def shard_report(impl: str, index: int, count: int) -> JSON:
    """The report of one shard of the narrow run (made once per test session)."""
    eut = engine(impl)
    return report_of(eut, planned(eut), Shard(index, count))


def merged_report(impl: str, count: int) -> JSON:
    shards = []
    for index in range(1, count + 1):
        data = shard_report(impl, index, count)
        shards.append(ShardReport(Path(f"shard-{index}.json"), data, tuple(map(result_of, data["results"]))))
    merged = merge_shards(shards)
    data = json.loads(json.dumps(build_report(merged.results, merged.run), default=str))
    return timeless(data)


def timeless(report: JSON) -> JSON:
    """A report without its times (the run's date and duration, each result's duration)."""
    run = {k: v for k, v in report["run"].items() if k not in ("date", "duration")}
    results = [{**r, "duration": 0} for r in report["results"]]
    return {**report, "run": run, "results": results}


# ---------------------------------------------------------------------------------------------- dealing


def test_a_unit_belongs_to_exactly_one_shard_by_the_sha256_of_its_id() -> None:
    ids = [f"scenarios/PAY-{n}" for n in range(40)]
    for count in (1, 3, 4):
        holders = [[k for k in range(1, count + 1) if Shard(k, count).holds(unit_id)] for unit_id in ids]
        assert [1] * len(ids) == [len(h) for h in holders]
    assert [True, False, False] == [Shard(k, 3).holds("scenarios/PAY-1") for k in (3, 1, 2)]


def test_fuzz_batches_of_shards_never_share_a_number() -> None:
    numbers = [Shard(k, 4).batch_number(b) for k in range(1, 5) for b in range(50)]
    assert len(numbers) == len(set(numbers))
    assert list(range(50)) == [Shard().batch_number(b) for b in range(50)]


@pytest.mark.parametrize("text", ["0/3", "4/3", "x", "3", "1/0", "-1/3", "1/3/3"])
def test_a_malformed_shard_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="expected K/N"):
        Shard.parse(text)


# ---------------------------------------------------------------------------------------------- the merged run


@pytest.mark.parametrize("impl", ENGINES)
def test_the_merged_shards_are_the_unsharded_run(impl: str) -> None:
    eut = engine(impl)
    units = planned(eut)
    whole = timeless(report_of(eut, units, None))
    assert 9 == len(whole["results"])
    for count in (1, 3, 4):
        assert whole == merged_report(impl, count), f"{impl}, {count} shards"


def test_a_cause_seen_by_several_shards_is_one_cause_with_every_member() -> None:
    impl = "vale_fixtures.superfluous_payment"
    members = {n: [r["id"] for r in shard_report(impl, n, 3)["results"] if r["outcome"] != "pass"] for n in (1, 2, 3)}
    merged = merged_report(impl, 3)
    assert 2 <= sum(bool(ids) for ids in members.values())
    assert ["PAY-3"] == [c["facts"]["rule"] for c in merged["causes"]]
    assert sorted(i for ids in members.values() for i in ids) == sorted(merged["causes"][0]["checks"])


ROWS: list[AnyUnit] = [Unit("z3", f"row-{n}", (PlannedCheck(f"Z3-{n}/a", "a"), PlannedCheck(f"Z3-{n}/b", "b")),
                            payload=None) for n in range(12)]
"""Units of two checks each (as a Z3 row has several), run by :func:`rows_report` without an engine."""


def rows_report(shard: Shard | None, stopped_after: int | None = None) -> JSON:
    """The report of the rows of ``shard`` (all without one): each row's ``a`` passes and ``b`` fails; with
    ``stopped_after``, the run stops after that many rows, the others not run."""
    dealt = Dealt.deal(shard, ROWS) if shard is not None else None
    mine = [ROWS[n] for n in dealt.places] if dealt is not None else ROWS
    ran = len(mine) if stopped_after is None else stopped_after
    collected = Collected({}, None, False)
    for index, unit in enumerate(mine[:ran]):
        collected.add(index, [CheckResult("z3", c.id, c.title, Outcome.PASS if c.id.endswith("a") else
                                          Outcome.ILLEGAL_ACCEPTED) for c in unit.checks])
    not_run = list(range(ran, len(mine)))
    run = RunInfo(engine="engine", engine_version="1", impl="x", suites=("z3",), options={"shard": None},
                  stopped="stopped by the time budget" if not_run else "",
                  not_run=tuple(c.id for n in not_run for c in mine[n].checks),
                  shard=dealt.record(collected, mine, not_run) if dealt is not None else None)
    data: JSON = json.loads(json.dumps(build_report(collected.ordered(), run), default=str))
    return data


def shards_of(reports: list[JSON]) -> list[ShardReport]:
    return [ShardReport(Path(f"shard-{n}.json"), d, tuple(map(result_of, d["results"])))
            for n, d in enumerate(reports, 1)]


def test_a_unit_of_several_checks_stays_whole_and_its_results_keep_their_order() -> None:
    shards = [rows_report(Shard(k, 3)) for k in (1, 2, 3)]
    merged = merge_shards(shards_of(shards))
    assert (3, 24) == (sum(bool(d["results"]) for d in shards), sum(len(d["results"]) for d in shards))
    assert [True] * 3 == [all(r["id"][:-1] == s["id"][:-1] for r, s in zip(d["results"][::2], d["results"][1::2],
                                                                         strict=True)) for d in shards]
    assert [r["id"] for r in rows_report(None)["results"]] == [r.id for r in merged.results]


def test_a_shard_stopped_early_leaves_the_merged_run_incomplete_with_its_checks_not_run() -> None:
    whole = rows_report(Shard(2, 3), stopped_after=1)
    merged = merge_shards(shards_of([rows_report(Shard(1, 3)), whole, rows_report(Shard(3, 3))]))
    report = build_report(merged.results, merged.run)
    assert (True, whole["run"]["not_run"]) == (2 <= len(merged.run.not_run), list(merged.run.not_run))
    assert (False, "shard 2/3 stopped by the time budget") == (report["run"]["complete"], report["run"]["stopped"])
    assert ("FAILED", 1) == (report["totals"]["verdict"], report["totals"]["exit_code"])


# ---------------------------------------------------------------------------------------------- refusals


def shard_reports(count: int) -> list[ShardReport]:
    eut = engine("oracle.reference")
    units = planned(eut)[:6]
    out = []
    for index in range(1, count + 1):
        data = report_of(eut, units, Shard(index, count))
        out.append(ShardReport(Path(f"shard-{index}.json"), data, tuple(map(result_of, data["results"]))))
    return out


def test_reports_of_other_engines_options_or_suite_versions_are_refused_naming_file_and_field() -> None:
    first, second = shard_reports(2)
    other_engine = ShardReport(Path("other.json"), {**second.data, "run": {
        **second.run, "engine": {**second.run["engine"], "name": "another"}}}, second.results)
    other_suite = ShardReport(Path("suite.json"), {**second.data, "run": {**second.run, "suite_version": "0"}},
                              second.results)
    other_options = ShardReport(Path("options.json"), {**second.data, "run": {
        **second.run, "options": {**second.run["options"], "games": 5}}}, second.results)
    expected = {"other.json: run.engine", "suite.json: run.suite_version", "options.json: run.options.games"}
    found = set()
    for mixed in (other_engine, other_suite, other_options):
        with pytest.raises(MergeError) as refused:
            merge_shards([first, mixed])
        found.add(str(refused.value).split(":", 2)[0] + ":" + str(refused.value).split(":", 2)[1])
    assert expected == found


def test_a_missing_or_repeated_shard_is_refused() -> None:
    first, second, _ = shard_reports(3)
    with pytest.raises(MergeError, match="shard 3/3 is missing"):
        merge_shards([first, second])
    with pytest.raises(MergeError, match="shard 1 is given twice"):
        merge_shards([first, first, second])


# ---------------------------------------------------------------------------------------------- fuzz shards


def hunted_seeds(shard: Shard, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seeds of the batches ``oracle fuzz --seed 7 --games 60`` (base games, no positions) plays as ``shard``,
    each batch counted as played without playing it."""
    seeds: list[int] = []

    def hunt(settings: GameSettings, seed: int, games: int, shrink: int, stats: Stats, progress: object) -> None:
        seeds.append(seed)
        stats.games += games
        stats.games_by_mode["base"] += games

    monkeypatch.setattr(fuzz, "_hunt", hunt)
    config = fuzz.FuzzConfig(games=60, seed=7, modes=("base",), positions=False, shard=shard)
    report = fuzz.run_fuzz(ReferenceEngine, "oracle.reference", config)
    assert 60 == report.stats.games
    return seeds


def test_fuzz_shards_play_batches_of_other_seeds_each_with_the_whole_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = hunted_seeds(Shard(), monkeypatch)
    shards = [hunted_seeds(Shard(k, 3), monkeypatch) for k in (1, 2, 3)]
    assert [7063, 7064, 7065] == whole
    assert [[7063, 7066, 7069], [7064, 7067, 7070], [7065, 7068, 7071]] == shards
    assert "--shard 2/3" in fuzz.FuzzReport("x", "x", fuzz.FuzzConfig(shard=Shard(2, 3))).reproduce()
