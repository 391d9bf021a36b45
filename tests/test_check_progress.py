"""The progress of oracle check: silent for short runs, a redrawn rich bar on a terminal (coloured unless NO_COLOR is
set), plain lines in CI logs."""

from __future__ import annotations

import io
import re

import pytest

from oracle.core.results import CheckResult, Outcome
from oracle.run.progress import DELAY, LOG_EVERY, CheckProgress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def results(n: int) -> list[CheckResult]:
    return [CheckResult("setup", f"c{i}", "t", Outcome.PASS) for i in range(n)]


def test_a_short_run_shows_nothing() -> None:
    clock, stream = Clock(), Terminal()
    progress = CheckProgress(10, stream, clock)
    clock.now = DELAY / 2
    progress.wrap(lambda index, found: True)(0, results(10))
    progress.close()
    assert "" == stream.getvalue()


COLOUR = re.compile(r"\x1b\[[0-9;]*m")
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def long_run_on_a_terminal() -> str:
    clock, stream = Clock(), Terminal()
    progress = CheckProgress(4, stream, clock)
    sink = progress.wrap(lambda index, found: True)
    clock.now = DELAY + 1
    sink(0, results(1))
    clock.now += 1
    sink(1, results(3))
    progress.close()
    return stream.getvalue()


def test_a_long_run_on_a_terminal_redraws_one_bar_and_clears_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    drawn = long_run_on_a_terminal()
    frames = [CONTROL.sub("", frame) for frame in drawn.split("\r\x1b[2K")]
    assert [f"{'━' * 7}╸{'━' * 22} 1/4 checks ( 25%) 3 s", f"{'━' * 30} 4/4 checks (100%) 4 s"] == frames[:2]
    assert drawn.endswith("\x1b[1A\x1b[2K"), "the bar is cleared at the end"
    assert COLOUR.search(drawn), "a terminal gets colour"


def test_no_color_draws_the_bar_without_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    drawn = long_run_on_a_terminal()
    assert ("4/4 checks (100%) 4 s" in drawn, None) == (True, COLOUR.search(drawn))


def test_a_ci_log_gets_a_plain_line_every_few_seconds() -> None:
    clock, stream = Clock(), io.StringIO()
    progress = CheckProgress(4, stream, clock)
    sink = progress.wrap(lambda index, found: True)
    for _ in range(4):
        clock.now += LOG_EVERY / 2
        sink(0, results(1))
    progress.close()
    assert ["oracle check: 2/4 checks done (50%), 10 s", "oracle check: 4/4 checks done (100%), 20 s"] == \
        stream.getvalue().splitlines()


def test_the_sink_still_decides_whether_the_run_goes_on() -> None:
    progress = CheckProgress(1, io.StringIO(), Clock())
    assert (False, 1) == (progress.wrap(lambda index, found: False)(0, results(1)), progress.done)
