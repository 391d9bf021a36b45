"""``oracle kit node DIR``: write the JavaScript starter kit shipped in the package, with the card data.

Exit codes: 0 written; 2 bad input (a directory that cannot be written).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from oracle.core.cards import catalogue
from oracle.core.exits import bad_input
from oracle.reports.data_json import cards_document, document_text

NODE_KIT = Path(__file__).resolve().parents[1] / "kits" / "node"
EXAMPLES = frozenset({"example.mjs", "example.cjs", "example.test.mjs"})
"""The kit's files an engine author is expected to change: written only where they are not yet."""

kit_app = typer.Typer(no_args_is_help=True, help="Write a starter kit for engines in another language.")


def kit_files() -> dict[str, str]:
    """Each file of the Node kit by name: the package's, then cards.json (every card, stamped with the oracle's
    version, which the kit checks against the oracle's in the handshake)."""
    shipped = {path.name: path.read_text(encoding="utf-8") for path in sorted(NODE_KIT.iterdir())
               if path.suffix in (".mjs", ".cjs")}
    return {**shipped, "cards.json": document_text(cards_document(catalogue().cards.values()))}


@kit_app.command("node", short_help="Write the Node.js kit and its cards.json.")
def node_command(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="where to write the kit (created if missing)")],
) -> None:
    """Write the Node.js kit (Node 18 or later; ESM and CommonJS) and cards.json into DIR. The kit's own files and
    cards.json are replaced; the examples (example.cjs, example.mjs, example.test.mjs) are written only where they are
    not yet."""
    written, kept = [], []
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for name, text in kit_files().items():
            target = directory / name
            if name in EXAMPLES and target.exists():
                kept.append(name)
                continue
            target.write_text(text, encoding="utf-8")
            written.append(name)
    except OSError as exc:
        raise bad_input(f"{directory}: cannot write the kit ({exc.strerror})") from None
    typer.echo(f"wrote {', '.join(written)} to {directory}/")
    if kept:
        typer.echo(f"kept your {', '.join(kept)} (delete one to get the kit's again)")
    typer.echo(f"try: oracle check --impl 'cmd:node {directory}/example.mjs' --suite setup")
