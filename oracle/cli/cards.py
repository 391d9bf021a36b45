"""``oracle cards``: the card list, filtered by family, cost, effect or name, as text or JSON."""

from __future__ import annotations

from typing import Annotated

import typer

from oracle.core.cards import catalogue
from oracle.core.exits import bad_input as fail
from oracle.core.model import Family
from oracle.reports.data_json import cards_document, document_text


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
