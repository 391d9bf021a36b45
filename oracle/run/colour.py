"""Whether the oracle colours what it shows on a terminal: ``NO_COLOR`` (https://no-color.org) turns colour off,
and the rich console every coloured display draws on."""

from __future__ import annotations

import os
from typing import TextIO

from rich.console import Console


def colour_wanted() -> bool:
    """False when ``NO_COLOR`` is set to anything but the empty string."""
    return os.environ.get("NO_COLOR", "") == ""


def terminal_console(stream: TextIO) -> Console:
    """A rich console drawing on ``stream`` (a terminal): in colour unless ``NO_COLOR`` is set, never reading markup
    or highlighting in the text it is given (engine strings are shown as they are)."""
    return Console(file=stream, force_terminal=True, color_system="auto" if colour_wanted() else None,
                   highlight=False, markup=False, emoji=False)
