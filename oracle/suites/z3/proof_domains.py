"""The bounded domains the proofs quantify over: their symbolic variables, their descriptions and their sizes."""

from __future__ import annotations

import z3

from oracle.core.model import Family
from oracle.suites.z3 import models as m
from oracle.suites.z3.models import Expr, SymStones, SymValues
from oracle.suites.z3.proving import Problem


def stones_var(problem: Problem, name: str, max_total: int) -> SymStones:
    s = SymStones.fresh(name)
    problem.add(s.nonneg(), s.total() <= max_total)
    problem.show.update({f"{name}.red": s.red, f"{name}.blue": s.blue, f"{name}.purple": s.purple})
    return s


def held_var(problem: Problem, name: str = "held", max_total: int = m.MAX_STONES) -> SymStones:
    return stones_var(problem, name, max_total)


def paid_var(problem: Problem, held: SymStones, name: str = "paid") -> SymStones:
    """Any sub-collection of ``held`` is in the domain of paid stones (payment_legal also requires it)."""
    s = SymStones.fresh(name)
    problem.add(s.nonneg())
    problem.show.update({f"{name}.red": s.red, f"{name}.blue": s.blue, f"{name}.purple": s.purple})
    return s


def cost_var(problem: Problem, name: str = "cost", low: int = m.MIN_COST, high: int = m.MAX_COST) -> Expr:
    c = z3.Int(name)
    problem.add(c >= low, c <= high)
    problem.show[name] = c
    return c


def value_cards_var(problem: Problem) -> SymValues:
    agni, giant, haetae = z3.Bools("agni water_giant hae_tae")
    problem.show.update({"agni": agni, "water_giant": giant, "hae_tae": haetae})
    values = SymValues.of_cards(agni, giant, haetae)
    problem.show.update({"value.red": values.red, "value.blue": values.blue, "value.purple": values.purple})
    return values


def legal_payment_vars(problem: Problem, cost: Expr) -> tuple[SymStones, SymValues, SymStones]:
    """Held stones, their values under any cards, and a payment of ``cost`` from them that is legal."""
    held = held_var(problem)
    values = value_cards_var(problem)
    paid = paid_var(problem, held)
    problem.add(m.payment_legal(held, paid, values, cost))
    return held, values, paid


def flag_var(problem: Problem, name: str) -> Expr:
    b = z3.Bool(name)
    problem.show[name] = b
    return b


PAY_DOMAIN = "held <= 6 stones, any paid stones, cost 0..15, 8 value assignments (Agni, Water Giant, Hae-tae)"
LIMIT_DOMAIN = "limit 4 or 6 (Hestia), held <= limit + 3 stones"
UPGRADE_DOMAIN = "held <= 6 stones, up to 2 upgrades (Book of Thoth 2, Duduri 1, Duduri King 1)"
COST_DOMAIN = "printed cost 0..15, any family, Pegasus / Hippogriff / Belphegor in any combination"


def domain_sizes() -> dict[str, int]:
    """How many concrete cases each bounded domain covers (what the proofs quantify over)."""
    held = len(m.stone_collections(m.MAX_STONES))
    costs = m.MAX_COST - m.MIN_COST + 1
    values = len(m.ALL_VALUE_CARDS)
    limit_states = len(m.stone_collections(m.BASE_LIMIT + m.LIMIT_OVER)) + len(
        m.stone_collections(m.BASE_LIMIT + m.HESTIA_BONUS + m.LIMIT_OVER))
    return {
        "held collections (<= 6 stones)": held,
        "costs": costs,
        "value assignments": values,
        "payment states (held x cost x values)": held * costs * values,
        "holding-limit states": limit_states,
        "upgrade states (held x allowed 1..2)": held * 2,
        "cost states (printed x family x Pegasus x Hippogriff x Belphegor)": costs * len(Family) * 8,
        "Incense Burner states (held x values x 0..2 areas x cost cards)": held * values * 3 * 8,
    }
