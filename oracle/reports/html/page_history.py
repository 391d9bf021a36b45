"""The page of an engine with several runs: its latest run's page (``report.html``) with the history of its runs
above the causes, one table and one bar chart per suite, so a regression shows as a drop. This module gathers what
the history shows; ``templates/history.html`` lays it out."""

from __future__ import annotations

from dataclasses import dataclass

from oracle.reports.html.history import Change, History, RunFigures, SuiteRuns
from oracle.reports.html.page_report import report_context
from oracle.reports.html.render import render
from oracle.reports.html.tally import Column

CHART_HEIGHT = 120
BAR_WIDTH = 22
BAR_GAP = 8
CHART_TOP = 16
"""Room above the bars for a drop's or a rise's symbol."""


@dataclass(frozen=True)
class Bar:
    """One run in a suite's chart: its passes (green) with its failures stacked above them (red), scaled to the
    most checks run by any run of that suite."""

    run: RunFigures
    x: int
    pass_height: float
    fail_height: float

    @property
    def pass_y(self) -> float:
        return CHART_TOP + CHART_HEIGHT - self.pass_height

    @property
    def fail_y(self) -> float:
        return self.pass_y - self.fail_height

    @property
    def marked(self) -> bool:
        return self.run.change in (Change.DROP, Change.RISE)


@dataclass(frozen=True)
class SuiteChart:
    suite: SuiteRuns
    bars: tuple[Bar, ...]
    most: int
    """The most checks run by a run of this suite: the chart's full height."""

    @property
    def width(self) -> int:
        return BAR_GAP + len(self.bars) * (BAR_WIDTH + BAR_GAP)

    @property
    def height(self) -> int:
        return CHART_TOP + CHART_HEIGHT + 2


def suite_chart(suite: SuiteRuns) -> SuiteChart:
    most = max((run.score.ran for run in suite.runs), default=0)
    scale = CHART_HEIGHT / most if most else 0.0
    bars = tuple(Bar(run, BAR_GAP + i * (BAR_WIDTH + BAR_GAP), run.score.passes * scale, run.score.failed * scale)
                 for i, run in enumerate(suite.runs))
    return SuiteChart(suite, bars, most)


def history_page(column: Column, history: History, matrix_page: str | None) -> str:
    """The engine's page: its latest run (``column``) and its history."""
    return render("history.html", **report_context(column, matrix_page), history=history,
                  charts=[suite_chart(suite) for suite in history.suites], changes=list(Change),
                  chart=(BAR_WIDTH, CHART_TOP, CHART_HEIGHT))
