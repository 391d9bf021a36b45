"""Proofs of the holding limit and the keep choice (LIMIT-1, LIMIT-2)."""

from __future__ import annotations

import z3

from oracle.suites.z3 import models as m
from oracle.suites.z3.models import Expr, SymStones
from oracle.suites.z3.proof_domains import (
    LIMIT_DOMAIN,
    flag_var,
    held_var,
)
from oracle.suites.z3.proving import Problem, Property


def _limit_setup(p: Problem) -> tuple[SymStones, Expr]:
    hestia = flag_var(p, "hestia")
    limit = m.limit_term(hestia)
    p.show["limit"] = limit
    held = held_var(p, max_total=m.BASE_LIMIT + m.HESTIA_BONUS + m.LIMIT_OVER)
    p.add(held.total() <= limit + m.LIMIT_OVER)
    return held, limit


def _limit_is_4_or_6() -> Problem:
    p = Problem()
    hestia = flag_var(p, "hestia")
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


LIMIT_PROPERTIES: tuple[Property, ...] = (
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
)
