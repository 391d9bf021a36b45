"""Every input is bounded in bytes and in depth (issue 36, item 5): a TOML file nested deep by dotted keys, table
headers, inline tables or arrays, a JSON report nested deep, and any file over its size limit is a located error and
exit 2 through every command that reads it, never a traceback, in bounded time and memory."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.bounded_input import Input, InputError, read, read_json_bytes
from oracle.core.limits import MAX_DEPTH, MAX_KEY_PARTS, MAX_REPORT_BYTES, MAX_SCENARIO_BYTES, MAX_TABLE_NAMES
from oracle.core.nesting import Syntax, too_deep

runner = CliRunner()

KEY_PARTS = f"not valid TOML: a key or table header of more than {MAX_KEY_PARTS} parts"
DEEP_TOML = f"not valid TOML: nested more than {MAX_DEPTH} deep"
DEEP_JSON = f"not valid JSON: nested more than {MAX_DEPTH} deep"

DOTTED_KEY_BOMB = "k" + ".a" * 19_999 + " = 1\n"
"""20,000 parts in 40 KB: on main 2.4 GB, 10 to 49 s, then a RecursionError."""

TOML_BOMBS = {
    "dotted-key": (DOTTED_KEY_BOMB, 1, KEY_PARTS),
    "table-header": ("id = 'x'\n[" + ".".join(["a"] * 20_000) + "]\nb = 1\n", 2, KEY_PARTS),
    "array-of-tables-header": ("[[" + ".".join(["a"] * (MAX_KEY_PARTS + 1)) + "]]\n", 1, KEY_PARTS),
    "inline-tables": ("id = 'x'\na = " + "{ b = " * 20_000 + "1" + " }" * 20_000 + "\n", 2, DEEP_TOML),
    "arrays": ("id = 'x'\n\na = " + "[" * 20_000 + "]" * 20_000 + "\n", 3, DEEP_TOML),
    "many-table-headers": ("".join(f"[t{i}]\n" for i in range(MAX_TABLE_NAMES + 1)), MAX_TABLE_NAMES + 1,
                           f"not valid TOML: more than {MAX_TABLE_NAMES} different table headers"),
    "headers-keys-and-tables": ("[[t.t.t.t.t.t.t.t]]\nk.k.k.k.k.k.k.k = " + "{ v.v.v.v.v.v.v.v = " * 7 + "1"
                                + " }" * 7 + "\n", 2, DEEP_TOML),
}
"""Each past a limit on the line given. Only the inline tables and arrays go past the old count of brackets (200);
the mixed one is 73 deep with 7 braces."""

SCENARIO_COMMANDS = {
    "scenarios-lint": ("scenarios", "lint", "{dir}"),
    "check-scenarios": ("check", "--suite", "scenarios", "--scenarios", "{dir}"),
    "fuzz-corpus": ("fuzz", "--corpus", "{dir}", "--games", "1"),
}
EXPECTATIONS_COMMANDS = {
    "check-expectations": ("check", "--suite", "setup", "--jobs", "1", "--expectations", "{file}"),
    "expectations-update": ("expectations", "update", "{report}", "--file", "{file}"),
}
REPORT_COMMANDS = {
    "report-merge": ("report", "merge", "{report}", "-o", "{out}/merged.json"),
    "report-html": ("report", "html", "{report}", "-o", "{out}/site"),
    "report-badge": ("report", "badge", "{report}", "-o", "{out}/badge.json"),
    "expectations-update": ("expectations", "update", "{report}", "--file", "{out}/known.toml"),
}


def oracle(*args: str) -> tuple[int, str]:
    """Exit code and stdout + stderr of one command; a traceback (any exception but an exit) fails the test."""
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout + result.stderr


def _filled(command: tuple[str, ...], **paths: Path) -> list[str]:
    return [part.format(**paths) for part in command]


def _oversize(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that costs no disk (sparse)."""
    with path.open("wb") as stream:
        stream.truncate(size)
    return path


