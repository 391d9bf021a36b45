"""One engine child process: spawning it, writing request lines, reading response lines under a deadline.

Every way the process can fail (exit, closed stdout, non-JSON line, over-long line, silence) raises a
:class:`ChannelFault`; the caller turns it into an :class:`oracle.engines.harness.EngineFault` and replaces the
process. Deadlines are kept here, with ``select``, so they hold whatever the engine's language.
"""

from __future__ import annotations

import collections
import os
import re
import select
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from oracle.core.engine_text import clean_text
from oracle.core.limits import MAX_LINE_BYTES
from oracle.engines.wire.methods import NestedTooDeep, decode_line

STDERR_LINES_KEPT = 4
STDERR_LINE_CHARS = 300
STDERR_LINE_BYTES_KEPT = 4 * STDERR_LINE_CHARS
TRUNCATED = "…"
READ_CHUNK = 1 << 16


class Deadline(NamedTuple):
    """When a call must be answered by (``time.monotonic()``), and the allowance it came from, for messages.
    (A named tuple: one is made per call, and it is the cheapest immutable record.)"""

    at: float
    seconds: float

    @staticmethod
    def after(seconds: float, allowance: float | None = None) -> Deadline:
        return Deadline(time.monotonic() + seconds, seconds if allowance is None else allowance)


class ChannelFault(Exception):
    """The engine process broke the wire: ``kind`` is ``error`` or ``timeout``; the message is one line, through the
    engine-text gate (it quotes the engine's stderr and answers)."""

    def __init__(self, kind: str, message: str) -> None:
        self.message = clean_text(message)
        super().__init__(self.message)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class StderrLine:
    """One kept stderr line: its first ``STDERR_LINE_BYTES_KEPT`` bytes, and whether there was more."""

    raw: bytes
    cut: bool

    def quoted(self) -> str:
        """The line as a message quotes it: decoded, cut to ``STDERR_LINE_CHARS`` characters, ``…`` if cut."""
        text = self.raw.decode("utf-8", "replace").rstrip("\r")
        if self.cut or len(text) > STDERR_LINE_CHARS:
            return text[:STDERR_LINE_CHARS] + TRUNCATED
        return text


ERROR_LINE = re.compile(rb"(?i)(?:error|exception)\b|\b(?:panic|panicked|fatal|cannot|unhandled|not found)\b")
"""A stderr line that says what went wrong (``Error: Cannot find module``, ``ModuleNotFoundError: …``,
``panic: …``, ``sh: 1: x: not found``), as opposed to a stack frame or the banner of a runtime."""


class StderrTail:
    """Drains a process's stderr on a thread, in large reads (so a chatty engine never blocks and a flood
    costs few system calls), and keeps only its last ``STDERR_LINES_KEPT`` non-blank lines, each cut to
    ``STDERR_LINE_CHARS`` characters, and its first :data:`ERROR_LINE`: whatever the engine writes, the quoted
    tail stays about a kilobyte, and an engine dying at start-up is quoted by the line that says why (Node puts
    ``Cannot find module`` above a stack trace and its version)."""

    def __init__(self, stream: Any) -> None:
        self.first_error: StderrLine | None = None
        self.lines: collections.deque[StderrLine] = collections.deque(maxlen=STDERR_LINES_KEPT)
        self.partial = bytearray()
        self.partial_cut = False
        self.thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self.thread.start()

    def _drain(self, stream: Any) -> None:
        fd = stream.fileno()
        try:
            for chunk in iter(lambda: os.read(fd, READ_CHUNK), b""):
                self._take(chunk)
        except OSError:
            pass
        finally:
            stream.close()

    def _take(self, chunk: bytes) -> None:
        first, *rest = chunk.split(b"\n")
        self._extend_partial(first)
        if not rest:
            return
        self._look_for_error(bytes(self.partial), self.partial_cut)
        if self.first_error is None:
            self._look_for_error(chunk[len(first) + 1:chunk.rfind(b"\n")], False)
        self._keep(bytes(self.partial), self.partial_cut)
        last = rest.pop()
        for line in last_non_blank(rest, STDERR_LINES_KEPT):
            self._keep(line, False)
        self.partial, self.partial_cut = bytearray(), False
        self._extend_partial(last)

    def _extend_partial(self, piece: bytes) -> None:
        room = STDERR_LINE_BYTES_KEPT - len(self.partial)
        self.partial += piece[:room]
        self.partial_cut = self.partial_cut or len(piece) > room

    def _look_for_error(self, lines: bytes, cut: bool) -> None:
        """Keep the first line of ``lines`` (whole lines, one regular-expression search) that says what went
        wrong, unless one is kept already."""
        found = ERROR_LINE.search(lines) if self.first_error is None else None
        if found is None:
            return
        start = lines.rfind(b"\n", 0, found.start()) + 1
        end = lines.find(b"\n", found.end())
        line = lines[start:] if end < 0 else lines[start:end]
        self.first_error = StderrLine(line[:STDERR_LINE_BYTES_KEPT], cut or len(line) > STDERR_LINE_BYTES_KEPT)

    def _keep(self, line: bytes, cut: bool) -> None:
        if line.strip():
            self.lines.append(StderrLine(line[:STDERR_LINE_BYTES_KEPT], cut or len(line) > STDERR_LINE_BYTES_KEPT))

    def text(self, settle: float = 0.05) -> str:
        """The last lines, each cut to ``STDERR_LINE_CHARS`` (marked ``…``), after giving a dying process a
        moment to flush them; a last line without its newline yet counts too."""
        self.thread.join(settle)
        kept = list(self.lines)
        if self.partial.strip():
            kept.append(StderrLine(bytes(self.partial), self.partial_cut))
            self._look_for_error(bytes(self.partial), self.partial_cut)
        kept = kept[-STDERR_LINES_KEPT:]
        first = [] if self.first_error is None or self.first_error in kept else [self.first_error.quoted(), "…"]
        return " | ".join([*first, *(line.quoted() for line in kept)])


