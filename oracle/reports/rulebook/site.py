"""``oracle rulebook``: the rulebook's pages and their assets written into a directory (``index.html``, one page per
rule group, card and tile, and ``assets/`` with the report site's stylesheet and script beside the rulebook's own);
nothing is fetched from elsewhere when a page is viewed."""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from oracle.reports.files import write_report_file
from oracle.reports.html.load import load_report
from oracle.reports.rulebook.gather import Rulebook, gather, load_scenarios
from oracle.reports.rulebook.index import index_page
from oracle.reports.rulebook.render import card_page, group_page

INDEX = "index.html"
ASSETS = "assets"
# (package, file): the report site's look and copy buttons, then the rulebook's additions and its index filter.
ASSET_FILES = (("oracle.reports.html", "site.css"), ("oracle.reports.html", "site.js"),
               ("oracle.reports.rulebook", "rulebook.css"), ("oracle.reports.rulebook", "rulebook.js"))


@dataclass(frozen=True)
class Written:
    """The pages written, with their sizes in bytes."""

    directory: Path
    pages: tuple[tuple[str, int], ...]


def render_pages(book: Rulebook) -> dict[str, str]:
    """Every page of the rulebook by file name."""
    pages = {INDEX: index_page(book)}
    pages.update({group.page: group_page(book, group) for group in book.groups})
    pages.update({entry.page: card_page(book, entry) for entry in book.cards.values()})
    return pages


def build_rulebook(directory: Path, report_path: Path | None = None, scenarios_dir: Path | None = None) -> Written:
    """Read the report (a bad one raises ReportError naming it) and the scenarios (RulebookError), then write the
    rulebook into ``directory`` (OSError when it cannot be written)."""
    report = load_report(report_path) if report_path is not None else None
    (directory / ASSETS).mkdir(parents=True, exist_ok=True)
    pages = render_pages(gather(load_scenarios(scenarios_dir), report))
    for package, name in ASSET_FILES:
        write_report_file(directory / ASSETS / name, files(package).joinpath("assets", name).read_bytes())
    written = []
    for name, text in pages.items():
        data = text.encode("utf-8")
        write_report_file(directory / name, data)
        written.append((name, len(data)))
    return Written(directory, tuple(written))
