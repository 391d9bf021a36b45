"""The forms an ``--impl`` string takes, each with the words every command's help and error give it.

The connection each form makes is :data:`oracle.engines.connect.CONNECTORS`, built from this table; the help of
``--impl`` is written from it, so no command can name fewer forms than the oracle understands.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ImplForm:
    """One form of ``--impl``: the prefix it is known by, how it is written, and what it names."""

    prefix: str
    written: str
    names: str


IMPL_FORMS: tuple[ImplForm, ...] = (
    ImplForm("cmd:", "'cmd:COMMAND'", "a program in any language that speaks the wire protocol (docs/wire.md)"),
    ImplForm("cmd+jsonrpc:", "'cmd+jsonrpc:COMMAND'", "the same, spoken to in JSON-RPC 2.0 from the first request"),
    ImplForm("", "package.module[:factory]", "a Python engine, its factory `create` unless named"),
)
"""Each form, the first whose prefix matches a string being its form (the empty prefix matches every string)."""

IMPL_HELP = "engine: " + "; ".join(f"{form.written}, {form.names}" for form in IMPL_FORMS)
"""The help of every command's ``--impl``."""
