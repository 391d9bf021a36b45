"""The page of one report: verdict and figure, totals by outcome, causes, the rule tree (group → rule →
checks), the card grid, the coverage of the rules catalogue, and every failure with expected/actual, its
scenario and its reproduce command. This module gathers what the page shows; ``templates/report.html`` lays it
out."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from jinja2 import Template
from markupsafe import Markup

from oracle.core.results import Outcome
from oracle.reports.common import card_name
from oracle.reports.fields import FieldKind, ResultField, result_fields
from oracle.reports.html.load import Cause, Coverage, Report, Result
from oracle.reports.html.render import environment, render
from oracle.reports.html.scenario_text import ScenarioView, scenario_view
from oracle.reports.html.tally import (
    CardRow,
    Column,
    Status,
    Tally,
    by_card,
    by_rule,
    card_rows,
    not_reached_by_rule,
    rule_rows,
    tally,
)

CARD_TILE_CHECKS = 5


def is_failure(result: Result) -> bool:
    """A check that ran and did not pass (unsupported and not-applicable checks did not run)."""
    return result.outcome is not Outcome.PASS and result.outcome.ran


@dataclass(frozen=True)
class RuleView:
    """A rule of the tree: its checks and the failing checks that did not reach it, open when it fails."""

    id: str
    text: str
    tally: Tally
    results: tuple[Result, ...]
    missed: tuple[Result, ...]

    @property
    def opened(self) -> bool:
        return self.tally.status is Status.FAIL


@dataclass(frozen=True)
class GroupView:
    name: str
    tally: Tally
    rules: tuple[RuleView, ...]

    @property
    def opened(self) -> bool:
        return self.tally.status is Status.FAIL


@dataclass(frozen=True)
class CardTile:
    """A card of the grid: its tally and its first failing checks (``more`` the others, listed under Failures)."""

    row: CardRow
    tally: Tally
    failing: tuple[Result, ...]
    more: int


@dataclass(frozen=True)
class CoverageTable:
    """The coverage of each rule or card; ``reached`` adds the not-reached column (rules only)."""

    label: str
    rows: tuple[tuple[str, Coverage], ...]
    reached: bool

    @property
    def exercised(self) -> int:
        return sum(t.ran > 0 for _, t in self.rows)


@dataclass(frozen=True)
class FailureView:
    """A failing check's article: its fields (label and markup), its scenario, its reproduce commands."""

    result: Result
    fields: tuple[tuple[str, Markup], ...]
    scenario: ScenarioView | None
    reproduce: tuple[str, ...]


@dataclass(frozen=True)
class NotRunSection:
    outcome: Outcome
    heading: str
    summary: str
    results: tuple[Result, ...]


def _rule_groups(report: Report) -> list[GroupView]:
    grouped = by_rule(report)
    unreached = not_reached_by_rule(report)
    rows = rule_rows([report])
    groups: dict[str, list[str]] = {}
    for row in rows:
        groups.setdefault(row.group, []).append(row.id)
    texts = {row.id: row.text for row in rows}
    views = []
    for group, rule_ids in groups.items():
        members = {r.index: r for rule_id in rule_ids for r in grouped.get(rule_id, [])}
        missed = {r.index: r for rule_id in rule_ids for r in unreached.get(rule_id, []) if r.index not in members}
        rules = tuple(RuleView(rule_id, texts[rule_id], tally(grouped.get(rule_id, []), unreached.get(rule_id, [])),
                               tuple(grouped.get(rule_id, [])), tuple(unreached.get(rule_id, [])))
                      for rule_id in rule_ids)
        views.append(GroupView(group, tally(members.values(), missed.values()), rules))
    return views


def _card_tiles(report: Report) -> list[CardTile]:
    grouped = by_card(report)
    tiles = []
    for row in card_rows([report]):
        results = grouped.get(row.id, [])
        failing = [r for r in results if is_failure(r)]
        tiles.append(CardTile(row, tally(results), tuple(failing[:CARD_TILE_CHECKS]),
                              max(0, len(failing) - CARD_TILE_CHECKS)))
    return tiles


