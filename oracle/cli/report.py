"""``oracle report html``, ``oracle report badge``, ``oracle report annotations`` and ``oracle selftest``.

Exit codes: 0 written (selftest: every run as expected); 1 selftest: some run was not as expected; 2 bad
input (a report that cannot be read, an output that cannot be written).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Annotated

import typer

from oracle.core.exits import EXIT_FAILED, EXIT_OK, bad_input

report_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Turn JSON reports (oracle check --report-json) into a static HTML site or a badge (docs/html.md), or merge "
    "the reports of a run's shards (docs/scaling.md).",
)


@report_app.command("html", short_help="Write a self-contained HTML site of reports.")
def html_command(
    reports: Annotated[list[Path], typer.Argument(metavar="REPORT.json|DIR...",
        help="JSON reports, or folders of them (every *.json inside): several engines, several dates")],
    out: Annotated[Path, typer.Option("-o", "--out", help="directory to write the site into")],
) -> None:
    """Write a self-contained site: one engine's page, or for several a matrix of each engine's latest run by rule
    and card; an engine with several runs gets its history (docs/html.md)."""
    from oracle.reports.html.load import ReportError
    from oracle.reports.html.site import build_site

    started = time.perf_counter()
    try:
        site = build_site(reports, out)
    except ReportError as exc:
        raise bad_input(str(exc)) from None
    except OSError as exc:
        raise bad_input(f"cannot write {out}: {exc.strerror}") from None
    largest = max(size for _, size in site.pages)
    typer.echo(f"wrote {len(site.pages)} page(s) to {out}/ (index.html; largest {largest / 1e6:.2f} MB) "
               f"in {time.perf_counter() - started:.1f} s")


@report_app.command("badge", short_help="Write a shields.io endpoint file for a badge.")
def badge_command(
    report: Annotated[Path, typer.Argument(metavar="REPORT.json", help="a JSON report")],
    out: Annotated[Path, typer.Option("-o", "--out", help="the shields.io endpoint file to write")],
    label: Annotated[str, typer.Option(help="the badge's left text")] = "vale oracle",
) -> None:
    """Write a shields.io endpoint file: "488/502 pass" when nothing failed, "97 % · 14 fail" when checks failed."""
    from oracle.reports.badge import badge_json, write_badge
    from oracle.reports.html.load import ReportError, load_report

    try:
        loaded = load_report(report)
        write_badge(out, loaded, label)
    except ReportError as exc:
        raise bad_input(str(exc)) from None
    except OSError as exc:
        raise bad_input(f"cannot write {out}: {exc.strerror}") from None
    typer.echo(f"wrote {out}: {badge_json(loaded, label)['message']}")


@report_app.command("annotations", short_help="Print a GitHub Actions annotation for each failing cause.")
def annotations_command(
    report: Annotated[Path, typer.Argument(metavar="REPORT.json", help="a JSON report")],
) -> None:
    """Print one ::error workflow command per failing cause (its blamed rule as the title), at most 10, then a
    ::notice counting the rest: run in a GitHub Actions step, each shows in the pull request's summary."""
    from oracle.reports.annotations import workflow_commands
    from oracle.reports.html.load import ReportError, load_report

    try:
        loaded = load_report(report)
    except ReportError as exc:
        raise bad_input(str(exc)) from None
    for line in workflow_commands(loaded.causes):
        typer.echo(line)


@report_app.command("merge", short_help="Merge the reports of a run's shards into one report.")
def merge_command(
    reports: Annotated[list[Path] | None, typer.Argument(metavar="REPORT.json...",
        help="the JSON reports of the N shards of one run (oracle check --shard K/N --report-json)")] = None,
    out: Annotated[Path | None, typer.Option("-o", "--out", metavar="FILE", help="write the merged JSON report here")]
    = None,
    junit_xml: Annotated[Path | None, typer.Option(metavar="FILE", help="write a JUnit XML report here")] = None,
    markdown: Annotated[Path | None, typer.Option(metavar="FILE", help="write a Markdown summary here")] = None,
    corpus: Annotated[Path | None, typer.Option(metavar="DIR",
        help="join the corpora of --corpus-from into DIR, one counterexample per cause (oracle fuzz --corpus)")]
    = None,
    corpus_from: Annotated[list[Path] | None, typer.Option(metavar="DIR",
        help="a shard's corpus, or a folder of them (repeatable)")] = None,
) -> None:
    """Merge the shards' reports into the unsharded run's: its verdict, causes and exit code. Each shard must prove
    it holds a result for every check the run's plan deals it, and none other (docs/scaling.md)."""
    from oracle.cli.merge import merge_corpora, merge_run

    if corpus_from and corpus is None:
        raise bad_input("--corpus-from needs --corpus DIR, the corpus to join them into")
    if not reports and corpus is None:
        raise bad_input("give the shards' JSON reports (REPORT.json...), or --corpus DIR to join corpora")
    if corpus is not None:
        merge_corpora(corpus, corpus_from or [])
    raise typer.Exit(merge_run(reports or [], out, junit_xml, markdown) if reports else EXIT_OK)


def selftest_command(
    reports: Annotated[Path | None, typer.Option(help="keep the JSON reports in this directory")] = None,
    html: Annotated[Path | None, typer.Option(help="also build the matrix of the reports into this directory")] = None,
    jobs: Annotated[int, typer.Option(help="runs at a time")] = 2,
    only: Annotated[list[str] | None, typer.Option(
        metavar="NAME", help="run only these plans (the reference or a fixture module's name; repeatable)")] = None,
) -> None:
    """Check the oracle itself: the reference clean, every broken fixture caught with its rule, every fault
    fixture given its fault, the minimal adapter passing."""
    from oracle.cli.selftest import plans, run_selftest, table

    chosen = None
    if only:
        known = {plan.name: plan for plan in plans()}
        unknown = [name for name in only if name not in known]
        if unknown:
            raise bad_input(f"--only {unknown[0]!r}: no such plan; plans: {', '.join(known)}")
        chosen = [known[name] for name in dict.fromkeys(only)]
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="oracle-selftest-") as scratch:
        directory = reports if reports is not None else Path(scratch)
        verdicts = run_selftest(directory, jobs, chosen)
        for line in table(verdicts):
            typer.echo(line)
        failed = [v for v in verdicts if not v.ok]
        if reports is not None:
            typer.echo(f"reports in {reports}/")
        if html is not None:
            from oracle.reports.html.site import build_site

            paths = [v.report for v in verdicts if v.report is not None]
            try:
                build_site(paths, html)
            except OSError as exc:
                raise bad_input(f"cannot write {html}: {exc.strerror}") from None
            typer.echo(f"matrix of {len(paths)} report(s) in {html}/index.html")
    verdict = "FAILED" if failed else "PASSED"
    typer.echo(f"selftest {verdict}: {len(verdicts) - len(failed)} of {len(verdicts)} runs as expected "
               f"in {time.perf_counter() - started:.1f} s")
    raise typer.Exit(EXIT_FAILED if failed else EXIT_OK)
