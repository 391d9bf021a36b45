"""How the console shows a failing check under its headline (``oracle check``, the pytest plugin,
``oracle z3 conform``): its :func:`~oracle.reports.fields.result_fields`, one indented line each."""

from __future__ import annotations

from oracle.reports.fields import Failing, FieldKind, ResultField, result_fields

INDENT = " " * 17
"""The lines under a headline start below its id (the headline's outcome takes 16 columns and a space)."""

NOT_SHOWN = frozenset({FieldKind.CARDS, FieldKind.STEP})
"""The console leaves out the cards, and shows the step only after the rules, on their line."""


def failure_lines(result: Failing, with_step: bool = True) -> list[str]:
    """The lines under a failing check's headline: ``rule R, step N`` (the step when not 0 and ``with_step``), then
    each other field as ``label: text``."""
    fields = result_fields(result)
    step = next((f.text for f in fields if f.kind is FieldKind.STEP and f.text != "0"), "") if with_step else ""
    return [INDENT + _line(f, step) for f in fields if f.kind not in NOT_SHOWN]


def _line(field: ResultField, step: str) -> str:
    if field.kind is FieldKind.RULES:
        return f"rule {field.text}" + (f", step {step}" if step else "")
    return f"{field.label}: {field.text}"
