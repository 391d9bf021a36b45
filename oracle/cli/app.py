"""The ``oracle`` command line.

Exit codes (:mod:`oracle.core.exits`): 0 everything passed (or failed as expected); 1 a check failed; 2 bad input
(options, files, an engine that cannot be loaded); 3 a run that stopped early; 130/143 stopped by a signal.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from oracle.cli.check import check_command
from oracle.cli.check_options import Impl
from oracle.cli.expectations import app as expectations_app
from oracle.cli.fuzz import fuzz_command
from oracle.cli.kit import kit_app
from oracle.cli.report import report_app, selftest_command
from oracle.cli.rulebook import rulebook_command
from oracle.cli.rules import rules_command
from oracle.cli.scenarios import app as scenarios_app
from oracle.cli.serve import serve_command
from oracle.cli.z3 import z3_app
from oracle.core.cards import CardDataError, catalogue
from oracle.core.exits import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, bad_input
from oracle.core.faults import EngineFault, ImplError, describe_fault
from oracle.core.model import Family
from oracle.core.narrate import action_text, event_text
from oracle.engines.connect import DEFAULT_IMPL, EngineUnderTest
from oracle.engines.harness import Subject
from oracle.engines.play import GameStuck, choose_action, new_setup
from oracle.reports.data_json import cards_document, document_text

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,  # click's layout: at 80 columns the descriptions keep 44 (rich's table left them 19)
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 120},
    help="Vale Oracle: check any implementation of The Vale of Eternity against the rules.",
)

app.add_typer(scenarios_app, name="scenarios", short_help="Validate and read the scenario files.")
app.add_typer(z3_app, name="z3", short_help="Z3 models: proofs, engine conformance, boundary cases.")
app.add_typer(expectations_app, name="expectations", short_help="Keep an expectations file current.")
app.command("fuzz", short_help="Fuzz an engine in lock-step with the reference.")(fuzz_command)
app.add_typer(report_app, name="report", short_help="Turn JSON reports into an HTML site or a badge.")
app.command("selftest", short_help="Check the oracle itself against its broken fixtures.")(selftest_command)
app.command("check", short_help="Check an engine against the rules.")(check_command)
app.command("serve", short_help="Serve an engine over the wire protocol on stdin/stdout.")(serve_command)
app.command("rulebook", short_help="Write the rulebook as a static site.")(rulebook_command)
app.command("rules", short_help="List the rules, as text or JSON.")(rules_command)
app.add_typer(kit_app, name="kit", short_help="Write an engine author's kit (Node.js).")


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

fail = bad_input


@app.command("cards")
def cards_command(
    family: Annotated[str | None, typer.Option(help="fire, water, earth, wind or dragon")] = None,
    cost: Annotated[int | None, typer.Option(help="only cards of this printed cost")] = None,
    effect: Annotated[str | None, typer.Option(help="instant, permanent or active")] = None,
    name: Annotated[str | None, typer.Option(help="name contains this text")] = None,
    expansion: Annotated[bool, typer.Option(help="include the Artifacts expansion cards")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the cards as one JSON document "
                                          "(oracle/schemas/cards.schema.json)")] = False,
) -> None:
    """List cards, optionally filtered."""
    if family is not None and family not in {f.value for f in Family}:
        raise fail(f"--family {family!r}: expected one of fire, water, earth, wind, dragon")
    if effect is not None and effect not in ("instant", "permanent", "active"):
        raise fail(f"--effect {effect!r}: expected instant, permanent or active")
    chosen = [card for card in catalogue().in_sets(["base", "artifacts"] if expansion else ["base"])
              if (not family or card.family.value == family) and (cost is None or card.cost == cost)
              and (not effect or effect in {t.value for t in card.effect_types})
              and (not name or name.casefold() in card.name.casefold())]
    if as_json:
        typer.echo(document_text(cards_document(chosen)), nl=False)
        return
    for card in chosen:
        kinds = "/".join(sorted(t.value for t in card.effect_types))
        typer.echo(f"{card.id:16} {card.name:20} {card.family.value:7} cost {card.cost:>2}  {kinds}")
        for text in card.effects:
            typer.echo(f"{'':18}{text.type.value}: {text.text}")
    typer.echo(f"{len(chosen)} card(s)")


def _load_subject(impl: str, timeout: float) -> Subject:
    try:
        return EngineUnderTest.load(impl, timeout).fresh()
    except ImplError as exc:
        raise fail(str(exc)) from None
    except EngineFault as fault:
        raise fail(f"--impl {impl}: {describe_fault(fault)}") from None


@app.command("play", short_help="Play a game of random legal choices, step by step.")
def play_command(
    players: Annotated[int, typer.Option(help="number of players, 2 to 4")] = 2,
    seed: Annotated[int, typer.Option(help="seed for the deck, the shuffles and every choice")] = 1,
    impl: Impl = DEFAULT_IMPL,
    timeout: Annotated[float, typer.Option(help="seconds allowed for each engine call")] = 5.0,
    quiet: Annotated[bool, typer.Option(help="print only the result")] = False,
    expansion: Annotated[bool, typer.Option(help="shuffle the 28 Artifacts cards into the deck")] = False,
    artifacts: Annotated[bool, typer.Option(help="play with the expansion cards and the artifact tiles")] = False,
) -> None:
    """Play a full game with random legal choices and print it step by step."""
    if not 2 <= players <= 4:
        raise fail(f"--players {players}: the game is for 2 to 4 players")
    subject = _load_subject(impl, timeout)
    import random

    setup = new_setup(players, seed, expansion=expansion, artifacts=artifacts)
    rng = random.Random(f"play-{seed}")
    step = 0
    try:
        for event in subject.new_game(setup):
            _echo_event(event, quiet)
        while (pending := subject.decision()) is not None:
            step += 1
            action = choose_action(subject, pending, rng)
            result = subject.apply(action)
            if not quiet:
                typer.echo(f"  [{step}] {action_text(action)}")
            if not result["accepted"]:
                typer.echo(f"error: step {step}: the engine refused its own legal action: {result['rejection']}",
                           err=True)
                raise typer.Exit(EXIT_FAILED)
            for event in result["events"]:
                _echo_event(event, quiet)
    except EngineFault as fault:
        typer.echo(f"error: step {step}: {describe_fault(fault)}", err=True)
        raise typer.Exit(EXIT_FAILED) from None
    except GameStuck as stuck:
        typer.echo(f"error: step {step}: {stuck}", err=True)
        raise typer.Exit(EXIT_FAILED) from None


def _echo_event(event: dict[str, object], quiet: bool) -> None:
    text = event_text(event)
    if text is None:
        return
    if quiet and event.get("type") != "game_over":
        return
    typer.echo(text if text.startswith(("==", "--")) else f"      {text}")


def main() -> None:
    try:
        app()
    except CardDataError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)


if __name__ == "__main__":
    main()

