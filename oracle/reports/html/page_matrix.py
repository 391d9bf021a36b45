"""The matrix page of several reports: implementations as columns, rules then cards as rows, each cell the
passes over the checks run; filters (rule group, card family, outcome) and sorting run in the page's script,
and a cell opens that implementation's failing checks for its row."""

from __future__ import annotations

from collections.abc import Sequence

from oracle.core.results import Outcome
from oracle.reports.common import one_line
from oracle.reports.html.load import Coverage, Result
from oracle.reports.html.markup import (
    esc,
    href,
    outcome_symbol,
    page,
    script_json,
    status_badge,
    tally_text,
    verdict_badge,
)
from oracle.reports.html.page_report import is_failure
from oracle.reports.html.tally import Column, Matrix, Status, Tally

RULE_KEY = "rule"
CARD_KEY = "card"


def _implementations(matrix: Matrix) -> str:
    rows = []
    for col in matrix.columns:
        report, score = col.report, col.score
        incomplete = "" if report.complete else f' <span class="warning">⚠ incomplete {esc(report.stopped)}</span>'
        rows.append(
            f'<tr><td><a href="{esc(col.page)}">{esc(col.label)}</a>{incomplete}</td>'
            f"<td><code>{esc(report.impl)}</code></td>"
            f"<td>{verdict_badge(report.verdict)}</td>"
            f'<td class="figure">{esc(score.text)}</td><td>{len(report.results)}</td>'
            f"<td>{_exercised(report.rule_coverage)}</td><td>{_exercised(report.card_coverage)}</td>"
            f"<td>{esc(', '.join(report.suites))}</td><td>{esc(report.date)}</td></tr>")
    return ('<section id="implementations"><h2>Implementations</h2><table class="impls"><thead><tr>'
            "<th>implementation</th><th>--impl</th><th>verdict</th><th>checked · passes</th><th>checks</th>"
            "<th>rules exercised</th><th>cards exercised</th>"
            f'<th>suites</th><th>date</th></tr></thead><tbody>{"".join(rows)}</tbody></table></section>')


def _exercised(coverage: dict[str, Coverage]) -> str:
    """``87 of 104`` (run by at least one check), with how many of those passed every check."""
    ran = [t for t in coverage.values() if t.ran]
    clean = sum(t.passed == t.ran for t in ran)
    return f'{len(ran)} of {len(coverage)} <span class="muted">({clean} all passed)</span>'


def _option(value: str) -> str:
    return f'<option value="{esc(value)}">{esc(value)}</option>'


def _filters(matrix: Matrix) -> str:
    groups = "".join(_option(g) for g in dict.fromkeys(r.group for r in matrix.rules))
    families = "".join(_option(f) for f in dict.fromkeys(c.family for c in matrix.cards))
    outcomes = "".join(f'<option value="{esc(o.value)}">{outcome_symbol(o)} {esc(o.value)}</option>' for o in Outcome)
    return (
        '<form id="filters" class="filters" hidden>'
        f'<label>rule group <select id="filter-group"><option value="">all</option>{groups}</select></label>'
        f'<label>card family <select id="filter-family"><option value="">all</option>{families}</select></label>'
        '<label>outcome <select id="filter-outcome"><option value="">any</option>'
        f"{outcomes}</select></label>"
        '<label>text <input id="filter-text" type="search" placeholder="PAY-3, Kappa…"></label>'
        '<output id="filter-count"></output></form>'
        "<noscript><p class=\"muted\">Filtering and sorting need JavaScript; every row and cell is here without it, "
        "and each cell links to that implementation's page.</p></noscript>")


def _legend() -> str:
    items = "".join(f"<li>{status_badge(s)} {esc(s.label)}</li>" for s in Status)
    return (f'<ul class="legend">{items}</ul><p class="muted">A cell is the passes over the checks run; '
            "unsupported and not-applicable checks are not run, and a failing check counts only against the rule "
            "its cause is blamed on: for the other rules it cites it is not reached (each kind has its symbol), "
            "never a failure and never a pass. A rule is red only when a cause is blamed on it (or, for a check "
            "whose blame is not known, when it cites it).</p>")


