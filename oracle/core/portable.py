"""Code locations as the oracle shows them: by module (``oracle/engines/harness.py:136``), never by the absolute path of
the machine that ran the check, so two machines' reports of one run are the same and none leaks a file layout."""

from __future__ import annotations

import os
import sys
from pathlib import Path

UNKNOWN_PLACE = "…"


def _module_path(module_name: str, filename: str) -> str:
    """``pkg/mod.py`` (or ``pkg/__init__.py``) of a module, whatever its file is called on disk."""
    parts = module_name.split(".")
    name = Path(filename).name
    return "/".join([*parts, "__init__.py"] if name == "__init__.py" else [*parts[:-1], name])


def shown_path(filename: str) -> str:
    """Where a file of code is, without the machine's layout: by the module that holds it; else relative to the
    entry of ``sys.path`` or the working directory it is under; else ``…/name``."""
    if not os.path.isabs(filename):
        return filename
    for module_name, module in list(sys.modules.items()):
        if getattr(module, "__file__", None) == filename and module_name != "__main__":
            return _module_path(module_name, filename)
    path = Path(filename)
    roots = [Path(entry) for entry in sys.path if entry and os.path.isabs(entry)] + [Path.cwd()]
    for root in sorted(roots, key=lambda p: len(p.parts), reverse=True):
        if path.is_relative_to(root):
            return path.relative_to(root).as_posix()
    return f"{UNKNOWN_PLACE}/{path.name}"


def shown_traceback(text: str) -> str:
    """A formatted traceback with each ``File "…"`` shown as :func:`shown_path` shows it."""
    out = []
    for line in text.splitlines(keepends=True):
        head, quote, rest = line.partition('File "')
        if quote and head.strip() == "":
            filename, end, tail = rest.partition('"')
            if end:
                line = f'{head}File "{shown_path(filename)}"{tail}'
        out.append(line)
    return "".join(out)
