"""Proofs of the payment rules (PAY-1..PAY-5), the stone values (RUL-16) and the Incense Burner's price (RUL-9)."""

from __future__ import annotations

import z3

from oracle.suites.z3 import models as m
from oracle.suites.z3.models import SymStones, SymValues
from oracle.suites.z3.proof_domains import (
    PAY_DOMAIN,
    cost_var,
    flag_var,
    held_var,
    legal_payment_vars,
    paid_var,
    value_cards_var,
)
from oracle.suites.z3.proving import Problem, Property


def _exists_iff_covered() -> Problem:
    p = Problem()
    held = held_var(p)
    values = value_cards_var(p)
    cost = cost_var(p)
    paid = paid_var(p, held)
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
    held = held_var(p)
    values = value_cards_var(p)
    cost = cost_var(p)
    paid = paid_var(p, held)
    over = values.worth(paid) - cost
    p.add(m.payment_legal(held, paid, values, cost))
    p.negate(z3.Or(*(z3.And(n > 0, over >= v) for n, v in zip(paid.counts(), values.per_colour(), strict=True))))
    p.show["overpaid"] = over
    return p


def _overpay_less_than_a_stone() -> Problem:
    p = Problem()
    cost = cost_var(p)
    _, values, paid = legal_payment_vars(p, cost)
    p.negate(values.worth(paid) - cost >= m.MAX_VALUE)
    p.show["overpaid"] = values.worth(paid) - cost
    return p


def _no_change() -> Problem:
    p = Problem()
    held = held_var(p)
    values = value_cards_var(p)
    cost = cost_var(p)
    paid = paid_var(p, held)
    after = m.after_payment(held, paid)
    p.add(m.payment_legal(held, paid, values, cost))
    p.negate(z3.Or(z3.Not(after.nonneg()), values.worth(after) > values.worth(held) - cost,
                after.total() != held.total() - paid.total()))
    p.show.update({"after.red": after.red, "after.blue": after.blue, "after.purple": after.purple})
    return p


def _cost_zero_pays_nothing() -> Problem:
    p = Problem()
    _, _, paid = legal_payment_vars(p, z3.IntVal(0))
    p.negate(paid.total() > 0)
    return p


def _positive_cost_pays_something() -> Problem:
    p = Problem()
    cost = cost_var(p, low=1)
    _, _, paid = legal_payment_vars(p, cost)
    p.negate(paid.total() == 0)
    return p


def _at_most_cost_stones() -> Problem:
    p = Problem()
    cost = cost_var(p, low=1)
    _, _, paid = legal_payment_vars(p, cost)
    p.negate(paid.total() > cost)
    return p


def _antichain() -> Problem:
    p = Problem()
    held = held_var(p)
    values = value_cards_var(p)
    cost = cost_var(p)
    small = paid_var(p, held, "paid")
    big = paid_var(p, held, "bigger")
    p.add(m.payment_legal(held, small, values, cost), m.payment_legal(held, big, values, cost))
    p.negate(small.within(big), z3.Not(small.same(big)))
    return p


def _values_order_free() -> Problem:
    p = Problem()
    agni, giant, haetae = (flag_var(p, n) for n in ("agni", "water_giant", "hae_tae"))
    after = m.value_terms(agni, giant, haetae)
    before = m.value_terms(agni, giant, haetae, swap_first=True)
    p.negate(z3.Or(*(a != b for a, b in zip(after, before, strict=True))))
    p.show.update({"swap_last.blue": after[1], "swap_first.blue": before[1]})
    return p


def _values_in_range() -> Problem:
    p = Problem()
    values = value_cards_var(p)
    p.negate(z3.Or(*(z3.Or(v < 1, v > m.MAX_VALUE) for v in values.per_colour()), values.red >= values.blue,
                values.red >= values.purple))
    return p


def _hae_tae_relabels() -> Problem:
    p = Problem()
    held = held_var(p)
    agni, giant = flag_var(p, "agni"), flag_var(p, "water_giant")
    cost = cost_var(p)
    paid = paid_var(p, held)
    with_haetae = SymValues.of_cards(agni, giant, z3.BoolVal(True))
    without = SymValues.of_cards(agni, giant, z3.BoolVal(False))
    p.negate(m.payment_legal(held, paid, with_haetae, cost)
          != m.payment_legal(held.swapped(), paid.swapped(), without, cost))
    return p


def _incense_burner() -> Problem:
    p = Problem()
    held = held_var(p)
    values = value_cards_var(p)
    paid = paid_var(p, held)
    pegasus, hippogriff, belphegor = (flag_var(p, n) for n in ("pegasus", "hippogriff", "belphegor"))
    price = m.incense_burner_price_term(pegasus, hippogriff, belphegor)
    p.show["price"] = price
    p.negate(z3.Or(price != m.INCENSE_BURNER_PRICE,
                m.payment_legal(held, paid, values, price)
                != m.payment_legal(held, paid, values, z3.IntVal(m.INCENSE_BURNER_PRICE))))
    return p


def _incense_offered() -> Problem:
    p = Problem()
    held = held_var(p)
    values = value_cards_var(p)
    extra_areas = cost_var(p, "extra_areas", low=0, high=m.MAX_EXTRA_AREAS)
    pegasus, hippogriff, belphegor = (flag_var(p, n) for n in ("pegasus", "hippogriff", "belphegor"))
    price = m.incense_burner_price_term(pegasus, hippogriff, belphegor)
    offered = m.incense_buy_offered_term(held, values, extra_areas, price)
    p.negate(offered != z3.And(extra_areas < m.MAX_EXTRA_AREAS, values.worth(held) >= m.INCENSE_BURNER_PRICE))
    p.show.update({"offered": offered, "held.worth": values.worth(held)})
    return p


PAYMENT_PROPERTIES: tuple[Property, ...] = (
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
)
