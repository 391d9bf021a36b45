"""Making a result's text safe for every report and for the terminal, and engine text inert in Markdown.

Engine text is made safe where it enters the oracle (:mod:`oracle.core.engine_text`, the one gate). A result also
carries text that no engine wrote: a scenario's title, a report read back for a merge. So each result is cleaned
once more as it arrives from a worker, with the same rule (:func:`~oracle.core.engine_text.safe_characters`:
control characters become visible escapes such as ``\\x1b``, surrogates U+FFFD). Markdown has markup of its own:
:func:`md_text`, :func:`md_code` and :func:`md_fence` escape for it.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from oracle.core.engine_text import safe_characters, safe_data
from oracle.core.results import CheckResult

_TEXT_FIELDS = ("title", "expected", "actual", "message", "reproduce")
clean_text = safe_characters
"""``text`` with control characters escaped and unencodable characters replaced (the gate's rule)."""


def clean_result(result: CheckResult) -> CheckResult:
    """The result with all of its text made safe (the same object when nothing needed it)."""
    changes: dict[str, Any] = {}
    for name in _TEXT_FIELDS:
        text = getattr(result, name)
        cleaned = clean_text(text)
        if cleaned != text:
            changes[name] = cleaned
    details = safe_data(result.details)
    if details != result.details:
        changes["details"] = details
    return dataclasses.replace(result, **changes) if changes else result


# ---------------------------------------------------------------------- Markdown (issue 21, deliverable 2)

ZERO_WIDTH_SPACE = "\u200b"
_MARKDOWN_ESCAPES = str.maketrans({
    **{char: "\\" + char for char in "\\`*_[]!|~$#"},
    "<": "&lt;", ">": "&gt;", "&": "&amp;", "\n": " ", "\r": " ",
})
_LINK_STARTS = re.compile(r"(?i)(?<=:)(?=//)|(?<=\bwww)(?=\.)|(?<=@)|(?<=[A-Za-z0-9])(?=\.[A-Za-z])")
_BACKTICKS = re.compile(r"`+")
_LINE_START = re.compile(r"^(\d*)([-+=.)])")


def break_links(text: str) -> str:
    """``text`` with a zero-width space after each ``:`` before ``//``, after ``www``, after ``@`` and before a
    dot between a name and a letter, so no autolinker (GitHub's, linkify's) finds a URL, an address or a bare
    domain in it; it reads the same."""
    return _LINK_STARTS.sub(ZERO_WIDTH_SPACE, text)


def md_text(text: object) -> str:
    """Engine text as inert Markdown prose on one line: HTML special characters as entities, Markdown's own
    punctuation backslash-escaped (so no emphasis, code, link, image, table cell, heading or list), links broken."""
    escaped = break_links(" ".join(str(text).split())).translate(_MARKDOWN_ESCAPES)
    return _LINE_START.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", escaped, count=1)


def md_code(text: object) -> str:
    """Engine text as one inline code span (never in a table: a ``|`` would end the cell), its fence longer than
    any run of backticks inside: nothing in a code span is markup, nor autolinked."""
    one_line = " ".join(str(text).split())
    longest = max((len(run) for run in _BACKTICKS.findall(one_line)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if one_line.startswith("`") or one_line.endswith("`") else ""
    return f"{fence}{pad}{one_line or ' '}{pad}{fence}"


def md_fence(text: str, info: str) -> list[str]:
    """A fenced code block of ``text``, its fence longer than any run of backticks inside (at least three)."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}{info}", *text.splitlines(), fence]
