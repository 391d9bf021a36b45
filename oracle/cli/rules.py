"""``oracle rules [--group G] [--json]``: the rules catalogue, as text or as one JSON document.

Exit codes: 0 listed; 2 bad input (a group the catalogue does not have).
"""

from __future__ import annotations

from typing import Annotated

import typer

from oracle.core.exits import bad_input
from oracle.reports.data_json import all_rules, document_text, rules_document


def rules_command(
    group: Annotated[str | None, typer.Option(metavar="GROUP", help="only the rules of this group (setup, hunting, "
                                              "...)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the rules and their variants as one JSON document "
                                          "(oracle/schemas/rules.schema.json)")] = False,
) -> None:
    """List every rule the oracle cites: its id, group, text and source."""
    known = all_rules()
    groups = list(dict.fromkeys(rule.group for rule in known))
    if group is not None and group not in groups:
        raise bad_input(f"--group {group!r}: the catalogue's groups are {', '.join(groups)}")
    chosen = [rule for rule in known if group is None or rule.group == group]
    if as_json:
        typer.echo(document_text(rules_document(chosen)), nl=False)
        return
    for rule in chosen:
        typer.echo(f"{rule.id:10} {rule.group:12} {rule.text}")
        typer.echo(f"{'':23}source: {rule.source}")
    typer.echo(f"{len(chosen)} rule(s)")
