"""What every report shares: the run's metadata, totals by outcome, and the exit code."""

from __future__ import annotations

import signal
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from oracle.core import versions
from oracle.core.exits import EXIT_FAILED, EXIT_INCOMPLETE, EXIT_NOTHING_CHECKED, EXIT_OK, EXIT_REPORT_FAILED
from oracle.core.json_types import JSON
from oracle.core.results import POSITION_REFUSED, REACHED_BY, UNLOCKED_BY_LOAD, CheckResult, Outcome
from oracle.core.shards import Plan, Shard
from oracle.core.versions import python_version
from oracle.engines.costs import EngineCosts
from oracle.engines.legal_share import LegalShare
from oracle.engines.speed import BudgetScale
from oracle.scenarios.suite_digest import suite_digest

DATE_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
"""``run.date`` of a report: the start of the run, UTC, e.g. ``2024-05-01T12:00:00Z``."""


def date_problem(text: str) -> str | None:
    """Why ``text`` is not a ``run.date`` (a real UTC date and time in :data:`DATE_FORMAT`), or None."""
    try:
        datetime.strptime(text, DATE_FORMAT)
    except ValueError:
        return f"{text!r} is not a UTC date and time such as 2024-05-01T12:00:00Z"
    return None


@dataclass(frozen=True)
class ShardRecord:
    """What a shard's report needs for ``oracle report merge`` to rebuild the whole run, and to prove which units it
    was dealt: which shard it was, the whole plan it was cut from (every unit's id and its checks' ids) with the
    plan's digest and the digest of the units dealt to it, and each result's and each check not run's place in that
    plan (the index of its unit), so the merged results come in the order of an unsharded run. The report adds the
    digest of its results (:func:`oracle.reports.json_report.build_report`)."""

    shard: Shard
    plan: Plan
    positions: tuple[int, ...] = ()
    not_run_positions: tuple[int, ...] = ()

    def to_json(self) -> JSON:
        return {"index": self.shard.index, "count": self.shard.count, "planned": self.plan.checks,
                "plan_sha256": self.plan.sha256,
                "plan": [{"unit": unit.id, "checks": list(unit.checks)} for unit in self.plan.units],
                "dealt_sha256": self.plan.dealt_sha256(self.shard), "positions": list(self.positions),
                "not_run_positions": list(self.not_run_positions)}


@dataclass(frozen=True)
class RunInfo:
    """Who was checked, with what, when and for how long."""

    engine: str
    engine_version: str
    impl: str
    suites: tuple[str, ...] = ()
    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    duration: float = 0.0
    options: JSON = field(default_factory=dict)
    suite_version: str = versions.SUITE_VERSION
    suite_digest: str = field(default_factory=suite_digest)
    """The digest of the scenarios and rules data the run checked against (:mod:`oracle.scenarios.suite_digest`)."""
    oracle_version: str = versions.__version__
    protocol: str = versions.PROTOCOL_VERSION
    python: str = field(default_factory=python_version)
    stopped: str = ""
    """Why the run stopped before the end ('' when it finished): a signal, the time budget, the failure limit."""
    signal: str = ""
    """``SIGINT`` or ``SIGTERM`` when a signal stopped the run."""
    not_run: tuple[str, ...] = ()
    """Ids of the checks that never ran because the run stopped early."""
    fail_on_unsupported: bool = False
    allow_empty: bool = False
    """``--allow-empty``: a run in which nothing was checked exits 0, not 4 (its verdict stays NOTHING CHECKED)."""
    budget_scale: BudgetScale | None = None
    """The factor the run's fixed budgets were multiplied by, and where it came from (None: not known, as in a run
    stopped before its engine started, or a command without budgets)."""
    legal_share: LegalShare | None = None
    """The share of decisions at which the engine's complete legal set was compared, and how it was set (None: not
    known, or a command that plays no games)."""
    shard: ShardRecord | None = None
    """``--shard K/N``: the shard this run was and where its results sit in the whole plan (None: not sharded)."""

    @property
    def held_nothing(self) -> bool:
        """A shard of a run that was dealt no check at all (it exits 0: another shard has the work)."""
        return self.shard is not None and not self.shard.positions and not self.not_run
    engine_costs: EngineCosts | None = None
    """The engine's calls in the run, by method (None: not recorded, as in a run stopped before any unit ended)."""
    speed_advice: tuple[str, ...] = ()
    """What the engine could declare to make the oracle faster on it (:func:`oracle.engines.costs.advice`)."""

    @property
    def complete(self) -> bool:
        return not self.stopped

    @property
    def date(self) -> str:
        """The start of the run, UTC, ISO 8601 (``2024-05-01T12:00:00Z``)."""
        return self.started.astimezone(UTC).strftime(DATE_FORMAT)

    def to_json(self) -> JSON:
        return {
            "suite_version": self.suite_version,
            **({"suite_digest": self.suite_digest} if self.suite_digest else {}),
            "oracle_version": self.oracle_version,
            "protocol": self.protocol,
            "engine": {"name": self.engine, "version": self.engine_version, "impl": self.impl},
            "date": self.date,
            "duration": round(self.duration, 6),
            "python": self.python,
            "suites": list(self.suites),
            "options": self.options,
            "complete": self.complete,
            "stopped": self.stopped,
            "not_run": list(self.not_run),
            **({"budget_scale": self.budget_scale.to_json()} if self.budget_scale is not None else {}),
            **({"legal_share": self.legal_share.share, "legal_share_reason": self.legal_share.reason}
               if self.legal_share is not None else {}),
            **({"shard": self.shard.to_json()} if self.shard is not None else {}),
            **({"engine_costs": self.engine_costs.to_json(self.speed_advice)} if self.engine_costs is not None
               else {}),
        }


