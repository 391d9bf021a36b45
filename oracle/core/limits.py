"""How much the oracle reads of any input it did not write itself: its size in bytes, its depth (issue 36, item 5).

Every scenario file, corpus file, expectations file, JSON report and engine answer is held to these before it is
parsed, so a hostile or careless input costs a located error (exit 2) in well under a second, never a traceback, a
stall or gigabytes of memory. ``docs/scenarios.md`` and ``docs/reports.md`` state the same numbers.
"""

from __future__ import annotations

KIB = 1024
MIB = 1024 * KIB

MAX_DEPTH = 64
"""Containers inside one another (tables, arrays, objects; a TOML dotted key or table header counts one per part).
The deepest bundled scenario is 7, a report 5: far above anything real, far below what the parsers and the schema
validators can recurse through."""

MAX_KEY_PARTS = 8
"""Parts of one TOML key (``a.b.c`` is 3) or table header (``[a.b.c]``): the TOML parser's cost grows with the
square of a key's length. The bundled scenarios use at most 2."""

MAX_TABLE_NAMES = 256
"""Different table headers in one TOML file (``[a.b]`` and ``[[a.b]]`` written again name the same table): the
TOML parser's cost grows faster than their number. A bundled scenario names at most 4; an expectations
file names one, however many entries it holds."""

MAX_SCENARIO_BYTES = 256 * KIB
"""A scenario file (``--scenarios``, ``scenarios lint``, a fuzz corpus): the largest bundled one is under 4 KiB."""

MAX_PREAMBLES_BYTES = 4 * MIB
"""A folder's ``preambles.json`` (issue 39): the largest bundled one is under 20 KiB."""

MAX_EXPECTATIONS_BYTES = 1 * MIB
"""An expectations file (``--expectations``): some six thousand ``[[expected_failure]]`` entries."""

MAX_REPORT_BYTES = 64 * MIB
"""A JSON report read back (``report merge``, ``report html``, ``report badge``, ``expectations update``) and the
bundled suite's cache: a default run's report is some hundreds of KiB."""

MAX_LINE_BYTES = 4 * MIB
"""The longest line either side of the JSON-RPC wire may send, newline excluded; a longer line is a protocol fault."""


def shown_bytes(count: int) -> str:
    """A limit as a person reads it: ``256 KiB``, ``64 MiB``."""
    for unit, name in ((MIB, "MiB"), (KIB, "KiB")):
        if count >= unit and count % unit == 0:
            return f"{count // unit} {name}"
    return f"{count} bytes"
