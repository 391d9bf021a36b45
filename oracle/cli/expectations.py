"""``oracle expectations update REPORT.json [--file known-failures.toml]``: keep a known-failures file current.

From a JSON report (``oracle check --report-json``) the file keeps every entry whose check still fails,
with its reason, comments and place; gains an entry for each new failure with a placeholder reason
(``TODO: …``, accepted by ``oracle check --expectations`` and easy to find); and loses the entries of checks
that now pass, one line each. Entries for checks the report does not contain, or that it shows as
unsupported or not applicable, stay. Reports of every format this oracle wrote are read (format 1 too).
Exit codes: 0 the file is up to date; 2 bad input (a report or file that cannot be read).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Annotated, Any

import jsonschema
import typer

from oracle.core.exits import bad_input
from oracle.core.nesting import Syntax, too_deep
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
HEADER = re.compile(r"^\s*\[\[\s*expected_failure\s*\]\]\s*(#.*)?$")
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
class Block:
    """The lines of one ``[[expected_failure]]`` table, with the comments just above it: [start, end)."""

    id: str
    start: int
    end: int


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
        text = path.read_text(encoding="utf-8")
        deep = too_deep(text, Syntax.JSON)
        if deep is not None:
            raise UpdateError(f"{file}:{deep.line}: not valid JSON: {deep.message}")
        data = json.loads(text)
    except OSError as exc:
        raise UpdateError(f"{file}: cannot read the report ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise UpdateError(f"{file}: not valid UTF-8") from None
    except json.JSONDecodeError as exc:
        raise UpdateError(f"{file}:{exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})") from None
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
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UpdateError(f"{display_path(path)}: cannot read the expectations file ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise UpdateError(f"{display_path(path)}:1: not valid UTF-8") from None
    entries, problems = load_expectations(path, {*report_ids, *_listed_ids(text)})
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UpdateError(problems[0] + more)
    ordered = sorted(entries.values(), key=lambda e: e.line)
    return text, [Entry(e.id, e.reason) for e in ordered]


def _listed_ids(text: str) -> set[str]:
    if too_deep(text, Syntax.TOML) is not None:
        return set()
    try:
        raw = tomllib.loads(text).get("expected_failure", [])
    except tomllib.TOMLDecodeError:
        return set()
    if not isinstance(raw, list):
        return set()
    return {e["id"] for e in raw if isinstance(e, dict) and isinstance(e.get("id"), str)}


def blocks(text: str) -> list[Block] | None:
    """Each entry's lines in ``text``, or None when the file is not laid out as one table per entry."""
    lines = text.splitlines(keepends=True)
    headers = [i for i, line in enumerate(lines) if HEADER.match(line)]
    starts: list[int] = []
    for header in headers:
        start = header
        while start > 0 and lines[start - 1].lstrip().startswith("#"):
            start -= 1
        starts.append(header if start == 0 and not starts else start)
    found = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        try:
            tables = tomllib.loads("".join(lines[start:end])).get("expected_failure")
        except tomllib.TOMLDecodeError:
            return None
        if (not isinstance(tables, list) or len(tables) != 1 or not isinstance(tables[0], dict)
                or not isinstance(tables[0].get("id"), str)):
            return None
        found.append(Block(tables[0]["id"], start, end))
    return found


def placeholder_reason(check: Reported) -> str:
    if check.listed_reason is not None:
        return check.listed_reason
    message = _one_line(LOCATION.sub("", check.message), 100)
    return f"{PLACEHOLDER} say why this check is expected to fail ({check.outcome}{': ' + message if message else ''})"


def toml_string(value: str) -> str:
    """``value`` as a TOML basic string."""
    escapes = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
    out = []
    for char in value:
        if char in escapes:
            out.append(escapes[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def entry_text(entry: Entry) -> str:
    return f"[[expected_failure]]\nid = {toml_string(entry.id)}\nreason = {toml_string(entry.reason)}\n"


def plan_update(text: str | None, entries: Sequence[Entry], report: Sequence[Reported]) -> Update:
    """The new file text: failing entries kept in place, passing ones dropped, new failures appended."""
    by_id = {check.id: check for check in report}
    listed = {entry.id for entry in entries}
    dropped = tuple(e.id for e in entries if e.id in by_id and by_id[e.id].verdict is Verdict.PASSES)
    kept = tuple(e.id for e in entries if e.id not in dropped)
    absent = tuple(e for e in kept if e not in by_id)
    added = tuple(c for c in report if c.verdict is Verdict.FAILS and c.id not in listed)
    new_entries = [Entry(c.id, placeholder_reason(c)) for c in added]
    layout = blocks(text) if text is not None else []
    relaid = layout is None or [b.id for b in layout] != [e.id for e in entries]
    if text is None:
        body = FILE_PREAMBLE
    elif relaid:
        body = FILE_PREAMBLE + "".join("\n" + entry_text(e) for e in entries if e.id not in dropped)
    else:
        lines = text.splitlines(keepends=True)
        gone = {i for b in layout or [] if b.id in dropped for i in range(b.start, b.end)}
        body = "".join(line for i, line in enumerate(lines) if i not in gone)
        if gone:
            body = body.rstrip("\n") + "\n" if body.strip() else ""
    if new_entries and body and not body.endswith("\n"):
        body += "\n"
    body += "".join("\n" + entry_text(e) for e in new_entries)
    return Update(body, kept, added, dropped, absent, relaid and text is not None and body != text)


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