def last_non_blank(lines: list[bytes], count: int) -> list[bytes]:
    """The last ``count`` non-blank lines, in order, found from the end (a flood of empty lines is never
    walked whole)."""
    found: list[bytes] = []
    for line in reversed(lines):
        if line.strip():
            found.append(line)
            if len(found) == count:
                break
    return found[::-1]


class EngineProcess:
    """A running engine: ``send`` writes request lines, ``receive`` reads one response line by a deadline."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        self.argv = argv
        try:
            self.popen = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          env=env, bufsize=0, close_fds=True)
        except OSError as exc:
            raise ChannelFault("error", f"cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        assert self.popen.stdin is not None and self.popen.stdout is not None and self.popen.stderr is not None
        self.stdin_fd = self.popen.stdin.fileno()
        self.stdout_fd = self.popen.stdout.fileno()
        os.set_blocking(self.stdin_fd, False)
        os.set_blocking(self.stdout_fd, False)
        self.stderr = StderrTail(self.popen.stderr)
        self.buffer = bytearray()
        self.broken = False

    # ------------------------------------------------------------------ writing

    def send(self, lines: list[bytes], deadline: Deadline) -> None:
        """Write whole request lines (each ending in a newline), waiting for room in the pipe until the deadline."""
        data = memoryview(b"".join(lines))
        while data:
            try:
                written = os.write(self.stdin_fd, data)
            except BlockingIOError:
                written = 0
            except (BrokenPipeError, ConnectionResetError):
                raise self.gone("closed its stdin") from None
            data = data[written:]
            if data:
                self._wait(self.stdin_fd, deadline, writing=True)

    # ------------------------------------------------------------------ reading

    def receive(self, deadline: Deadline, skip: Callable[[bytes], bool] | None = None) -> Any:
        """The next line, parsed as JSON; lines ``skip`` recognises (unread answers) are passed over unparsed."""
        line = self._read_line(deadline)
        while skip is not None and skip(line):
            line = self._read_line(deadline)
        try:
            return decode_line(line)
        except NestedTooDeep as exc:
            raise self.fault("error", f"wrote a line of JSON {exc}") from None
        except ValueError:
            shown = line[:80].decode("utf-8", "replace")
            raise self.fault("error", f"wrote a line that is not JSON: {shown!r}") from None

    def _read_line(self, deadline: Deadline) -> bytes:
        searched = 0
        while True:
            end = self.buffer.find(b"\n", searched)
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                if len(line) > MAX_LINE_BYTES:
                    raise self.fault("error", f"wrote a line of {len(line)} bytes (the maximum is {MAX_LINE_BYTES})")
                return line
            searched = len(self.buffer)
            if searched > MAX_LINE_BYTES:
                raise self.fault("error", f"wrote a line longer than the maximum of {MAX_LINE_BYTES} bytes")
            self._wait(self.stdout_fd, deadline, writing=False)
            try:
                chunk = os.read(self.stdout_fd, READ_CHUNK)
            except BlockingIOError:
                continue
            if not chunk:
                raise self.gone("closed its stdout")
            self.buffer += chunk

    def _wait(self, fd: int, deadline: Deadline, writing: bool) -> None:
        remaining = deadline.at - time.monotonic()
        if remaining > 0:
            ready = select.select([], [fd], [], remaining) if writing else select.select([fd], [], [], remaining)
            if ready[1] if writing else ready[0]:
                return
        what = "did not read its input" if writing else "no answer"
        raise self.fault("timeout", f"{what} within {deadline.seconds:.3g} s")

    # ------------------------------------------------------------------ faults and the end

    def gone(self, what: str) -> ChannelFault:
        """The fault for a process that stopped talking: says whether it exited, and how."""
        try:
            code = self.popen.wait(0.2)
        except subprocess.TimeoutExpired:
            return self.fault("error", what)
        how = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
        return self.fault("error", f"{what} ({how})")

    def fault(self, kind: str, message: str) -> ChannelFault:
        self.broken = True
        self.kill()
        tail = self.stderr.text()
        return ChannelFault(kind, f"{message}; stderr: {tail}" if tail else message)

    def alive(self) -> bool:
        return not self.broken and self.popen.poll() is None

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait()
        for stream in (self.popen.stdin, self.popen.stdout):
            if stream is not None:
                stream.close()

    def close(self, request: bytes, grace: float = 0.5) -> None:
        """Ask the process to quit (a ``quit`` request line), then kill it if it has not gone by ``grace``."""
        if self.alive():
            try:
                self.send([request], Deadline.after(grace))
                self.popen.wait(grace)
            except (ChannelFault, subprocess.TimeoutExpired):
                pass
        self.broken = True
        self.kill()
