"""Reading JSON reports (``oracle check --report-json``) for the site and the badge, tolerating fields that
older or newer reports lack or add (``sources``, ``causes``, per-check ``notes``, ``run.complete``,
``coverage``, which older reports get from their results). Format 1 reports (before ``not-applicable`` and
``NOTHING CHECKED``) load as they were written: their other-variant checks stay ``unsupported``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from oracle.core.cards import catalogue
from oracle.core.results import UNSUPPORTED_CALL, Outcome
from oracle.core.undrivable import UNDRIVABLE
from oracle.reports.charges import Charge, charge
from oracle.reports.common import date_problem
from oracle.reports.html.speed import Speed, speed_of
from oracle.reports.read_json import JsonFileError, read_json_file

FORMAT_PREFIX = "vale-oracle/report/"


class Verdict(Enum):
    """The run's verdict: PASSED, FAILED, INCOMPLETE (it stopped early or a check is incomplete, with nothing
    failed) or NOTHING CHECKED (no check ran)."""

    PASSED = "PASSED"
    FAILED = "FAILED"
    INCOMPLETE = "INCOMPLETE"
    NOTHING_CHECKED = "NOTHING CHECKED"


class ReportError(ValueError):
    """A report cannot be read; the message names the file and the field."""


@dataclass(frozen=True)
class Source:
    """A scenario's file as the report embedded it."""

    file: str
    sha256: str
    text: str


@dataclass(frozen=True)
class Result:
    """One check of a report, with card names resolved to card ids where the catalogue knows them."""

    index: int
    suite: str
    id: str
    title: str
    outcome: Outcome
    rules: tuple[str, ...]
    cards: tuple[str, ...]
    step: int | None
    expected: str
    actual: str
    message: str
    reproduce: str
    file: str | None
    line: int | None
    notes: tuple[str, ...]
    unsupported_at_run: bool = False
    """Unsupported although the engine's declarations allowed the check: the engine refused a call or marked a
    decision undrivable (``details.unsupported_call`` or ``details.undrivable``)."""
    blamed_rule: str = ""
    """The rule the check's cause is blamed on ('' when not known, and in reports written before the blame)."""

    @property
    def charge(self) -> Charge:
        """The rules this check counts against and those it did not reach (:func:`oracle.reports.charges.charge`)."""
        return charge(self.outcome, self.rules, self.blamed_rule)


@dataclass(frozen=True)
class Cause:
    """A group of failing checks that share one cause (when the report groups them)."""

    signature: str
    title: str
    kind: str
    checks: tuple[str, ...]
    count: int
    rules: tuple[str, ...]
    smallest: str
    rule: str = ""
    """The blamed rule ('' when not known or in reports written before the blame)."""
    engine_message: str = ""
    facets: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """What varies among the members, by facet name (``kinds``, ``cards``, ``steps``, ...), as written."""


@dataclass(frozen=True)
class Coverage:
    """How many checks citing one rule or card ran, passed, were unsupported and not applicable (neither counted
    as run)."""

    ran: int = 0
    passed: int = 0
    unsupported: int = 0
    not_applicable: int = 0
    not_reached: int = 0
    """Failing checks citing the rule whose cause is blamed on another rule (0 in reports written before)."""


@dataclass(frozen=True)
class Report:
    """One engine's run: who, with which oracle, whether it finished, and every result."""

    path: Path
    engine: str
    version: str
    impl: str
    date: str
    duration: float
    suites: tuple[str, ...]
    suite_version: str
    suite_digest: str
    """'' in reports written before the digest."""
    oracle_version: str
    complete: bool
    stopped: str
    not_run: tuple[str, ...]
    verdict: Verdict
    results: tuple[Result, ...]
    sources: dict[str, Source]
    causes: tuple[Cause, ...]
    rule_coverage: dict[str, Coverage]
    card_coverage: dict[str, Coverage]
    speed: Speed = field(default_factory=lambda: speed_of({}, None))
    """The engine's speed as the run measured it (issue 25); empty in reports written before."""


