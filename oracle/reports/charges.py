"""Rules charged by blame: which rules a check counts against and which it did not reach (docs/reports.md, Causes).

Every per-rule figure (the coverage view, the Markdown rule-group table, the HTML matrix and rule tree, a cause's
rules, the rulebook's other checks) asks :func:`charge` and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from oracle.core.results import Outcome


@dataclass(frozen=True)
class Charge:
    """The rules one check counts against (``charged``) and the rules it cites that it did not get far enough to
    test (``not_reached``): never failed, never passed."""

    charged: tuple[str, ...]
    not_reached: tuple[str, ...] = ()


def charge(outcome: Outcome, rules: Iterable[str], blame: str) -> Charge:
    """A check that ran and did not pass, whose cause is blamed on a rule, counts against that rule only, cited or
    not; the other rules it cites are not reached. Any other check (passed, not run, or a failure whose blame is not
    known: ``blame`` '') counts against every rule it cites, as before the blame."""
    cited = tuple(dict.fromkeys(rules))
    if not blame or outcome is Outcome.PASS or not outcome.ran:
        return Charge(cited)
    return Charge((blame,), tuple(rule for rule in cited if rule != blame))
