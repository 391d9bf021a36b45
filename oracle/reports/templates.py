"""The Jinja2 environment every HTML page of the oracle is rendered in: templates shipped as package data, every
value autoescaped (an engine's text is escaped wherever it lands, in an element or in an attribute), and an
undefined name an error rather than an empty string."""

from __future__ import annotations

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape


def autoescaped(package: str, keep_trailing_newline: bool = False) -> Environment:
    """The environment of the templates under ``package``'s ``templates/`` folder."""
    return Environment(
        loader=PackageLoader(package, "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=keep_trailing_newline,
    )
