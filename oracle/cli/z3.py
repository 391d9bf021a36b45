"""``oracle z3``: prove the model properties, check an engine through the models, export boundary scenarios.

The lead's ``oracle/cli/app.py`` mounts this app with ``app.add_typer(z3_app, name="z3")``. Exit codes follow
``oracle``'s (:mod:`oracle.core.exits`): 0 everything held or passed; 1 a proof or a check failed; 2 bad input; for
``conform`` also 3 a row incomplete (its budget ran out, or it checked no case) and 4 nothing checked (every row
unsupported by the engine).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from oracle.cli.check_options import Impl
from oracle.cli.console import failure_lines
from oracle.core.exits import EXIT_FAILED, EXIT_OK, bad_input
from oracle.core.faults import EngineFault, ImplError, describe_fault
from oracle.core.results import CheckResult
from oracle.engines.connect import DEFAULT_IMPL, resolve_impl
from oracle.engines.harness import Subject
from oracle.reports.common import exit_code, verdict

z3_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Z3 models of payments, the holding limit, stone upgrades and summoning costs: proofs, conformance"
         " checks of an engine, and boundary scenarios.",
)

_fail = bad_input


@z3_app.command("prove", short_help="Prove every named property over its bounded domain.")
def prove_command(
    only: Annotated[list[str] | None, typer.Option(
        help="prove only the properties whose name contains this text (repeatable)")] = None,
    timeout: Annotated[float, typer.Option(help="seconds Z3 may spend on each property")] = 60.0,
    as_json: Annotated[bool, typer.Option("--json", help="print the results as JSON")] = False,
) -> None:
    """Prove every named property over its bounded domain ("unsat" = no counterexample = it holds)."""
    from oracle.suites.z3.proofs import PROPERTIES, domain_sizes, prove

    names = tuple(only or ())
    chosen = [p for p in PROPERTIES if not names or any(n in p.name for n in names)]
    if not chosen:
        raise _fail(f"--only {', '.join(names)}: no property matches; see `oracle z3 prove`")
    if timeout <= 0:
        raise _fail("--timeout must be more than 0 seconds")
    started = time.perf_counter()
    results = []
    for prop in chosen:
        result = prove(prop, int(timeout * 1000))
        results.append(result)
        if as_json:
            continue
        typer.echo(f"{result.verdict:8} {result.name:38} {', '.join(result.rules):22} {result.seconds:7.3f} s")
        if not result.holds:
            typer.echo(f"{'':9}property: {result.statement}")
            typer.echo(f"{'':9}domain: {result.domain}")
            if result.counterexample:
                typer.echo(f"{'':9}counterexample:")
                for name, value in result.counterexample.items():
                    typer.echo(f"{'':11}{name} = {value}")
    seconds = time.perf_counter() - started
    failed = [r for r in results if not r.holds]
    if as_json:
        typer.echo(json.dumps({"properties": [r.to_json() for r in results], "domains": domain_sizes(),
                               "seconds": round(seconds, 3), "holds": not failed}, indent=2))
    else:
        typer.echo("domains: " + "; ".join(f"{k} {v}" for k, v in domain_sizes().items()))
        verdict = "ALL HOLD" if not failed else f"{len(failed)} FAILED"
        typer.echo(f"{verdict}: {len(results)} properties in {seconds:.2f} s")
    raise typer.Exit(EXIT_OK if not failed else EXIT_FAILED)


@z3_app.command("export", short_help="Write the boundary cases as scenario files.")
def export_command(
    directory: Annotated[Path, typer.Argument(help="directory to write the scenario files into")],
) -> None:
    """Write the boundary cases (minimal payments, limit +-1, the Incense Burner's price, upgrades) as scenario
    files."""
    from oracle.suites.z3.export import export_boundaries

    if directory.exists() and not directory.is_dir():
        raise _fail(f"{directory}: exists and is not a directory")
    started = time.perf_counter()
    try:
        written = export_boundaries(directory)
    except OSError as exc:
        raise _fail(f"cannot write below {directory}: {exc.strerror}") from None
    total = 0
    for group, paths in written.items():
        typer.echo(f"{len(paths):5} {group:10} {directory / group}")
        total += len(paths)
    typer.echo(f"wrote {total} scenario files below {directory} in {time.perf_counter() - started:.1f} s")


@z3_app.command("conform", short_help="Compare an engine with the exact sets of the models.")
def conform_command(
    impl: Impl = DEFAULT_IMPL,
    full: Annotated[bool, typer.Option(help="check every case of every domain, not a sample")] = False,
    seed: Annotated[int, typer.Option(help="which deterministic sample of each domain")] = 1,
    case: Annotated[str | None, typer.Option(help="check one case id only (as printed by a failure)")] = None,
    row: Annotated[list[str] | None, typer.Option(
        help="check only these rows: summon-payment, remove-payment, summon-cost, holding-limit,"
             " incense-burner-price, book-of-thoth-upgrade, duduri-upgrade, duduri-king-sale")] = None,
    save_failures: Annotated[Path | None, typer.Option(help="write each divergence as a scenario file here")] = None,
    timeout: Annotated[float, typer.Option(help="seconds allowed for each engine call")] = 5.0,
    budget: Annotated[float, typer.Option(help="wall-clock seconds for each row")] = 600.0,
) -> None:
    """Compare an engine's legal payments, costs, keep choices and upgrades with the exact sets of the Z3 models."""
    from oracle.suites.z3.conformance import ROWS, ConformOptions, case_by_id, run_conformance

    rows = tuple(row or ())
    unknown = [r for r in rows if r not in {x.name for x in ROWS}]
    if unknown:
        raise _fail(f"--row {unknown[0]!r}: rows are {', '.join(r.name for r in ROWS)}")
    if case is not None:
        try:
            case_by_id(case)
        except (KeyError, ValueError) as exc:
            raise _fail(f"--case {case!r}: {exc.args[0] if exc.args else exc}") from None
    if budget <= 0 or timeout <= 0:
        raise _fail("--budget and --timeout must be more than 0 seconds")
    try:
        factory = resolve_impl(impl)
        first = Subject(factory, impl, timeout)
    except ImplError as exc:
        raise _fail(str(exc)) from None
    except EngineFault as fault:
        raise _fail(f"--impl {impl}: {describe_fault(fault)}") from None
    started = time.perf_counter()
    subjects = iter([first])

    def new_subject() -> Subject:
        return next(subjects, None) or Subject(factory, impl, timeout)

    options = ConformOptions(full=full, seed=seed, budget=budget, save_failures=save_failures, rows=rows,
                             case=case, impl=impl, list_every_case=_lists_cheaply(factory, impl, timeout))
    typer.echo(f"oracle z3 conform: {first.handshake.engine} {first.handshake.version} ({impl})"
               + (", full domains" if full else f", sample seed {seed}"))
    results = run_conformance(new_subject, options)
    _print(results, time.perf_counter() - started)
    raise typer.Exit(exit_code(results))


def _lists_cheaply(factory: Callable[[], Any], impl: str, timeout: float) -> bool:
    """Whether the engine's listing costs at most a step (measured as ``oracle check`` does: legal-set share 0.5),
    so that every case compares it; else the cases after each row's first are judged with ``try_actions``."""
    from oracle.engines.legal_share import DEFAULT_SHARE, LegalShare
    from oracle.engines.speed import measure_scale

    try:
        return LegalShare.of_scale(measure_scale(Subject(factory, impl, timeout))).share >= DEFAULT_SHARE
    except EngineFault:
        return False


def _print(results: list[CheckResult], seconds: float) -> None:
    for result in results:
        mark = result.outcome.value.upper()
        typer.echo(f"{mark:16} {result.id}: {result.title}" if not result.outcome.ok
                   else f"{mark:16} {result.id}: {result.message}")
        if result.outcome.ok:
            continue
        for line in failure_lines(result, with_step=False):
            typer.echo(line)
    failed = [r for r in results if not r.outcome.ok]
    typer.echo(f"{verdict(results)}: {len(results)} checks, {len(failed)} not ok, in {seconds:.1f} s")
