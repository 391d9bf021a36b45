"""``oracle report merge``: the shards' reports joined into the whole run's (:mod:`oracle.reports.merge`), printed and
written as ``oracle check`` would, and the shards' corpora joined into one (:mod:`oracle.scenarios.corpus`).

Exit codes: those of ``oracle check`` for the merged run (0, 1, 3, 4, 5, 130, 143); 2 when the reports cannot be
merged (a file that cannot be read, reports that are not the shards of one run, or a shard whose results are not
exactly those of the units the run's plan deals it: the file and the field named; docs/scaling.md), or when a corpus
holds a symbolic link (named; nothing is joined).
"""

from __future__ import annotations

import time
from pathlib import Path

import typer

from oracle.cli.check import print_summary, write_reports
from oracle.core.exits import bad_input
from oracle.reports.common import exit_code
from oracle.run.request import ReportTargets


def merge_run(paths: list[Path], out: Path | None, junit_xml: Path | None, markdown: Path | None) -> int:
    """Merge the reports, print the whole run's summary, write the reports asked for; the run's exit code."""
    from oracle.reports.merge import MergeError, merge_reports

    targets = ReportTargets(out, junit_xml, markdown)
    targets.refuse_unwritable()
    started = time.perf_counter()
    try:
        merged = merge_reports(paths)
    except MergeError as exc:
        raise bad_input(str(exc)) from None
    typer.echo(f"oracle report merge: {len(paths)} shard report(s) of {merged.run.engine} "
               f"{merged.run.engine_version} ({merged.run.impl}), {len(merged.results)} checks, merged in "
               f"{time.perf_counter() - started:.2f} s")
    print_summary(merged.results, merged.run, typer.echo)
    problems = write_reports(targets, merged.results, merged.run, typer.echo)
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    return exit_code(merged.results, merged.run, report_failed=bool(problems))


def merge_corpora(target: Path, sources: list[Path]) -> None:
    """Join the corpora into ``target``, one counterexample per cause, and say how many it holds."""
    from oracle.core.folder_files import Refused
    from oracle.scenarios.corpus import combine

    missing = [source for source in sources if not source.is_dir()]
    if missing:
        raise bad_input(f"--corpus-from {missing[0]}: no such directory")
    if target.exists() and not target.is_dir():
        raise bad_input(f"--corpus {target}: not a directory")
    try:
        kept = combine(sources, target)
    except Refused as exc:
        raise bad_input(f"{exc}; nothing was joined (a corpus holds only regular files the oracle wrote)") from None
    except OSError as exc:
        raise bad_input(f"--corpus {target}: {exc.strerror or exc}") from None
    typer.echo(f"corpus {target}: {len(kept)} counterexample(s), one per cause, from {len(sources)} corpus folder(s)")
