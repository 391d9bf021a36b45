"""Proofs of summoning costs (SUM-3): reductions, fixed costs and free Wind cards."""

from __future__ import annotations

from dataclasses import dataclass

import z3

from oracle.suites.z3 import models as m
from oracle.suites.z3.models import Expr
from oracle.suites.z3.proof_domains import (
    COST_DOMAIN,
    PAY_DOMAIN,
    cost_var,
    flag_var,
    held_var,
    paid_var,
    value_cards_var,
)
from oracle.suites.z3.proving import Problem, Property


@dataclass(frozen=True)
class _CostVars:
    printed: Expr
    fire: Expr
    belphegor: Expr
    cost: Expr


def _cost_setup(p: Problem) -> _CostVars:
    """Any printed cost 0..15, a Wind, Fire or other card, Pegasus / Hippogriff / Belphegor in any combination."""
    printed = cost_var(p, "printed")
    wind, fire = flag_var(p, "wind"), flag_var(p, "fire")
    p.add(z3.Not(z3.And(wind, fire)))
    pegasus, hippogriff, belphegor = (flag_var(p, n) for n in ("pegasus", "hippogriff", "belphegor"))
    cost = m.card_cost_term(printed, wind, fire, pegasus, hippogriff, belphegor)
    p.show["cost"] = cost
    return _CostVars(printed, fire, belphegor, cost)


def _cost_never_negative() -> Problem:
    p = Problem()
    p.negate(_cost_setup(p).cost < 0)
    return p


def _cost_at_most_printed() -> Problem:
    p = Problem()
    v = _cost_setup(p)
    p.add(z3.Not(z3.And(v.fire, v.belphegor)))
    p.negate(v.cost > v.printed)
    return p


def _reductions_stack() -> Problem:
    p = Problem()
    printed = cost_var(p, "printed")
    reductions = [z3.Int(f"reduction{i}") for i in range(3)]
    for i, r in enumerate(reductions):
        p.add(r >= 0, r <= 2)
        p.show[f"reduction{i}"] = r
    once = m.summon_cost_term(printed, reductions, z3.BoolVal(False))
    forward = printed
    for r in reductions:
        forward = m.clamp0(forward - r)
    backward = printed
    for r in reversed(reductions):
        backward = m.clamp0(backward - r)
    p.negate(z3.Or(once != forward, once != backward))
    p.show.update({"once": once, "step_by_step": forward})
    return p


def _fixed_ignores_reductions() -> Problem:
    p = Problem()
    v = _cost_setup(p)
    p.add(v.fire, v.belphegor)
    p.negate(v.cost != m.BELPHEGOR_FIXED)
    return p


def _free_wind_card() -> Problem:
    p = Problem()
    printed = cost_var(p, "printed", high=3)
    held = held_var(p)
    values = value_cards_var(p)
    paid = paid_var(p, held)
    cost = m.card_cost_term(printed, z3.BoolVal(True), z3.BoolVal(False), z3.BoolVal(True), z3.BoolVal(True),
                            z3.BoolVal(False))
    p.add(m.payment_legal(held, paid, values, cost))
    p.negate(paid.total() > 0)
    p.show["cost"] = cost
    return p


COST_PROPERTIES: tuple[Property, ...] = (
    Property("cost-never-negative", ("SUM-3",), "a summoning cost never drops below 0", COST_DOMAIN,
             _cost_never_negative),
    Property("cost-at-most-printed", ("SUM-3",), "without a fixed cost, a summoning cost never exceeds the printed"
             " cost", COST_DOMAIN, _cost_at_most_printed),
    Property("reductions-stack", ("SUM-3",),
             "stacked reductions give the same cost applied at once or one by one, in any order (each stops at 0)",
             "printed cost 0..15, three reductions of 0..2", _reductions_stack),
    Property("fixed-cost-ignores-reductions", ("SUM-3",),
             "with Belphegor a Fire card costs exactly 1, with or without Pegasus (even Hestia, printed 0)",
             COST_DOMAIN, _fixed_ignores_reductions),
    Property("pegasus-hippogriff-free-wind", ("SUM-3", "PAY-3"),
             "with Pegasus and Hippogriff a Wind card of printed cost <= 3 is summoned with no stone only",
             PAY_DOMAIN + ", printed cost 0..3", _free_wind_card),
)