def _cell(kind: str, row_id: str, col: Column, t: Tally) -> str:
    if not t.checks:
        return f'<td class="cell s-not-run" data-sort="-2" title="not run">{Status.NOT_RUN.symbol}</td>'
    link = href(col.page, kind, row_id)
    return (f'<td class="cell s-{t.status.value}" data-sort="{t.ratio:.6f}"><a href="{esc(link)}" '
            f'data-key="{esc(kind)}|{esc(row_id)}" data-col="{col.index}">{tally_text(t)}</a></td>')


def _sort_button(column: int, name: str) -> str:
    return (f'<button type="button" class="sort" data-sort-col="{column}" hidden '
            f'aria-label="sort by {esc(name)}">↕</button>')


def _head(first: str, second: str, matrix: Matrix) -> str:
    cols = "".join(f'<th scope="col" class="impl"><span>{esc(c.label)}</span><br><small>{esc(c.score.text)}</small>'
                   f" {_sort_button(c.index + 2, c.label)}</th>" for c in matrix.columns)
    return (f'<thead><tr><th scope="col">{esc(first)} {_sort_button(0, first)}</th>'
            f'<th scope="col">{esc(second)} {_sort_button(1, second)}</th>{cols}</tr></thead>')


def _outcomes(cells: Sequence[Tally]) -> str:
    return " ".join(sorted({o.value for t in cells for o in t.outcomes}))


def _rule_table(matrix: Matrix) -> str:
    rows = []
    for order, rule in enumerate(matrix.rules):
        cells = matrix.rule_cells[rule.id]
        rows.append(
            f'<tr data-group="{esc(rule.group)}" data-outcomes="{esc(_outcomes(cells))}" '
            f'data-text="{esc((rule.id + " " + rule.text).casefold())}">'
            f'<th scope="row" data-sort="{order}"><strong>{esc(rule.id)}</strong> '
            f'<span class="rule-text">{esc(rule.text)}</span></th>'
            f'<td data-sort="{esc(rule.group)}">{esc(rule.group)}</td>'
            + "".join(_cell(RULE_KEY, rule.id, col, cells[col.index]) for col in matrix.columns) + "</tr>")
    return (f'<section id="by-rule"><h2>By rule</h2><table class="matrix" id="rule-matrix">'
            f'{_head("rule", "group", matrix)}<tbody>{"".join(rows)}</tbody></table></section>')


def _card_table(matrix: Matrix) -> str:
    rows = []
    for order, card in enumerate(matrix.cards):
        cells = matrix.card_cells[card.id]
        cost = f" · cost {card.cost}" if card.cost is not None else ""
        rows.append(
            f'<tr data-family="{esc(card.family)}" data-outcomes="{esc(_outcomes(cells))}" '
            f'data-text="{esc((card.name + " " + card.id).casefold())}">'
            f'<th scope="row" data-sort="{order}"><strong>{esc(card.name)}</strong> '
            f'<span class="muted">{esc(card.set)}{cost}</span></th>'
            f'<td data-sort="{esc(card.family)}">{esc(card.family)}</td>'
            + "".join(_cell(CARD_KEY, card.id, col, cells[col.index]) for col in matrix.columns) + "</tr>")
    return (f'<section id="by-card"><h2>By card</h2><table class="matrix" id="card-matrix">'
            f'{_head("card", "family", matrix)}<tbody>{"".join(rows)}</tbody></table></section>')


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


def _data_script(data: dict[str, object]) -> str:
    return f'<script type="application/json" id="panel-data">{script_json(data)}</script>'


def matrix_page(matrix: Matrix) -> str:
    versions = ", ".join(sorted({c.report.suite_version for c in matrix.columns}))
    body = "\n".join([
        f"<header><h1>Vale Oracle: {len(matrix.columns)} implementations</h1>"
        f'<p class="meta">suite version {esc(versions)} · {len(matrix.rules)} rules · {len(matrix.cards)} cards</p>'
        "</header>",
        _implementations(matrix), _legend(), _filters(matrix), _rule_table(matrix), _card_table(matrix),
        _data_script(panel_data(matrix)),
    ])
    nav = '<a href="#implementations">implementations</a><a href="#by-rule">by rule</a><a href="#by-card">by card</a>'
    return page("Vale Oracle: implementations by rule and card", body, nav)
