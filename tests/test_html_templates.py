"""The HTML site's templates (oracle/reports/html/templates/): a page that shows more extends the report or the
matrix page with a block of its own and keeps every section, escaped as the site is."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from jinja2 import Template

from oracle.core.results import CheckResult, Outcome
from oracle.reports import RunInfo, build_report
from oracle.reports.html.load import Report, parse_report
from oracle.reports.html.page_matrix import matrix_context, matrix_page
from oracle.reports.html.page_report import report_context, report_page
from oracle.reports.html.render import environment
from oracle.reports.html.tally import columns, matrix

HISTORY = '<section id="history"><h2>History</h2>{{ history }}</section>'


def _report(engine: str) -> Report:
    run = RunInfo(engine=engine, engine_version="1.0", impl="tests.engine", suites=("scenarios",),
                  started=datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC), duration=1.0)
    results = [CheckResult("scenarios", "pay-ok", "a pass", Outcome.PASS, rules=("PAY-3",)),
               CheckResult("scenarios", "pay-bad", "a failure", Outcome.FAIL, rules=("PAY-3",))]
    return parse_report(build_report(results, run), Path(f"{engine}.json"))


def _extended(page: str, block: str) -> Template:
    return environment().from_string(f'{{% extends "{page}" %}}{{% block {block} %}}{HISTORY}{{{{ super() }}}}'
                                     "{% endblock %}")


def test_a_page_extending_the_report_page_adds_a_section_and_keeps_the_others() -> None:
    column = columns([_report("one")], ["index.html"])[0]
    page = _extended("report.html", "causes").render(**report_context(column, None), history="<b>3 runs</b>")
    plain = report_page(column, None)
    assert '<section id="history"><h2>History</h2>&lt;b&gt;3 runs&lt;/b&gt;</section>' in page
    assert plain == page.replace('<section id="history"><h2>History</h2>&lt;b&gt;3 runs&lt;/b&gt;</section>', "")


def test_a_page_extending_the_matrix_adds_a_section_and_keeps_the_others() -> None:
    table = matrix(columns([_report("one"), _report("two")], ["report-01.html", "report-02.html"]))
    page = _extended("matrix.html", "implementations").render(**matrix_context(table), history="two runs")
    assert matrix_page(table) == page.replace('<section id="history"><h2>History</h2>two runs</section>', "")
    assert page.index('id="history"') < page.index('id="implementations"')
