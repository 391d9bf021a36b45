"""``oracle report html``: the static site of one or more reports, written to a directory.

One report gives ``index.html`` (its own page); several give ``index.html`` (the matrix) and one page per
report (``report-01.html`` …). Every page is self-contained.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from oracle.reports.files import write_report_file
from oracle.reports.html.load import Report, load_report
from oracle.reports.html.page_matrix import matrix_page
from oracle.reports.html.page_report import report_page
from oracle.reports.html.tally import columns, matrix

INDEX = "index.html"


@dataclass(frozen=True)
class Site:
    """The pages written, with their sizes in bytes."""

    directory: Path
    pages: tuple[tuple[str, int], ...]


def page_names(count: int) -> list[str]:
    return [INDEX] if count == 1 else [f"report-{i + 1:02d}.html" for i in range(count)]


def render_site(reports: Sequence[Report]) -> dict[str, str]:
    """Every page of the site by file name."""
    names = page_names(len(reports))
    cols = columns(reports, names)
    if len(cols) == 1:
        return {INDEX: report_page(cols[0], None)}
    pages = {INDEX: matrix_page(matrix(cols))}
    pages.update({col.page: report_page(col, INDEX) for col in cols})
    return pages


def build_site(report_paths: Sequence[Path], directory: Path) -> Site:
    """Read the reports (a bad one raises ReportError naming it) and write the site into ``directory``."""
    reports = [load_report(path) for path in report_paths]
    pages = render_site(reports)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in pages.items():
        data = text.encode("utf-8")
        write_report_file(directory / name, data)
        written.append((name, len(data)))
    return Site(directory, tuple(written))
