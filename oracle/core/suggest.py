"""The known names nearest to a mistyped one ("did you mean …?"), for every located error that names a choice.

A name differing only in case and punctuation (``PAY3`` for ``PAY-3``, ``salamander`` for ``Salamander``) comes
first; then :func:`difflib.get_close_matches` over the names folded the same way.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

SUGGESTED = 3
"""At most this many names are suggested."""

CUTOFF = 0.7
"""How alike (difflib's ratio, 0 to 1) a known name must be to be suggested."""

_PUNCTUATION = re.compile(r"[\W_]+")


def folded(name: str) -> str:
    """A name without case or punctuation: ``PAY-3``, ``pay_3`` and ``PAY3`` fold alike."""
    return _PUNCTUATION.sub("", name.casefold())


def close_matches(given: str, known: Iterable[str], count: int = SUGGESTED) -> list[str]:
    """The known names nearest to ``given``, nearest first: equal once folded, then alike once folded."""
    by_fold: dict[str, str] = {}
    for name in known:
        by_fold.setdefault(folded(name), name)
    key = folded(given)
    if key in by_fold:
        return [by_fold[key]]
    return [by_fold[k] for k in difflib.get_close_matches(key, list(by_fold), n=count, cutoff=CUTOFF)]


def did_you_mean(given: str, known: Iterable[str], count: int = SUGGESTED) -> str:
    """``"; did you mean 'X'?"`` (or ``'X' or 'Y'``) for the names nearest to ``given``; ``""`` when none is
    near."""
    return suggestion(close_matches(given, known, count))


def suggestion(near: list[str]) -> str:
    """``"; did you mean 'X'?"``, ``"; did you mean 'X' or 'Y'?"``, … for these names; ``""`` for none."""
    if not near:
        return ""
    quoted = [repr(name) for name in near]
    listed = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
    return f"; did you mean {listed}?"


GLOB_CHARACTERS = "*?[]"
STEM_ENDS = "-/"
"""A check id's leading parts end before one of these (``PAY-3`` and ``PAY`` of ``PAY-3-red-and-blue``)."""


def near_globs(pattern: str, names: Iterable[str], count: int = SUGGESTED) -> list[str]:
    """Patterns near a glob that matches none of ``names``: its text without wildcards compared with each name and,
    for a glob with a wildcard, with each name's leading parts, which come back followed by ``*``."""
    literal = pattern.strip(GLOB_CHARACTERS)
    if not any(c in pattern for c in GLOB_CHARACTERS):
        return close_matches(literal, names, count)
    stems = {name[:end] for name in names for end, c in enumerate(name) if c in STEM_ENDS and end}
    return [f"{stem}*" for stem in close_matches(literal, sorted(stems), count)]
