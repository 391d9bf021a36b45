"""Z3 models of the stone rules: payment legality, the holding limit, stone upgrades and summoning costs.

Each rule is written once, as a Z3 formula over symbolic stone counts, so the same definition serves the
proofs (:mod:`oracle.suites.z3.proofs`, where the negation of a property must be unsatisfiable) and the
conformance checks (:mod:`oracle.suites.z3.conformance`, which enumerate the exact sets the model allows).

* Payment (PAY-1..PAY-5, RUL-16): the paid stones are held, cover the cost, and none is superfluous:
  removing any one paid stone leaves the payment short. No change is given: after paying, the player
  holds exactly ``held - paid``. Stone values are those the base cards can give: Agni +1 red, Water
  Giant +1 blue and +1 purple, Hae-tae swapping the blue and purple values, in every combination.
* Holding limit (LIMIT-1, LIMIT-2): 4 stones, 6 with Hestia; a player over it keeps exactly the limit,
  any sub-collection of that size being a legal choice.
* Upgrades (RUL-8, STONE-2; Artifacts expansion): red -> blue or blue -> purple, one step per stone, never a
  downgrade, never the same stone twice, at most 2 stones (Book of Thoth, "up to"), 1 (Duduri) or 1 of
  the stones received from a sale (Duduri King). The answers to an ``upgrade_stones`` decision are the
  pairs (reds up, blues up) of 1 .. allowed distinct eligible stones; purple is never eligible.
* Summoning cost (SUM-3): reductions stack and stop at 0; a fixed cost (Belphegor: Fire cards cost 1)
  ignores every reduction. The Incense Burner's price is 3, paid like a cost, never reduced (RUL-9); buying
  an Additional Area is offered below two of them with a legal payment of 3 (ART-8).

Z3 has no type stubs, so its expressions are typed :data:`Expr` (``Any``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any, NamedTuple

import z3

from oracle.core.model import Family, Stones

Expr = Any

# ----------------------------------------------------------------------------- bounded domains

MAX_STONES = 6
"""Payment domain: every collection of up to 6 stones."""
MIN_COST, MAX_COST = 0, 15
"""Payment domain: every cost from 0 to 15."""
PRINTED = (1, 3, 6)
"""STONE-1: red 1, blue 3, purple 6."""
BASE_LIMIT = 4
HESTIA_BONUS = 2
LIMIT_OVER = 3
"""Holding-limit domain: every collection of up to ``limit + 3`` stones (9 with Hestia)."""
MAX_VALUE = 7
"""The most any stone is worth under the base cards (purple with Water Giant)."""


def stone_collections(max_total: int, min_total: int = 0) -> list[Stones]:
    """Every collection of ``min_total`` to ``max_total`` stones, smallest first, then by colour counts."""
    out = [
        Stones(r, b, p)
        for total in range(min_total, max_total + 1)
        for r in range(total, -1, -1)
        for b in range(total - r, -1, -1)
        for p in (total - r - b,)
    ]
    return out


def stones_label(stones: Stones) -> str:
    """``r2b0p1``: a compact, file-name-safe label."""
    return f"r{stones.red}b{stones.blue}p{stones.purple}"


# ----------------------------------------------------------------------------- symbolic stones


@dataclass(frozen=True)
class SymStones:
    """A collection of stones as three symbolic (or constant) colour counts."""

    red: Expr
    blue: Expr
    purple: Expr

    @staticmethod
    def fresh(name: str) -> SymStones:
        return SymStones(z3.Int(f"{name}.red"), z3.Int(f"{name}.blue"), z3.Int(f"{name}.purple"))

    @staticmethod
    def const(stones: Stones) -> SymStones:
        return SymStones(z3.IntVal(stones.red), z3.IntVal(stones.blue), z3.IntVal(stones.purple))

    def counts(self) -> tuple[Expr, Expr, Expr]:
        return self.red, self.blue, self.purple

    def total(self) -> Expr:
        return self.red + self.blue + self.purple

    def nonneg(self) -> Expr:
        return z3.And(self.red >= 0, self.blue >= 0, self.purple >= 0)

    def within(self, other: SymStones) -> Expr:
        """A sub-collection of ``other`` (counts between 0 and ``other``'s)."""
        return z3.And(self.nonneg(), self.red <= other.red, self.blue <= other.blue, self.purple <= other.purple)

    def same(self, other: SymStones) -> Expr:
        return z3.And(self.red == other.red, self.blue == other.blue, self.purple == other.purple)

    def minus(self, other: SymStones) -> SymStones:
        return SymStones(self.red - other.red, self.blue - other.blue, self.purple - other.purple)

    def plus(self, other: SymStones) -> SymStones:
        return SymStones(self.red + other.red, self.blue + other.blue, self.purple + other.purple)

    def swapped(self) -> SymStones:
        """Blue and purple counts exchanged."""
        return SymStones(self.red, self.purple, self.blue)

    def rank_sum(self) -> Expr:
        """Red 0, blue 1, purple 2: how many upgrade steps the collection is above all-red."""
        return self.blue + 2 * self.purple

    def evaluate(self, model: Any) -> Stones:
        return Stones(*(_as_int(model.eval(c, model_completion=True)) for c in self.counts()))


def _as_int(value: Any) -> int:
    return int(value.as_long())


def times(n: Expr, value: Expr) -> Expr:
    """``n * value`` kept linear: ``value`` is a constant or an If-tree of constants."""
    if z3.is_app_of(value, z3.Z3_OP_ITE):
        cond, then, other = value.children()
        return z3.If(cond, times(n, then), times(n, other))
    return n * value


# ----------------------------------------------------------------------------- stone values (PAY-4, RUL-16)


class Values(NamedTuple):
    """What each colour is worth to the paying player."""

    red: int
    blue: int
    purple: int

    def worth(self, stones: Stones) -> int:
        return stones.red * self.red + stones.blue * self.blue + stones.purple * self.purple

    def __str__(self) -> str:
        return f"red {self.red}, blue {self.blue}, purple {self.purple}"


PRINTED_VALUES = Values(*PRINTED)

VALUE_CARD_IDS = {"agni": "base-fire-12", "water-giant": "base-water-13", "hae-tae": "base-water-06"}
"""The base cards that change stone values, by label."""


@dataclass(frozen=True, order=True)
class ValueCards:
    """Which of the value-changing cards the paying player has in their area."""

    agni: bool = False
    water_giant: bool = False
    hae_tae: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        flags = (("agni", self.agni), ("water-giant", self.water_giant), ("hae-tae", self.hae_tae))
        return tuple(name for name, on in flags if on)

    @property
    def label(self) -> str:
        return "+".join(self.names) or "printed"

    @property
    def card_ids(self) -> list[str]:
        return [VALUE_CARD_IDS[name] for name in self.names]

    @property
    def values(self) -> Values:
        return card_values(self.agni, self.water_giant, self.hae_tae)

    @staticmethod
    def parse(label: str) -> ValueCards:
        names = set() if label == "printed" else set(label.split("+"))
        unknown = names - set(VALUE_CARD_IDS)
        if unknown:
            raise ValueError(f"unknown value card(s) {sorted(unknown)}; known: {sorted(VALUE_CARD_IDS)}")
        return ValueCards("agni" in names, "water-giant" in names, "hae-tae" in names)


ALL_VALUE_CARDS: tuple[ValueCards, ...] = tuple(
    ValueCards(a, w, h) for a, w, h in itertools.product((False, True), repeat=3)
)


def value_terms(agni: Expr, water_giant: Expr, hae_tae: Expr, swap_first: bool = False) -> tuple[Expr, Expr, Expr]:
    """RUL-16 as integer terms: Agni +1 red; Water Giant +1 blue and purple; Hae-tae swaps blue and purple.

    ``swap_first`` applies Hae-tae before Water Giant (the proofs show the order does not matter).
    """
    red = PRINTED[0] + z3.If(agni, 1, 0)
    blue, purple = z3.IntVal(PRINTED[1]), z3.IntVal(PRINTED[2])
    bonus = z3.If(water_giant, 1, 0)
    if swap_first:
        blue, purple = z3.If(hae_tae, purple, blue), z3.If(hae_tae, blue, purple)
        return red, blue + bonus, purple + bonus
    blue, purple = blue + bonus, purple + bonus
    return red, z3.If(hae_tae, purple, blue), z3.If(hae_tae, blue, purple)


@cache
def card_values(agni: bool, water_giant: bool, hae_tae: bool) -> Values:
    """The concrete values of :func:`value_terms` for one combination of cards."""
    terms = value_terms(z3.BoolVal(agni), z3.BoolVal(water_giant), z3.BoolVal(hae_tae))
    red, blue, purple = (_as_int(z3.simplify(t)) for t in terms)
    return Values(red, blue, purple)


@dataclass(frozen=True)
class SymValues:
    """Stone values as constants or If-trees of constants (so that worth stays linear)."""

    red: Expr
    blue: Expr
    purple: Expr

    @staticmethod
    def const(values: Values) -> SymValues:
        return SymValues(z3.IntVal(values.red), z3.IntVal(values.blue), z3.IntVal(values.purple))

    @staticmethod
    def of_cards(agni: Expr, water_giant: Expr, hae_tae: Expr) -> SymValues:
        """Every value assignment the cards allow, selected by three symbolic booleans."""

        def pick(index: int) -> Expr:
            def tree(fixed: tuple[bool, ...]) -> Expr:
                if len(fixed) == 3:
                    return z3.IntVal(card_values(*fixed)[index])
                flag = (agni, water_giant, hae_tae)[len(fixed)]
                return z3.If(flag, tree((*fixed, True)), tree((*fixed, False)))

            return tree(())

        return SymValues(pick(0), pick(1), pick(2))

    def per_colour(self) -> tuple[Expr, Expr, Expr]:
        return self.red, self.blue, self.purple

    def worth(self, stones: SymStones) -> Expr:
        return times(stones.red, self.red) + times(stones.blue, self.blue) + times(stones.purple, self.purple)

    def swapped(self) -> SymValues:
        return SymValues(self.red, self.purple, self.blue)


# ----------------------------------------------------------------------------- payment (PAY-1..PAY-5)


def pays_from(held: SymStones, paid: SymStones) -> Expr:
    """PAY-5: only stones held are paid."""
    return paid.within(held)


def covers(paid: SymStones, values: SymValues, cost: Expr) -> Expr:
    """PAY-1: the paid stones are worth at least the cost."""
    return values.worth(paid) >= cost


def no_superfluous(paid: SymStones, values: SymValues, cost: Expr) -> Expr:
    """PAY-3: removing any one paid stone leaves the payment short."""
    total = values.worth(paid)
    return z3.And(*(
        z3.Implies(count > 0, total - value < cost)
        for count, value in zip(paid.counts(), values.per_colour(), strict=True)
    ))


def payment_legal(held: SymStones, paid: SymStones, values: SymValues, cost: Expr) -> Expr:
    """PAY-1, PAY-3, PAY-5: a legal payment of ``cost`` from ``held`` at ``values``."""
    return z3.And(pays_from(held, paid), covers(paid, values, cost), no_superfluous(paid, values, cost))


def after_payment(held: SymStones, paid: SymStones) -> SymStones:
    """PAY-2: no change is given; the player keeps exactly the stones not paid."""
    return held.minus(paid)


def enumerate_stones(constraints: Iterable[Expr], stones: SymStones) -> list[Stones]:
    """Every assignment of ``stones`` satisfying ``constraints`` (the set must be finite)."""
    solver = z3.Solver()
    solver.add(*constraints)
    found: list[Stones] = []
    while solver.check() == z3.sat:
        value = stones.evaluate(solver.model())
        found.append(value)
        solver.add(z3.Not(stones.same(SymStones.const(value))))
    return sorted(found, key=lambda s: (s.total, -s.red, -s.blue))


@cache
def minimal_payments(values: Values, cost: int) -> tuple[Stones, ...]:
    """Every payment of ``cost`` at ``values`` satisfying PAY-1 and PAY-3, whatever is held (a finite set)."""
    paid = SymStones.fresh("paid")
    sym = SymValues.const(values)
    cost_term = z3.IntVal(cost)
    return tuple(enumerate_stones([paid.nonneg(), covers(paid, sym, cost_term), no_superfluous(paid, sym, cost_term)],
                                  paid))


def payments(held: Stones, values: Values, cost: int) -> frozenset[Stones]:
    """The exact set of legal payments: the minimal payments made of stones held (PAY-5)."""
    return frozenset(p for p in minimal_payments(values, cost) if held.contains(p))


def payment_problem(paid: Stones, held: Stones, values: Values, cost: int) -> str | None:
    """Which rule makes ``paid`` illegal under the model (PAY-5, PAY-1 or PAY-3), or None if it is legal."""
    if not held.contains(paid) or min(paid.red, paid.blue, paid.purple) < 0:
        return "PAY-5"
    if values.worth(paid) < cost:
        return "PAY-1"
    if paid not in payments(held, values, cost):
        return "PAY-3"
    return None


# ----------------------------------------------------------------------------- holding limit (LIMIT-1, LIMIT-2)


def holding_limit(hestia: bool) -> int:
    """LIMIT-1: 4 stones, raised by 2 with Hestia in the area."""
    return BASE_LIMIT + (HESTIA_BONUS if hestia else 0)


def limit_term(hestia: Expr) -> Expr:
    return BASE_LIMIT + z3.If(hestia, HESTIA_BONUS, 0)


def over_limit(held: SymStones, limit: Expr) -> Expr:
    return held.total() > limit


def keep_legal(held: SymStones, kept: SymStones, limit: Expr) -> Expr:
    """LIMIT-2: the kept stones are held and exactly as many as the limit."""
    return z3.And(kept.within(held), kept.total() == limit)


@cache
def sized_collections(n: int) -> tuple[Stones, ...]:
    """Every collection of exactly ``n`` stones."""
    s = SymStones.fresh("kept")
    return tuple(enumerate_stones([s.nonneg(), s.total() == n], s))


def keep_choices(held: Stones, limit: int) -> frozenset[Stones]:
    """The exact set of legal keep choices; empty when the player is not over the limit (no decision)."""
    if held.total <= limit:
        return frozenset()
    return frozenset(k for k in sized_collections(limit) if held.contains(k))


# ----------------------------------------------------------------------------- stone upgrades (RUL-8)


class UpgradeSource(Enum):
    """What upgrades stones, how many, and whether "up to" (optional) or "one" (must be used, EFF-1)."""

    BOOK_OF_THOTH = ("Book of Thoth", 2, False, "RUL-8")
    DUDURI = ("Duduri", 1, True, "RUL-8")
    DUDURI_KING = ("Duduri King", 1, True, "RUL-8")

    def __init__(self, title: str, allowed: int, mandatory: bool, rule: str) -> None:
        self.title = title
        self.allowed = allowed
        self.mandatory = mandatory
        self.rule = rule

    @property
    def least(self) -> int:
        """The fewest stones one answer upgrades (the decision's ``min``): "up to 2" is still at least 1 once the
        Book of Thoth is used, and Duduri's "one" is exactly 1. With no red or blue stone nothing is asked."""
        return 1


def upgrade_legal(before: SymStones, reds_up: Expr, blues_up: Expr, allowed: Expr) -> Expr:
    """``reds_up`` red -> blue and ``blues_up`` blue -> purple steps, each on a different stone held before.

    A stone upgraded red -> blue cannot go on to purple (never the same stone twice), so the blues upgraded
    are at most the blues held *before*; there is no downgrade step at all.
    """
    return z3.And(reds_up >= 0, blues_up >= 0, reds_up <= before.red, blues_up <= before.blue,
                  reds_up + blues_up <= allowed)


def after_upgrade(before: SymStones, reds_up: Expr, blues_up: Expr) -> SymStones:
    return SymStones(before.red - reds_up, before.blue + reds_up - blues_up, before.purple + blues_up)


def upgrade_steps_required(before: SymStones, reds_up: Expr, blues_up: Expr, allowed: Expr) -> Expr:
    """For a mandatory upgrade: as many steps as allowed, unless too few stones can go up."""
    upgradable = before.red + before.blue
    steps = reds_up + blues_up
    return steps == z3.If(upgradable < allowed, upgradable, allowed)


def upgrades(held: Stones, source: UpgradeSource) -> frozenset[Stones]:
    """Every collection reachable from ``held`` by one use of ``source`` (for Duduri King: the sale's stones)."""
    before = SymStones.const(held)
    reds_up, blues_up = z3.Int("reds_up"), z3.Int("blues_up")
    allowed = z3.IntVal(source.allowed)
    constraints = [upgrade_legal(before, reds_up, blues_up, allowed)]
    if source.mandatory:
        constraints.append(upgrade_steps_required(before, reds_up, blues_up, allowed))
    after = SymStones.fresh("after")
    constraints.append(after.same(after_upgrade(before, reds_up, blues_up)))
    return frozenset(enumerate_stones(constraints, after))


def upgrade_answer_legal(eligible: SymStones, answer: SymStones, least: Expr, allowed: Expr) -> Expr:
    """STONE-2 / RUL-8: an ``upgrade_stones`` answer turns ``answer.red`` eligible reds into blue and
    ``answer.blue`` eligible blues into purple: distinct stones, one step each (the blues are blues held
    *before*, so no stone goes twice), never a purple (``answer.purple`` is 0), ``least`` .. ``allowed`` stones."""
    steps = answer.red + answer.blue
    return z3.And(answer.purple == 0, upgrade_legal(eligible, answer.red, answer.blue, allowed), steps >= least)


@cache
def upgrade_answers(eligible: Stones, source: UpgradeSource) -> frozenset[Stones]:
    """The exact set of legal answers ``{red: reds up, blue: blues up, purple: 0}`` to ``source``'s upgrade
    decision over the ``eligible`` stones (the red and blue stones held; Duduri King: the sale's stones).
    Empty when no stone can go up: the decision is not asked (EFF-2), and Duduri cannot be summoned (SUM-4)."""
    answer = SymStones.fresh("answer")
    legal = upgrade_answer_legal(SymStones.const(eligible), answer, z3.IntVal(source.least),
                                 z3.IntVal(source.allowed))
    return frozenset(enumerate_stones([answer.nonneg(), legal], answer))


def upgraded(held: Stones, answer: Stones) -> Stones:
    """The stones held after an upgrade answer (RUL-8: ``answer.red`` red -> blue, ``answer.blue`` blue -> purple)."""
    after = after_upgrade(SymStones.const(held), z3.IntVal(answer.red), z3.IntVal(answer.blue))
    return Stones(*(_as_int(z3.simplify(c)) for c in after.counts()))


def sale_stones(family: Family) -> Stones:
    """SELL-1: the stones a sale gives, by family."""
    return {
        Family.FIRE: Stones(red=3),
        Family.WATER: Stones(blue=1),
        Family.EARTH: Stones(red=4),
        Family.WIND: Stones(red=1, blue=1),
        Family.DRAGON: Stones(purple=1),
    }[family]


def duduri_king_sale(held: Stones, family: Family) -> frozenset[Stones]:
    """Stones held after a sale with Duduri King: one of the received stones upgraded, the rest untouched."""
    return frozenset(held + received for received in upgrades(sale_stones(family), UpgradeSource.DUDURI_KING))


# ----------------------------------------------------------------------------- summoning cost (SUM-3, RUL-9)

PEGASUS_REDUCTION = 1
"""Pegasus: every card costs 1 less."""
HIPPOGRIFF_REDUCTION = 2
"""Hippogriff: Wind cards cost 2 less."""
BELPHEGOR_FIXED = 1
"""Belphegor (Artifacts): Fire cards cost exactly 1."""
INCENSE_BURNER_PRICE = 3
"""Incense Burner (Artifacts): an area costs 3, paid like a cost, never reduced or fixed (RUL-9)."""


def clamp0(term: Expr) -> Expr:
    return z3.If(term < 0, 0, term)


def summon_cost_term(printed: Expr, reductions: Sequence[Expr], fixed: Expr, fixed_at: int = BELPHEGOR_FIXED) -> Expr:
    """SUM-3: the reductions stack and the cost stops at 0; a fixed cost ignores every reduction."""
    reduced = printed - z3.Sum(*reductions) if reductions else printed
    return z3.If(fixed, fixed_at, clamp0(reduced))


def card_cost_term(printed: Expr, wind: Expr, fire: Expr, pegasus: Expr, hippogriff: Expr, belphegor: Expr) -> Expr:
    """The cost of one card under the cost effects of Pegasus, Hippogriff and Belphegor."""
    reductions = [z3.If(pegasus, PEGASUS_REDUCTION, 0), z3.If(z3.And(hippogriff, wind), HIPPOGRIFF_REDUCTION, 0)]
    return summon_cost_term(printed, reductions, z3.And(belphegor, fire))


def card_cost(printed: int, family: Family, pegasus: bool = False, hippogriff: bool = False,
              belphegor: bool = False) -> int:
    term = card_cost_term(z3.IntVal(printed), z3.BoolVal(family is Family.WIND), z3.BoolVal(family is Family.FIRE),
                          z3.BoolVal(pegasus), z3.BoolVal(hippogriff), z3.BoolVal(belphegor))
    return _as_int(z3.simplify(term))


MAX_EXTRA_AREAS = 2
"""ART-8: at most two Additional Areas per player."""


def incense_burner_price_term(pegasus: Expr, hippogriff: Expr, belphegor: Expr) -> Expr:
    """RUL-9: always 3; the cost effects are deliberately not consulted."""
    del pegasus, hippogriff, belphegor
    return z3.IntVal(INCENSE_BURNER_PRICE)


def incense_buy_offered_term(held: SymStones, values: SymValues, extra_areas: Expr, price: Expr) -> Expr:
    """ART-8 / RUL-9: buying an area is offered below two Additional Areas when a legal payment of the price
    exists among the stones held (some collection of up to ``MAX_STONES`` stones pays it)."""
    payable = z3.Or(*(payment_legal(held, SymStones.const(c), values, price) for c in stone_collections(MAX_STONES)))
    return z3.And(extra_areas < MAX_EXTRA_AREAS, payable)


def incense_buy_offered(held: Stones, values: Values, extra_areas: int) -> bool:
    """Whether the Incense Burner offers ``buy_area`` (then its ``pay`` decision has cost 3)."""
    return extra_areas < MAX_EXTRA_AREAS and bool(payments(held, values, INCENSE_BURNER_PRICE))


def incense_payments(held: Stones, values: Values) -> frozenset[Stones]:
    """RUL-9: the legal answers to the Incense Burner's ``pay`` decision: the legal payments of a cost of 3 at the
    stone values in force, whatever cost effects are in the area."""
    return payments(held, values, INCENSE_BURNER_PRICE)
