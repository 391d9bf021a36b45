"""The progress of an ``oracle check`` run as results arrive: a bar on a terminal, plain lines in a CI log.

Nothing shows for a run that ends within ``DELAY`` seconds. On a terminal one line is redrawn (and cleared
at the end); elsewhere a plain line is printed every ``LOG_EVERY`` seconds, so CI logs stay readable.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from oracle.core.results import CheckResult

DELAY = 2.0
LOG_EVERY = 10.0
WIDTH = 30
Sink = Callable[[int, list[CheckResult]], bool]


class CheckProgress:
    """Counts the checks done out of ``total`` and shows it on ``stream``."""

    def __init__(self, total: int, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.stream = stream
        self.clock = clock
        self.terminal = stream.isatty()
        self.started = clock()
        self.shown_at = self.started
        self.done = 0
        self.drawn = False

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
            if now - self.shown_at >= 0.1 or self.done >= self.total:
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
        filled = WIDTH * min(self.done, self.total) // max(1, self.total)
        self.stream.write(f"\r[{'#' * filled:<{WIDTH}}] {self.done}/{self.total} checks ({self._percent()}), "
                          f"{elapsed:.0f} s ")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Clear the bar (a terminal) so that the summary starts on a clean line."""
        if self.drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
