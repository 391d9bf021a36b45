"""Making text that came from an engine safe for every report and for the terminal.

Engines put anything in their messages: ANSI colour codes, NUL bytes, lone surrogates. XML 1.0 forbids most
control characters, a terminal obeys them, and UTF-8 cannot encode a lone surrogate. So every result is
cleaned once, as it arrives from a worker: control characters (all but newline and tab) become visible
escapes such as ``\\x1b``, and surrogates and the non-characters U+FFFE/U+FFFF become U+FFFD.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from oracle.core.results import CheckResult

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_TEXT_FIELDS = ("title", "expected", "actual", "message", "reproduce")


def _replacement(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF or code >= 0xFFFE:
        return "\ufffd"
    return f"\\x{code:02x}"


def clean_text(text: str) -> str:
    """``text`` with control characters escaped and unencodable characters replaced."""
    return _UNSAFE.sub(_replacement, text) if _UNSAFE.search(text) else text


def clean_data(value: Any) -> Any:
    """JSON-like data with every string (keys too) cleaned."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_data(k) if isinstance(k, str) else k: clean_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [clean_data(v) for v in value]
    return value


def clean_result(result: CheckResult) -> CheckResult:
    """The result with all of its text made safe (the same object when nothing needed it)."""
    changes: dict[str, Any] = {}
    for name in _TEXT_FIELDS:
        text = getattr(result, name)
        cleaned = clean_text(text)
        if cleaned != text:
            changes[name] = cleaned
    details = clean_data(result.details)
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
