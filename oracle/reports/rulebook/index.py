"""The rulebook's index: every rule by group, every card and tile, every scenario, each entry carrying the words
the script filters on (its id, name and text, and the names and ids it cites), folded to lower case."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from oracle.reports.rulebook.gather import Rulebook
from oracle.reports.rulebook.render import render

# What separates words for the filter; the script splits the query the same way (rulebook.js).
NOT_A_WORD = re.compile(r"[^\w-]+")


def search_text(parts: Iterable[str]) -> str:
    """``["LIMIT-2", "A player (Hestia)"]`` -> ``" limit-2 a player hestia "``: words folded to lower case,
    separated by single spaces, with a space at each end so that a whole word can be matched."""
    words = NOT_A_WORD.sub(" ", " ".join(parts).casefold()).split()
    return f" {' '.join(words)} "


@dataclass(frozen=True)
class SearchIndex:
    rules: dict[str, str]
    cards: dict[str, str]
    scenarios: dict[str, str]


def search_index(book: Rulebook) -> SearchIndex:
    rules = {}
    for rule_id, entry in book.rules.items():
        rule = entry.rule
        marks = ["project ruling"] if rule.kind == "ruling" else ["project reading"] if rule.reason else []
        marks += ["variant", *entry.variant.values] if entry.variant else []
        rules[rule_id] = search_text([rule_id, rule.group, rule.text, rule.source, rule.reason, *marks,
                                      *(book.cards[c].name for c in entry.names)])
    cards = {}
    for card_id, card in book.cards.items():
        printed = ([card.card.family.value, *(e.text for e in card.card.effects)] if card.card is not None
                   else ["artifact tile", card.tile.text] if card.tile is not None else [])
        cards[card_id] = search_text([card_id, card.name, *printed, *card.rules])
    scenarios = {
        scenario_id: search_text([scenario_id, entry.scenario.title, *entry.cited_rules,
                                  *(book.cards[c].name for c in (*entry.scenario.cards, *entry.tiles))])
        for scenario_id, entry in book.scenarios.items()
    }
    return SearchIndex(rules, cards, scenarios)


def index_page(book: Rulebook) -> str:
    entries = list(book.cards.values())
    return render("index.html", book, "Index", search=search_index(book),
                  cards=[e for e in entries if e.card is not None], tiles=[e for e in entries if e.tile is not None])
