"""``oracle expectations update REPORT.json [--file known-failures.toml]``: keep a known-failures file current.

From a JSON report (``oracle check --report-json``) the file keeps every entry whose check still fails,
with its reason, comments and place (the file is edited with tomlkit, so the rest of it stays as the user
wrote it); gains an entry for each new failure with a placeholder reason
(``TODO: …``, accepted by ``oracle check --expectations`` and easy to find); and loses the entries of checks
that now pass, one line each. Entries for checks the report does not contain, or that it shows as
unsupported or not applicable, stay. Reports of every format this oracle wrote are read (format 1 too).
Exit codes: 0 the file is up to date; 2 bad input (a report or file that cannot be read).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import jsonschema
import tomlkit
import typer
from tomlkit.container import Container
from tomlkit.items import AoT, Comment, Null, Table, Whitespace
from tomlkit.toml_document import TOMLDocument

from oracle.core.bounded_input import Input, InputError, parse_text, read, read_text
from oracle.core.exits import bad_input
from oracle.core.results import Outcome
from oracle.reports.common import date_problem
from oracle.reports.json_report import SCHEMA_FILES
from oracle.run.expectations import FAILING, load_expectations
from oracle.scenarios.loader import display_path

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Keep an expectations file (known failures for `oracle check --expectations`) current.",
)

PLACEHOLDER = "TODO:"
DEFAULT_FILE = Path("known-failures.toml")
LOCATION = re.compile(r"^\S+:\d+: ")
KEY = "expected_failure"
FILE_PREAMBLE = (
    "# Known failures for `oracle check --expectations` (docs/reports.md), kept current by\n"
    "# `oracle expectations update REPORT.json`. Replace each TODO reason with why the check fails.\n"
)
# An engine run cut short ends as "incomplete" (the outcome the supervisor adds); its check is still failing.
INCOMPLETE = "incomplete"


class Verdict(Enum):
    """What a report says about one check id, for its entry in the expectations file."""

    FAILS = "fails"
    PASSES = "passes"
    UNDECIDED = "undecided"


FAILING_OUTCOMES = frozenset({*(o.value for o in FAILING), Outcome.EXPECTED_FAILURE.value, INCOMPLETE})
PASSING_OUTCOMES = frozenset({Outcome.PASS.value, Outcome.UNEXPECTED_PASS.value})


@dataclass(frozen=True)
class Reported:
    """One check of the report: its id, how it ended, its message, and the reason it was listed under."""

    id: str
    outcome: str
    message: str
    listed_reason: str | None

    @property
    def verdict(self) -> Verdict:
        if self.outcome in FAILING_OUTCOMES:
            return Verdict.FAILS
        if self.outcome in PASSING_OUTCOMES:
            return Verdict.PASSES
        return Verdict.UNDECIDED


@dataclass(frozen=True)
class Entry:
    id: str
    reason: str


@dataclass(frozen=True)
class Update:
    text: str
    kept: tuple[str, ...]
    added: tuple[Reported, ...]
    dropped: tuple[str, ...]
    absent: tuple[str, ...]
    relaid: bool


class UpdateError(Exception):
    """The report or the expectations file cannot be used; the message is one line naming the file."""


@cache
def _report_validator(report_format: str) -> Any:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_FILES[report_format].read_text(encoding="utf-8")))


def read_report(path: Path) -> list[Reported]:
    """The checks of a JSON report, in report order; an id reported twice fails if either run failed."""
    file = display_path(path)
    try:
        data = read(path, Input.REPORT, file)
    except InputError as exc:
        raise UpdateError(str(exc)) from None
    report_format = data.get("format") if isinstance(data, dict) else None
    if report_format not in SCHEMA_FILES:
        raise UpdateError(f"{file}: not a vale-oracle report (oracle check --report-json): at format: "
                          f"{report_format!r} is not one of {', '.join(map(repr, SCHEMA_FILES))}")
    run = data.get("run")
    date = run.get("date") if isinstance(run, dict) else None
    problem = date_problem(date) if isinstance(date, str) else None
    if problem is not None:
        raise UpdateError(f"{file}: not a vale-oracle report (oracle check --report-json): at run/date: {problem}")
    error = jsonschema.exceptions.best_match(_report_validator(str(report_format)).iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the top level"
        raise UpdateError(f"{file}: not a vale-oracle report (oracle check --report-json): at {where}: "
                          f"{_one_line(error.message)}")
    checks: dict[str, Reported] = {}
    for result in data["results"]:
        listed = result["details"].get("expected_failure")
        reason = listed.get("reason") if isinstance(listed, dict) else None
        reported = Reported(result["id"], result["outcome"], result["message"],
                            reason if isinstance(reason, str) and reason.strip() else None)
        earlier = checks.get(reported.id)
        if earlier is None or (reported.verdict is Verdict.FAILS and earlier.verdict is not Verdict.FAILS):
            checks[reported.id] = reported
    return list(checks.values())


def _one_line(text: str, limit: int = 160) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def read_entries(path: Path, report_ids: Sequence[str]) -> tuple[str, list[Entry]]:
    """The text and entries of an existing expectations file (checked as ``oracle check`` checks it)."""
    try:
        text = read_text(path, Input.EXPECTATIONS, display_path(path))
    except InputError as exc:
        raise UpdateError(str(exc)) from None
    entries, problems = load_expectations(path, {*report_ids, *_listed_ids(text)})
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UpdateError(problems[0] + more)
    ordered = sorted(entries.values(), key=lambda e: e.line)
    return text, [Entry(e.id, e.reason) for e in ordered]


def _listed_ids(text: str) -> set[str]:
    try:
        raw = parse_text(text, Input.EXPECTATIONS, "").get("expected_failure", [])
    except InputError:
        return set()
    if not isinstance(raw, list):
        return set()
    return {e["id"] for e in raw if isinstance(e, dict) and isinstance(e.get("id"), str)}


def placeholder_reason(check: Reported) -> str:
    if check.listed_reason is not None:
        return check.listed_reason
    message = _one_line(LOCATION.sub("", check.message), 100)
    return f"{PLACEHOLDER} say why this check is expected to fail ({check.outcome}{': ' + message if message else ''})"


def _comment_run(container: Container) -> list[tuple[int, Comment]]:
    """The comment lines that end ``container`` before its tables (their places in its body, and the comments): in
    the TOML that tomlkit reads, the comments just above a table's header are the last lines of what precedes it."""
    body = container.body
    end = next((place for place, (_, item) in enumerate(body) if isinstance(item, AoT)), len(body))
    run: list[tuple[int, Comment]] = []
    for place in range(end - 1, -1, -1):
        key, item = body[place]
        if isinstance(item, Null):
            continue
        if key is not None or not isinstance(item, Comment):
            break
        run.insert(0, (place, item))
    return run


