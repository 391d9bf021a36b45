"""The conformance table: every row, found by name, and a case found by its id."""

from __future__ import annotations

from oracle.suites.z3.conform_artifacts import (
    duduri_build,
    duduri_compared,
    duduri_diagnose,
    held_domain,
    incense_build,
    incense_compared,
    incense_diagnose,
    incense_domain,
    king_build,
    king_compared,
    king_diagnose,
    king_domain,
    thoth_build,
    thoth_compared,
    thoth_diagnose,
)
from oracle.suites.z3.conform_limit import limit_build, limit_compared, limit_diagnose, limit_domain
from oracle.suites.z3.conform_payments import (
    cost_build,
    cost_diagnose,
    cost_domain,
    remove_build,
    remove_compared,
    remove_diagnose,
    remove_domain,
    summon_build,
    summon_compared,
    summon_diagnose,
    summon_domain,
)
from oracle.suites.z3.conform_types import Case, Row

ROWS: tuple[Row, ...] = (
    Row("summon-payment", "summon payments", ("PAY-1", "PAY-2", "PAY-3", "PAY-4", "PAY-5", "RUL-16"), 240,
        summon_domain, summon_build, summon_compared, summon_diagnose, ("PAY-4",)),
    Row("remove-payment", "removal payments", ("REM-1", "PAY-1", "PAY-2", "PAY-3", "PAY-5"), 120,
        remove_domain, remove_build, remove_compared, remove_diagnose, ("REM-1",)),
    Row("summon-cost", "summoning costs", ("SUM-3", "PAY-1", "PAY-3"), 120,
        cost_domain, cost_build, summon_compared, cost_diagnose, ("SUM-3",)),
    Row("holding-limit", "holding limit", ("LIMIT-1", "LIMIT-2"), 120,
        limit_domain, limit_build, limit_compared, limit_diagnose, ("LIMIT-1",)),
    Row("incense-burner-price", "Incense Burner price",
        ("RUL-9", "ART-8", "PAY-1", "PAY-2", "PAY-3", "PAY-4", "PAY-5"), 80,
        incense_domain, incense_build, incense_compared, incense_diagnose, ("RUL-9",),
        requires=("expansion", "artifacts")),
    Row("book-of-thoth-upgrade", "Book of Thoth upgrades", ("RUL-8", "STONE-2", "ART-5"), 40,
        held_domain, thoth_build, thoth_compared, thoth_diagnose, ("RUL-8",),
        requires=("expansion", "artifacts")),
    Row("duduri-upgrade", "Duduri's upgrade", ("STONE-2", "SUM-4"), 30,
        held_domain, duduri_build, duduri_compared, duduri_diagnose, ("STONE-2",),
        requires=("expansion",)),
    Row("duduri-king-sale", "Duduri King's sale upgrade", ("STONE-2", "SELL-1", "RUL-8"), 30,
        king_domain, king_build, king_compared, king_diagnose, ("STONE-2",),
        requires=("expansion",)),
)


def row_named(name: str) -> Row:
    for row in ROWS:
        if row.name == name:
            return row
    raise KeyError(f"no conformance row {name!r}; rows: {', '.join(r.name for r in ROWS)}")


def case_by_id(case_id: str) -> tuple[Row, Case]:
    """``summon-payment/r1b1p0/agni/cost-1`` -> its row and case (ValueError / KeyError if unknown)."""
    name, _, key = case_id.partition("/")
    row = row_named(name)
    return row, row.build(key)
