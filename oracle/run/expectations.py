"""Expected failures (``oracle check --expectations FILE``): known gaps of an engine, listed with a reason.

The file is TOML::

    [[expected_failure]]
    id = "PAY-3-red-and-blue-for-cost-1"
    reason = "our engine gives change (issue #12)"

Any check id of any suite may be listed (``setup/2p/first-0``, ``z3/summon-payment/PAY-3``,
``invariants/LOCKSTEP``, a scenario id). A listed check that fails (fail, wrongly-rejected,
illegal-accepted, error, timeout or incomplete) becomes
``expected-failure`` (the run stays green); one that passes becomes ``unexpected-pass`` (the run fails,
so the entry gets removed once the engine is fixed). An unsupported check stays unsupported.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

from oracle.core.bounded_input import Input, InputError, parse_text, read_text
from oracle.core.results import CheckResult, Outcome
from oracle.scenarios.loader import display_path
from oracle.scenarios.locate import key_lines, line_of

FAILING = frozenset({Outcome.FAIL, Outcome.WRONGLY_REJECTED, Outcome.ILLEGAL_ACCEPTED, Outcome.ERROR, Outcome.TIMEOUT,
                     Outcome.INCOMPLETE})
ENTRY_KEYS = ("id", "reason")


@dataclass(frozen=True)
class ExpectedFailure:
    id: str
    reason: str
    file: str
    line: int


def load_expectations(path: Path, known_ids: Collection[str]) -> tuple[dict[str, ExpectedFailure], list[str]]:
    """The entries of an expectations file, and its errors (each ``file:line: message``)."""
    file = display_path(path)
    try:
        text = read_text(path, Input.EXPECTATIONS, file)
        data = parse_text(text, Input.EXPECTATIONS, file)
    except InputError as exc:
        return {}, [str(exc)]
    lines = key_lines(text)
    errors: list[str] = []
    for key in data:
        if key != "expected_failure":
            line = line_of(lines, (key,))
            errors.append(f"{file}:{line}: unknown key {key!r} (expected [[expected_failure]] tables)")
    raw = data.get("expected_failure", [])
    if not isinstance(raw, list):
        line = line_of(lines, ("expected_failure",))
        errors.append(f"{file}:{line}: expected_failure must be [[expected_failure]] tables")
        raw = []
    entries: dict[str, ExpectedFailure] = {}
    for i, entry in enumerate(raw):
        where = f"{file}:{line_of(lines, ('expected_failure', i))}"
        if not isinstance(entry, dict):
            errors.append(f"{where}: expected_failure[{i}] must be a table")
            continue
        for key in entry:
            if key not in ENTRY_KEYS:
                line = line_of(lines, ("expected_failure", i, key))
                errors.append(f"{file}:{line}: unknown key {key!r} (known: {', '.join(ENTRY_KEYS)})")
        check_id = entry.get("id")
        reason = entry.get("reason")
        if not isinstance(check_id, str) or not check_id.strip():
            errors.append(f"{where}: expected_failure[{i}] needs an id (a check id, as reports show it)")
            continue
        id_where = f"{file}:{line_of(lines, ('expected_failure', i, 'id'))}"
        if not isinstance(reason, str) or not reason.strip():
            errors.append(f"{where}: expected_failure {check_id!r} needs a reason (why the failure is expected)")
        if check_id not in known_ids:
            close = difflib.get_close_matches(check_id, list(known_ids), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            errors.append(f"{id_where}: no check of this engine has the id {check_id!r}{hint}")
            continue
        if check_id in entries:
            errors.append(f"{id_where}: {check_id!r} is listed twice (also at line {entries[check_id].line})")
            continue
        entries[check_id] = ExpectedFailure(check_id, str(reason or ""), file, line_of(lines, ("expected_failure", i)))
    return entries, errors


def apply_expectations(results: Iterable[CheckResult], expected: dict[str, ExpectedFailure]) -> list[CheckResult]:
    """Turn the listed failures into ``expected-failure`` and the listed passes into ``unexpected-pass``."""
    out: list[CheckResult] = []
    for result in results:
        entry = expected.get(result.id)
        if entry is None:
            out.append(result)
            continue
        note = {"reason": entry.reason, "file": entry.file, "line": entry.line, "outcome": result.outcome.value}
        details = {**result.details, "expected_failure": note}
        if result.outcome in FAILING:
            message = f"expected failure ({entry.reason}); it ended as {result.outcome.value}"
            if result.message:
                message += f": {result.message}"
            out.append(dataclasses.replace(result, outcome=Outcome.EXPECTED_FAILURE, message=message, details=details))
        elif result.outcome is Outcome.PASS:
            message = (f"listed as an expected failure at {entry.file}:{entry.line} ({entry.reason}) but it passed; "
                       "remove the entry")
            out.append(dataclasses.replace(result, outcome=Outcome.UNEXPECTED_PASS, message=message, details=details))
        else:
            out.append(result)
    return out
