"""The ``oracle`` command line: its sub-commands, each loaded from its own module only when it is the one run.

Exit codes (:mod:`oracle.core.exits`): 0 everything passed (or failed as expected); 1 a check failed; 2 bad input
(options, files, an engine that cannot be loaded); 3 a run that stopped early; 130/143 stopped by a signal.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperGroup
from typer.models import CommandInfo, TyperInfo

from oracle.core.exits import EXIT_BAD_INPUT, EXIT_OK


@dataclass(frozen=True)
class SubCommand:
    """A sub-command: the module and the name of its typer app or function, and the line ``oracle --help`` shows."""

    module: str
    attribute: str
    short_help: str


COMMANDS: Mapping[str, SubCommand] = {
    "fuzz": SubCommand("oracle.cli.fuzz", "fuzz_command", "Fuzz an engine in lock-step with the reference."),
    "selftest": SubCommand("oracle.cli.report", "selftest_command",
                           "Check the oracle itself against its broken fixtures."),
    "check": SubCommand("oracle.cli.check_command", "check_command", "Check an engine against the rules."),
    "serve": SubCommand("oracle.cli.serve", "serve_command", "Serve an engine over the wire protocol on stdin/stdout."),
    "rulebook": SubCommand("oracle.cli.rulebook", "rulebook_command", "Write the rulebook as a static site."),
    "rules": SubCommand("oracle.cli.rules", "rules_command", "List the rules, as text or JSON."),
    "cards": SubCommand("oracle.cli.cards", "cards_command", "List cards, optionally filtered."),
    "play": SubCommand("oracle.cli.play", "play_command", "Play a game of random legal choices, step by step."),
    "scenarios": SubCommand("oracle.cli.scenarios", "app", "Validate and read the scenario files."),
    "z3": SubCommand("oracle.cli.z3", "z3_app", "Z3 models: proofs, engine conformance, boundary cases."),
    "expectations": SubCommand("oracle.cli.expectations", "app", "Keep an expectations file current."),
    "report": SubCommand("oracle.cli.report", "report_app", "Turn JSON reports into an HTML site or a badge."),
    "kit": SubCommand("oracle.cli.kit", "kit_app", "Write an engine author's kit (Node.js)."),
}
"""Every sub-command by name, in the order ``oracle --help`` lists them."""


def load_command(name: str, sub: SubCommand) -> typer.core.TyperCommand | TyperGroup:
    """Import the sub-command's module and build its click command, as ``add_typer`` or ``command`` would."""
    target = getattr(importlib.import_module(sub.module), sub.attribute)
    if isinstance(target, typer.Typer):
        return typer.main.get_group_from_info(
            TyperInfo(target, name=name, short_help=sub.short_help),
            pretty_exceptions_short=app.pretty_exceptions_short, suggest_commands=app.suggest_commands,
            rich_markup_mode=app.rich_markup_mode)
    command = typer.main.get_command_from_info(
        CommandInfo(name=name, callback=target, short_help=sub.short_help),
        pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode)
    assert isinstance(command, typer.core.TyperCommand)
    return command


class LoadedWhenAsked(MutableMapping[str, Any]):
    """The root's sub-commands by name: each named in :data:`COMMANDS` is built the first time it is looked up, so
    ``oracle check`` imports the check and nothing else; listing the names loads none."""

    def __init__(self) -> None:
        self.loaded: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self.loaded:
            self.loaded[name] = load_command(name, COMMANDS[name])
        return self.loaded[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self.loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self.loaded[name]

    def __iter__(self) -> Iterator[str]:
        yield from COMMANDS
        yield from (name for name in self.loaded if name not in COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS) + sum(name not in COMMANDS for name in self.loaded)


class Oracle(TyperGroup):
    """The root command, whose sub-commands are :class:`LoadedWhenAsked`."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(**{**settings, "commands": LoadedWhenAsked()})

    def get_help_option(self, ctx: Any) -> Any:
        """The root's ``--help``, False when not given (typer leaves it None, and reading None as a flag imports
        pydantic, about 0.1 s of every sub-command's ``--help``)."""
        option = super().get_help_option(ctx)
        if option is not None:
            option.default = False
        return option


app = typer.Typer(
    cls=Oracle,
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,  # click's layout: at 80 columns the descriptions keep 44 (rich's table left them 19)
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 120},
    help="Vale Oracle: check any implementation of The Vale of Eternity against the rules.",
)


def _print_version(value: bool) -> None:
    if value:
        from oracle.cli.version import version_line

        typer.echo(version_line())
        raise typer.Exit(EXIT_OK)


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="print the oracle's, the protocol's and the suite's versions")] = False,
) -> None:
    """Vale Oracle: check any implementation of The Vale of Eternity against the rules."""


def main() -> None:
    from oracle.core.cards import CardDataError

    try:
        app()
    except CardDataError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)


if __name__ == "__main__":
    main()
