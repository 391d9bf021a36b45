"""``oracle rulebook -o DIR [--report REPORT.json]``.

Exit codes: 0 written; 2 bad input (a report that cannot be read, an invalid bundled scenario, an output directory
that cannot be written).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from oracle.core.exits import bad_input


def rulebook_command(
    out: Annotated[Path, typer.Option("-o", "--out", help="directory to write the rulebook into")],
    report: Annotated[Path | None, typer.Option(
        metavar="REPORT.json", help="a JSON report (oracle check --report-json): its outcome beside each scenario")
    ] = None,
) -> None:
    """Write the rulebook: every rule with its sources, variants and scenarios in words, a page per card and tile,
    and an index (docs/rulebook.md)."""
    from oracle.reports.html.load import ReportError
    from oracle.reports.rulebook.gather import RulebookError
    from oracle.reports.rulebook.site import build_rulebook

    started = time.perf_counter()
    try:
        written = build_rulebook(out, report)
    except (ReportError, RulebookError) as exc:
        raise bad_input(str(exc)) from None
    except OSError as exc:
        raise bad_input(f"cannot write {out}: {exc.strerror}") from None
    size = sum(n for _, n in written.pages)
    typer.echo(f"wrote {len(written.pages)} page(s) to {out}/ (index.html; {size / 1e6:.1f} MB) "
               f"in {time.perf_counter() - started:.1f} s")
