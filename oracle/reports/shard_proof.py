"""What a shard's report proves, checked: that its results are exactly those of the units the run's plan deals it.

A shard's report (``oracle check --shard K/N``) records the whole run's plan, the plan's digest, the digest of the
units dealt to it and the digest of its results (``run.shard``, :class:`oracle.reports.common.ShardRecord`).
``oracle report merge`` deals the plan again with :meth:`oracle.core.shards.Plan.deal`, the dealing ``oracle check``
used, and refuses the report, naming the file and the field, unless every check of every unit dealt to the shard
has exactly one result or is listed as not run (with the reason the run stopped), no result is for a unit dealt
elsewhere, and the report's totals are those of its results. A digest is no signature: someone who edits the
results and writes every digest and total again can still forge a shard; what this catches is a careless or
partial edit, a relabelled or copied shard, and every result that does not match the plan (docs/scaling.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from oracle.core.json_types import JSON
from oracle.core.results import CheckResult
from oracle.core.shards import SHARD_FORM, Plan, PlannedUnit, Shard
from oracle.reports.causes import group_causes
from oracle.reports.common import DATE_FORMAT, RunInfo, ShardRecord, failed_results
from oracle.reports.json_report import report_totals, results_sha256


class MergeError(ValueError):
    """The reports cannot be merged; the message names the file and the field."""


SIGNALS_STOPPING = {f"stopped by {name}": name for name in ("SIGINT", "SIGTERM")}
"""A shard's ``run.stopped`` when a signal stopped it, and the signal (which gives the run its exit code)."""


@dataclass(frozen=True)
class ShardReport:
    """One shard's report as read: its file, its document, and its results rebuilt."""

    path: Path
    data: JSON
    results: tuple[CheckResult, ...]

    @property
    def run(self) -> JSON:
        run: JSON = self.data["run"]
        return run

    @property
    def shard(self) -> JSON:
        shard: JSON = self.run["shard"]
        return shard

    @property
    def plan(self) -> Plan:
        """The whole run's plan as the report records it (``run.shard.plan``)."""
        return Plan(tuple(PlannedUnit(unit["unit"], tuple(unit["checks"])) for unit in self.shard["plan"]))

    def fail(self, field: str, message: str) -> MergeError:
        return MergeError(f"{self.path}: {field}: {message}")


def shard_run(report: ShardReport) -> RunInfo:
    """The run a shard's report describes, as its totals were computed from (its shard, stop and options)."""
    run = report.run
    stopped = str(run["stopped"])
    shard = Shard(report.shard["index"], report.shard["count"])
    return RunInfo(
        engine=run["engine"]["name"], engine_version=run["engine"]["version"], impl=run["engine"]["impl"],
        suites=tuple(run["suites"]), started=datetime.strptime(run["date"], DATE_FORMAT).replace(tzinfo=UTC),
        duration=float(run["duration"]), options=run["options"], suite_version=run["suite_version"],
        suite_digest=run.get("suite_digest", ""), oracle_version=run["oracle_version"], protocol=run["protocol"],
        python=run["python"], stopped=stopped, signal=SIGNALS_STOPPING.get(stopped, ""),
        not_run=tuple(run["not_run"]), fail_on_unsupported=bool(run["options"].get("fail_on_unsupported")),
        allow_empty=bool(run["options"].get("allow_empty")),
        shard=ShardRecord(shard, report.plan, tuple(report.shard["positions"]),
                          tuple(report.shard["not_run_positions"])))


