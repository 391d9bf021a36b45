"""The coverage view of the rules catalogue: for each rule id and card, how many checks ran and passed."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from oracle.core.json_types import JSON
from oracle.core.results import CheckResult, Outcome


@dataclass(frozen=True)
class Tally:
    """The checks citing one rule or card: how many ran, passed, were unsupported and were not applicable (neither
    counted as run)."""

    ran: int = 0
    passed: int = 0
    unsupported: int = 0
    not_applicable: int = 0

    def add(self, result: CheckResult) -> Tally:
        if result.outcome is Outcome.UNSUPPORTED:
            return Tally(self.ran, self.passed, self.unsupported + 1, self.not_applicable)
        if result.outcome is Outcome.NOT_APPLICABLE:
            return Tally(self.ran, self.passed, self.unsupported, self.not_applicable + 1)
        return Tally(self.ran + 1, self.passed + (result.outcome is Outcome.PASS), self.unsupported,
                     self.not_applicable)

    def to_json(self) -> JSON:
        return {"ran": self.ran, "passed": self.passed, "unsupported": self.unsupported,
                "not_applicable": self.not_applicable}


def _tallies(results: Iterable[CheckResult], keys: Callable[[CheckResult], Iterable[str]],
             catalogue: Iterable[str]) -> dict[str, Tally]:
    out = {key: Tally() for key in catalogue}
    for result in results:
        for key in dict.fromkeys(keys(result)):
            out[key] = out.get(key, Tally()).add(result)
    return out


def rule_coverage(results: Sequence[CheckResult]) -> dict[str, Tally]:
    """Every rule id of ``oracle/data/rules.toml`` (zeros included), in catalogue order."""
    from oracle.core.rules import rules

    return _tallies(results, lambda r: r.rules, rules())


def card_coverage(results: Sequence[CheckResult]) -> dict[str, Tally]:
    """Every card id of the catalogue (zeros included)."""
    from oracle.core.cards import catalogue

    cards = catalogue()

    def ids(result: CheckResult) -> list[str]:
        found = [cards.by_name(c) for c in result.cards]
        return [card.id if card is not None else c for c, card in zip(result.cards, found, strict=True)]

    return _tallies(results, ids, cards.cards)


def coverage_json(results: Sequence[CheckResult]) -> JSON:
    return {"rules": {k: t.to_json() for k, t in rule_coverage(results).items()},
            "cards": {k: t.to_json() for k, t in card_coverage(results).items()}}