class _Reader:
    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, where: str, message: str) -> ReportError:
        return ReportError(f"{self.path}: {where}: {message}")

    def obj(self, data: Any, where: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(where, "must be an object")
        return data

    def text(self, data: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
        value = data.get(key, default)
        if not isinstance(value, str):
            raise self.fail(f"{where}.{key}" if where else key, "must be a string")
        return value

    def texts(self, data: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(f"{where}.{key}", "must be a list of strings")
        return tuple(value)


def _card_ids() -> dict[str, str]:
    ids: dict[str, str] = {}
    for card in catalogue().cards.values():
        ids[card.id] = card.id
        ids[card.name.casefold()] = card.id
    return ids


def _note_text(note: object) -> str:
    if isinstance(note, str):
        return note
    if isinstance(note, dict) and isinstance(note.get("text"), str):
        return str(note["text"])
    return json.dumps(note, ensure_ascii=False, sort_keys=True)


def _result(reader: _Reader, raw: Any, index: int, card_ids: dict[str, str]) -> Result:
    where = f"results[{index}]"
    data = reader.obj(raw, where)
    outcome_name = reader.text(data, "outcome", where)
    try:
        outcome = Outcome(outcome_name)
    except ValueError:
        known = ", ".join(o.value for o in Outcome)
        raise reader.fail(f"{where}.outcome", f"{outcome_name!r} is not an outcome this oracle knows ({known})") \
            from None
    step = data.get("step")
    if step is not None and (not isinstance(step, int) or isinstance(step, bool)):
        raise reader.fail(f"{where}.step", "must be an integer or null")
    details = data.get("details", {})
    details = details if isinstance(details, dict) else {}
    file, line = details.get("file"), details.get("line")
    notes = data.get("notes") or []
    cards = reader.texts(data, "cards", where)
    return Result(
        index=index,
        suite=reader.text(data, "suite", where, ""),
        id=reader.text(data, "id", where),
        title=reader.text(data, "title", where, ""),
        outcome=outcome,
        rules=reader.texts(data, "rules", where),
        cards=tuple(dict.fromkeys(card_ids.get(c.casefold(), card_ids.get(c, c)) for c in cards)),
        step=step,
        expected=reader.text(data, "expected", where, ""),
        actual=reader.text(data, "actual", where, ""),
        message=reader.text(data, "message", where, ""),
        reproduce=reader.text(data, "reproduce", where, ""),
        file=file if isinstance(file, str) else None,
        line=line if isinstance(line, int) and not isinstance(line, bool) else None,
        notes=tuple(_note_text(n) for n in notes) if isinstance(notes, list) else (_note_text(notes),),
        unsupported_at_run=outcome is Outcome.UNSUPPORTED and bool(details.get(UNSUPPORTED_CALL)
                                                                   or details.get(UNDRIVABLE)),
        blamed_rule=reader.text(data, "blamed_rule", where, ""),
    )


def _cause(reader: _Reader, raw: Any, index: int) -> Cause:
    where = f"causes[{index}]"
    data = reader.obj(raw, where)
    count = data.get("count", 0)
    smallest = data.get("smallest", "")
    checks = reader.texts(data, "checks", where)
    facts = data.get("facts")
    facets = data.get("facets")
    return Cause(
        signature=str(data.get("signature", "")),
        title=reader.text(data, "title", where, ""),
        kind=str(data.get("kind", "")),
        checks=checks,
        count=count if isinstance(count, int) and not isinstance(count, bool) else len(checks),
        rules=reader.texts(data, "rules", where),
        smallest=smallest if isinstance(smallest, str) else json.dumps(smallest, ensure_ascii=False),
        rule=str(facts.get("rule", "")) if isinstance(facts, dict) else "",
        engine_message=reader.text(data, "engine_message", where, ""),
        facets=tuple((str(name), tuple(str(v) for v in values)) for name, values in facets.items()
                     if isinstance(values, list)) if isinstance(facets, dict) else (),
    )


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _coverage(raw: object) -> dict[str, Coverage] | None:
    if not isinstance(raw, dict):
        return None
    return {str(key): Coverage(_count(t.get("ran")), _count(t.get("passed")), _count(t.get("unsupported")),
                               _count(t.get("not_applicable")), _count(t.get("not_reached")))
            for key, t in raw.items() if isinstance(t, dict)}


def _coverage_of(results: tuple[Result, ...], keys: str) -> dict[str, Coverage]:
    """The coverage a report without one implies: every rule id (charged by blame) or card id its results cite."""
    out: dict[str, Coverage] = {}
    for result in results:
        charged = result.charge if keys == "rules" else Charge(tuple(dict.fromkeys(result.cards)))
        for key in charged.charged:
            t, o = out.get(key, Coverage()), result.outcome
            out[key] = Coverage(t.ran + o.ran, t.passed + (o is Outcome.PASS),
                                t.unsupported + (o is Outcome.UNSUPPORTED),
                                t.not_applicable + (o is Outcome.NOT_APPLICABLE), t.not_reached)
        for key in charged.not_reached:
            t = out.get(key, Coverage())
            out[key] = Coverage(t.ran, t.passed, t.unsupported, t.not_applicable, t.not_reached + 1)
    return out


def parse_report(data: Any, path: Path) -> Report:
    """A report document, checked field by field (the first problem raises :class:`ReportError`)."""
    reader = _Reader(path)
    top = reader.obj(data, "the top level")
    fmt = top.get("format")
    if not isinstance(fmt, str) or not fmt.startswith(FORMAT_PREFIX):
        raise reader.fail("format", f"expected {FORMAT_PREFIX}1, 2 or 3, got {fmt!r} (is this an "
                          "`oracle check` report?)")
    run = reader.obj(top.get("run"), "run")
    engine = reader.obj(run.get("engine"), "run.engine")
    raw_results = top.get("results")
    if not isinstance(raw_results, list):
        raise reader.fail("results", "must be a list")
    card_ids = _card_ids()
    results = tuple(_result(reader, raw, i, card_ids) for i, raw in enumerate(raw_results))
    sources: dict[str, Source] = {}
    raw_sources = top.get("sources", {})
    for check_id, raw in (raw_sources.items() if isinstance(raw_sources, dict) else ()):
        entry = reader.obj(raw, f"sources[{check_id!r}]")
        sources[check_id] = Source(
            reader.text(entry, "file", f"sources[{check_id!r}]"),
            reader.text(entry, "sha256", f"sources[{check_id!r}]", ""),
            reader.text(entry, "text", f"sources[{check_id!r}]"),
        )
    raw_causes = top.get("causes", [])
    causes = tuple(_cause(reader, raw, i) for i, raw in enumerate(raw_causes if isinstance(raw_causes, list) else []))
    raw_coverage = top.get("coverage")
    raw_coverage = raw_coverage if isinstance(raw_coverage, dict) else {}
    rule_coverage = _coverage(raw_coverage.get("rules"))
    card_coverage = _coverage(raw_coverage.get("cards"))
    duration = run.get("duration", 0.0)
    complete = run.get("complete", True) is not False
    stopped = run.get("stopped", "")
    date = reader.text(run, "date", "run", "")
    problem = date_problem(date) if date else None
    if problem is not None:
        raise reader.fail("run.date", problem)
    totals = top.get("totals")
    written = totals.get("verdict") if isinstance(totals, dict) else None
    if written in {v.value for v in Verdict}:
        verdict = Verdict(written)
    elif any(not r.outcome.ok and r.outcome is not Outcome.INCOMPLETE for r in results):
        verdict = Verdict.FAILED
    elif not complete or any(r.outcome is Outcome.INCOMPLETE for r in results):
        verdict = Verdict.INCOMPLETE
    else:
        verdict = Verdict.PASSED if any(r.outcome.ran for r in results) else Verdict.NOTHING_CHECKED
    return Report(
        path=path,
        engine=reader.text(engine, "name", "run.engine"),
        version=reader.text(engine, "version", "run.engine", ""),
        impl=reader.text(engine, "impl", "run.engine", ""),
        date=date,
        duration=float(duration) if isinstance(duration, int | float) else 0.0,
        suites=reader.texts(run, "suites", "run"),
        suite_version=reader.text(run, "suite_version", "run", ""),
        suite_digest=reader.text(run, "suite_digest", "run", ""),
        oracle_version=reader.text(run, "oracle_version", "run", ""),
        complete=complete,
        stopped=stopped if isinstance(stopped, str) else json.dumps(stopped, ensure_ascii=False),
        not_run=reader.texts(run, "not_run", "run"),
        verdict=verdict,
        results=results,
        sources=sources,
        causes=causes,
        rule_coverage=rule_coverage if rule_coverage is not None else _coverage_of(results, "rules"),
        card_coverage=card_coverage if card_coverage is not None else _coverage_of(results, "cards"),
        speed=speed_of(run, totals),
    )


def load_report(path: Path) -> Report:
    """Read and check one JSON report; a problem raises :class:`ReportError` naming the file."""
    try:
        data = read_json_file(path)
    except JsonFileError as exc:
        raise ReportError(str(exc)) from None
    return parse_report(data, path)
