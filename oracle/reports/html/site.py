"""``oracle report html``: the static site of one or more reports (files, or folders of them), written to a
directory.

The reports are grouped by engine (:mod:`oracle.reports.html.history`). One engine gives ``index.html``, its page;
several give ``index.html`` (the matrix of each engine's latest run) and one page per engine (``report-01.html``
…). An engine's page is its latest run's, with its history when it has several runs. Every page is
self-contained.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from oracle.reports.files import write_report_file
from oracle.reports.html.history import History, histories
from oracle.reports.html.load import Report, ReportError, load_report
from oracle.reports.html.page_history import history_page
from oracle.reports.html.page_matrix import matrix_page
from oracle.reports.html.page_report import report_page
from oracle.reports.html.tally import Column, columns, matrix

INDEX = "index.html"


@dataclass(frozen=True)
class Site:
    """The pages written, with their sizes in bytes."""

    directory: Path
    pages: tuple[tuple[str, int], ...]


def page_names(count: int) -> list[str]:
    return [INDEX] if count == 1 else [f"report-{i + 1:02d}.html" for i in range(count)]


def engine_page(column: Column, history: History, matrix: str | None) -> str:
    """An engine's page: its latest run's report, with the history of its runs when it has more than one."""
    return history_page(column, history, matrix) if history.run_count > 1 else report_page(column, matrix)


def render_site(reports: Sequence[Report]) -> dict[str, str]:
    """Every page of the site by file name."""
    engines = histories(reports)
    cols = columns([h.latest for h in engines], page_names(len(engines)))
    if len(cols) == 1:
        return {INDEX: engine_page(cols[0], engines[0], None)}
    pages = {INDEX: matrix_page(matrix(cols), engines)}
    pages.update({col.page: engine_page(col, history, INDEX) for col, history in zip(cols, engines, strict=True)})
    return pages


def report_files(paths: Sequence[Path]) -> list[Path]:
    """The report files named: a file as given, a folder as every ``*.json`` in it or below it, by path, each file
    once however often it is named; a folder without one raises :class:`ReportError` naming it."""
    found: dict[Path, Path] = {}
    for path in paths:
        if not path.is_dir():
            found.setdefault(path.resolve(), path)
            continue
        inside = sorted(p for p in path.rglob("*.json") if p.is_file())
        if not inside:
            raise ReportError(f"{path}: a folder without any JSON report (*.json)")
        for file in inside:
            found.setdefault(file.resolve(), file)
    return list(found.values())


def build_site(report_paths: Sequence[Path], directory: Path) -> Site:
    """Read the reports, files or folders of them (a bad one raises ReportError naming it), and write the site into
    ``directory``."""
    reports = [load_report(path) for path in report_files(report_paths)]
    pages = render_site(reports)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in pages.items():
        data = text.encode("utf-8")
        write_report_file(directory / name, data)
        written.append((name, len(data)))
    return Site(directory, tuple(written))
