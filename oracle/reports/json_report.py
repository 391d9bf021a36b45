"""The JSON report: run metadata, totals by outcome, and every result (``oracle/schemas/report.schema.json``)."""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from oracle.core.bounded_input import Input, InputError, read_text
from oracle.core.json_types import JSON
from oracle.core.results import CheckResult, Outcome
from oracle.core.shards import json_sha256
from oracle.reports.causes import blame_of, group_causes, notes_of
from oracle.reports.common import (
    RunInfo,
    exit_code,
    failed_results,
    load_would_unlock,
    not_run_counts,
    passed,
    summary_line,
    totals,
    verdict,
)
from oracle.reports.coverage import coverage_json
from oracle.reports.files import write_report_file

REPORT_FORMAT = "vale-oracle/report/3"
"""Format 2 added the outcome ``not-applicable``, the verdict ``NOTHING CHECKED`` with exit code 4, and the totals
``ran``, ``not_applicable`` and ``summary``; format 3 added what a shard's report proves of its deal
(``run.shard``: the plan, the digests of the plan, of the units dealt and of the results)."""
SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
SCHEMA_FILE = SCHEMAS / "report.schema.json"
SCHEMA_FILES = {"vale-oracle/report/1": SCHEMAS / "report-1.schema.json",
                "vale-oracle/report/2": SCHEMAS / "report-2.schema.json", REPORT_FORMAT: SCHEMA_FILE}
"""The schema of each report format this oracle reads (``oracle expectations update``, ``oracle report html``)."""


def build_report(results: Sequence[CheckResult], run: RunInfo) -> JSON:
    causes = group_causes(failed_results(results, run))
    entries = [{**r.to_json(), "notes": notes_of(r), "blamed_rule": blame_of(r)} for r in results]
    run_json = run.to_json()
    if run.shard is not None:
        run_json["shard"] = {**run_json["shard"], "results_sha256": results_sha256(entries)}
    return {
        "format": REPORT_FORMAT,
        "run": run_json,
        "totals": report_totals(results, run, len(causes)),
        "causes": [c.to_json() for c in causes],
        "results": entries,
        "sources": scenario_sources(results, bundled=run.options.get("scenarios") is None),
        "coverage": coverage_json(results),
    }


def report_totals(results: Sequence[CheckResult], run: RunInfo, causes: int) -> JSON:
    """The report's ``totals``: the counts, the summary line, the verdict and the exit code of ``results``."""
    unsupported, not_applicable = not_run_counts(results)
    return {
        "checks": len(results),
        "ran": sum(r.outcome.ran for r in results),
        "unsupported": unsupported,
        "not_applicable": not_applicable,
        "load_would_unlock": load_would_unlock(results),
        "not_run": len(run.not_run),
        "summary": summary_line(results, run),
        "passed": passed(results, run),
        "verdict": verdict(results, run),
        "exit_code": exit_code(results, run),
        "by_outcome": totals(results),
        "causes": causes,
        "notes": sum(len(notes_of(r)) for r in results),
    }


def results_sha256(entries: Sequence[JSON]) -> str:
    """The digest of a report's ``results`` as written, which a shard's report records (``run.shard``) and
    ``oracle report merge`` compares with the results it reads."""
    return json_sha256(list(entries))


def scenario_sources(results: Sequence[CheckResult], bundled: bool = True) -> JSON:
    """The file, SHA-256 and text of every scenario that ran and did not pass, by check id, so
    that a report read on another machine can still show the scenario (``oracle report html``). With
    ``bundled`` (no ``--scenarios``), a file named ``scenarios/<path>`` is read from the bundled suite."""
    from oracle.scenarios.loader import bundled_file

    sources: JSON = {}
    for result in results:
        file = result.details.get("file")
        if result.suite != "scenarios" or result.outcome is Outcome.PASS or not result.outcome.ran \
                or not isinstance(file, str) or result.id in sources:
            continue
        path = (bundled_file(file) if bundled else None) or Path(file)
        try:
            text = read_text(path, Input.SCENARIO)
        except InputError:
            continue
        sources[result.id] = {"file": file, "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(), "text": text}
    return sources


def report_text(results: Sequence[CheckResult], run: RunInfo) -> str:
    return json.dumps(build_report(results, run), indent=2, ensure_ascii=False, default=str) + "\n"


def write_json(path: Path, results: Sequence[CheckResult], run: RunInfo) -> None:
    """Write the report to ``path`` (``-``: standard output)."""
    text = report_text(results, run)
    if str(path) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_report_file(path, text)