def _drop_tables(document: TOMLDocument, tables: AoT, dropped: Collection[str]) -> TOMLDocument:
    """``document`` without the tables of the ``dropped`` ids and the comments just above each; the comments just
    above the next table move up to stay with it (the comments that open the file stay as the file's own)."""
    holders: list[Container] = [document, *(table.value for table in tables.body)]
    for index in range(len(tables.body) - 1, -1, -1):
        if tables.body[index].get("id") not in dropped:
            continue
        holder = holders[index]
        own_lead = _comment_run(holder)
        if not (index == 0 and own_lead and own_lead[0][0] == 0):
            for place, _ in own_lead:
                holder.body[place] = (None, Null())
        next_lead = [comment for _, comment in _comment_run(holders[index + 1])]
        if index == 0:
            holders[0] = document = _with_comments_before(document, tables, next_lead)
        else:
            for comment in next_lead:
                holder.add(comment)
        del tables[index]
        del holders[index + 1]
    return document


def _with_comments_before(document: TOMLDocument, tables: AoT, comments: Sequence[Comment]) -> TOMLDocument:
    """``document`` (comments and the expected_failure tables) with ``comments`` just above its first table."""
    rebuilt = tomlkit.document()
    for item in [*_own_lines(document), *comments]:
        rebuilt.add(item)
    rebuilt.append(KEY, tables)
    return rebuilt


def _own_lines(document: TOMLDocument) -> list[Comment | Whitespace]:
    """The comments and blank lines of ``document`` outside its tables (above the first)."""
    return [item for key, item in document.body if key is None and isinstance(item, Comment | Whitespace)]


