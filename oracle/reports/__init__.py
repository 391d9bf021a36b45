"""Conformance reports: JSON (machine-readable, schema in ``oracle/schemas/report.schema.json``), JUnit XML
(for CI test views) and Markdown (for a CI step summary). ``docs/reports.md`` describes all three.
"""

from oracle.reports.common import RunInfo, exit_code, totals
from oracle.reports.json_report import build_report, write_json
from oracle.reports.junit import junit_tree, write_junit
from oracle.reports.markdown import markdown_report, write_markdown

__all__ = [
    "RunInfo",
    "build_report",
    "exit_code",
    "junit_tree",
    "markdown_report",
    "totals",
    "write_json",
    "write_junit",
    "write_markdown",
]