def totals(results: Iterable[CheckResult]) -> dict[str, int]:
    """A count for every outcome (zeros included), in the order of :class:`Outcome`."""
    counts = {o.value: 0 for o in Outcome}
    for result in results:
        counts[result.outcome.value] += 1
    return counts


def _strict(run: RunInfo | None) -> bool:
    return run is not None and run.fail_on_unsupported


def failing(results: Iterable[CheckResult], run: RunInfo | None = None) -> list[CheckResult]:
    """The results that keep the run from passing: every outcome that is not ok (incomplete ones too), and
    unsupported ones with ``--fail-on-unsupported`` (never not-applicable ones: they pin another rule reading)."""
    strict = _strict(run)
    return [r for r in results if not r.outcome.ok or (strict and r.outcome is Outcome.UNSUPPORTED)]


def failed(result: CheckResult, strict: bool = False) -> bool:
    """The check failed: it is not ok and not merely incomplete (unsupported counts with ``strict``)."""
    return (not result.outcome.ok and result.outcome is not Outcome.INCOMPLETE) or (
        strict and result.outcome is Outcome.UNSUPPORTED)


def failed_results(results: Iterable[CheckResult], run: RunInfo | None = None) -> list[CheckResult]:
    """The checks that failed (not the incomplete ones): what the causes group."""
    strict = _strict(run)
    return [r for r in results if failed(r, strict)]


def exit_code(results: Iterable[CheckResult], run: RunInfo | None = None, report_failed: bool = False) -> int:
    """The exit code of a run (:mod:`oracle.core.exits`), the first that applies: 128 + the signal number when SIGINT or
    SIGTERM stopped it; 5 when a report could not be written; 1 when a check failed; 3 when the run stopped early
    or a check is incomplete; 4 when no check ran (0 with ``--allow-empty``, and for a shard dealt no check); else
    0."""
    seen = list(results)
    if run is not None and run.signal:
        return 128 + int(signal.Signals[run.signal])
    if report_failed:
        return EXIT_REPORT_FAILED
    strict = _strict(run)
    if any(failed(r, strict) for r in seen):
        return EXIT_FAILED
    if (run is not None and run.stopped) or any(r.outcome is Outcome.INCOMPLETE for r in seen):
        return EXIT_INCOMPLETE
    if not any(r.outcome.ran for r in seen):
        return EXIT_OK if run is not None and (run.allow_empty or run.held_nothing) else EXIT_NOTHING_CHECKED
    return EXIT_OK


VERDICTS = {EXIT_OK: "PASSED", EXIT_FAILED: "FAILED", EXIT_INCOMPLETE: "INCOMPLETE",
            EXIT_NOTHING_CHECKED: "NOTHING CHECKED"}
"""The verdict of each exit code a run's checks decide (a signal's code is INCOMPLETE)."""


def verdict(results: Iterable[CheckResult], run: RunInfo | None = None) -> str:
    """PASSED, FAILED, INCOMPLETE (stopped early or a check incomplete, with nothing failed) or NOTHING CHECKED
    (no check ran); ``--allow-empty`` changes the exit code of NOTHING CHECKED, never the verdict."""
    seen = list(results)
    code = exit_code(seen, run)
    if code == EXIT_OK and not any(r.outcome.ran for r in seen):
        return VERDICTS[EXIT_NOTHING_CHECKED]
    return VERDICTS.get(code, "INCOMPLETE")


def passed(results: Iterable[CheckResult], run: RunInfo | None = None) -> bool:
    """The verdict is PASSED: something was checked, nothing failed, nothing is incomplete, the run finished."""
    return verdict(results, run) == VERDICTS[EXIT_OK]


def not_run_counts(results: Iterable[CheckResult]) -> tuple[int, int]:
    """How many checks were unsupported and how many not applicable."""
    seen = list(results)
    return (sum(r.outcome is Outcome.UNSUPPORTED for r in seen), sum(r.outcome is Outcome.NOT_APPLICABLE for r in seen))


