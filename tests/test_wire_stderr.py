"""A wire engine's stderr: drained in large reads whatever its volume, and quoted only as a bounded tail, with the
first line that says what went wrong."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from oracle.engines.wire.channel import (
    STDERR_LINE_CHARS,
    STDERR_LINES_KEPT,
    TRUNCATED,
    ChannelFault,
    Deadline,
    EngineProcess,
    StderrTail,
)
from tests.helpers import CALL_SECONDS

FIXTURES = "vale_fixtures.wire"
CHECK = [sys.executable, "-P", "-m", "oracle.cli.app", "check", "--suite", "setup"]
DRAIN_CPU_SECONDS = 0.5
"""Draining 4 MB in large reads costs milliseconds of CPU; one byte per system call cost seconds."""


def tail_of(*writes: bytes) -> StderrTail:
    """A tail that has drained these writes from a pipe, to its end."""
    read_end, write_end = os.pipe()
    tail = StderrTail(os.fdopen(read_end, "rb", buffering=0))
    for data in writes:
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view):]
    os.close(write_end)
    tail.thread.join()
    return tail


# ---------------------------------------------------------------------- draining

def test_an_engine_flooding_stderr_before_its_handshake_passes_the_setup_suite() -> None:
    run = subprocess.run([*CHECK, "--impl", f"cmd:{sys.executable} -m {FIXTURES}.floods_stderr"],
                         capture_output=True, text=True, timeout=300, check=False)
    assert 0 == run.returncode, run.stderr[-2000:]
    assert "PASSED: 9 checks, 9 ran" in run.stdout


def test_draining_a_4_mb_flood_takes_large_reads_not_one_byte_per_call() -> None:
    flood = b"chatter\n" * (1 << 19)
    started = time.process_time()
    tail = tail_of(flood)
    spent = time.process_time() - started
    assert " | ".join(["chatter"] * STDERR_LINES_KEPT) == tail.text()
    assert spent < DRAIN_CPU_SECONDS, f"{spent:.2f} s of CPU to drain 4 MB"


# ---------------------------------------------------------------------- what is quoted

def test_the_tail_keeps_the_last_non_blank_lines_and_a_last_line_without_its_newline() -> None:
    tail = tail_of(b"".join(b"line %d\n\n  \n" % n for n in range(1, 10)), b"line 10")
    assert "line 7 | line 8 | line 9 | line 10" == tail.text()


def test_a_quoted_line_is_cut_to_a_few_hundred_characters_and_marked() -> None:
    tail = tail_of(b"y" * (1 << 20) + b"\n", b"short\n")
    assert "y" * STDERR_LINE_CHARS + TRUNCATED + " | short" == tail.text()


def test_a_line_cut_in_the_middle_of_a_character_is_still_quoted_as_text() -> None:
    tail = tail_of("é".encode() * STDERR_LINE_CHARS * 3 + b"\n")
    assert "é" * STDERR_LINE_CHARS + TRUNCATED == tail.text()


def test_an_error_quoting_a_huge_stderr_line_stays_one_short_line() -> None:
    run = subprocess.run([*CHECK, "--impl", f"cmd:{sys.executable} -m {FIXTURES}.huge_stderr_line_then_exits"],
                         capture_output=True, text=True, timeout=120, check=False)
    assert 2 == run.returncode
    [line] = run.stderr.strip().splitlines()
    assert "exited with status 1" in line
    assert "stderr: huge_stderr_line_then_exits: xxx" in line
    assert line.endswith("x" + TRUNCATED)
    assert len(line) < 1000, len(line)


# ---------------------------------------------------------------------- the first error line

NODE_MISSING_MODULE = b"""node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module '/work/nothere.mjs'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at Module._load (node:internal/modules/cjs/loader:1038:27)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2
"""
"""What Node 20 writes when the script it is given does not exist: the reason sits above a stack trace."""


def test_an_engine_dying_at_start_up_is_quoted_by_its_first_error_line_and_its_last_lines() -> None:
    tail = tail_of(NODE_MISSING_MODULE)
    assert ("Error: Cannot find module '/work/nothere.mjs' | … |   code: 'MODULE_NOT_FOUND', |   requireStack: [] "
            "| } | Node.js v20.20.2") == tail.text()


def test_a_first_error_line_among_the_last_lines_is_quoted_once() -> None:
    tail = tail_of(b"Traceback (most recent call last):\n  File \"x.py\", line 1\nModuleNotFoundError: No module x\n")
    assert 'Traceback (most recent call last): |   File "x.py", line 1 | ModuleNotFoundError: No module x' == \
        tail.text()


def test_the_first_error_line_is_kept_through_a_flood_and_a_later_error() -> None:
    tail = tail_of(b"starting\npanic: no handshake\n", b"chatter\n" * 100_000, b"fatal: second\n", b"bye\n")
    assert "panic: no handshake | … | chatter | chatter | fatal: second | bye" == tail.text()


def test_an_error_line_split_across_two_writes_is_found() -> None:
    tail = tail_of(b"banner\nErr", b"or: late\n" + b"chatter\n" * 5)
    assert "Error: late | … | chatter | chatter | chatter | chatter" == tail.text()


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (CI has Node.js 20)")
def test_cmd_node_with_a_missing_script_says_cannot_find_module(tmp_path: Path) -> None:
    missing = tmp_path / "nothere.mjs"
    process = EngineProcess(["node", str(missing)])
    with pytest.raises(ChannelFault) as fault:
        process.receive(Deadline.after(CALL_SECONDS))
    assert f"stderr: Error: Cannot find module '{missing}' | … |" in fault.value.message