def refuse_unproven(report: ShardReport) -> None:
    """A :class:`MergeError` naming the file and the field unless the report proves its deal: the plan matches its
    digest, the shard is the one the units it was dealt say, the results are those it wrote, each check dealt to it
    has exactly one result or is not run for a stated reason, and its totals are those of its results."""
    shard, plan = _shard_of(report), report.plan
    if plan.sha256 != report.shard["plan_sha256"]:
        raise report.fail("run.shard.plan_sha256", "is not the digest of the plan the report records "
                          "(run.shard.plan was edited, or the digest was)")
    if plan.checks != report.shard["planned"]:
        raise report.fail("run.shard.planned", f"{report.shard['planned']} checks, but the plan the report records "
                          f"has {plan.checks}")
    if plan.dealt_sha256(shard) != report.shard["dealt_sha256"]:
        raise report.fail("run.shard.dealt_sha256", f"is not the digest of the units the plan deals to shard "
                          f"{shard.text}: a shard relabelled, or its record edited")
    if results_sha256(report.data["results"]) != report.shard["results_sha256"]:
        raise report.fail("run.shard.results_sha256", "is not the digest of the report's results: a result was "
                          "edited, added or deleted after the run")
    if report.run["not_run"] and not report.run["stopped"]:
        raise report.fail("run.stopped", f"empty, yet run.not_run lists {len(report.run['not_run'])} check(s): a "
                          "check is only not run when the run stopped early, for a reason it states")
    if report.run["complete"] != (not report.run["stopped"]):
        raise report.fail("run.complete", f"{report.run['complete']!r} disagrees with run.stopped "
                          f"{report.run['stopped']!r}")
    _refuse_undealt(report, shard, plan)
    _refuse_wrong_totals(report)


def _shard_of(report: ShardReport) -> Shard:
    try:
        return Shard(report.shard["index"], report.shard["count"])
    except ValueError:
        raise report.fail("run.shard.index", f"{report.shard['index']}/{report.shard['count']} is not a shard: "
                          f"expected {SHARD_FORM}") from None


@dataclass(frozen=True)
class Placed:
    """A result or a check not run as a shard's report lists it: the fields that name it, its unit's place in the
    plan, and its check's id."""

    field: str
    position_field: str
    id_field: str
    place: int
    check_id: str


def _placed(report: ShardReport) -> Iterator[Placed]:
    """Each result, then each check not run, of the report."""
    for n, (place, raw) in enumerate(zip(report.shard["positions"], report.data["results"], strict=True)):
        yield Placed(f"results[{n}]", f"run.shard.positions[{n}]", f"results[{n}].id", place, str(raw["id"]))
    for n, (place, check_id) in enumerate(zip(report.shard["not_run_positions"], report.run["not_run"],
                                              strict=True)):
        yield Placed(f"run.not_run[{n}]", f"run.shard.not_run_positions[{n}]", f"run.not_run[{n}]", place, check_id)


def _refuse_undealt(report: ShardReport, shard: Shard, plan: Plan) -> None:
    """Every result and check not run is of a check of a unit dealt to the shard, once; every such check has one."""
    dealt = set(plan.deal(shard))
    seen: dict[tuple[int, str], str] = {}
    for placed in _placed(report):
        place, check_id = placed.place, placed.check_id
        if place >= len(plan.units):
            raise report.fail(placed.position_field, f"{place} is not a unit of the plan, which has "
                              f"{len(plan.units)} (the place of {placed.field}, {check_id!r})")
        unit = plan.units[place]
        if place not in dealt:
            raise report.fail(placed.position_field, f"unit {place} of the plan, {unit.id}, is dealt to another "
                              f"shard than {shard.text} (the place of {placed.field}, {check_id!r})")
        if check_id not in unit.checks:
            raise report.fail(placed.id_field, f"{check_id!r} is not a check the plan gives unit {unit.id}")
        if (place, check_id) in seen:
            raise report.fail(placed.field, f"{check_id!r} of unit {unit.id} has a result or is not run already "
                              f"({seen[place, check_id]}): a duplicated result")
        seen[place, check_id] = placed.field
    missing = [(plan.units[place].id, check_id) for place in sorted(dealt) for check_id in plan.units[place].checks
               if (place, check_id) not in seen]
    if missing:
        unit_id, check_id = missing[0]
        raise report.fail("results", f"{len(missing)} check(s) dealt to shard {shard.text} have no result and are "
                          f"not listed in run.not_run, the first {check_id!r} of unit {unit_id}")


def _refuse_wrong_totals(report: ShardReport) -> None:
    """The report's totals are those its results and its run give (the counts, the summary, the verdict)."""
    run = shard_run(report)
    causes = len(group_causes(failed_results(report.results, run)))
    for key, expected in report_totals(report.results, run, causes).items():
        found = report.data["totals"].get(key)
        if found != expected or type(found) is not type(expected):
            raise report.fail(f"totals.{key}", f"{found!r} disagrees with the report's results ({expected!r})")
