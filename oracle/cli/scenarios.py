"""``oracle scenarios lint [PATH...]`` and ``oracle scenarios show ID``.

Exit codes: 0 all files valid (lint) or the scenario was shown; 2 an invalid file, an unknown id, or a
missing directory.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Annotated

import typer

from oracle.core.exits import EXIT_BAD_INPUT
from oracle.scenarios.describe import scenario_lines
from oracle.scenarios.loader import NOT_REGULAR, check_file, default_dir, display_path, load_dir
from oracle.scenarios.model import ScenarioError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Validate and read the executable scenario files (docs/scenarios.md).",
)


def _directory(directory: Path | None) -> Path:
    chosen = directory if directory is not None else default_dir()
    if not chosen.is_dir():
        hint = "" if directory is not None else " (pass a directory)"
        typer.echo(f"error: {display_path(chosen)}: no such scenarios directory{hint}", err=True)
        raise typer.Exit(EXIT_BAD_INPUT)
    return chosen


def preamble_problems(directory: Path, given_ids: set[str]) -> list[str]:
    """Every ``preambles.json`` below ``directory`` fits its schema and names only scenarios of its own folder that
    start from ``[given]`` (docs/scenarios.md, Preambles)."""
    from oracle.scenarios.reach.preamble import FILE_NAME, PreambleError, read_file

    problems: list[str] = []
    for path in sorted(directory.rglob(FILE_NAME)):
        try:
            stored = read_file(path)
        except PreambleError as error:
            problems.append(str(error))
            continue
        here = {p.stem for p in path.parent.glob("*.toml")}
        for scenario_id in sorted({*stored.reached, *stored.unreached}):
            if scenario_id not in here or scenario_id not in given_ids:
                problems.append(f"{display_path(path)}: {scenario_id}: no scenario of this folder starts from "
                                "[given] with this id")
    return problems


@app.command("lint", short_help="Validate scenario files; print each error located.")
def lint_command(
    paths: Annotated[list[Path] | None, typer.Argument(
        metavar="PATH", help="scenario files or directories (default: the repository's scenarios)")] = None,
) -> None:
    """Validate scenario files (single files, or every file below a directory); print each error as
    file:line: message."""
    chosen = paths or [_directory(None)]
    errors: list[ScenarioError] = []
    files = valid = 0
    preamble_errors: list[str] = []
    for path in chosen:
        if path.is_dir():
            loaded = load_dir(path)
            for skipped in loaded.skipped:
                typer.echo(f"warning: {skipped.file}: {skipped.message}", err=True)
            errors.extend(loaded.errors)
            preamble_errors += preamble_problems(path, {s.id for s in loaded.scenarios if s.new_game is None})
            files += loaded.files
            valid += len(loaded.scenarios)
        elif path.is_file():
            scenario, problems = check_file(path)
            errors.extend(problems)
            files += 1
            valid += scenario is not None and not problems
        elif path.exists():
            typer.echo(f"error: {display_path(path)}: {NOT_REGULAR}", err=True)
            raise typer.Exit(EXIT_BAD_INPUT)
        else:
            typer.echo(f"error: {display_path(path)}: no such scenario file or directory", err=True)
            raise typer.Exit(EXIT_BAD_INPUT)
    for error in errors:
        typer.echo(str(error))
    for problem in preamble_errors:
        typer.echo(problem)
    if errors or preamble_errors:
        typer.echo(f"{len(errors) + len(preamble_errors)} error(s) in {files} file(s)", err=True)
        raise typer.Exit(EXIT_BAD_INPUT)
    where = display_path(chosen[0]) if len(chosen) == 1 else f"{len(chosen)} paths"
    if not files:
        typer.echo(f"error: no scenario files in {where}", err=True)
        raise typer.Exit(EXIT_BAD_INPUT)
    typer.echo(f"{valid} scenario(s) valid in {where}")


@app.command("show", short_help="Print one scenario readably.")
def show_command(
    scenario_id: Annotated[str, typer.Argument(metavar="ID", help="the scenario id")],
    scenarios: Annotated[Path | None, typer.Option(metavar="DIR",
        help="scenarios directory (default: the repository's)")] = None,
) -> None:
    """Print one scenario readably: title, rules with their text, cards, given, and the steps in words."""
    loaded = load_dir(_directory(scenarios))
    scenario = loaded.get(scenario_id)
    if scenario is None:
        broken = [e for e in loaded.errors if Path(e.file).stem == scenario_id]
        if broken:
            for error in broken:
                typer.echo(f"error: {error}", err=True)
            raise typer.Exit(EXIT_BAD_INPUT)
        close = difflib.get_close_matches(scenario_id, [s.id for s in loaded.scenarios], n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        typer.echo(f"error: no scenario has the id {scenario_id!r}{hint}", err=True)
        raise typer.Exit(EXIT_BAD_INPUT)
    for line in scenario_lines(scenario):
        typer.echo(line)


@app.command("reach", short_help="Find and store a verified preamble for every scenario starting from [given].")
def reach_command(
    scenarios: Annotated[Path | None, typer.Option(metavar="DIR",
                                                   help="the scenarios directory (default: the bundled suite)")] = None,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", min=0.1, help="seconds of search per scenario before the finder gives up")] = 4.0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, max=64, help="worker processes")] = 2,
    select: Annotated[list[str] | None, typer.Option(
        "--select", metavar="ID", help="only these scenario ids (the others keep their stored entries)")] = None,
) -> None:
    """Search, on the reference, a new game and actions reaching each scenario's [given] position; keep those
    whose position satisfies the [given] and whose steps pass from it; write DIR/preambles.json with the finder's
    reason for the others, and print the reached share per folder (docs/scenarios.md, Preambles)."""
    from oracle.scenarios.reach.preamble import PreambleError, Preambles, read_preambles, write_preambles
    from oracle.scenarios.reach.suite import reach_suite, reason_groups, shares

    directory = _directory(scenarios)
    loaded = load_dir(directory)
    if loaded.errors:
        for error in loaded.errors:
            typer.echo(str(error))
        raise typer.Exit(EXIT_BAD_INPUT)
    try:
        kept = read_preambles(directory)
    except PreambleError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(EXIT_BAD_INPUT) from None
    chosen = [s for s in loaded.scenarios if not select or s.id in select]
    found = reach_suite(chosen, time_limit, jobs)
    ids = {s.id for s in loaded.scenarios}
    redone = {s.id for s in chosen}
    merged = Preambles(
        {**{k: v for k, v in kept.reached.items() if k in ids and k not in redone}, **found.reached},
        {**{k: v for k, v in kept.unreached.items() if k in ids and k not in redone}, **found.unreached},
    )
    folders: dict[Path, Preambles] = {}
    for scenario in loaded.scenarios:
        if scenario.new_game is not None:
            continue
        folder = folders.setdefault(scenario.path.parent, Preambles({}, {}))
        if scenario.id in merged.reached:
            folder.reached[scenario.id] = merged.reached[scenario.id]
        elif scenario.id in merged.unreached:
            folder.unreached[scenario.id] = merged.unreached[scenario.id]
    written = write_preambles(folders)
    table = shares(loaded.scenarios, directory, merged)
    typer.echo("| folder | reached | of | share |")
    typer.echo("|---|---:|---:|---:|")
    for row in table:
        typer.echo(f"| {row.folder} | {row.reached} | {row.total} | {100 * row.reached / max(row.total, 1):.0f} % |")
    reached, total = sum(r.reached for r in table), sum(r.total for r in table)
    typer.echo(f"| **all** | {reached} | {total} | {100 * reached / max(total, 1):.1f} % |")
    typer.echo("")
    for head, count in reason_groups(merged):
        typer.echo(f"{count:4d}  {head}")
    typer.echo(f"reached {reached} of {total} [given] scenarios ({100 * reached / max(total, 1):.1f} %); "
               f"wrote {len(written)} preambles.json file(s) below {display_path(directory)}")
