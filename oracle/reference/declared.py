"""The reference engine declaring and playing rule variants: `--impl oracle.reference.declared:RUL-1=per_stone`.

The factory name lists ``RULE=VALUE`` pairs separated by commas; each must be a variant of the rules catalogue.
"""

from __future__ import annotations

from collections.abc import Callable

from oracle.core.rules import variant_problem
from oracle.reference.engine import ReferenceEngine


def parse_declared(spec: str) -> dict[str, str]:
    """``"RUL-1=per_stone,END-1=immediately"`` -> a dict; a ValueError names the pair at fault."""
    declared: dict[str, str] = {}
    for pair in filter(None, (p.strip() for p in spec.split(","))):
        name, equals, value = pair.partition("=")
        problem = variant_problem(name.strip(), value.strip()) if equals else f"expected RULE=VALUE, got {pair!r}"
        if problem:
            raise ValueError(problem)  # pragma: no cover - a malformed --impl spec (tests/test_variants.py)
        declared[name.strip()] = value.strip()
    return declared


def impl_for(declared: dict[str, str]) -> str:
    """The ``--impl`` string of the reference declaring ``declared``."""
    return f"{__name__}:" + ",".join(f"{k}={v}" for k, v in sorted(declared.items()))


def __getattr__(name: str) -> Callable[[], ReferenceEngine]:
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        declared = parse_declared(name)
    except ValueError as exc:  # pragma: no cover - a malformed --impl spec (tests/test_variants.py)
        raise AttributeError(f"{name}: {exc}") from None
    return lambda: ReferenceEngine(declared)
