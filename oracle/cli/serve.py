"""``oracle serve``: any Python engine (the reference by default) on stdin/stdout, as a wire-protocol engine."""

from __future__ import annotations

from typing import Annotated

import typer

from oracle.core.exits import bad_input
from oracle.core.faults import ImplError
from oracle.engines.connect import DEFAULT_IMPL, resolve_impl


def serve_command(
    impl: Annotated[str, typer.Option(
        help="engine to serve: package.module or package.module:factory")] = DEFAULT_IMPL,
) -> None:
    """Serve an engine on stdin/stdout in the JSON-lines wire protocol (docs/wire.md); its prints go to stderr.

    Drive the reference from another language's test suite, or check the wire itself:
    oracle check --impl 'cmd:oracle serve'.
    """
    from oracle.engines.wire.server import serve_stdio

    try:
        factory = resolve_impl(impl)
    except ImplError as exc:
        raise bad_input(str(exc)) from None
    try:
        code = serve_stdio(factory)
    except KeyboardInterrupt:
        code = 0
    except BrokenPipeError:
        code = 0
    raise typer.Exit(code)
