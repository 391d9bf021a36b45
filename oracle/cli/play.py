"""``oracle play``: a game of random legal choices on any engine, printed step by step."""

from __future__ import annotations

from typing import Annotated

import typer

from oracle.cli.check_options import Impl
from oracle.core.exits import EXIT_FAILED
from oracle.core.exits import bad_input as fail
from oracle.core.faults import EngineFault, ImplError, describe_fault
from oracle.core.narrate import action_text, event_text
from oracle.engines.connect import DEFAULT_IMPL, EngineUnderTest
from oracle.engines.harness import Subject
from oracle.engines.play import GameStuck, choose_action, new_setup


def _load_subject(impl: str, timeout: float) -> Subject:
    try:
        return EngineUnderTest.load(impl, timeout).fresh()
    except ImplError as exc:
        raise fail(str(exc)) from None
    except EngineFault as fault:
        raise fail(f"--impl {impl}: {describe_fault(fault)}") from None


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
