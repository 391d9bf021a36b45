"""Exit codes shared by every ``oracle`` command, and the one-line error for bad input.

When several apply, the first of this list wins:

* 2: bad input (options, files, an engine that cannot be loaded), found before anything runs;
* 130 / 143: stopped by SIGINT / SIGTERM (the reports are still written, marked incomplete);
* 5: a report could not be written;
* 1: a check failed;
* 3: the run stopped early (time budget, failure limit, an engine that can no longer start) or a check is
  incomplete (it checked less than it was to check, possibly nothing), and nothing failed;
* 4: nothing was checked: no check ran (every one unsupported or not applicable) and none failed
  (``--allow-empty`` makes this 0);
* 0: otherwise: every check that ran passed or failed as expected, and at least one ran.
"""

from __future__ import annotations

import typer

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INCOMPLETE = 3
EXIT_NOTHING_CHECKED = 4
EXIT_REPORT_FAILED = 5


def bad_input(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr; raise the returned Exit to stop with code 2."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(EXIT_BAD_INPUT)