def load_would_unlock(results: Iterable[CheckResult]) -> int:
    """How many checks are unsupported only because the engine does not declare ``load``."""
    return sum(r.outcome is Outcome.UNSUPPORTED and r.details.get(UNLOCKED_BY_LOAD) is True for r in results)


def load_line(results: Iterable[CheckResult]) -> str:
    """``load would unlock 459 of the 459 unsupported checks (docs/wire.md, "Writing export and load")``; or, from an
    engine whose ``load`` refused the oracle's positions, the one line that says so (``load refused the positions
    the oracle built: 444 checks that start from one are unsupported (…)``); then how many scenarios were reached by
    playing their preamble (``41 scenario(s) reached their position by playing its preamble``); '' when none."""
    seen = list(results)
    played = reached_counts(seen)
    ways = "; ".join(f"{count} scenario(s) reached their position {WAY_WORDS[way]}" for way, count in played.items())
    refused = sum(r.outcome is Outcome.UNSUPPORTED and r.details.get(POSITION_REFUSED) is True for r in seen)
    if refused:
        return (f"load refused the positions the oracle built: {refused} checks that start from one are unsupported "
                '(docs/wire.md, "Writing export and load")' + (f"; {ways}" if ways else ""))
    unlocked = load_would_unlock(seen)
    if not unlocked:
        return ways
    unsupported = not_run_counts(seen)[0]
    return (f"load would unlock {unlocked} of the {unsupported} unsupported checks "
            '(docs/wire.md, "Writing export and load")' + (f"; {ways}" if ways else ""))


WAY_WORDS = {"preamble": "by playing its preamble", "both": "both loaded and by playing its preamble"}
"""How a summary says the way a scenario's ``[given]`` position was reached (``reached_by``; docs/scenarios.md)."""


def reached_counts(results: Iterable[CheckResult]) -> dict[str, int]:
    """How many scenarios were reached by each way other than loading (issue 39), in ``WAY_WORDS`` order."""
    seen = list(results)
    counts = {way: sum(r.details.get(REACHED_BY) == way for r in seen) for way in WAY_WORDS}
    return {way: count for way, count in counts.items() if count}


def summary_line(results: Iterable[CheckResult], run: RunInfo | None = None) -> str:
    """The verdict with the counts, as every report states it: ``PASSED: 509 checks, 498 ran, 0 unsupported, 11 not
    applicable`` (``, 3 not run`` after a stop), or ``NOTHING CHECKED: 6 checks (6 unsupported, 0 not applicable)``."""
    seen = list(results)
    shown = verdict(seen, run)
    if shown == VERDICTS[EXIT_NOTHING_CHECKED]:
        line = nothing_checked_line(seen)
    else:
        unsupported, not_applicable = not_run_counts(seen)
        line = (f"{shown}: {len(seen)} checks, {sum(r.outcome.ran for r in seen)} ran, {unsupported} unsupported, "
                f"{not_applicable} not applicable")
    if run is not None and run.not_run:
        line += f", {len(run.not_run)} not run"
    return line


def nothing_checked_line(results: Iterable[CheckResult]) -> str:
    """``NOTHING CHECKED: 6 checks (6 unsupported, 0 not applicable)``."""
    seen = list(results)
    unsupported, not_applicable = not_run_counts(seen)
    return f"NOTHING CHECKED: {len(seen)} checks ({unsupported} unsupported, {not_applicable} not applicable)"


def card_name(card: str) -> str:
    """The name of a card or an Artifacts tile given by id or name; an id the catalogue lacks as it is."""
    from oracle.core.cards import catalogue

    cards = catalogue()
    found = cards.by_name(card)
    tile = cards.tiles.get(card)
    return found.name if found is not None else tile.name if tile is not None else card


def rule_group(rule_id: str) -> str:
    from oracle.core.rules import rules

    rule = rules().get(rule_id)
    return rule.group if rule is not None else "other"


class Summarised(Protocol):
    """What a one-line summary reads: a check result as run, or as loaded back from a JSON report."""

    @property
    def message(self) -> str: ...
    @property
    def expected(self) -> str: ...
    @property
    def actual(self) -> str: ...
    @property
    def outcome(self) -> Outcome: ...


def one_line(result: Summarised) -> str:
    """A short summary: the first of message, expected/actual, outcome."""
    if result.message:
        text = result.message
    elif result.expected or result.actual:
        text = f"expected {result.expected}; actual {result.actual}"
    else:
        text = result.outcome.value
    return " ".join(text.split())


COSTS_SHOWN = 3
"""How many methods the console's line of the engine's costs names (the reports name them all)."""


def cost_lines(costs: EngineCosts | None, advice: tuple[str, ...]) -> list[str]:
    """The console's lines of the engine's speed: its costliest methods, then each piece of advice."""
    if costs is None or not costs.methods:
        return []
    costliest = "; ".join(cost.text() for cost in costs.methods[:COSTS_SHOWN])
    return [f"engine calls: {costliest}", *(f"faster: {text}" for text in advice)]
