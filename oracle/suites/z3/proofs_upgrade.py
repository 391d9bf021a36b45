"""Proofs of stone upgrades (RUL-8, STONE-2): the colour-count model, the stone-by-stone model and the answers."""

from __future__ import annotations

import itertools

import z3

from oracle.core.model import Family
from oracle.suites.z3 import models as m
from oracle.suites.z3.models import Expr, SymStones
from oracle.suites.z3.proof_domains import (
    UPGRADE_DOMAIN,
    held_var,
    stones_var,
)
from oracle.suites.z3.proving import Problem, Property


def _upgrade_setup(p: Problem) -> tuple[SymStones, Expr, Expr, Expr, SymStones]:
    before = held_var(p, "before")
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
    held = held_var(p)
    allowed = z3.Int("allowed")
    p.add(z3.Or(allowed == 1, allowed == 2))
    answer = stones_var(p, "answer", 2 * m.MAX_STONES)
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
    held = held_var(p)
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


UPGRADE_PROPERTIES: tuple[Property, ...] = (
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
)
