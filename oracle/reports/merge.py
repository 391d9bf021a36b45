"""``oracle report merge``: the JSON reports of the N shards of one run (``oracle check --shard K/N``) joined into
the report the unsharded run would have written, apart from its times and measured engine speeds.

Each shard's report must first prove its deal (:mod:`oracle.reports.shard_proof`): its results are exactly those of
the units the run's plan deals it, so no planned check goes missing and none is counted twice.

The results are put back in the order of the whole plan (each shard's report says where each result sits in it), so
the causes are grouped again across shards: a cause three shards saw is one cause with all its members. A shard
that stopped early leaves the merged run incomplete, with its checks not run listed. Reports that are not of one
run are refused, naming the file and the field that differs: the engine, the suite version, the oracle version,
the options (all but ``--shard`` and ``--jobs``), the shard count and the plan; and so is a shard given twice or
missing, a report of an earlier format (it proves no deal), and a report that does not prove its deal.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from itertools import islice
from pathlib import Path
from typing import Any

from oracle.core.json_types import JSON
from oracle.core.results import CheckResult
from oracle.engines.speed import BudgetScale, ScaleSource, SpeedSample
from oracle.reports.common import DATE_FORMAT, RunInfo, date_problem
from oracle.reports.json_report import REPORT_FORMAT, SCHEMA_FILE
from oracle.reports.read_json import JsonFileError, read_json_file
from oracle.reports.shard_proof import SIGNALS_STOPPING, MergeError, ShardReport, refuse_unproven, shard_run

__all__ = ["MergeError", "Merged", "ShardReport", "merge_reports", "merge_shards", "read_shard", "result_of"]

FREE_OPTIONS = ("shard", "jobs")
"""The options shards of one run may differ in (which shard it is, and the workers each job had)."""

SAME_FIELDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("format", ("format",)), ("run.suite_version", ("run", "suite_version")),
    ("run.suite_digest", ("run", "suite_digest")),
    ("run.oracle_version", ("run", "oracle_version")), ("run.protocol", ("run", "protocol")),
    ("run.engine", ("run", "engine")), ("run.suites", ("run", "suites")),
    ("run.shard.count", ("run", "shard", "count")),
    ("run.shard.planned", ("run", "shard", "planned")), ("run.shard.plan_sha256", ("run", "shard", "plan_sha256")),
)
"""The fields every shard of one run has alike (the options are compared apart, without :data:`FREE_OPTIONS`)."""

MISSING_SHOWN = 10
"""How many missing shards a refusal names (a forged count of a billion shards costs no more than ten)."""


@dataclass(frozen=True)
class Merged:
    """The whole run: its results in the order of the plan, and its run information."""

    results: list[CheckResult]
    run: RunInfo


@cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))


def read_shard(path: Path) -> ShardReport:
    """One shard's JSON report, checked against the report schema; a problem raises :class:`MergeError` naming the
    file and the field."""
    try:
        data = read_json_file(path)
    except JsonFileError as exc:
        raise MergeError(str(exc)) from None
    if not isinstance(data, dict) or data.get("format") != REPORT_FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise MergeError(f"{path}: format: expected {REPORT_FORMAT!r} (a report of this oracle's `oracle check`, "
                         f"which proves the shard's deal), got {found!r}")
    error = next(iter(sorted(_validator().iter_errors(data), key=lambda e: list(e.absolute_path))), None)
    if error is not None:
        where = ".".join(str(p) for p in error.absolute_path) or "the top level"
        raise MergeError(f"{path}: {where}: {error.message}")
    if "shard" not in data["run"]:
        raise MergeError(f"{path}: run.shard: missing: this is not the report of a shard (oracle check --shard K/N)")
    shard = data["run"]["shard"]
    if len(shard["positions"]) != len(data["results"]) \
            or len(shard["not_run_positions"]) != len(data["run"].get("not_run", [])):
        raise MergeError(f"{path}: run.shard.positions: one position per result and per check not run expected")
    problem = date_problem(data["run"]["date"])
    if problem is not None:
        raise MergeError(f"{path}: run.date: {problem}")
    return ShardReport(path, data, tuple(result_of(raw) for raw in data["results"]))


def result_of(raw: JSON) -> CheckResult:
    """A result as ``CheckResult.to_json`` wrote it (the notes and the blamed rule are made again from it)."""
    return CheckResult.from_json(raw)


def _field(data: JSON, keys: tuple[str, ...]) -> object:
    value: object = data
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def refuse_mixed(shards: Sequence[ShardReport]) -> None:
    """A :class:`MergeError` for reports that are not the shards of one run, naming the file and the field."""
    first = shards[0]
    for other in shards[1:]:
        for name, keys in SAME_FIELDS:
            if _field(other.data, keys) != _field(first.data, keys):
                raise MergeError(f"{other.path}: {name}: {_field(other.data, keys)!r} differs from "
                                 f"{_field(first.data, keys)!r} in {first.path}: only the shards of one run merge")
        mine, theirs = _options(other), _options(first)
        for key in sorted(set(mine) | set(theirs)):
            if mine.get(key) != theirs.get(key):
                raise MergeError(f"{other.path}: run.options.{key}: {mine.get(key)!r} differs from "
                                 f"{theirs.get(key)!r} in {first.path}: only the shards of one run merge")
    seen: dict[int, Path] = {}
    for report in shards:
        index = report.shard["index"]
        if index in seen:
            raise MergeError(f"{report.path}: run.shard.index: shard {index} is given twice (also {seen[index]})")
        seen[index] = report.path
    count = first.shard["count"]
    held = sum(1 <= k <= count for k in seen)
    if held < count:
        shown = list(islice((k for k in range(1, count + 1) if k not in seen), MISSING_SHOWN))
        more = f" and {count - held - len(shown)} more" if held + len(shown) < count else ""
        raise MergeError(f"{first.path}: run.shard.count: the run has {count} shards; shard "
                         f"{', '.join(f'{k}/{count}' for k in shown)}{more} is missing")


def _options(report: ShardReport) -> JSON:
    options: JSON = report.run["options"]
    return {k: v for k, v in options.items() if k not in FREE_OPTIONS}


def _scale(raw: object) -> BudgetScale | None:
    """A run's budget scale as its report wrote it."""
    if not isinstance(raw, dict):
        return None
    sample = SpeedSample(raw["engine_ms"] / 1e3, raw["reference_ms"] / 1e3, raw["samples"]) \
        if "engine_ms" in raw else None
    return BudgetScale(float(raw["factor"]), ScaleSource(raw["source"]), sample, str(raw.get("note", "")))