def _facets(cause: Cause) -> tuple[tuple[str, str], ...]:
    """The facts a cause's checks share, by name, each value as the report's reader knows it (a card by its name)."""
    return tuple((name.replace("_", " "), ", ".join(card_name(v) if name == "cards" else v for v in values))
                 for name, values in cause.facets if values and name != "engine_messages")


FIELD_MARKUP: dict[FieldKind, tuple[str, str]] = {
    FieldKind.RULES: ("rules", "{% for r in f.values %}<a href=\"{{ href('', 'rule', r) }}\">{{ r }}</a>"
                               "{% if not loop.last %}, {% endif %}{% endfor %}"),
    FieldKind.CARDS: ("cards", "{% for c in f.values %}<a href=\"{{ href('', 'card', c) }}\">{{ card_name(c) }}</a>"
                               "{% if not loop.last %}, {% endif %}{% endfor %}"),
    FieldKind.STEP: ("step", "{{ f.text }}"),
    FieldKind.EXPECTED: ("expected", "<code>{{ f.text }}</code>"),
    FieldKind.ACTUAL: ("actual", "<code>{{ f.text }}</code>"),
    FieldKind.DETAIL: ("detail", "{{ f.text }}"),
}
"""The label and the template of each field a failure's list shows (its reproduce command comes after the
scenario)."""


@cache
def _field_template(kind: FieldKind) -> Template:
    return environment().from_string(FIELD_MARKUP[kind][1])


def _field_markup(field: ResultField) -> Markup:
    return Markup(_field_template(field.kind).render(f=field, card_name=card_name))


def failure_view(report: Report, result: Result) -> FailureView:
    every = result_fields(result)
    where = f"{result.file}:{result.line}" if result.file and result.line else result.file or ""
    fields = [(FIELD_MARKUP[f.kind][0], _field_markup(f)) for f in every if f.kind in FIELD_MARKUP]
    if result.notes:
        fields.append(("notes", Markup("<ul>{}</ul>").format(
            Markup("").join(Markup("<li>{}</li>").format(n) for n in result.notes))))
    if where:
        fields.append(("file", Markup("<code>{}</code>").format(where)))
    reproduce = tuple(f.text for f in every if f.kind is FieldKind.REPRODUCE)
    shown = tuple((label, markup) for label, markup in fields if markup)
    return FailureView(result, shown, scenario_view(report, result), reproduce)


NOT_RUN_SECTIONS = (
    (Outcome.UNSUPPORTED, "Unsupported", "Checks the engine cannot run (it lacks a capability, the expansion or a "
     "player count): not counted as run, never as passed"),
    (Outcome.NOT_APPLICABLE, "Not applicable", "Checks of another reading of a rule variant than the engine "
     "declares: not counted as run, never as passed"),
)


def report_context(column: Column, matrix_page: str | None) -> dict[str, Any]:
    """What ``templates/report.html`` shows of one report (a page extending it starts from the same)."""
    report = column.report
    counts = {o: 0 for o in Outcome}
    for result in report.results:
        counts[result.outcome] += 1
    not_run = [NotRunSection(outcome, heading, summary, listed)
               for outcome, heading, summary in NOT_RUN_SECTIONS
               if (listed := tuple(r for r in report.results if r.outcome is outcome))]
    return {
        "report": report, "score": column.score, "matrix_page": matrix_page,
        "causes": [(cause, _facets(cause)) for cause in report.causes], "totals": list(counts.items()),
        "rule_groups": _rule_groups(report), "card_tiles": _card_tiles(report),
        "coverage": [CoverageTable("rule", tuple(report.rule_coverage.items()), reached=True),
                     CoverageTable("card", tuple((card_name(k), t) for k, t in report.card_coverage.items()),
                                   reached=False)],
        "failures": [failure_view(report, r) for r in report.results if not r.outcome.ok],
        "known": [failure_view(report, r) for r in report.results if r.outcome.ok and is_failure(r)],
        "not_run_sections": not_run, "is_failure": is_failure,
    }


def report_page(column: Column, matrix_page: str | None) -> str:
    """The whole page of one report; ``matrix_page`` links back to the matrix when there is one."""
    return render("report.html", **report_context(column, matrix_page))
