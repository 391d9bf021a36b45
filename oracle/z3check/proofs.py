"""Named properties of the stone rules, each proved by Z3 over a bounded domain.

A property is proved by asking Z3 for a counterexample: the domain constraints plus the *negation* of
the property. ``unsat`` means no counterexample exists anywhere in the domain, so the property holds;
``sat`` comes with a concrete counterexample (every named variable's value).

Domains (see ``docs/z3.md``): payments over every held collection of up to 6 stones, every paid
collection, every cost 0..15 and the 8 value assignments the base cards allow (Agni, Water Giant,
Hae-tae in any combination); the holding limit over every collection of up to limit + 3 stones with and
without Hestia; upgrades over every collection of up to 6 stones and each source (Book of Thoth 2,
Duduri 1, Duduri King 1 per sale) and every upgrade answer; costs over printed costs 0..15, Pegasus,
Hippogriff and Belphegor; the Incense Burner over the payment domain, 0..2 Additional Areas and the cost cards.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import z3

from oracle.model import Family
from oracle.z3check import models as m
from oracle.z3check.models import Expr, SymStones, SymValues

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


# ----------------------------------------------------------------------------- domain helpers


def _stones(problem: Problem, name: str, max_total: int) -> SymStones:
    s = SymStones.fresh(name)
    problem.add(s.nonneg(), s.total() <= max_total)
    problem.show.update({f"{name}.red": s.red, f"{name}.blue": s.blue, f"{name}.purple": s.purple})
    return s


def _held(problem: Problem, name: str = "held", max_total: int = m.MAX_STONES) -> SymStones:
    return _stones(problem, name, max_total)


def _paid(problem: Problem, held: SymStones, name: str = "paid") -> SymStones:
    """Any sub-collection of ``held`` is in the domain of paid stones (payment_legal also requires it)."""
    s = SymStones.fresh(name)
    problem.add(s.nonneg())
    problem.show.update({f"{name}.red": s.red, f"{name}.blue": s.blue, f"{name}.purple": s.purple})
    return s


def _cost(problem: Problem, name: str = "cost", low: int = m.MIN_COST, high: int = m.MAX_COST) -> Expr:
    c = z3.Int(name)
    problem.add(c >= low, c <= high)
    problem.show[name] = c
    return c


def _value_cards(problem: Problem) -> SymValues:
    agni, giant, haetae = z3.Bools("agni water_giant hae_tae")
    problem.show.update({"agni": agni, "water_giant": giant, "hae_tae": haetae})
    values = SymValues.of_cards(agni, giant, haetae)
    problem.show.update({"value.red": values.red, "value.blue": values.blue, "value.purple": values.purple})
    return values


def _legal_payment(problem: Problem, cost: Expr) -> tuple[SymStones, SymValues, SymStones]:
    """Held stones, their values under any cards, and a payment of ``cost`` from them that is legal."""
    held = _held(problem)
    values = _value_cards(problem)
    paid = _paid(problem, held)
    problem.add(m.payment_legal(held, paid, values, cost))
    return held, values, paid


def _flag(problem: Problem, name: str) -> Expr:
    b = z3.Bool(name)
    problem.show[name] = b
    return b


PAY_DOMAIN = "held <= 6 stones, any paid stones, cost 0..15, 8 value assignments (Agni, Water Giant, Hae-tae)"
LIMIT_DOMAIN = "limit 4 or 6 (Hestia), held <= limit + 3 stones"
UPGRADE_DOMAIN = "held <= 6 stones, up to 2 upgrades (Book of Thoth 2, Duduri 1, Duduri King 1)"
COST_DOMAIN = "printed cost 0..15, any family, Pegasus / Hippogriff / Belphegor in any combination"


# ----------------------------------------------------------------------------- payment properties


def _exists_iff_covered() -> Problem:
    p = Problem()
    held = _held(p)
    values = _value_cards(p)
    cost = _cost(p)
    paid = _paid(p, held)
    covered = values.worth(held) >= cost
    # "no legal payment exists" over the finite domain: every collection of up to 6 stones is refused.
    none_legal = z3.And(*(
        z3.Not(m.payment_legal(held, SymStones.const(c), values, cost)) for c in m.stone_collections(m.MAX_STONES)
    ))
    p.negate(z3.Or(z3.And(covered, none_legal), z3.And(z3.Not(covered), m.payment_legal(held, paid, values, cost))))
    p.show["held.worth"] = values.worth(held)
    return p


def _overpay_below_smallest() -> Problem:
    p = Problem()
    held = _held(p)
    values = _value_cards(p)
    cost = _cost(p)
    paid = _paid(p, held)
    over = values.worth(paid) - cost
    p.add(m.payment_legal(held, paid, values, cost))
    p.negate(z3.Or(*(z3.And(n > 0, over >= v) for n, v in zip(paid.counts(), values.per_colour(), strict=True))))
    p.show["overpaid"] = over
    return p


def _overpay_less_than_a_stone() -> Problem:
    p = Problem()
    cost = _cost(p)
    _, values, paid = _legal_payment(p, cost)
    p.negate(values.worth(paid) - cost >= m.MAX_VALUE)
    p.show["overpaid"] = values.worth(paid) - cost
    return p


def _no_change() -> Problem:
    p = Problem()
    held = _held(p)
    values = _value_cards(p)
    cost = _cost(p)
    paid = _paid(p, held)
    after = m.after_payment(held, paid)
    p.add(m.payment_legal(held, paid, values, cost))
    p.negate(z3.Or(z3.Not(after.nonneg()), values.worth(after) > values.worth(held) - cost,
                after.total() != held.total() - paid.total()))
    p.show.update({"after.red": after.red, "after.blue": after.blue, "after.purple": after.purple})
    return p


def _cost_zero_pays_nothing() -> Problem:
    p = Problem()
    _, _, paid = _legal_payment(p, z3.IntVal(0))
    p.negate(paid.total() > 0)
    return p


def _positive_cost_pays_something() -> Problem:
    p = Problem()
    cost = _cost(p, low=1)
    _, _, paid = _legal_payment(p, cost)
    p.negate(paid.total() == 0)
    return p


def _at_most_cost_stones() -> Problem:
    p = Problem()
    cost = _cost(p, low=1)
    _, _, paid = _legal_payment(p, cost)
    p.negate(paid.total() > cost)
    return p


def _antichain() -> Problem:
    p = Problem()
    held = _held(p)
    values = _value_cards(p)
    cost = _cost(p)
    small = _paid(p, held, "paid")
    big = _paid(p, held, "bigger")
    p.add(m.payment_legal(held, small, values, cost), m.payment_legal(held, big, values, cost))
    p.negate(small.within(big), z3.Not(small.same(big)))
    return p


def _values_order_free() -> Problem:
    p = Problem()
    agni, giant, haetae = (_flag(p, n) for n in ("agni", "water_giant", "hae_tae"))
    after = m.value_terms(agni, giant, haetae)
    before = m.value_terms(agni, giant, haetae, swap_first=True)
    p.negate(z3.Or(*(a != b for a, b in zip(after, before, strict=True))))
    p.show.update({"swap_last.blue": after[1], "swap_first.blue": before[1]})
    return p


def _values_in_range() -> Problem:
    p = Problem()
    values = _value_cards(p)
    p.negate(z3.Or(*(z3.Or(v < 1, v > m.MAX_VALUE) for v in values.per_colour()), values.red >= values.blue,
                values.red >= values.purple))
    return p


def _hae_tae_relabels() -> Problem:
    p = Problem()
    held = _held(p)
    agni, giant = _flag(p, "agni"), _flag(p, "water_giant")
    cost = _cost(p)
    paid = _paid(p, held)
    with_haetae = SymValues.of_cards(agni, giant, z3.BoolVal(True))
    without = SymValues.of_cards(agni, giant, z3.BoolVal(False))
    p.negate(m.payment_legal(held, paid, with_haetae, cost)
          != m.payment_legal(held.swapped(), paid.swapped(), without, cost))
    return p


def _incense_burner() -> Problem:
    p = Problem()
    held = _held(p)
    values = _value_cards(p)
    paid = _paid(p, held)
    pegasus, hippogriff, belphegor = (_flag(p, n) for n in ("pegasus", "hippogriff", "belphegor"))
    price = m.incense_burner_price_term(pegasus, hippogriff, belphegor)
    p.show["price"] = price
    p.negate(z3.Or(price != m.INCENSE_BURNER_PRICE,
                m.payment_legal(held, paid, values, price)
                != m.payment_legal(held, paid, values, z3.IntVal(m.INCENSE_BURNER_PRICE))))
    return p


def _incense_offered() -> Problem:
    p = Problem()
    held = _held(p)
    values = _value_cards(p)
    extra_areas = _cost(p, "extra_areas", low=0, high=m.MAX_EXTRA_AREAS)
    pegasus, hippogriff, belphegor = (_flag(p, n) for n in ("pegasus", "hippogriff", "belphegor"))
    price = m.incense_burner_price_term(pegasus, hippogriff, belphegor)
    offered = m.incense_buy_offered_term(held, values, extra_areas, price)
    p.negate(offered != z3.And(extra_areas < m.MAX_EXTRA_AREAS, values.worth(held) >= m.INCENSE_BURNER_PRICE))
    p.show.update({"offered": offered, "held.worth": values.worth(held)})
    return p


# ----------------------------------------------------------------------------- holding limit


def _limit_setup(p: Problem) -> tuple[SymStones, Expr]:
    hestia = _flag(p, "hestia")
    limit = m.limit_term(hestia)
    p.show["limit"] = limit
    held = _held(p, max_total=m.BASE_LIMIT + m.HESTIA_BONUS + m.LIMIT_OVER)
    p.add(held.total() <= limit + m.LIMIT_OVER)
    return held, limit


def _limit_is_4_or_6() -> Problem:
    p = Problem()
    hestia = _flag(p, "hestia")
    limit = m.limit_term(hestia)
    p.show["limit"] = limit
    p.negate(limit != z3.If(hestia, 6, 4))
    return p


def _keep_choice_exists() -> Problem:
    p = Problem()
    held, limit = _limit_setup(p)
    top = m.BASE_LIMIT + m.HESTIA_BONUS
    candidates = [c for n in (m.BASE_LIMIT, top) for c in m.sized_collections(n)]
    p.add(m.over_limit(held, limit))
    p.negate(z3.And(*(z3.Not(m.keep_legal(held, SymStones.const(c), limit)) for c in candidates)))
    return p


def _keep_count_constant() -> Problem:
    p = Problem()
    held, limit = _limit_setup(p)
    one, two = SymStones.fresh("kept"), SymStones.fresh("other")
    p.add(m.over_limit(held, limit), m.keep_legal(held, one, limit), m.keep_legal(held, two, limit))
    p.negate(one.total() != two.total())
    p.show.update({"kept.total": one.total(), "other.total": two.total()})
    return p


def _keep_within_limit() -> Problem:
    p = Problem()
    held, limit = _limit_setup(p)
    kept = SymStones.fresh("kept")
    discarded = held.minus(kept)
    p.add(m.over_limit(held, limit), m.keep_legal(held, kept, limit))
    p.negate(z3.Or(kept.total() > limit, z3.Not(discarded.nonneg()), discarded.total() != held.total() - limit,
                discarded.total() < 1))
    p.show.update({"kept.red": kept.red, "kept.blue": kept.blue, "kept.purple": kept.purple})
    return p


def _keep_any_subset() -> Problem:
    p = Problem()
    held, limit = _limit_setup(p)
    kept = SymStones.fresh("kept")
    p.add(m.over_limit(held, limit), kept.within(held), kept.total() == limit)
    p.negate(z3.Not(m.keep_legal(held, kept, limit)))
    return p


# ----------------------------------------------------------------------------- upgrades


def _upgrade_setup(p: Problem) -> tuple[SymStones, Expr, Expr, Expr, SymStones]:
    before = _held(p, "before")
    allowed = z3.Int("allowed")
    p.add(z3.Or(allowed == 1, allowed == 2))
    reds_up, blues_up = z3.Int("reds_up"), z3.Int("blues_up")
    p.add(m.upgrade_legal(before, reds_up, blues_up, allowed))
    after = m.after_upgrade(before, reds_up, blues_up)
    p.show.update({"allowed": allowed, "reds_up": reds_up, "blues_up": blues_up, "after.red": after.red,
                   "after.blue": after.blue, "after.purple": after.purple})
    return before, allowed, reds_up, blues_up, after


def _upgrade_no_downgrade() -> Problem:
    p = Problem()
    before, _, _, _, after = _upgrade_setup(p)
    p.negate(z3.Or(after.purple < before.purple, after.blue + after.purple < before.blue + before.purple,
                z3.Not(after.nonneg())))
    return p


def _upgrade_never_twice() -> Problem:
    p = Problem()
    before, _, _, _, after = _upgrade_setup(p)
    p.negate(after.purple - before.purple > before.blue)
    return p


def _upgrade_count() -> Problem:
    p = Problem()
    before, allowed, _, _, after = _upgrade_setup(p)
    p.negate(z3.Or(after.total() != before.total(), after.rank_sum() - before.rank_sum() > allowed,
                after.rank_sum() < before.rank_sum()))
    return p


def _stone_by_stone(p: Problem, n: int) -> tuple[list[Expr], list[Expr], Expr]:
    """``n`` stone slots: colour rank -1 (no stone), 0 red, 1 blue, 2 purple; a step per stone."""
    ranks = [z3.Int(f"stone{i}.rank") for i in range(n)]
    steps = [z3.Int(f"stone{i}.step") for i in range(n)]
    allowed = z3.Int("allowed")
    p.add(z3.Or(allowed == 1, allowed == 2))
    for rank, step in zip(ranks, steps, strict=True):
        p.add(rank >= -1, rank <= 2)
        # one step per stone (never twice), never down, never past purple, nothing for an empty slot
        p.add(z3.Or(step == 0, step == 1), rank + step <= 2, z3.Implies(rank == -1, step == 0))
    p.add(z3.Sum(*steps) <= allowed)
    p.show.update({f"stone{i}.rank": r for i, r in enumerate(ranks)})
    p.show.update({f"stone{i}.step": s for i, s in enumerate(steps)})
    p.show["allowed"] = allowed
    return ranks, steps, allowed


def _count(ranks: list[Expr], rank: int, steps: list[Expr] | None = None) -> Expr:
    if steps is None:
        return z3.Sum(*(z3.If(r == rank, 1, 0) for r in ranks))
    return z3.Sum(*(z3.If(r + s == rank, 1, 0) for r, s in zip(ranks, steps, strict=True)))


def _stones_match_counts() -> Problem:
    p = Problem()
    ranks, steps, allowed = _stone_by_stone(p, m.MAX_STONES)
    before = SymStones(_count(ranks, 0), _count(ranks, 1), _count(ranks, 2))
    after = SymStones(_count(ranks, 0, steps), _count(ranks, 1, steps), _count(ranks, 2, steps))
    reds_up = z3.Sum(*(z3.If(z3.And(r == 0, s == 1), 1, 0) for r, s in zip(ranks, steps, strict=True)))
    blues_up = z3.Sum(*(z3.If(z3.And(r == 1, s == 1), 1, 0) for r, s in zip(ranks, steps, strict=True)))
    p.negate(z3.Not(z3.And(m.upgrade_legal(before, reds_up, blues_up, allowed),
                           after.same(m.after_upgrade(before, reds_up, blues_up)))))
    return p


def _counts_match_stones() -> Problem:
    p = Problem()
    n = m.MAX_STONES
    ranks = [z3.Int(f"stone{i}.rank") for i in range(n)]
    for rank in ranks:
        p.add(rank >= -1, rank <= 2)
    before = SymStones(_count(ranks, 0), _count(ranks, 1), _count(ranks, 2))
    allowed = z3.Int("allowed")
    p.add(z3.Or(allowed == 1, allowed == 2))
    reds_up, blues_up = z3.Int("reds_up"), z3.Int("blues_up")
    p.add(m.upgrade_legal(before, reds_up, blues_up, allowed))
    target = m.after_upgrade(before, reds_up, blues_up)
    p.show.update({"reds_up": reds_up, "blues_up": blues_up, "allowed": allowed})
    p.show.update({f"stone{i}.rank": r for i, r in enumerate(ranks)})

    def realised(steps: tuple[int, ...]) -> Expr:
        legal = [z3.And(r + s <= 2, z3.Implies(r == -1, s == 0)) for r, s in zip(ranks, steps, strict=True)]
        after = SymStones(*(z3.Sum(*(z3.If(r + s == k, 1, 0) for r, s in zip(ranks, steps, strict=True)))
                            for k in range(3)))
        return z3.And(*legal, after.same(target))

    choices = [st for st in itertools.product((0, 1), repeat=n) if sum(st) <= 2]
    p.negate(z3.Not(z3.Or(*(z3.And(sum(st) <= allowed, realised(st)) for st in choices))))
    return p


def _answer_setup(p: Problem) -> tuple[SymStones, Expr, SymStones, Expr]:
    """Any held collection, 1 or 2 upgrades allowed (Duduri, Book of Thoth; at least 1), and any answer."""
    held = _held(p)
    allowed = z3.Int("allowed")
    p.add(z3.Or(allowed == 1, allowed == 2))
    answer = _stones(p, "answer", 2 * m.MAX_STONES)
    least = z3.IntVal(m.UpgradeSource.BOOK_OF_THOTH.least)
    legal = m.upgrade_answer_legal(held, answer, least, allowed)
    p.show.update({"allowed": allowed, "legal": legal})
    return held, allowed, answer, legal


def _answers_are_upgrades() -> Problem:
    p = Problem()
    held, allowed, answer, legal = _answer_setup(p)
    after = m.after_upgrade(held, answer.red, answer.blue)
    in_model = z3.And(answer.purple == 0, m.upgrade_legal(held, answer.red, answer.blue, allowed),
                      z3.Not(after.same(held)))
    p.negate(z3.Or(legal != in_model, z3.And(legal, z3.Or(z3.Not(after.nonneg()), after.total() != held.total(),
                                                             after.purple - held.purple > held.blue))))
    p.show.update({"after.red": after.red, "after.blue": after.blue, "after.purple": after.purple})
    return p


def _answer_exists() -> Problem:
    p = Problem()
    held, allowed, _, _ = _answer_setup(p)
    least = z3.IntVal(m.UpgradeSource.BOOK_OF_THOTH.least)
    candidates = [SymStones.const(c) for c in m.stone_collections(2)]
    exists = z3.Or(*(m.upgrade_answer_legal(held, c, least, allowed) for c in candidates))
    p.negate(exists != (held.red + held.blue >= 1))
    p.show["exists"] = exists
    return p


def _duduri_king_sale_only() -> Problem:
    """Over every family: one received stone goes up one step if any can, the held stones never change."""
    p = Problem()
    held = _held(p)
    family = z3.Int("family")
    p.add(family >= 0, family < len(Family))
    p.show["family"] = family
    sales = [m.sale_stones(f) for f in Family]

    def received_count(colour: str) -> Expr:
        return z3.Sum(*(z3.If(family == i, getattr(sale, colour), 0) for i, sale in enumerate(sales)))

    received = SymStones(received_count("red"), received_count("blue"), received_count("purple"))
    reds_up, blues_up = z3.Int("reds_up"), z3.Int("blues_up")
    one = z3.IntVal(m.UpgradeSource.DUDURI_KING.allowed)
    p.add(m.upgrade_legal(received, reds_up, blues_up, one),
          m.upgrade_steps_required(received, reds_up, blues_up, one))
    after = held.plus(m.after_upgrade(received, reds_up, blues_up))
    can_rise = received.red + received.blue > 0
    rise = after.rank_sum() - held.plus(received).rank_sum()
    p.negate(z3.Or(rise != z3.If(can_rise, 1, 0), after.total() != held.total() + received.total(),
                after.purple < held.purple, z3.And(family == list(Family).index(Family.DRAGON), rise != 0)))
    p.show.update({"reds_up": reds_up, "blues_up": blues_up, "rise": rise})
    return p


# ----------------------------------------------------------------------------- summoning cost


@dataclass(frozen=True)
class _CostVars:
    printed: Expr
    fire: Expr
    belphegor: Expr
    cost: Expr


def _cost_setup(p: Problem) -> _CostVars:
    """Any printed cost 0..15, a Wind, Fire or other card, Pegasus / Hippogriff / Belphegor in any combination."""
    printed = _cost(p, "printed")
    wind, fire = _flag(p, "wind"), _flag(p, "fire")
    p.add(z3.Not(z3.And(wind, fire)))
    pegasus, hippogriff, belphegor = (_flag(p, n) for n in ("pegasus", "hippogriff", "belphegor"))
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
    printed = _cost(p, "printed")
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
    printed = _cost(p, "printed", high=3)
    held = _held(p)
    values = _value_cards(p)
    paid = _paid(p, held)
    cost = m.card_cost_term(printed, z3.BoolVal(True), z3.BoolVal(False), z3.BoolVal(True), z3.BoolVal(True),
                            z3.BoolVal(False))
    p.add(m.payment_legal(held, paid, values, cost))
    p.negate(paid.total() > 0)
    p.show["cost"] = cost
    return p


PROPERTIES: tuple[Property, ...] = (
    Property("payment-exists-iff-covered", ("PAY-1", "PAY-3", "PAY-5"),
             "a legal payment exists exactly when the stones held are worth at least the cost",
             PAY_DOMAIN, _exists_iff_covered),
    Property("overpay-below-smallest-paid-stone", ("PAY-3",),
             "a legal payment never overpays by as much as the value of any stone in it",
             PAY_DOMAIN, _overpay_below_smallest),
    Property("overpay-less-than-a-stone", ("PAY-2", "PAY-3"),
             f"the value lost to overpaying (no change) is below {m.MAX_VALUE}, the most any stone is worth",
             PAY_DOMAIN, _overpay_less_than_a_stone),
    Property("no-change", ("PAY-2", "PAY-5"),
             "after paying, the player holds exactly held - paid: no negative count, worth at most held - cost",
             PAY_DOMAIN, _no_change),
    Property("cost-0-pays-nothing", ("PAY-3",), "the only legal payment of a cost of 0 is no stone at all",
             PAY_DOMAIN, _cost_zero_pays_nothing),
    Property("positive-cost-pays-a-stone", ("PAY-1",), "a cost of 1 or more is never paid with no stone",
             PAY_DOMAIN, _positive_cost_pays_something),
    Property("at-most-cost-stones", ("PAY-3",), "a legal payment of a cost c >= 1 uses at most c stones",
             PAY_DOMAIN, _at_most_cost_stones),
    Property("payments-form-an-antichain", ("PAY-3",), "no legal payment strictly contains another legal payment",
             PAY_DOMAIN, _antichain),
    Property("value-changes-commute", ("RUL-16", "PAY-4"),
             "Hae-tae's swap gives the same values before or after Water Giant's +1 (and Agni's +1)",
             "Agni, Water Giant, Hae-tae in any combination", _values_order_free),
    Property("values-in-range", ("RUL-16", "STONE-1"),
             f"every stone is worth 1..{m.MAX_VALUE}, and red is always the cheapest colour",
             "Agni, Water Giant, Hae-tae in any combination", _values_in_range),
    Property("hae-tae-relabels-blue-and-purple", ("RUL-16", "PAY-4"),
             "with Hae-tae, paying (r, b, p) is legal exactly when (r, p, b) is legal from the swapped holding"
             " without it", PAY_DOMAIN, _hae_tae_relabels),
    Property("incense-burner-price-is-3", ("RUL-9",),
             "the Incense Burner's price is paid exactly like a cost of 3, whatever reduces or fixes costs",
             PAY_DOMAIN + "; Pegasus, Hippogriff, Belphegor in any combination", _incense_burner),
    Property("incense-burner-buy-offered-iff-worth-3", ("RUL-9", "ART-8"),
             "buying an area is offered exactly below two Additional Areas when the stones held are worth 3 or more",
             PAY_DOMAIN + "; 0..2 Additional Areas; Pegasus, Hippogriff, Belphegor in any combination",
             _incense_offered),
    Property("limit-is-4-or-6", ("LIMIT-1",), "the holding limit is 4, and 6 with Hestia",
             "Hestia or not", _limit_is_4_or_6),
    Property("keep-choice-exists", ("LIMIT-2",), "a player over the limit always has a legal keep choice",
             LIMIT_DOMAIN, _keep_choice_exists),
    Property("keep-count-constant", ("LIMIT-2",), "every keep choice keeps the same number of stones: the limit",
             LIMIT_DOMAIN, _keep_count_constant),
    Property("keep-ends-within-limit", ("LIMIT-1", "LIMIT-2"),
             "after keeping, the player holds the limit exactly and has discarded held - limit >= 1 stones",
             LIMIT_DOMAIN, _keep_within_limit),
    Property("keep-any-subset", ("LIMIT-2",), "any sub-collection of exactly the limit is a legal keep choice",
             LIMIT_DOMAIN, _keep_any_subset),
    Property("upgrade-never-downgrades", ("RUL-8",),
             "an upgrade never lowers a stone: purple and blue-or-better counts never drop (whatever the values)",
             UPGRADE_DOMAIN, _upgrade_no_downgrade),
    Property("upgrade-never-twice", ("RUL-8",),
             "no stone is upgraded twice: new purples come only from blues held before, even with 2 upgrades",
             UPGRADE_DOMAIN, _upgrade_never_twice),
    Property("upgrade-count-limit", ("RUL-8",),
             "an upgrade keeps the number of stones and raises them by at most the allowed number of steps",
             UPGRADE_DOMAIN, _upgrade_count),
    Property("upgrade-stone-model-in-count-model", ("RUL-8",),
             "every stone-by-stone upgrade (one step each, <= allowed) is an upgrade of the colour-count model",
             UPGRADE_DOMAIN, _stones_match_counts),
    Property("upgrade-count-model-in-stone-model", ("RUL-8",),
             "every upgrade of the colour-count model is realised by upgrading distinct stones one step each",
             UPGRADE_DOMAIN, _counts_match_stones),
    Property("upgrade-answers-are-the-upgrades", ("RUL-8", "STONE-2"),
             "an upgrade_stones answer is legal exactly when it is an upgrade of the count model (distinct stones,"
             " one step each, <= allowed) that changes something, with no purple: never twice, never down",
             UPGRADE_DOMAIN + ", any answer", _answers_are_upgrades),
    Property("upgrade-answer-exists-iff-red-or-blue", ("STONE-2", "SUM-4"),
             "an upgrade decision has a legal answer exactly when a red or blue stone is held (purple never rises)",
             UPGRADE_DOMAIN, _answer_exists),
    Property("duduri-king-one-sale-stone", ("RUL-8", "SELL-1"),
             "Duduri King raises exactly one received stone one step when one can rise (never a Dragon's"
             " purple) and never touches the stones held before", UPGRADE_DOMAIN + ", every family's sale",
             _duduri_king_sale_only),
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


def property_named(name: str) -> Property:
    for prop in PROPERTIES:
        if prop.name == name:
            return prop
    raise KeyError(name)


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


def prove_all(names: tuple[str, ...] = (), timeout_ms: int = DEFAULT_TIMEOUT_MS) -> list[ProofResult]:
    chosen = [p for p in PROPERTIES if not names or any(n in p.name for n in names)]
    return [prove(p, timeout_ms) for p in chosen]


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
