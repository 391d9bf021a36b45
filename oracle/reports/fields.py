"""The fields of a failing check every renderer shows, in one order: :func:`result_fields`.

The console, the pytest plugin, ``oracle z3 conform``, JUnit, Markdown and HTML each render these fields their own
way (a label, a link, a code span); none of them reads a result's rules, cards, step, expected, actual, detail or
reproduce command on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol


class FieldKind(Enum):
    """What a field of a failing result holds; the value is its label."""

    RULES = "rule"
    CARDS = "card"
    STEP = "step"
    EXPECTED = "expected"
    ACTUAL = "actual"
    DETAIL = "detail"
    REPRODUCE = "reproduce"


@dataclass(frozen=True)
class ResultField:
    """One field of a failing result: its kind and its values (rule ids, card ids, or one text)."""

    kind: FieldKind
    values: tuple[str, ...]

    @property
    def label(self) -> str:
        return self.kind.value

    @property
    def text(self) -> str:
        return ", ".join(self.values)


class Failing(Protocol):
    """What :func:`result_fields` reads: a :class:`~oracle.core.results.CheckResult`, or a report's result."""

    @property
    def rules(self) -> tuple[str, ...]: ...
    @property
    def cards(self) -> tuple[str, ...]: ...
    @property
    def step(self) -> int | None: ...
    @property
    def expected(self) -> str: ...
    @property
    def actual(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def reproduce(self) -> str: ...


def result_fields(result: Failing) -> tuple[ResultField, ...]:
    """The fields a failing result shows, in order: rule ids, cards, step, expected, actual, detail (the message),
    reproduce command; a field with nothing to show is left out (step 0 is shown)."""
    step = () if result.step is None else (str(result.step),)
    candidates = ((FieldKind.RULES, result.rules), (FieldKind.CARDS, result.cards), (FieldKind.STEP, step),
                  (FieldKind.EXPECTED, _text(result.expected)), (FieldKind.ACTUAL, _text(result.actual)),
                  (FieldKind.DETAIL, _text(result.message)), (FieldKind.REPRODUCE, _text(result.reproduce)))
    return tuple(ResultField(kind, values) for kind, values in candidates if values)


def _text(text: str) -> tuple[str, ...]:
    return (text,) if text else ()
