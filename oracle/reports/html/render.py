"""The report site's Jinja2 environment: the templates (package data under ``templates/``) autoescape everything,
so every text from an engine or a report is escaped wherever it lands, in an element or in an attribute; the
stylesheet, the script and the embedded JSON are the only markup passed in whole."""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment
from markupsafe import Markup

from oracle.reports.common import one_line
from oracle.reports.html.markup import VERDICT_LOOKS, anchor_id, asset, href, outcome_class, outcome_symbol
from oracle.reports.html.tally import Status
from oracle.reports.templates import autoescaped


@cache
def environment() -> Environment:
    env = autoescaped("oracle.reports.html", keep_trailing_newline=True)
    env.globals.update(
        asset=lambda name: Markup(asset(name)), anchor_id=anchor_id, href=href, outcome_class=outcome_class,
        outcome_symbol=outcome_symbol, verdict_looks=VERDICT_LOOKS, not_reached=Status.NOT_REACHED,
        one_line=one_line,
    )
    return env


def render(template: str, **context: Any) -> str:
    """The page ``template`` (a file of ``templates/``) with ``context``."""
    return environment().get_template(template).render(**context)


def render_string(source: str, **context: Any) -> Markup:
    """A snippet of markup (autoescaped like a template file), to be placed whole in a page."""
    return Markup(environment().from_string(source).render(**context))