def _valid_report(tmp_path: Path) -> Path:
    from datetime import UTC, datetime

    from oracle.core.results import CheckResult, Outcome
    from oracle.reports import RunInfo, build_report

    info = RunInfo(engine="e", engine_version="1", impl="tests.engine", suites=("scenarios",),
                   started=datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC), duration=1.0)
    data = build_report([CheckResult("scenarios", "pay-ok", "a title", Outcome.PASS, rules=("PAY-3",))], info)
    path = tmp_path / "valid.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------- the depth scan


@pytest.mark.parametrize("text, depth", [
    ("a = 1\n", 1),
    ("a.b.c = 1\n", 3),
    ("[x.y]\nk = 1\n", 3),
    ("[[x]]\nk = 1\n", 3),
    ("[[x]]\n[x.y]\nk = [1]\n", 5),
    ('"q.r" . s = 2\nt = """\n[[[[\n"""\n', 2),
    ("a = {b.c = 1, d = {e.f.g = [[1.5, 2.5]]}}\n", 7),
    ("[[x.y]]\nk.j = [1, [2, {a.b = {c = [3]}}]]\n", 11),
])
def test_the_toml_depth_counts_header_parts_dotted_keys_inline_tables_and_arrays(text: str, depth: int) -> None:
    assert (None, True) == (too_deep(text, Syntax.TOML, depth), too_deep(text, Syntax.TOML, depth - 1) is not None)


def test_every_bundled_scenario_is_within_the_limits() -> None:
    from oracle.scenarios.loader import default_dir

    assert [] == [path.name for path in default_dir().rglob("*.toml")
                  if too_deep(path.read_text(encoding="utf-8"), Syntax.TOML) is not None
                  or path.stat().st_size > MAX_SCENARIO_BYTES]


# ---------------------------------------------------------------------------------------------- the reader


def test_the_reader_locates_what_is_wrong(tmp_path: Path) -> None:
    (tmp_path / "deep.toml").write_text(DOTTED_KEY_BOMB, encoding="utf-8")
    (tmp_path / "bytes.toml").write_bytes(b"a = 1\nb = '\xff'\n")
    _oversize(tmp_path / "big.json", MAX_REPORT_BYTES + 1)
    found = []
    for name, kind in [("deep.toml", Input.SCENARIO), ("bytes.toml", Input.SCENARIO), ("big.json", Input.REPORT),
                       ("missing.json", Input.REPORT)]:
        with pytest.raises(InputError) as raised:
            read(tmp_path / name, kind, name)
        found.append(str(raised.value))
    assert [f"deep.toml:1: {KEY_PARTS} (a.b.c...)",
            "bytes.toml:2: not valid UTF-8",
            "big.json: too large: more than 64 MiB, the limit for a report",
            "missing.json: cannot read the report (No such file or directory)"] == found


def test_bytes_already_read_pass_the_same_bounds() -> None:
    assert {"key": [1]} == read_json_bytes(b'{"key": [1]}', Input.SUITE_CACHE, "cache.json")
    with pytest.raises(InputError) as raised:
        read_json_bytes(b"[" * 100_000, Input.SUITE_CACHE, "cache.json")
    assert f"cache.json:1: {DEEP_JSON}" in str(raised.value)


# ---------------------------------------------------------------------------------------------- every command


@pytest.mark.parametrize("command", sorted(SCENARIO_COMMANDS))
@pytest.mark.parametrize("bomb", sorted(TOML_BOMBS))
def test_a_scenario_file_past_a_depth_limit_is_located(tmp_path: Path, command: str, bomb: str) -> None:
    text, line, message = TOML_BOMBS[bomb]
    (tmp_path / "deep.toml").write_text(text, encoding="utf-8")
    code, output = oracle(*_filled(SCENARIO_COMMANDS[command], dir=tmp_path))
    assert 2 == code, output
    assert f"deep.toml:{line}: {message}" in output


