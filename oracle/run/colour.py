"""The rich console every display of the oracle draws on: rich itself decides whether the stream is a terminal and
whether colour is wanted (``NO_COLOR``, ``FORCE_COLOR``, ``TERM=dumb``), as it does for every program built on it."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console


def console_on(stream: TextIO) -> Console:
    """A rich console drawing on ``stream``, never reading markup, emoji codes or highlighting in the text it is
    given (engine strings are shown as they are)."""
    return Console(file=stream, highlight=False, markup=False, emoji=False)


def in_colour(console: Console) -> bool:
    """Whether ``console`` shows colour: a terminal, and no ``NO_COLOR`` (rich reads both)."""
    return console.is_terminal and not console.no_color and console.color_system is not None
