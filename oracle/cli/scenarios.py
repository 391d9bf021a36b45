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
    for path in chosen:
        if path.is_dir():
            loaded = load_dir(path)
            for skipped in loaded.skipped:
                typer.echo(f"warning: {skipped.file}: {skipped.message}", err=True)
            errors.extend(loaded.errors)
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
    if errors:
        typer.echo(f"{len(errors)} error(s) in {files} file(s)", err=True)
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