@pytest.mark.parametrize("command", sorted(SCENARIO_COMMANDS))
def test_a_scenario_file_over_the_size_limit_is_refused(tmp_path: Path, command: str) -> None:
    (tmp_path / "big.toml").write_text("# " + "x" * MAX_SCENARIO_BYTES + "\n", encoding="utf-8")
    code, output = oracle(*_filled(SCENARIO_COMMANDS[command], dir=tmp_path))
    assert 2 == code, output
    assert "big.toml:1: too large: more than 256 KiB, the limit for a scenario file" in output


@pytest.mark.parametrize("command", sorted(EXPECTATIONS_COMMANDS))
@pytest.mark.parametrize("bomb", sorted(TOML_BOMBS))
def test_an_expectations_file_past_a_depth_limit_is_located(tmp_path: Path, command: str, bomb: str) -> None:
    text, line, message = TOML_BOMBS[bomb]
    expectations = tmp_path / "known.toml"
    expectations.write_text(text, encoding="utf-8")
    code, output = oracle(*_filled(EXPECTATIONS_COMMANDS[command], file=expectations,
                                   report=_valid_report(tmp_path)))
    assert 2 == code, output
    assert f"known.toml:{line}: {message}" in output


@pytest.mark.parametrize("command", sorted(EXPECTATIONS_COMMANDS))
def test_an_expectations_file_over_the_size_limit_is_refused(tmp_path: Path, command: str) -> None:
    expectations = _oversize(tmp_path / "known.toml", 1024 * 1024 + 1)
    code, output = oracle(*_filled(EXPECTATIONS_COMMANDS[command], file=expectations,
                                   report=_valid_report(tmp_path)))
    assert 2 == code, output
    assert "known.toml: too large: more than 1 MiB, the limit for an expectations file" in output


@pytest.mark.parametrize("command", sorted(REPORT_COMMANDS))
@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"format": "2",\n "run": ' + '{"a": ' * 100_000],
                         ids=["arrays", "objects"])
def test_a_deep_json_report_is_located(tmp_path: Path, command: str, text: str) -> None:
    report = tmp_path / "r.json"
    report.write_text(text, encoding="utf-8")
    code, output = oracle(*_filled(REPORT_COMMANDS[command], report=report, out=tmp_path / "out"))
    assert 2 == code, output
    assert f"r.json:{1 + text.count(chr(10))}: {DEEP_JSON}" in output


@pytest.mark.parametrize("command", sorted(REPORT_COMMANDS))
def test_a_json_report_over_the_size_limit_is_refused(tmp_path: Path, command: str) -> None:
    report = _oversize(tmp_path / "r.json", MAX_REPORT_BYTES + 1)
    code, output = oracle(*_filled(REPORT_COMMANDS[command], report=report, out=tmp_path / "out"))
    assert 2 == code, output
    assert "r.json: too large: more than 64 MiB, the limit for a report" in output


# ---------------------------------------------------------------------------------------------- time and memory

MEMORY = 1024 * 1024 * 1024
"""Address space for one oracle process: far above what it needs (about 600 MB), far below the 2.4 GB of the
dotted-key bomb on main."""


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@pytest.mark.parametrize("command", sorted(SCENARIO_COMMANDS))
def test_the_dotted_key_bomb_costs_little_time_and_memory(tmp_path: Path, command: str) -> None:
    (tmp_path / "bomb.toml").write_text(DOTTED_KEY_BOMB, encoding="utf-8")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-P", "-m", "oracle.cli.app",
                           *_filled(SCENARIO_COMMANDS[command], dir=tmp_path)],
                          capture_output=True, text=True, timeout=120, preexec_fn=_limited)
    took = time.monotonic() - started
    assert (2, "") == (done.returncode, "" if "Traceback" not in done.stderr else done.stderr[-2000:])
    assert f"bomb.toml:1: {KEY_PARTS}" in done.stdout + done.stderr
    assert took < 20, f"{took:.1f} s"
