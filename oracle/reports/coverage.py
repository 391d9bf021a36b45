"""The coverage view of the rules catalogue: for each rule id and card, how many checks ran and passed; a failing
check counts against its blamed rule only, and its other rules count it as not reached (docs/reports.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from oracle.core.json_types import JSON
from oracle.core.results import CheckResult, Outcome
from oracle.reports.causes import charge_of
from oracle.reports.charges import Charge


@dataclass(frozen=True)
class Tally:
    """The checks citing one rule or card: how many ran, passed, were unsupported and were not applicable (neither
    counted as run), and for a rule how many failed before they reached it (not reached: not run for this rule)."""

    ran: int = 0
    passed: int = 0
    unsupported: int = 0
    not_applicable: int = 0
    not_reached: int = 0

    def add(self, outcome: Outcome) -> Tally:
        return Tally(self.ran + outcome.ran, self.passed + (outcome is Outcome.PASS),
                     self.unsupported + (outcome is Outcome.UNSUPPORTED),
                     self.not_applicable + (outcome is Outcome.NOT_APPLICABLE), self.not_reached)

    def add_not_reached(self) -> Tally:
        return Tally(self.ran, self.passed, self.unsupported, self.not_applicable, self.not_reached + 1)

    def to_json(self) -> JSON:
        return {"ran": self.ran, "passed": self.passed, "unsupported": self.unsupported,
                "not_applicable": self.not_applicable, "not_reached": self.not_reached}


def _tallies(results: Iterable[CheckResult], keys: Callable[[CheckResult], Charge],
             catalogue: Iterable[str]) -> dict[str, Tally]:
    out = {key: Tally() for key in catalogue}
    for result in results:
        charged = keys(result)
        for key in charged.charged:
            out[key] = out.get(key, Tally()).add(result.outcome)
        for key in charged.not_reached:
            out[key] = out.get(key, Tally()).add_not_reached()
    return out


def rule_coverage(results: Sequence[CheckResult]) -> dict[str, Tally]:
    """Every rule id of ``oracle/data/rules.toml`` (zeros included), in catalogue order, then blamed rule ids it
    lacks; each check charged by :func:`~oracle.reports.causes.charge_of`."""
    from oracle.core.rules import rules

    return _tallies(results, charge_of, rules())


def card_coverage(results: Sequence[CheckResult]) -> dict[str, Tally]:
    """Every card id of the catalogue (zeros included)."""
    from oracle.core.cards import catalogue

    cards = catalogue()

    def ids(result: CheckResult) -> list[str]:
        found = [cards.by_name(c) for c in result.cards]
        return [card.id if card is not None else c for c, card in zip(result.cards, found, strict=True)]

    return _tallies(results, lambda r: Charge(tuple(dict.fromkeys(ids(r)))), cards.cards)


def coverage_json(results: Sequence[CheckResult]) -> JSON:
    return {"rules": {k: t.to_json() for k, t in rule_coverage(results).items()},
            "cards": {k: t.to_json() for k, t in card_coverage(results).items()}}
