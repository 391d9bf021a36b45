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

from oracle.results import CheckResult

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
