"""How a property is proved: the problem put to Z3, the named property, the result, and the proof itself.

A property is proved by asking Z3 for a counterexample: the domain constraints plus the *negation* of
the property. ``unsat`` means no counterexample exists anywhere in the domain, so the property holds;
``sat`` comes with a concrete counterexample (every named variable's value).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from oracle.suites.z3.models import Expr

DEFAULT_TIMEOUT_MS = 60_000


@dataclass
class Problem:
    """What Z3 is asked: the domain (with the property's premises), the negated conclusion, and the
    variables to show in a counterexample. The domain alone must be satisfiable, or the proof is vacuous."""

    domain: list[Expr] = field(default_factory=list)
    negation: list[Expr] = field(default_factory=list)
    show: dict[str, Expr] = field(default_factory=dict)

    def add(self, *constraints: Expr) -> None:
        """Part of the domain or a premise of the property."""
        self.domain.extend(constraints)

    def negate(self, *constraints: Expr) -> None:
        """The negation of the property's conclusion (all of these together)."""
        self.negation.extend(constraints)


@dataclass(frozen=True)
class Property:
    name: str
    rules: tuple[str, ...]
    statement: str
    domain: str
    build: Callable[[], Problem]


@dataclass(frozen=True)
class ProofResult:
    name: str
    rules: tuple[str, ...]
    statement: str
    domain: str
    status: str
    seconds: float
    counterexample: dict[str, Any] = field(default_factory=dict)

    @property
    def holds(self) -> bool:
        return self.status == "unsat"

    @property
    def verdict(self) -> str:
        return {"unsat": "holds", "sat": "FAILS", "vacuous": "VACUOUS"}.get(self.status, f"UNKNOWN ({self.status})")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "rules": list(self.rules), "statement": self.statement, "domain": self.domain,
            "status": self.status, "holds": self.holds, "seconds": round(self.seconds, 6),
            "counterexample": self.counterexample,
        }


def _render(value: Any) -> Any:
    if z3.is_true(value):
        return True
    if z3.is_false(value):
        return False
    if z3.is_int_value(value):
        return int(value.as_long())
    return str(value)


def prove(prop: Property, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> ProofResult:
    """Ask Z3 for a counterexample to ``prop``: ``unsat`` means the property holds over its domain."""
    started = time.perf_counter()
    problem = prop.build()
    if not problem.negation:
        raise ValueError(f"property {prop.name} negates nothing")
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*problem.domain)
    if solver.check() != z3.sat:
        # no case at all satisfies the domain and premises: "unsat" below would prove nothing
        return ProofResult(prop.name, prop.rules, prop.statement, prop.domain, "vacuous",
                           time.perf_counter() - started)
    solver.add(*problem.negation)
    status = solver.check()
    counterexample: dict[str, Any] = {}
    if status == z3.sat:
        model = solver.model()
        counterexample = {name: _render(model.eval(term, model_completion=True))
                          for name, term in problem.show.items()}
    return ProofResult(prop.name, prop.rules, prop.statement, prop.domain, str(status),
                       time.perf_counter() - started, counterexample)
