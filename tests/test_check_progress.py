"""The progress of oracle check: silent for short runs, a redrawn bar on a terminal, plain lines in CI logs."""

from __future__ import annotations

import io

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


def test_a_long_run_on_a_terminal_redraws_one_bar_and_clears_it() -> None:
    clock, stream = Clock(), Terminal()
    progress = CheckProgress(4, stream, clock)
    sink = progress.wrap(lambda index, found: True)
    clock.now = DELAY + 1
    sink(0, results(1))
    clock.now += 1
    sink(1, results(3))
    progress.close()
    assert ["", "[#######                       ] 1/4 checks (25%), 3 s ",
            "[##############################] 4/4 checks (100%), 4 s ", "\033[K"] == stream.getvalue().split("\r")


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
