"""The badge figure of a run ("97 % · 312/320") and the shields.io endpoint file that shows it.

The figure counts passes over the checks run: an unsupported check is not run, and it is never a pass; an
expected failure is run and is not a pass. The HTML site shows the same figure.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from oracle.reports.html.load import Report
from oracle.results import Outcome

DEFAULT_LABEL = "vale oracle"
SHIELDS_SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Score:
    """Passes over the checks run, whether every check was ok, and whether the run finished."""

    passes: int
    run: int
    ok: bool
    complete: bool = True

    @property
    def percent(self) -> int:
        """Rounded down, so that a run with one failure never shows 100 %."""
        return 100 * self.passes // self.run if self.run else 0

    @property
    def text(self) -> str:
        if not self.run:
            return "no checks run"
        figure = f"{self.percent} % · {self.passes}/{self.run}"
        return figure if self.complete else f"{figure} · incomplete"

    @property
    def color(self) -> str:
        """A shields.io named colour: bright green when everything passed, grey when nothing ran or the run
        stopped early, then green (only expected failures), yellow (90 % or more), orange (75 %), red."""
        if not self.run or not self.complete:
            return "lightgrey"
        if self.passes == self.run:
            return "brightgreen"
        if self.ok:
            return "green"
        if self.percent >= 90:
            return "yellow"
        return "orange" if self.percent >= 75 else "red"


def score_of(outcomes: Iterable[Outcome], complete: bool = True) -> Score:
    seen = list(outcomes)
    return Score(
        passes=sum(o is Outcome.PASS for o in seen),
        run=sum(o is not Outcome.UNSUPPORTED for o in seen),
        ok=all(o.ok for o in seen),
        complete=complete,
    )


def report_score(report: Report) -> Score:
    return score_of((r.outcome for r in report.results), report.complete)


def badge_json(report: Report, label: str = DEFAULT_LABEL) -> dict[str, object]:
    """A shields.io endpoint document: ``schemaVersion``, ``label``, ``message`` and ``color``."""
    score = report_score(report)
    return {"schemaVersion": SHIELDS_SCHEMA_VERSION, "label": label, "message": score.text, "color": score.color}


def write_badge(path: Path, report: Report, label: str = DEFAULT_LABEL) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(badge_json(report, label), ensure_ascii=False) + "\n", encoding="utf-8")
