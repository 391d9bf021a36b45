"""The matrix page of several reports: implementations as columns, rules then cards as rows, each cell the
passes over the checks run; filters (rule group, card family, outcome) and sorting run in the page's script,
and a cell opens that implementation's failing checks for its row. This module gathers what the page shows;
``templates/matrix.html`` lays it out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from oracle.core.results import Outcome
from oracle.reports.common import one_line
from oracle.reports.html.load import Coverage, Result
from oracle.reports.html.markup import href, outcome_symbol, script_json
from oracle.reports.html.page_report import is_failure
from oracle.reports.html.render import render
from oracle.reports.html.tally import Column, Matrix, Status, Tally

RULE_KEY = "rule"
CARD_KEY = "card"


@dataclass(frozen=True)
class Exercised:
    """``87 of 104`` rules or cards run by at least one check, and how many of those passed every check."""

    ran: int
    total: int
    clean: int

    @classmethod
    def of(cls, coverage: dict[str, Coverage]) -> Exercised:
        ran = [t for t in coverage.values() if t.ran]
        return cls(len(ran), len(coverage), sum(t.passed == t.ran for t in ran))


@dataclass(frozen=True)
class Implementation:
    column: Column
    rules: Exercised
    cards: Exercised


@dataclass(frozen=True)
class MatrixRow:
    """A row of the matrix (a rule or a card): its heading, the category the filters use, a cell per column."""

    kind: str
    id: str
    name: str
    detail: str
    detail_class: str
    category_key: str
    category: str
    search_text: str
    cells: Sequence[Tally]

    @property
    def outcomes(self) -> str:
        return " ".join(sorted({o.value for t in self.cells for o in t.outcomes}))


def _rule_rows(matrix: Matrix) -> list[MatrixRow]:
    return [MatrixRow(RULE_KEY, rule.id, rule.id, rule.text, "rule-text", "group", rule.group,
                      (rule.id + " " + rule.text).casefold(), matrix.rule_cells[rule.id]) for rule in matrix.rules]


def _card_rows(matrix: Matrix) -> list[MatrixRow]:
    return [MatrixRow(CARD_KEY, card.id, card.name,
                      card.set + (f" · cost {card.cost}" if card.cost is not None else ""), "muted", "family",
                      card.family, (card.name + " " + card.id).casefold(), matrix.card_cells[card.id])
            for card in matrix.cards]


def _check_entry(col: Column, result: Result) -> list[str]:
    return [result.id, result.outcome.value, outcome_symbol(result.outcome), result.title, one_line(result),
            result.reproduce, href(col.page, "check", result.id)]


def panel_data(matrix: Matrix) -> dict[str, object]:
    """What the cell panel shows: per column its failing checks, and per cell the positions of its own."""
    checks: list[list[list[str]]] = []
    positions: list[dict[int, int]] = []
    for col in matrix.columns:
        failing = [r for r in col.report.results if is_failure(r)]
        checks.append([_check_entry(col, r) for r in failing])
        positions.append({r.index: i for i, r in enumerate(failing)})
    cells: dict[str, dict[str, list[int]]] = {}
    for kind, table in ((RULE_KEY, matrix.rule_cells), (CARD_KEY, matrix.card_cells)):
        for row_id, tallies in table.items():
            entry = {str(i): [positions[i][x] for x in t.failing] for i, t in enumerate(tallies) if t.failing}
            if entry:
                cells[f"{kind}|{row_id}"] = entry
    return {
        "columns": [{"label": c.label, "page": c.page} for c in matrix.columns],
        "checks": checks,
        "cells": cells,
    }


def matrix_context(matrix: Matrix) -> dict[str, Any]:
    """What ``templates/matrix.html`` shows of several reports (a page extending it starts from the same)."""
    return {
        "matrix": matrix, "suite_versions": ", ".join(sorted({c.report.suite_version for c in matrix.columns})),
        "implementations": [Implementation(c, Exercised.of(c.report.rule_coverage),
                                           Exercised.of(c.report.card_coverage)) for c in matrix.columns],
        "statuses": list(Status), "not_run": Status.NOT_RUN, "outcomes": list(Outcome),
        "groups": list(dict.fromkeys(r.group for r in matrix.rules)),
        "families": list(dict.fromkeys(c.family for c in matrix.cards)),
        "rule_rows": _rule_rows(matrix), "card_rows": _card_rows(matrix),
        "panel_data": Markup(script_json(panel_data(matrix))),
    }


def matrix_page(matrix: Matrix) -> str:
    """The whole matrix page."""
    return render("matrix.html", **matrix_context(matrix))
