"""SIGINT and SIGTERM caught from the first moment of a run: the signal is recorded, never acted on at once.

``oracle check`` installs the handlers before it reads anything and keeps them until its reports are written, so a
signal at any moment (loading the scenarios, while the engine starts, mid-run) ends the run the same way: whatever
waits stops at its next look at :attr:`StopSignals.received`, and every requested report is written, marked
incomplete; one that comes after the run cannot interrupt the reports.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType

CAUGHT = (signal.SIGINT, signal.SIGTERM)


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