def _append(tables: AoT, before: str, entries: Sequence[Entry]) -> None:
    """A table for each of ``entries`` after the last one, each after a blank line (``before``: the text above the
    first); the blank line is the table's leading whitespace, as tomlkit lays out the tables it adds itself."""
    for entry in entries:
        table = _entry_table(entry)
        tables.append(table)
        if before and not before.endswith("\n\n") and "\n" not in table.trivia.indent:
            table.trivia.indent = "\n" + table.trivia.indent
        before = table.as_string()


def _entry_table(entry: Entry) -> Table:
    table = tomlkit.table()
    table.add("id", entry.id)
    table.add("reason", entry.reason)
    return table


def _updated_toml(text: str | None, dropped: Collection[str], new_entries: Sequence[Entry]) -> tuple[str, bool]:
    """The file's text after the update, and whether it had to be laid out anew (not one table per entry)."""
    document = tomlkit.parse(text) if text is not None else tomlkit.parse(FILE_PREAMBLE)
    tables = document.get(KEY)
    relaid = text is not None and tables is not None and not isinstance(tables, AoT)
    if relaid:
        kept = [Entry(e["id"], e["reason"]) for e in document.unwrap()[KEY] if e["id"] not in dropped]
        return _updated_toml(None, (), [*kept, *new_entries])[0], True
    if not isinstance(tables, AoT):
        tables = tomlkit.aot()
        document.append(KEY, tables)
    document = _drop_tables(document, tables, dropped)
    above = tables.body[-1].value.as_string() if tables.body else "".join(i.as_string() for i in _own_lines(document))
    _append(tables, above, new_entries)
    if not tables.body:
        document.remove(KEY)
    out = document.as_string()
    if dropped:
        out = out.rstrip("\n") + "\n" if out.strip() else ""
    return out, False


def plan_update(text: str | None, entries: Sequence[Entry], report: Sequence[Reported]) -> Update:
    """The new file text: failing entries kept in place with their comments, passing ones dropped, new failures
    appended."""
    by_id = {check.id: check for check in report}
    listed = {entry.id for entry in entries}
    dropped = tuple(e.id for e in entries if e.id in by_id and by_id[e.id].verdict is Verdict.PASSES)
    kept = tuple(e.id for e in entries if e.id not in dropped)
    absent = tuple(e for e in kept if e not in by_id)
    added = tuple(c for c in report if c.verdict is Verdict.FAILS and c.id not in listed)
    body, relaid = _updated_toml(text, frozenset(dropped), [Entry(c.id, placeholder_reason(c)) for c in added])
    return Update(body, kept, added, dropped, absent, relaid and body != text)


@app.command("update")
def update_command(
    report: Annotated[Path, typer.Argument(metavar="REPORT.json", help="a report of `oracle check --report-json`")],
    file: Annotated[Path, typer.Option(
        "--file", help="the expectations file to write or update")] = DEFAULT_FILE,
) -> None:
    """Write or update an expectations file from a report.

    Keeps the entries (and reasons) of checks that still fail, adds each new failure with a TODO reason, and
    drops the entries of checks that now pass.
    """
    try:
        checks = read_report(report)
        text, entries = read_entries(file, [c.id for c in checks]) if file.exists() else (None, [])
    except UpdateError as exc:
        raise bad_input(str(exc)) from None
    update = plan_update(text, entries, checks)
    name = display_path(file)
    for check_id in update.dropped:
        typer.echo(f"dropped {check_id}: it passes now")
    for check in update.added:
        typer.echo(f"added {check.id}: {check.outcome}")
    if update.relaid:
        typer.echo(f"note: {name} was not one [[expected_failure]] table per entry; rewrote it in that layout")
    if text is not None and update.text == text:
        typer.echo(f"{name}: up to date ({len(entries)} entries)")
        return
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(update.text, encoding="utf-8")
    except OSError as exc:
        raise bad_input(f"cannot write {name}: {exc.strerror}") from None
    absent = f", {len(update.absent)} of them not in the report" if update.absent else ""
    typer.echo(f"{'wrote' if text is not None else 'created'} {name}: {len(update.added)} added, "
               f"{len(update.dropped)} dropped, {len(update.kept)} kept{absent}")