def merge_shards(shards: Sequence[ShardReport]) -> Merged:
    """The whole run of its N shards: every result in the order of the plan; started at the first shard's start and
    lasting as long as the longest shard; incomplete when a shard is (the reasons joined, the checks not run in the
    order of the plan); the largest budget scale the shards used."""
    refuse_mixed(shards)
    for report in shards:
        refuse_unproven(report)
    ordered = sorted(((position, n, result) for report in shards
                      for n, (position, result) in enumerate(zip(report.shard["positions"], report.results,
                                                                 strict=True))),
                     key=lambda placed: placed[:2])
    not_run = sorted(((position, n, check_id) for report in shards
                      for n, (position, check_id) in enumerate(zip(report.shard["not_run_positions"],
                                                                   report.run.get("not_run", []), strict=True))),
                     key=lambda placed: placed[:2])
    by_index = sorted(shards, key=lambda r: int(r.shard["index"]))
    stopped = "; ".join(f"shard {r.shard['index']}/{r.shard['count']} {r.run['stopped']}" for r in by_index
                        if r.run.get("stopped"))
    signals = [SIGNALS_STOPPING.get(str(r.run.get("stopped", "")), "") for r in by_index]
    scales = [s for s in (_scale(r.run.get("budget_scale")) for r in by_index) if s is not None]
    first = by_index[0]
    options = {**first.run["options"], "shard": None}
    run = dataclasses.replace(
        shard_run(first), options=options, shard=None,
        started=min(datetime.strptime(r.run["date"], DATE_FORMAT).replace(tzinfo=UTC) for r in by_index),
        duration=max(float(r.run["duration"]) for r in by_index), stopped=stopped,
        signal=next((s for s in signals if s), ""), not_run=tuple(check_id for _, _, check_id in not_run),
        budget_scale=max(scales, key=lambda s: s.factor) if scales else None)
    return Merged([result for _, _, result in ordered], run)


def merge_reports(paths: Sequence[Path]) -> Merged:
    """Read the shards' reports and merge them (:func:`merge_shards`); :class:`MergeError` names what is wrong."""
    if not paths:
        raise MergeError("no report given")
    return merge_shards([read_shard(path) for path in paths])
