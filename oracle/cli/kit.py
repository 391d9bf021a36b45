"""``oracle kit node DIR``: write the JavaScript starter kit shipped in the package, with the card data.

Exit codes: 0 written; 2 bad input (a directory that cannot be written, or a kit file's name in it taken by a symbolic
link or by anything but a regular file: named, and nothing is written).

Files are written into DIR itself and nowhere else (:mod:`oracle.core.folder_files`): a new file by exclusive
creation, a kit file already there replaced by a new one renamed over it, never written through a link.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from oracle.core.cards import catalogue
from oracle.core.exits import bad_input
from oracle.core.folder_files import Kind, Refused, entry_kind, open_folder, put
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
        with open_folder(directory, create=True) as opened:
            files = kit_files()
            found = {name: entry_kind(opened, name) for name in files}
            refused = next(((name, kind) for name, kind in found.items() if kind not in (Kind.ABSENT, Kind.REGULAR)),
                           None)
            if refused is not None:
                raise bad_input(f"{Refused(directory / refused[0], refused[1])}; nothing was written (remove it, or "
                                "choose another folder)")
            for name, text in files.items():
                if name in EXAMPLES and found[name] is Kind.REGULAR:
                    kept.append(name)
                    continue
                put(opened, name, text.encode("utf-8"), directory / name)
                written.append(name)
    except Refused as exc:
        raise bad_input(str(exc)) from None
    except OSError as exc:
        raise bad_input(f"{directory}: cannot write the kit ({exc.strerror})") from None
    typer.echo(f"wrote {', '.join(written)} to {directory}/")
    if kept:
        typer.echo(f"kept your {', '.join(kept)} (delete one to get the kit's again)")
    typer.echo(f"try: oracle check --impl 'cmd:node {directory}/example.mjs' --suite setup")
