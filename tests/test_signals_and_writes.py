"""Signals and report writes are safe at every moment (issue 21, deliverable 5).

A SIGTERM or SIGINT at any moment of ``oracle check``, from the engine's start-up on, yields every requested report,
well-formed and marked incomplete, and exits 128 + the signal. Reports replace their files whole (a temporary file
beside the target, renamed into place), ``--markdown-append`` adds its summary in one write, a write that fails at
the end keeps the verdict and exits 5, and two report options naming one file are refused before the run.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.json_types import JSON
from oracle.reports import RunInfo, write_json, write_junit, write_markdown
from oracle.reports.files import append_report_file, write_report_file
from oracle.reports.json_report import SCHEMA_FILE
from vale_fixtures.stalls_before_handshake import MARKER_ENV

STALLS_IN_PROCESS = "vale_fixtures.stalls_before_handshake"
STALLS_ON_THE_WIRE = f"cmd:{sys.executable} -m vale_fixtures.wire.stalls_before_handshake"
SLOW_IN_PROCESS = "vale_fixtures.hostile:slow"
SERVED_ON_THE_WIRE = f"cmd:{sys.executable} -P -m oracle.cli.app serve"
STEP_SUMMARY_BEFORE = "## Build\n\nok\n"
WAIT = 120.0
"""Seconds a test waits for a definite moment of the run (wide: the machine may be loaded)."""


# ---------------------------------------------------------------------------------------------- helpers


class Reports:
    """The four report files of one run, in a test's folder."""

    def __init__(self, folder: Path) -> None:
        self.json, self.junit = folder / "r.json", folder / "j.xml"
        self.markdown, self.step_summary = folder / "s.md", folder / "step-summary.md"
        self.step_summary.write_text(STEP_SUMMARY_BEFORE, encoding="utf-8")

    @property
    def options(self) -> tuple[str, ...]:
        return ("--report-json", str(self.json), "--junit-xml", str(self.junit), "--markdown", str(self.markdown),
                "--markdown-append", str(self.step_summary))

    def stopped_run(self, signal_name: str) -> JSON:
        """The JSON report's run, after checking that every report is well-formed and marked incomplete."""
        data: JSON = json.loads(self.json.read_text(encoding="utf-8"))
        jsonschema.validate(data, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
        assert (False, f"stopped by {signal_name}", "INCOMPLETE") == \
            (data["run"]["complete"], data["run"]["stopped"], data["totals"]["verdict"])
        suites = ET.parse(self.junit).getroot()
        assert "INCOMPLETE" in suites.attrib["name"]
        not_run = [s for s in suites.findall("testsuite") if s.attrib["name"] == "not-run"]
        assert 1 == len(not_run) and int(suites.attrib["errors"]) >= 1
        assert {f"not run: stopped by {signal_name}"} == {e.attrib["message"] for e in not_run[0].iter("error")}
        assert "**Incomplete**: the run stopped early (stopped by " + signal_name in \
            self.markdown.read_text(encoding="utf-8")
        appended = self.step_summary.read_text(encoding="utf-8")
        assert appended.startswith(STEP_SUMMARY_BEFORE + "\n## Vale Oracle conformance: INCOMPLETE"), appended
        assert 1 == appended.count("**Incomplete**")
        run: JSON = data["run"]
        return run


def start_check(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-P", "-m", "oracle.cli.app", "check", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def wait_for_file(path: Path, process: subprocess.Popen[str]) -> None:
    """Wait until ``path`` exists (the engine's marker: its start-up is under way and its handshake pending)."""
    waited_until = time.monotonic() + WAIT
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < waited_until, f"no {path} after {WAIT:g} s"
        time.sleep(0.05)


def finish(process: subprocess.Popen[str]) -> tuple[int, str]:
    out, err = process.communicate(timeout=WAIT)
    assert "Traceback" not in out + err, out + err
    return process.returncode, out + err


SIGNALS = pytest.mark.parametrize(("signal_name", "code"), [("SIGTERM", 143), ("SIGINT", 130)])
ENGINES_STALLING = pytest.mark.parametrize("engine", [STALLS_IN_PROCESS, STALLS_ON_THE_WIRE],
                                           ids=["in-process", "wire"])


# ---------------------------------------------------------------------------------------------- signals


@SIGNALS
@ENGINES_STALLING
def test_a_signal_while_the_handshake_is_pending_writes_every_report_for_an_unknown_engine(
        tmp_path: Path, engine: str, signal_name: str, code: int) -> None:
    reports = Reports(tmp_path)
    marker = tmp_path / "engine-started"
    process = start_check("--impl", engine, "--suite", "setup", *reports.options,
                          env={**os.environ, MARKER_ENV: str(marker)})
    wait_for_file(marker, process)
    process.send_signal(getattr(signal, signal_name))
    returned, output = finish(process)
    assert code == returned, output
    run = reports.stopped_run(signal_name)
    assert {"name": "unknown", "version": "unknown", "impl": engine} == run["engine"]
    assert f"the run stopped early: stopped by {signal_name}; the reports are marked incomplete" in output


@pytest.mark.parametrize("engine", [SLOW_IN_PROCESS, SERVED_ON_THE_WIRE], ids=["in-process", "wire"])
def test_a_sigterm_as_soon_as_the_first_line_is_printed_writes_every_report(tmp_path: Path, engine: str) -> None:
    reports = Reports(tmp_path)
    process = start_check("--impl", engine, "--suite", "scenarios", *reports.options)
    assert process.stdout is not None
    header = process.stdout.readline()
    process.send_signal(signal.SIGTERM)
    assert header.startswith("oracle check: vale-oracle-reference"), header
    returned, output = finish(process)
    assert 143 == returned, output
    run = reports.stopped_run("SIGTERM")
    assert "vale-oracle-reference" == run["engine"]["name"]
    assert run["not_run"]


# ---------------------------------------------------------------------------------------------- writes


def a_run() -> RunInfo:
    return RunInfo(engine="e", engine_version="1", impl="x", suites=("setup",))


WRITERS = pytest.mark.parametrize("write", [
    lambda path: write_json(path, [], a_run()),
    lambda path: write_junit(path, [], a_run()),
    lambda path: write_markdown(path, [], a_run()),
], ids=["json", "junit", "markdown"])


@WRITERS
def test_a_report_replaces_its_file_through_a_new_file_renamed_into_place(tmp_path: Path, write: Any) -> None:
    target = tmp_path / "report"
    target.write_text("the old report\n", encoding="utf-8")
    with target.open(encoding="utf-8") as reader_of_the_old_file:
        write(target)
        assert "the old report\n" == reader_of_the_old_file.read()
    assert "the old report" not in target.read_text(encoding="utf-8")
    assert ["report"] == sorted(p.name for p in tmp_path.iterdir())


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary_one(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "r.json"
    target.write_text("old\n", encoding="utf-8")

    def disk_full(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", disk_full)
    with pytest.raises(OSError):
        write_report_file(target, "new\n")
    monkeypatch.undo()
    assert "old\n" == target.read_text(encoding="utf-8")
    assert ["r.json"] == sorted(p.name for p in tmp_path.iterdir())


def test_a_replaced_report_keeps_its_mode_and_its_symbolic_link(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old\n", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_report_file(link, "new\n")
    assert (True, "new\n", 0o640) == (link.is_symlink(), real.read_text(encoding="utf-8"),
                                      stat.S_IMODE(real.stat().st_mode))
    fresh = tmp_path / "deeper" / "fresh.json"
    write_report_file(fresh, "x")
    mask = os.umask(0)
    os.umask(mask)
    assert 0o666 & ~mask == stat.S_IMODE(fresh.stat().st_mode)


def test_a_target_that_is_no_regular_file_is_written_where_it_is(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_report_file(fifo, "through the pipe\n")
    reader.join(WAIT)
    assert ([b"through the pipe\n"], True) == (received, stat.S_ISFIFO(fifo.stat().st_mode))
    assert ["pipe"] == sorted(p.name for p in tmp_path.iterdir())


def test_markdown_append_adds_the_whole_summary_in_one_write(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    summary = tmp_path / "step-summary.md"
    summary.write_text(STEP_SUMMARY_BEFORE, encoding="utf-8")
    calls: list[bytes] = []
    real_write = os.write

    def recorded(fd: int, data: bytes) -> int:
        calls.append(bytes(data))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", recorded)
    write_markdown(summary, [], a_run(), append=True)
    monkeypatch.undo()
    text = summary.read_text(encoding="utf-8")
    assert [text[len(STEP_SUMMARY_BEFORE):].encode("utf-8")] == calls
    assert text.startswith(STEP_SUMMARY_BEFORE + "\n## Vale Oracle conformance")
    append_report_file(tmp_path / "new.md", "only this")
    assert "only this" == (tmp_path / "new.md").read_text(encoding="utf-8")


def test_a_report_that_cannot_be_written_at_the_end_keeps_the_verdict_and_exits_5(tmp_path: Path) -> None:
    report, summary = tmp_path / "r.json", tmp_path / "s.md"
    done = subprocess.run([sys.executable, "-P", "-m", "oracle.cli.app", "check", "--suite", "setup", "--junit-xml",
                           "/dev/full", "--report-json", str(report), "--markdown", str(summary)],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=WAIT, check=False)
    assert 5 == done.returncode, done.stdout
    lines = done.stdout.splitlines()
    verdict = next(i for i, line in enumerate(lines) if line.startswith("PASSED: 9 checks"))
    failure = lines.index("error: cannot write /dev/full: No space left on device")
    assert verdict < failure, done.stdout
    assert "PASSED" == json.loads(report.read_text(encoding="utf-8"))["totals"]["verdict"]
    assert summary.read_text(encoding="utf-8").startswith("## Vale Oracle conformance: PASSED")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


@pytest.mark.parametrize(("first", "second"), [
    (("--report-json", "r.json"), ("--junit-xml", "{tmp}/r.json")),
    (("--markdown", "s.md"), ("--markdown-append", "link.md")),
], ids=["same-path", "a-link-to-it"])
def test_two_report_options_naming_one_file_are_refused_before_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: tuple[str, str], second: tuple[str, str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.md").symlink_to(tmp_path / "s.md")
    second_path = second[1].format(tmp=tmp_path)
    result = CliRunner().invoke(app, ["check", "--suite", "setup", *first, second[0], second_path])
    assert (2, "") == (result.exit_code, result.stdout)
    assert f"error: {first[0]} {first[1]} and {second[0]} {second_path} name the same file: give each report a " \
           "file of its own\n" == result.stderr
    assert ["link.md"] == sorted(p.name for p in tmp_path.iterdir())
