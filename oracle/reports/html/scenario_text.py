"""A failing scenario in words for the site, from the source the report embedded (or, for a report of this
oracle's own suite, from the bundled suite), rendered as ``oracle scenarios show`` prints it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from oracle.core import versions
from oracle.core.path_names import path_component
from oracle.reports.html.load import Report, Result, Source
from oracle.scenarios.describe import scenario_lines
from oracle.scenarios.loader import default_dir, display_path, parse_text, scenario_files
from oracle.scenarios.suite_digest import suite_digest


@dataclass(frozen=True)
class ScenarioView:
    """The source, where it came from, and its rendering (empty with ``problem`` set when it cannot be read)."""

    source: Source
    origin: str
    lines: tuple[str, ...]
    problem: str = ""


@cache
def _rendered(scenario_id: str, file: str, text: str) -> tuple[tuple[str, ...], str]:
    """The scenario in words, or why it cannot be read (the file is checked as if named after its id: the
    report may name it as another machine did)."""
    scenario, errors = parse_text(text, Path(file).with_name(f"{path_component(scenario_id)}.toml"), file)
    if scenario is None:
        return (), str(errors[0]) if errors else "not a valid scenario"
    return tuple(scenario_lines(scenario)), ""


@cache
def _bundled_files() -> dict[str, Path]:
    """The bundled suite's files by scenario id (a scenario file is named after its id)."""
    return {path.stem: path for path in scenario_files(default_dir())} if default_dir().is_dir() else {}


def _bundled(scenario_id: str) -> Source | None:
    path = _bundled_files().get(scenario_id)
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return Source(display_path(path), hashlib.sha256(text.encode("utf-8")).hexdigest(), text)


def ran_this_suite(report: Report) -> bool:
    """The report ran this oracle's bundled suite: the same suite digest, or for a report written before the digest
    the same suite version."""
    if report.suite_digest:
        return report.suite_digest == suite_digest()
    return report.suite_version == versions.SUITE_VERSION


def scenario_view(report: Report, result: Result) -> ScenarioView | None:
    """The scenario of a scenario result, or None when the report has no source for it and did not run this
    oracle's suite (:func:`ran_this_suite`)."""
    source = report.sources.get(result.id)
    origin = "embedded in the report"
    if source is None and result.suite == "scenarios" and ran_this_suite(report):
        source = _bundled(result.id)
        origin = f"this oracle's suite {versions.SUITE_VERSION} (the report embeds none)"
    if source is None:
        return None
    lines, problem = _rendered(result.id, source.file, source.text)
    return ScenarioView(source, origin, lines, problem)
