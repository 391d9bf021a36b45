"""The one gate for text that came from an engine: every string an engine says passes here where it enters the oracle.

An engine may put anything in what it says: ANSI escape sequences that clear a terminal and print a fake verdict,
NUL bytes that make a JUnit file invalid XML, lone surrogates that UTF-8 cannot encode, and megabytes of it. The
guarded calls (:class:`~oracle.engines.harness.Subject`: every answer, the handshake, every exception, its type
name and message), the wire client (errors and the stderr tail), :class:`~oracle.core.faults.EngineFault` and
:class:`~oracle.core.faults.ImplError` messages all pass their text through this module, so nothing downstream
(the speed measure, checks, causes, every report and the terminal) ever sees raw engine text.

What it guarantees, for every string it returns:

* no control character but newline and tab: C0 and C1 controls and DEL become visible escapes such as ``\\x1b``
  (so no escape sequence, NUL or BEL reaches a terminal or a file);
* no lone surrogate and no non-character U+FFFE/U+FFFF: each becomes U+FFFD (so every string encodes as UTF-8 and
  is a legal XML 1.0 character sequence);
* a message (:func:`clean_text`) is at most :data:`MESSAGE_CHARS` characters; a longer one is cut and ends with
  :data:`CUT`. Strings inside engine data (:func:`clean_data`) keep their length, since the oracle compares them.

It does not make text safe for a format: Markdown, HTML and XML each have their own markup, so each renderer still
escapes for its format (``oracle/reports/sanitize.py``, Jinja2's autoescaping, ``xml.etree``), but no renderer ever
receives a control character from an engine.
"""

from __future__ import annotations

import json
import re
from typing import Any

MESSAGE_CHARS = 4000
"""The longest message (a fault's, a rejection's, a stderr tail) kept from an engine, in characters."""
CUT = "… (cut)"

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_UNSAFE_BEYOND_ASCII = re.compile("[\x80-\x9f\ud800-\udfff\ufffe\uffff]")
_ESCAPED_CONTROLS = ("\\u00", "\\b", "\\f", "\\r", "\x7f")
"""How :data:`_ENCODER` shows a control character: JSON escapes those below U+0020 (``\\u001b``, ``\\b``, ``\\f``,
``\\r``; newline and tab are ``\\n`` and ``\\t``) and writes DEL as it is. Safe text may show one too (an escaped
backslash before ``b``): it only costs the slow path."""

_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, check_circular=False, separators=(",", ":"))
"""One encoder for every answer, as strict as the shape checks' (a cycle ends in RecursionError, NaN in ValueError)."""
_VOUCHED: list[object] = [None]
"""The last answer the gate encoded as JSON data, for :func:`vouched_json`."""
PRIVATE = "private"
"""The field of a snapshot that only the engine reads back (``load``): passed on as the engine wrote it."""


def _replacement(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF or code >= 0xFFFE:
        return "\ufffd"
    return f"\\x{code:02x}"


def safe_characters(text: str) -> str:
    """``text`` with control characters (all but newline and tab) escaped and unencodable characters replaced."""
    return _UNSAFE.sub(_replacement, text) if _UNSAFE.search(text) else text


def clean_text(text: object, limit: int = MESSAGE_CHARS) -> str:
    """A message from an engine made safe: :func:`safe_characters`, at most ``limit`` characters (cut with
    :data:`CUT`)."""
    safe = safe_characters(text if isinstance(text, str) else str(text))
    return safe if len(safe) <= limit else safe[:max(0, limit - len(CUT))] + CUT


def clean_data(value: Any) -> Any:
    """JSON-like data from an engine with every string (keys too) made safe by :func:`safe_characters`; the same
    object when nothing needed it (the common case, found by one encoding)."""
    return _walked(value) if _needs_walk(value) else value


def clean_snapshot(snapshot: Any) -> Any:
    """A snapshot from ``export`` made safe like :func:`clean_data`, all but its :data:`PRIVATE` state, which the
    oracle hands back to the engine unread (no report shows it) and so must not change."""
    if not _needs_walk(snapshot):
        return snapshot
    if not isinstance(snapshot, dict) or PRIVATE not in snapshot:
        return _walked(snapshot)
    rest = _walked({k: v for k, v in snapshot.items() if k != PRIVATE})
    return {**rest, PRIVATE: snapshot[PRIVATE]} if isinstance(rest, dict) else snapshot


def _needs_walk(value: Any) -> bool:
    """Whether ``value`` may hold an unsafe string: JSON text showing one (substring searches, and a character class
    only beyond ASCII: a tenth of the cost of one search for all), or not JSON at all (a set, NaN). Every answer is
    encoded: none is remembered as safe, since an engine in the same process may change an answer it gave."""
    try:
        encoded = _ENCODER.encode(value)
    except (TypeError, ValueError, OverflowError):
        return True
    except RecursionError:
        return False  # deeper than any shape allows: the shape check refuses it (PROTO-2) before it is used
    _VOUCHED[0] = value
    if any(shown in encoded for shown in _ESCAPED_CONTROLS):
        return True
    return not encoded.isascii() and _UNSAFE_BEYOND_ASCII.search(encoded) is not None


def vouched_json(value: object) -> bool:
    """Whether ``value`` is the very object the gate last encoded as JSON data: the shape check that follows the gate
    (:func:`oracle.core.shapes.json_problem`) need not encode it again, so the gate costs the harness nothing more."""
    return value is _VOUCHED[0] and value is not None


def _walked(value: Any) -> Any:
    try:
        return safe_data(value)
    except RecursionError:
        return value  # a cycle: not JSON, and refused by the shape check (PROTO-2) before it is used


def safe_data(value: Any) -> Any:
    """JSON-like data with every string (keys too) made safe by :func:`safe_characters`, walked whatever it holds
    (a tuple becomes a list)."""
    if isinstance(value, str):
        return safe_characters(value)
    if isinstance(value, dict):
        return {safe_data(k) if isinstance(k, str) else k: safe_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [safe_data(v) for v in value]
    return value
