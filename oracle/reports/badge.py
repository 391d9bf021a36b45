"""The badge of a run (``488/502 pass``, ``97 % · 14 fail``), the longer figure the reports show beside it
(``32/491 checked · 32 pass``), and the shields.io endpoint file.

The badge's message is short, as shields.io's are: the passes over all the checks of the run when nothing failed
(an unsupported check is not a pass), else the share of the checks that ran that passed and how many failed. The
longer figure says how much was checked: the checks that ran (an unsupported or not-applicable check did not run)
over all the checks of the run, then the passes among them (an expected failure ran and is not a pass) and the
failures. The colour is bright green only when the run finished, every check that ran passed, every check the
engine's declarations allow ran (none incomplete, none unsupported at run time because the engine refused a call
or marked a decision undrivable) and every base-game rule of the catalogue has at least one check that ran; yellow
when nothing failed but one of those is missing; orange (75 % of the checks that ran pass) or red when something
failed; grey when nothing ran or the run stopped early. The HTML site shows the same figure (``docs/html.md``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from oracle.core.results import Outcome
from oracle.reports.files import write_report_file
from oracle.reports.html.load import Coverage, Report

DEFAULT_LABEL = "vale oracle"
SHIELDS_SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Score:
    """How much of a run was checked and how it went, and what keeps it from being green."""

    checks: int
    ran: int
    passes: int
    failed: int
    """Checks that ran and failed (every not-ok outcome but incomplete; expected failures are not failed)."""
    complete: bool = True
    gaps: int = 0
    """Checks the engine's declarations allow that did not run in full: incomplete, or unsupported at run time."""
    uncovered: tuple[str, ...] = ()
    """Base-game rules of the catalogue with no check that ran."""

    @property
    def percent(self) -> int:
        """Passes over the checks that ran, rounded down (one failure never shows 100 %)."""
        return 100 * self.passes // self.ran if self.ran else 0

    @property
    def green(self) -> bool:
        return (self.complete and self.ran > 0 and self.passes == self.ran and not self.gaps
                and not self.uncovered)

    @property
    def text(self) -> str:
        """``32/491 checked · 32 pass``, with ``· 3 fail`` and ``· incomplete`` when they apply."""
        if not self.ran:
            figure = f"nothing checked · 0/{self.checks}"
        else:
            figure = f"{self.ran}/{self.checks} checked · {self.passes} pass"
            if self.failed:
                figure += f" · {self.failed} fail"
        return figure if self.complete else f"{figure} · incomplete"

    @property
    def message(self) -> str:
        """The badge's words: ``488/502 pass`` when nothing failed, ``97 % · 14 fail`` when checks failed,
        ``nothing checked``, each with `` · incomplete`` for a run that stopped early."""
        if not self.ran:
            words = "nothing checked"
        elif self.failed:
            words = f"{self.percent} % · {self.failed} fail"
        else:
            words = f"{self.passes}/{self.checks} pass"
        return words if self.complete else f"{words} · incomplete"

    @property
    def color(self) -> str:
        """A shields.io named colour (the rule is in the module's docstring)."""
        if not self.ran or not self.complete:
            return "lightgrey"
        if self.green:
            return "brightgreen"
        if not self.failed:
            return "yellow"
        return "orange" if self.percent >= 75 else "red"


def report_score(report: Report) -> Score:
    from oracle.core.rules import rules

    results = report.results
    base_rules = [rule.id for rule in rules().values() if rule.scope == "base"]
    return Score(
        checks=len(results),
        ran=sum(r.outcome.ran for r in results),
        passes=sum(r.outcome is Outcome.PASS for r in results),
        failed=sum(not r.outcome.ok and r.outcome is not Outcome.INCOMPLETE for r in results),
        complete=report.complete,
        gaps=sum(r.outcome is Outcome.INCOMPLETE or r.unsupported_at_run for r in results),
        uncovered=tuple(rule for rule in base_rules if not report.rule_coverage.get(rule, Coverage()).ran),
    )


def badge_json(report: Report, label: str = DEFAULT_LABEL) -> dict[str, object]:
    """A shields.io endpoint document: ``schemaVersion``, ``label``, ``message`` and ``color``."""
    score = report_score(report)
    return {"schemaVersion": SHIELDS_SCHEMA_VERSION, "label": label, "message": score.message, "color": score.color}


def write_badge(path: Path, report: Report, label: str = DEFAULT_LABEL) -> None:
    write_report_file(path, json.dumps(badge_json(report, label), ensure_ascii=False) + "\n")
