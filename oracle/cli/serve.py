"""``oracle serve``: any Python engine (the reference by default) on stdin/stdout, as a wire-protocol engine."""

from __future__ import annotations

from typing import Annotated

import typer

from oracle.core.cards import CardDataError
from oracle.core.exits import EXIT_BAD_INPUT, bad_input
from oracle.core.faults import ImplError
from oracle.engines.adapter_like import AdapterLike, adapter_like
from oracle.engines.connect import DEFAULT_IMPL, resolve_impl


def serve_command(
    impl: Annotated[str, typer.Option(
        help="engine to serve: package.module or package.module:factory")] = DEFAULT_IMPL,
    legal_by_trial: Annotated[bool, typer.Option(
        "--legal-by-trial",
        help="serve the engine without the legal_actions capability, as most real adapters are: the oracle "
             "then tries candidate actions on copies (docs/performance.md)")] = False,
    legal_cost: Annotated[float, typer.Option(
        metavar="MS", help="wait this many milliseconds in every legal_actions call, as an adapter that lists "
                           "by trying candidates itself (docs/performance.md)")] = 0.0,
    no_try_actions: Annotated[bool, typer.Option(
        "--no-try-actions",
        help="serve the engine without the try_actions capability: the oracle then applies each action it judges "
             "on a copy (docs/performance.md)")] = False,
) -> None:
    """Serve an engine on stdin/stdout in the wire protocol (docs/wire.md); its prints go to stderr.

    Each request is answered in its own envelope: JSON lines (1.x) or JSON-RPC 2.0 (2.0).
    Drive the reference from another language's test suite, or check the wire itself:
    oracle check --impl 'cmd:oracle serve' (or 'cmd+jsonrpc:oracle serve').
    """
    from oracle.engines.wire.server import serve_stdio

    like = AdapterLike(by_trial=legal_by_trial, cost_ms=legal_cost, no_try=no_try_actions)
    problem = like.problem()
    if problem is not None:
        raise bad_input(problem)
    try:
        factory = adapter_like(resolve_impl(impl), like)
    except ImplError as exc:
        raise bad_input(str(exc)) from None
    try:
        code = serve_stdio(factory)
    except KeyboardInterrupt:
        code = 0
    except BrokenPipeError:
        code = 0
    raise typer.Exit(code)


def serve_alone() -> None:
    """``oracle serve`` as the whole command line, without the other commands and their imports."""
    app = typer.Typer(add_completion=False, context_settings={"help_option_names": ["-h", "--help"]})

    @app.callback()
    def _oracle() -> None:
        """Vale Oracle."""

    app.command("serve")(serve_command)
    try:
        app(prog_name="oracle")
    except CardDataError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise SystemExit(EXIT_BAD_INPUT) from None
