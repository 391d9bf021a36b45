"""The site's data without any HTML: checks tallied by rule and by card, per report, and the matrix of
implementations (columns) by rules and cards (rows)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from oracle.core.cards import catalogue
from oracle.core.results import Outcome
from oracle.core.rules import rules
from oracle.reports.badge import Score, report_score
from oracle.reports.html.load import Report, Result

NO_RULE = "(no rule)"
OTHER = "other"


class Status(Enum):
    """What a set of checks (a cell, a rule, a card) adds up to; each has a symbol, never colour alone."""

    FAIL = "fail"
    KNOWN = "known"
    PASS = "pass"
    NOT_REACHED = "not-reached"
    UNSUPPORTED = "unsupported"
    NOT_APPLICABLE = "not-applicable"
    NOT_RUN = "not-run"

    @property
    def symbol(self) -> str:
        return {Status.FAIL: "✗", Status.KNOWN: "≈", Status.PASS: "✓", Status.NOT_REACHED: "○",
                Status.UNSUPPORTED: "–", Status.NOT_APPLICABLE: "∅", Status.NOT_RUN: "·"}[self]

    @property
    def label(self) -> str:
        return {Status.FAIL: "failing", Status.KNOWN: "known failures only", Status.PASS: "all pass",
                Status.NOT_REACHED: "not reached: the checks citing it failed before it, on a cause blamed on "
                                    "another rule",
                Status.UNSUPPORTED: "not run: unsupported (the engine lacks a capability, the expansion or a "
                                    "player count)",
                Status.NOT_APPLICABLE: "not run: not applicable (another reading of a rule variant than the "
                                       "engine declares)",
                Status.NOT_RUN: "no check"}[self]


@dataclass(frozen=True)
class Tally:
    """Checks counted: passes over the checks run (unsupported, not-applicable and not-reached ones are not run),
    and the failing checks (every outcome of a check that ran but pass), as result indices of their report. A
    not-reached check failed on a cause blamed on another rule: it is counted here only as not reached."""

    checks: int
    passes: int
    unsupported: int
    not_ok: int
    known: int
    outcomes: frozenset[Outcome]
    failing: tuple[int, ...]
    not_applicable: int = 0
    not_reached: int = 0

    @property
    def run(self) -> int:
        return self.checks - self.unsupported - self.not_applicable - self.not_reached

    @property
    def status(self) -> Status:
        if self.not_ok:
            return Status.FAIL
        if self.known:
            return Status.KNOWN
        if self.passes:
            return Status.PASS
        if self.not_reached:
            return Status.NOT_REACHED
        if self.unsupported:
            return Status.UNSUPPORTED
        return Status.NOT_APPLICABLE if self.not_applicable else Status.NOT_RUN

    @property
    def figure(self) -> str:
        """``3/5``, ``3/5 +1 not reached +2 unsupported +1 not applicable``, ``not reached``, ``unsupported``,
        ``not applicable`` or ``not run``: each kind of check not run is named, never counted in ``/5``."""
        if not self.checks:
            return "not run"
        kinds = (("not reached", self.not_reached), ("unsupported", self.unsupported),
                 ("not applicable", self.not_applicable))
        if not self.run:
            return next(name for name, count in kinds if count)
        return f"{self.passes}/{self.run}" + "".join(f" +{count} {name}" for name, count in kinds if count)

    @property
    def ratio(self) -> float:
        """For sorting: the share of passes, below zero when nothing ran."""
        return self.passes / self.run if self.run else -1.0


def tally(results: Iterable[Result], not_reached: Iterable[Result] = ()) -> Tally:
    """The tally of the checks charged to a row, and of those that did not reach it (counted as checks, not run)."""
    seen = list(results)
    unreached = len(list(not_reached))
    return Tally(
        checks=len(seen) + unreached,
        passes=sum(r.outcome is Outcome.PASS for r in seen),
        unsupported=sum(r.outcome is Outcome.UNSUPPORTED for r in seen),
        not_ok=sum(not r.outcome.ok for r in seen),
        known=sum(r.outcome is Outcome.EXPECTED_FAILURE for r in seen),
        outcomes=frozenset(r.outcome for r in seen),
        failing=tuple(r.index for r in seen if r.outcome is not Outcome.PASS and r.outcome.ran),
        not_applicable=sum(r.outcome is Outcome.NOT_APPLICABLE for r in seen),
        not_reached=unreached,
    )


@dataclass(frozen=True)
class RuleRow:
    id: str
    group: str
    text: str


@dataclass(frozen=True)
class CardRow:
    id: str
    name: str
    family: str
    cost: int | None
    set: str


def by_rule(report: Report) -> dict[str, list[Result]]:
    """The report's results under each rule they are charged to (``Result.charge``: a failure blamed on a rule under
    that rule only, any other result under every rule it cites); results charged to none under :data:`NO_RULE`."""
    out: dict[str, list[Result]] = {}
    for result in report.results:
        for rule_id in result.charge.charged or (NO_RULE,):
            out.setdefault(rule_id, []).append(result)
    return out


def not_reached_by_rule(report: Report) -> dict[str, list[Result]]:
    """The failing results under each rule they cite but did not reach (their cause is blamed on another rule)."""
    out: dict[str, list[Result]] = {}
    for result in report.results:
        for rule_id in result.charge.not_reached:
            out.setdefault(rule_id, []).append(result)
    return out


def by_card(report: Report) -> dict[str, list[Result]]:
    out: dict[str, list[Result]] = {}
    for result in report.results:
        for card_id in result.cards:
            out.setdefault(card_id, []).append(result)
    return out


def rule_rows(reports: Sequence[Report]) -> list[RuleRow]:
    """Every rule of the catalogue in its order, then rule ids the reports cite or blame that it lacks, then
    :data:`NO_RULE` when some check is charged to no rule."""
    catalogue_rules = rules()
    rows = [RuleRow(rule.id, rule.group, rule.text) for rule in catalogue_rules.values()]
    cited = dict.fromkeys(r for report in reports for result in report.results
                          for r in (*result.charge.charged, *result.charge.not_reached))
    rows += [RuleRow(rule_id, OTHER, "not in this oracle's rules catalogue") for rule_id in cited
             if rule_id not in catalogue_rules]
    if any(not result.charge.charged for report in reports for result in report.results):
        rows.append(RuleRow(NO_RULE, OTHER, "checks that cite no rule"))
    return rows


def card_rows(reports: Sequence[Report]) -> list[CardRow]:
    """Every card of the catalogue (base, then the Artifacts expansion), then cards it does not know."""
    cards = catalogue().cards
    rows = [CardRow(c.id, c.name, c.family.value, c.cost, c.set) for c in cards.values()]
    cited = dict.fromkeys(c for report in reports for result in report.results for c in result.cards)
    rows += [CardRow(card_id, card_id, OTHER, None, OTHER) for card_id in cited if card_id not in cards]
    return rows


@dataclass(frozen=True)
class Column:
    """One implementation of the matrix: its report, a unique label, and its own page."""

    index: int
    report: Report
    label: str
    page: str
    score: Score


def columns(reports: Sequence[Report], pages: Sequence[str]) -> list[Column]:
    """One column per report, labelled by engine and version, with the ``--impl`` (then a number) added
    where two labels would be the same."""
    labels = [f"{r.engine} {r.version}".strip() for r in reports]
    twice = {label for label in labels if labels.count(label) > 1}
    labels = [f"{label} ({r.impl})" if label in twice else label for label, r in zip(labels, reports, strict=True)]
    twice = {label for label in labels if labels.count(label) > 1}
    seen: dict[str, int] = {}
    for i, label in enumerate(labels):
        if label in twice:
            seen[label] = seen.get(label, 0) + 1
            labels[i] = f"{label} #{seen[label]}"
    return [Column(i, report, labels[i], pages[i], report_score(report)) for i, report in enumerate(reports)]


@dataclass(frozen=True)
class Matrix:
    """Implementations by rules and by cards: ``rule_cells[rule id][column]`` and ``card_cells[card id][column]``."""

    columns: tuple[Column, ...]
    rules: tuple[RuleRow, ...]
    cards: tuple[CardRow, ...]
    rule_cells: dict[str, tuple[Tally, ...]]
    card_cells: dict[str, tuple[Tally, ...]]

    @property
    def rule_count(self) -> int:
        """The rules among the rows: the :data:`NO_RULE` row gathers checks that cite none, and is no rule."""
        return sum(row.id != NO_RULE for row in self.rules)


def matrix(cols: Sequence[Column]) -> Matrix:
    reports = [c.report for c in cols]
    rule_list, card_list = rule_rows(reports), card_rows(reports)
    per_rule = [by_rule(r) for r in reports]
    unreached = [not_reached_by_rule(r) for r in reports]
    per_card = [by_card(r) for r in reports]
    return Matrix(
        columns=tuple(cols),
        rules=tuple(rule_list),
        cards=tuple(card_list),
        rule_cells={row.id: tuple(tally(groups.get(row.id, []), missed.get(row.id, []))
                                  for groups, missed in zip(per_rule, unreached, strict=True)) for row in rule_list},
        card_cells={row.id: tuple(tally(groups.get(row.id, [])) for groups in per_card) for row in card_list},
    )
