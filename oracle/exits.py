"""Exit codes shared by every ``oracle`` command, and the one-line error for bad input.

0: the run finished and everything passed (or failed as expected, or is unsupported by the engine);
1: a check failed; 2: bad input (options, files, an engine that cannot be loaded); 3: the run stopped early
(time budget, an engine that can no longer start) with nothing failed; 130 / 143: stopped by SIGINT / SIGTERM.
"""

from __future__ import annotations

import typer

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INCOMPLETE = 3


def bad_input(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr; raise the returned Exit to stop with code 2."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(EXIT_BAD_INPUT)
