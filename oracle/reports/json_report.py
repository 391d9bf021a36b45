"""The JSON report: run metadata, totals by outcome, and every result (``oracle/schemas/report.schema.json``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from oracle.reports.common import JSON, RunInfo, exit_code, passed, totals
from oracle.results import CheckResult

REPORT_FORMAT = "vale-oracle/report/1"
SCHEMA_FILE = Path(__file__).resolve().parent.parent / "schemas" / "report.schema.json"


def build_report(results: Sequence[CheckResult], run: RunInfo) -> JSON:
    return {
        "format": REPORT_FORMAT,
        "run": run.to_json(),
        "totals": {
            "checks": len(results),
            "passed": passed(results),
            "exit_code": exit_code(results),
            "by_outcome": totals(results),
        },
        "results": [r.to_json() for r in results],
    }


def write_json(path: Path, results: Sequence[CheckResult], run: RunInfo) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(build_report(results, run), indent=2, ensure_ascii=False, default=str)
    path.write_text(text + "\n", encoding="utf-8")
