"""A wire engine's stderr: drained in large reads whatever its volume, and quoted only as a bounded tail."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from oracle.engines.wire.channel import STDERR_LINE_CHARS, STDERR_LINES_KEPT, TRUNCATED, StderrTail

FIXTURES = "vale_fixtures.wire"
CHECK = [sys.executable, "-m", "oracle.cli.app", "check", "--suite", "setup"]
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
