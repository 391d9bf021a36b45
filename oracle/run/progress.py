"""The progress of an ``oracle check`` run as results arrive: a rich progress bar on a terminal, plain lines in a
CI log.

Nothing shows for a run that ends within ``DELAY`` seconds. On a terminal rich draws one bar, redrawn at most
every ``REDRAW`` seconds and cleared at the end (in colour unless ``NO_COLOR`` is set); elsewhere a plain line is
printed every ``LOG_EVERY`` seconds, so CI logs stay readable.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TaskProgressColumn, TextColumn

from oracle.core.results import CheckResult
from oracle.run.colour import console_on

DELAY = 2.0
LOG_EVERY = 10.0
REDRAW = 0.1
WIDTH = 30
Sink = Callable[[int, list[CheckResult]], bool]


def _bar(console: Console, clock: Callable[[], float]) -> Progress:
    return Progress(
        BarColumn(bar_width=WIDTH, complete_style="cyan", finished_style="green"),
        TextColumn("{task.completed}/{task.total} checks"),
        TaskProgressColumn(text_format="({task.percentage:>3.0f}%)"),
        TextColumn("{task.fields[elapsed]:.0f} s"),
        console=console, get_time=clock, auto_refresh=False, transient=True,
        redirect_stdout=False, redirect_stderr=False,
    )


class CheckProgress:
    """Counts the checks done out of ``total`` and shows it on ``stream``."""

    def __init__(self, total: int, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.stream = stream
        self.clock = clock
        self.console = console_on(stream)
        self.terminal = self.console.is_terminal
        self.started = clock()
        self.shown_at = self.started
        self.done = 0
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def wrap(self, sink: Sink) -> Sink:
        """The sink, counting what passes through it."""

        def counted(index: int, results: list[CheckResult]) -> bool:
            self.advance(len(results))
            return sink(index, results)

        return counted

    def advance(self, checks: int) -> None:
        self.done += checks
        now = self.clock()
        elapsed = now - self.started
        if elapsed < DELAY:
            return
        if self.terminal:
            if now - self.shown_at >= REDRAW or self.done >= self.total:
                self.shown_at = now
                self._draw(elapsed)
        elif now - self.shown_at >= LOG_EVERY:
            self.shown_at = now
            self.stream.write(f"oracle check: {self.done}/{self.total} checks done ({self._percent()}), "
                              f"{elapsed:.0f} s\n")
            self.stream.flush()

    def _percent(self) -> str:
        return f"{100 * self.done // max(1, self.total)}%"

    def _draw(self, elapsed: float) -> None:
        done = min(self.done, self.total)
        if self.bar is None or self.task is None:
            self.bar = _bar(self.console, self.clock)
            self.task = self.bar.add_task("checks", total=max(1, self.total), completed=done, elapsed=elapsed)
            self.bar.start()
        else:
            self.bar.update(self.task, completed=done, elapsed=elapsed, refresh=True)

    def close(self) -> None:
        """Clear the bar (a terminal) so that the summary starts on a clean line."""
        if self.bar is not None:
            self.bar.stop()
