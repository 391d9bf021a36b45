"""The rulebook's pages from its Jinja2 templates (package data under ``templates/``): one page per rule group and
one per card or tile. The environment autoescapes every template, so each text from the catalogues, the scenarios
or a report is escaped wherever it lands, in an element or in an attribute."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import Any

from jinja2 import Environment

from oracle.core import versions
from oracle.core.results import Outcome
from oracle.reports.html.markup import anchor_id, outcome_class, outcome_symbol
from oracle.reports.rulebook.gather import CardEntry, GroupEntry, Rulebook
from oracle.reports.templates import autoescaped

STYLESHEETS = ("assets/site.css", "assets/rulebook.css")
SCRIPTS = ("assets/site.js", "assets/rulebook.js")


@cache
def environment() -> Environment:
    env = autoescaped("oracle.reports.rulebook")
    env.globals.update(outcome_class=outcome_class, outcome_symbol=outcome_symbol, PASS=Outcome.PASS,
                       stylesheets=STYLESHEETS, scripts=SCRIPTS, suite_version=versions.SUITE_VERSION)
    env.filters["zip"] = lambda first, second: list(zip(first, second, strict=True))
    return env


class Links:
    """Where a rule, a card, a tile or a scenario is shown, and small figures the templates print."""

    def __init__(self, book: Rulebook) -> None:
        self.book = book

    @staticmethod
    def rule_anchor(rule_id: str) -> str:
        return anchor_id("rule", rule_id)

    @staticmethod
    def scenario_anchor(rule_id: str, scenario_id: str) -> str:
        """A scenario under one of its rules (it appears under each rule it cites)."""
        return f"{rule_id}--{scenario_id}"

    @staticmethod
    def card_scenario_anchor(scenario_id: str) -> str:
        return anchor_id("scenario", scenario_id)

    def rule(self, rule_id: str) -> str:
        return f"{self.book.rules[rule_id].page}#{self.rule_anchor(rule_id)}"

    def card(self, card_id: str) -> str:
        return self.book.cards[card_id].page

    def name(self, card_id: str) -> str:
        return self.book.cards[card_id].name

    def scenario(self, scenario_id: str) -> str:
        """The scenario under the first rule it cites."""
        rule_id = self.book.scenarios[scenario_id].cited_rules[0]
        return f"{self.book.rules[rule_id].page}#{self.scenario_anchor(rule_id, scenario_id)}"

    def polarity(self, scenario_ids: Iterable[str]) -> tuple[int, int]:
        """How many of the scenarios are positive, and how many negative."""
        entries = [self.book.scenarios[s] for s in scenario_ids]
        return sum(e.positive for e in entries), sum(e.negative for e in entries)

    def tally(self, scenario_ids: Iterable[str]) -> list[tuple[Outcome, int]]:
        """The report's outcomes over these scenarios, in the order of :class:`Outcome` (none without a report)."""
        if self.book.report is None:
            return []
        outcomes = self.book.report.outcomes
        counts = Counter(outcomes[s].result.outcome for s in scenario_ids if s in outcomes)
        return [(o, counts[o]) for o in Outcome if counts[o]]


def render(template: str, book: Rulebook, title: str, **context: Any) -> str:
    return environment().get_template(template).render(book=book, links=Links(book), report=book.report,
                                                       title=title, **context)


def group_page(book: Rulebook, group: GroupEntry) -> str:
    return render("group.html", book, f"Rules: {group.name}", group=group)


def card_page(book: Rulebook, entry: CardEntry) -> str:
    kind = "card" if entry.card is not None else "artifact tile"
    return render("card.html", book, f"{entry.name} ({kind})", entry=entry)

