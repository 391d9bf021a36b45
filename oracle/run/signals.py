"""SIGINT and SIGTERM caught from the first moment of a run: the signal is recorded, never acted on at once.

The ``oracle`` entry point installs the handlers in its first lines (:data:`START`), before the command line's
imports, and ``oracle check`` takes them over (:meth:`StartWindow.claim`) and keeps them until its reports are
written, so a signal at any moment after Python has started (the imports, loading the scenarios, while the engine
starts, mid-run) ends the run the same way: whatever waits stops at its next look at :attr:`StopSignals.received`,
and every requested report is written, marked incomplete; one that comes after the run cannot interrupt the
reports. Every other command lets them go at once (:meth:`StartWindow.release`).

This module is imported before anything else of the oracle, so it imports nothing heavier than the standard
library's ``signal`` and ``os``.
"""

from __future__ import annotations

import contextlib
import enum
import os
import signal
from collections.abc import Callable, Iterator
from types import FrameType

CAUGHT = (signal.SIGINT, signal.SIGTERM)

SIGNAL_AT_ENV = "VALE_ORACLE_SIGNAL_AT"
"""A test hook: ``STAGE`` (or ``STAGE:SIGINT``) makes the process send itself SIGTERM (or SIGINT) when it reaches
that start-up stage (:class:`Stage`), so that a test hits each moment of the start-up window exactly."""


class Stopped(Exception):
    """A signal stopped the run before it could start (``signal_name``: ``SIGINT`` or ``SIGTERM``)."""

    def __init__(self, signal_name: str) -> None:
        super().__init__(f"stopped by {signal_name}")
        self.signal_name = signal_name


class StopSignals:
    """The first SIGINT or SIGTERM received while :meth:`caught` is in force ('' before one came)."""

    def __init__(self) -> None:
        self.received = ""

    def _record(self, signum: int, frame: FrameType | None) -> None:
        if not self.received:
            self.received = signal.Signals(signum).name

    def check(self) -> None:
        """Raise :class:`Stopped` when a signal came."""
        if self.received:
            raise Stopped(self.received)

    @contextlib.contextmanager
    def caught(self) -> Iterator[StopSignals]:
        """Record the signals until the block ends, then put the previous handlers back (nesting is allowed; off
        the main thread, where no handler can be installed, nothing is caught)."""
        previous = {}
        for sig in CAUGHT:
            with contextlib.suppress(ValueError):
                previous[sig] = signal.signal(sig, self._record)
        try:
            yield self
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


class Stage(enum.Enum):
    """The moments of the start-up window the test hook (:data:`SIGNAL_AT_ENV`) can name."""

    CAUGHT = "caught"
    """The entry point has just installed the handlers; the command line's imports follow."""
    IMPORTED = "imported"
    """The command line is imported; typer parses the options next."""
    CHECKING = "checking"
    """``oracle check`` has taken the signals over; it reads its options and files next, then starts the engine."""


def stage_reached(stage: Stage) -> None:
    """Send this process the signal :data:`SIGNAL_AT_ENV` asks for at ``stage`` (nothing when it names no stage)."""
    asked, _, name = os.environ.get(SIGNAL_AT_ENV, "").partition(":")
    if asked == stage.value:
        signal.raise_signal(signal.Signals[name or "SIGTERM"])


Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None


class StartWindow:
    """The signals caught from the entry point's first lines until the command that acts on them claims them
    (``oracle check``) or the command lets them go (every other one)."""

    def __init__(self) -> None:
        self.signals = StopSignals()
        self.previous: dict[signal.Signals, Handler] = {}
        self.claimed = False

    def open(self) -> None:
        """Record SIGINT and SIGTERM from now on (on the main thread; elsewhere nothing is caught)."""
        for sig in CAUGHT:
            with contextlib.suppress(ValueError):
                self.previous[sig] = signal.signal(sig, self.signals._record)

    def claim(self) -> StopSignals:
        """The signals caught so far, for the run that acts on them; a new :class:`StopSignals` when the window was
        never opened (the command called in-process, not through the entry point)."""
        if not self.previous:
            return StopSignals()
        self.claimed = True
        return self.signals

    def release(self) -> None:
        """Put Python's own handlers back; a signal that came while the window was open and that no run claimed is
        delivered again, so the process ends by it as it would have without the window."""
        previous, self.previous = self.previous, {}
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if previous and self.signals.received and not self.claimed:
            signal.raise_signal(signal.Signals[self.signals.received])


START = StartWindow()
"""The process's start-up window, opened by the ``oracle`` entry point (:func:`oracle.cli.main`)."""
