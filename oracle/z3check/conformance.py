"""Conformance through the models: an engine's legal actions compared with the exact sets the models allow.

For every case of a bounded domain (a stone collection, the stone values in force, a cost or a limit) the
check builds a position with :func:`oracle.given.complete_snapshot`, loads it into the engine (capability
``load``), and compares the engine's legal actions of one kind with the set the Z3 model enumerates.
Where a case has a follow-up (pay, then look at the stones left; keep, then look again), the engine
applies it and the exported state is compared with the model's (capability ``export``).

The checks are table-driven: each :class:`Row` of :data:`ROWS` names its domain, builds a case from a
key, says which legal actions it compares and how to explain a difference with a rule id. Adding the
upgrade checks (Duduri, Duduri King, Book of Thoth) when the engine supports the Artifacts expansion is
one more row with ``requires=("artifacts",)``.

Every difference becomes a :class:`~oracle.results.CheckResult` of suite ``z3`` and, when asked, a
scenario file that pins it (``docs/scenarios.md``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oracle.cards import catalogue
from oracle.given import complete_snapshot
from oracle.harness import EngineFault, Subject
from oracle.model import Family, Stones
from oracle.results import CheckResult, Outcome
from oracle.z3check import models as m
from oracle.z3check.scenario_out import card_name, scenario_id, write_scenario

JSON = dict[str, Any]
SUITE = "z3"
PLAYER = 0

HESTIA = "base-fire-01"
PEGASUS = "base-wind-03"
HIPPOGRIFF = "base-wind-07"
FILLER = "base-fire-05"
"""Salamander: a card to remove when no value card is in the area (its only effect is Active)."""

SUMMON_CARDS: dict[int, str] = {
    0: "base-fire-03",  # Succubus: Instant points only if the area holds costs 1-4 (always resolvable)
    1: "base-fire-05",  # Salamander: Active only
    2: "base-fire-06",  # Horned Salamander: Active only
    3: "base-fire-09",  # Burning Skull: Active only
    4: "base-fire-13",  # Asmodeus: Active only
    5: "base-water-14",  # Charybdis: Active only
    6: "base-wind-11",  # Odin: Active only
    7: "base-wind-12",  # Freyja: Active only
    8: "base-wind-14",  # Rudra: Instant points per card in hand (always resolvable)
    9: "base-earth-14",  # Behemoth: Instant points per family (always resolvable)
    10: "base-earth-15",  # Sand Giant: Instant points per Earth card (always resolvable)
    12: "base-dragon-10",  # Eternity: Instant points per family (always resolvable)
}
"""One card per printed cost whose summon depends on the payment alone: no Instant effect, or one that
always resolves and touches no stones. No base card costs 11 (see the summon-cost row: Eternity with
Pegasus). None of them is a value, limit or cost card."""

COST_CARDS: tuple[str, ...] = (
    "base-fire-03", "base-fire-05", "base-fire-06", "base-wind-02", "base-fire-09", "base-fire-13", "base-wind-10",
    "base-water-14", "base-wind-11", "base-wind-12", "base-wind-14", "base-earth-14", "base-wind-15",
    "base-dragon-10",
)
"""Cards whose cost the summon-cost row changes with Pegasus and Hippogriff: every family, Wind included."""

REDUCERS: dict[str, str] = {"pegasus": PEGASUS, "hippogriff": HIPPOGRIFF}

PAYMENT_REJECTIONS = {
    "PAY-1": ("PAYMENT_SHORT", "PAY-1"),
    "PAY-3": ("PAYMENT_SUPERFLUOUS_STONE", "PAY-3"),
    "PAY-5": ("STONES_NOT_HELD", "PAY-5"),
}


# ----------------------------------------------------------------------------- cases and rows


@dataclass(frozen=True)
class Follow:
    """An action to apply from the case's position: either the model rejects it (``reject`` = code, rule id),
    or the model accepts it and expects these stones (and this kind of decision) afterwards."""

    action: JSON
    rules: tuple[str, ...]
    stones_after: Stones | None = None
    decision_kind: str | None = None
    reject: tuple[str, str] | None = None


@dataclass(frozen=True)
class Case:
    row: str
    key: str
    title: str
    given: JSON
    decision: JSON
    expected: tuple[JSON, ...]
    follow: tuple[Follow, ...] = ()
    facts: JSON = field(default_factory=dict)
    cards: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.row}/{self.key}"


@dataclass(frozen=True)
class Divergence:
    """One way the engine differs from the model in one case, with the scenario steps that pin it."""

    case: Case
    rules: tuple[str, ...]
    outcome: Outcome
    message: str
    expected: str
    actual: str
    steps: tuple[JSON, ...]
    details: JSON = field(default_factory=dict)


@dataclass(frozen=True)
class Diagnosis:
    rules: tuple[str, ...]
    message: str
    reject: tuple[str, str] | None = None


@dataclass(frozen=True)
class Row:
    """One table entry: a bounded domain of cases and how to compare an engine with the model on it."""

    name: str
    title: str
    rules: tuple[str, ...]
    sample: int
    domain: Callable[[], list[str]]
    build: Callable[[str], Case]
    compared: Callable[[JSON], bool]
    diagnose: Callable[[Case, list[JSON], list[JSON]], Diagnosis]
    decision_rules: tuple[str, ...]
    requires: tuple[str, ...] = ()


# ----------------------------------------------------------------------------- action keys


def _stones_of(value: object) -> Stones | None:
    if not isinstance(value, dict):
        return None
    try:
        return Stones.from_json(value)
    except ValueError:
        return None


def action_key(action: JSON) -> Hashable:
    """What identifies an action for the comparison (missing colour counts mean 0)."""
    kind = action.get("type")
    if kind in ("summon", "remove"):
        return (kind, action.get("player"), action.get("card"), _stones_of(action.get("payment")) or repr(action))
    if kind == "keep_stones":
        return (kind, action.get("player"), _stones_of(action.get("stones")) or repr(action))
    return (str(kind), repr(sorted(action.items(), key=lambda kv: str(kv[0]))))


def _canonical(action: JSON) -> JSON | None:
    """An engine's action in the scenario vocabulary (no extra fields), or None if it is malformed."""
    stones = _payment_of(action)
    kind, player, card = action.get("type"), action.get("player"), action.get("card")
    if stones is None or not isinstance(player, int) or isinstance(player, bool):
        return None
    if kind in ("summon", "remove") and isinstance(card, str):
        return {"type": kind, "player": player, "card": card, "payment": stones.to_json()}
    if kind == "keep_stones":
        return {"type": kind, "player": player, "stones": stones.to_json()}
    return None


def _pay_action(kind: str, card: str, paid: Stones) -> JSON:
    return {"type": kind, "player": PLAYER, "card": card, "payment": paid.to_json()}


def _keep_action(kept: Stones) -> JSON:
    return {"type": "keep_stones", "player": PLAYER, "stones": kept.to_json()}


def _payment_of(action: JSON) -> Stones | None:
    return _stones_of(action.get("payment") if "payment" in action else action.get("stones"))


def describe(actions: list[JSON] | tuple[JSON, ...]) -> str:
    """A short, sorted rendering of a set of actions for reports."""
    if not actions:
        return "none"
    parts = []
    for a in actions:
        stones = _payment_of(a)
        what = str(stones) if stones is not None else repr(a.get("payment", a.get("stones")))
        if a.get("type") in ("summon", "remove"):
            parts.append(f"{a['type']} {card_name(str(a.get('card')))} paying [{what}]")
        elif a.get("type") == "keep_stones":
            parts.append(f"keep [{what}]")
        else:
            parts.append(repr(a))
    return "; ".join(sorted(parts))


def _parse_label(label: str) -> Stones:
    if not (label.startswith("r") and "b" in label and "p" in label):
        raise ValueError(f"bad stones label {label!r} (expected like r1b0p2)")
    r, rest = label[1:].split("b", 1)
    b, p = rest.split("p", 1)
    return Stones(int(r), int(b), int(p))


def _area_for(cards: m.ValueCards, held: Stones) -> list[str]:
    area = list(cards.card_ids)
    if held.total > m.BASE_LIMIT:
        area.append(HESTIA)
    return area


def _max_overpay(held: Stones, values: m.Values, cost: int, legal: list[Stones]) -> Stones | None:
    over = [(values.worth(p) - cost, p) for p in legal if values.worth(p) > cost]
    if not over:
        return None
    best = max(o for o, _ in over)
    return next(p for o, p in over if o == best)


def _payment_probes(kind: str, card: str, held: Stones, values: m.Values, cost: int,
                    legal: list[Stones]) -> tuple[Follow, ...]:
    """Pay with the most overpaying legal payment (PAY-2: no change); pay a legal payment plus one more
    stone (PAY-3: superfluous) and minus one stone (PAY-1: short), which must be rejected."""
    probes = []
    over = _max_overpay(held, values, cost, legal)
    if over is not None:
        probes.append(Follow(_pay_action(kind, card, over), ("PAY-2",), stones_after=held - over))
    for paid in legal:
        more = next((c for c in _ONE_STONE if held.contains(paid + c)), None)
        if more is not None:
            probes.append(Follow(_pay_action(kind, card, paid + more), ("PAY-3",),
                                 reject=PAYMENT_REJECTIONS["PAY-3"]))
            break
    for paid in legal:
        less = next((c for c in _ONE_STONE if paid.contains(c)), None)
        if less is not None:
            probes.append(Follow(_pay_action(kind, card, paid - less), ("PAY-1",),
                                 reject=PAYMENT_REJECTIONS["PAY-1"]))
            break
    return tuple(probes)


_ONE_STONE = (Stones(red=1), Stones(blue=1), Stones(purple=1))


def _facts(held: Stones, values: m.Values, cards: m.ValueCards, cost: int, **more: Any) -> JSON:
    return {"held": held.to_json(), "value_cards": list(cards.names), "values": values._asdict(), "cost": cost,
            "held_worth": values.worth(held), **more}


# ----------------------------------------------------------------------------- payment diagnosis


def _classify_payments(case: Case, missing: list[JSON], extra: list[JSON], held: Stones, values: m.Values,
                       cost: int, explain_missing: Callable[[set[Stones]], Diagnosis | None]) -> Diagnosis:
    if extra:
        reasons: dict[str, list[JSON]] = {}
        for action in extra:
            paid = _payment_of(action)
            if paid is None:
                reasons.setdefault("DEC-2", []).append(action)
                continue
            reason = m.payment_problem(paid, held, values, cost) or "PAY-3"
            reasons.setdefault(reason, []).append(action)
        order = ("PAY-3", "PAY-1", "PAY-5", "DEC-2")
        rules = tuple(r for r in order if r in reasons)
        words = {
            "PAY-3": "with a superfluous stone (removing one still covers the cost)",
            "PAY-1": "short of the cost",
            "PAY-5": "with stones not held",
            "DEC-2": "malformed",
        }
        message = "; ".join(f"accepts payments {words[r]}: {describe(reasons[r])}" for r in rules)
        first = rules[0]
        return Diagnosis(rules, message, PAYMENT_REJECTIONS.get(first))
    actual = {p for a in case.expected if a not in missing for p in [_payment_of(a)] if p is not None}
    explained = explain_missing(actual)
    if explained is not None:
        return explained
    return Diagnosis(("PAY-1", "PAY-3"), f"refuses legal payments (they cover the cost with no superfluous stone):"
                                         f" {describe(missing)}")


def _explain_by_values(held: Stones, cards: m.ValueCards, cost: int, actual: set[Stones]) -> Diagnosis | None:
    for other in m.ALL_VALUE_CARDS:
        if other != cards and set(m.payments(held, other.values, cost)) == actual:
            return Diagnosis(("PAY-4", "RUL-16"), f"the engine's payments are those for stone values {other.values}"
                                                  f" ({other.label}), not {cards.values} ({cards.label})")
    return None


def _explain_by_cost(held: Stones, values: m.Values, cost: int, actual: set[Stones], rule: str,
                     what: str) -> Diagnosis | None:
    for other in range(m.MIN_COST, m.MAX_COST + 1):
        if other != cost and set(m.payments(held, values, other)) == actual:
            return Diagnosis((rule,), f"the engine's payments are those for a {what} of {other}, not {cost}")
    return None


# ----------------------------------------------------------------------------- row: summon payments

SUMMON_COSTS = tuple(sorted(SUMMON_CARDS))


def _summon_domain() -> list[str]:
    return [f"{m.stones_label(held)}/{cards.label}/cost-{cost}"
            for held in m.stone_collections(m.MAX_STONES) for cards in m.ALL_VALUE_CARDS for cost in SUMMON_COSTS]


def _summon_key(key: str) -> tuple[Stones, m.ValueCards, int]:
    label, cards, cost = key.split("/")
    return _parse_label(label), m.ValueCards.parse(cards), int(cost.removeprefix("cost-"))


def _summon_build(key: str) -> Case:
    held, cards, cost = _summon_key(key)
    if cost not in SUMMON_CARDS:
        raise ValueError(f"no summon card of cost {cost}; costs: {list(SUMMON_CARDS)}")
    card = SUMMON_CARDS[cost]
    values = cards.values
    area = _area_for(cards, held)
    legal = sorted(m.payments(held, values, cost), key=lambda s: (s.total, -s.red, -s.blue))
    return Case(
        row="summon-payment", key=key,
        title=f"summon {card_name(card)} (cost {cost}) holding [{held}] at {values} ({cards.label})",
        given={"round": len(area) + 1, "players": [{"hand": [card], "area": area, "stones": held.to_json()}]},
        decision={"kind": "action", "player": PLAYER},
        expected=tuple(_pay_action("summon", card, p) for p in legal),
        follow=_payment_probes("summon", card, held, values, cost, legal),
        facts=_facts(held, values, cards, cost, card=card_name(card)),
        cards=(card_name(card), *(card_name(c) for c in area)),
    )


def _summon_compared(action: JSON) -> bool:
    return action.get("type") == "summon"


def _summon_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    held, cards, cost = _summon_key(case.key)
    values = cards.values

    def explain(actual: set[Stones]) -> Diagnosis | None:
        return _explain_by_values(held, cards, cost, actual) or _explain_by_cost(
            held, values, cost, actual, "SUM-3", "cost")

    return _classify_payments(case, missing, extra, held, values, cost, explain)


# ----------------------------------------------------------------------------- row: removal payments

ROUNDS = range(1, 11)


def _remove_domain() -> list[str]:
    keys = []
    for held in m.stone_collections(m.MAX_STONES):
        for cards in m.ALL_VALUE_CARDS:
            area = _area_for(cards, held) or [FILLER]
            keys += [f"{m.stones_label(held)}/{cards.label}/round-{r}" for r in ROUNDS if len(area) <= r]
    return keys


def _remove_key(key: str) -> tuple[Stones, m.ValueCards, int]:
    label, cards, rnd = key.split("/")
    return _parse_label(label), m.ValueCards.parse(cards), int(rnd.removeprefix("round-"))


def _remove_build(key: str) -> Case:
    held, cards, rnd = _remove_key(key)
    values = cards.values
    area = _area_for(cards, held) or [FILLER]
    if len(area) > rnd:
        raise ValueError(f"{len(area)} cards in the area do not fit in round {rnd}")
    legal = sorted(m.payments(held, values, rnd), key=lambda s: (s.total, -s.red, -s.blue))
    target = next(c for c in area if c != HESTIA) if any(c != HESTIA for c in area) else area[0]
    return Case(
        row="remove-payment", key=key,
        title=f"remove a card in round {rnd} holding [{held}] at {values} ({cards.label})",
        given={"round": rnd, "players": [{"area": area, "stones": held.to_json()}]},
        decision={"kind": "action", "player": PLAYER},
        expected=tuple(_pay_action("remove", c, p) for c in sorted(area) for p in legal),
        follow=_payment_probes("remove", target, held, values, rnd, legal),
        facts=_facts(held, values, cards, rnd, round=rnd),
        cards=tuple(card_name(c) for c in area),
    )


def _remove_compared(action: JSON) -> bool:
    return action.get("type") == "remove"


def _remove_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    held, cards, rnd = _remove_key(case.key)
    values = cards.values
    base = _classify_payments(case, missing, extra, held, values, rnd, lambda actual: (
        _explain_by_values(held, cards, rnd, actual)
        or _explain_by_cost(held, values, rnd, actual, "REM-1", "removal cost")))
    return Diagnosis(tuple(dict.fromkeys((*base.rules, "REM-1"))), base.message, base.reject)


# ----------------------------------------------------------------------------- row: summoning cost


def _reducer_label(names: tuple[str, ...]) -> str:
    return "+".join(names) or "none"


REDUCER_SETS: tuple[tuple[str, ...], ...] = ((), ("pegasus",), ("hippogriff",), ("pegasus", "hippogriff"))


def _cost_domain() -> list[str]:
    return [f"{card}/{_reducer_label(reducers)}/{m.stones_label(held)}"
            for held in m.stone_collections(m.MAX_STONES) for card in COST_CARDS for reducers in REDUCER_SETS]


def _cost_key(key: str) -> tuple[str, tuple[str, ...], Stones]:
    card, reducers, label = key.split("/")
    names = () if reducers == "none" else tuple(reducers.split("+"))
    if not set(names) <= set(REDUCERS):
        raise ValueError(f"unknown cost card(s) in {reducers!r}; known: {sorted(REDUCERS)}")
    return card, names, _parse_label(label)


def _cost_of(card_id: str, reducers: tuple[str, ...]) -> int:
    card = catalogue().cards[card_id]
    return m.card_cost(card.cost, card.family, pegasus="pegasus" in reducers, hippogriff="hippogriff" in reducers)


def _cost_build(key: str) -> Case:
    card_id, reducers, held = _cost_key(key)
    card = catalogue().cards[card_id]
    cost = _cost_of(card_id, reducers)
    area = [REDUCERS[r] for r in reducers] + ([HESTIA] if held.total > m.BASE_LIMIT else [])
    values = m.PRINTED_VALUES
    legal = sorted(m.payments(held, values, cost), key=lambda s: (s.total, -s.red, -s.blue))
    wind = " (Wind)" if card.family is Family.WIND else ""
    return Case(
        row="summon-cost", key=key,
        title=f"summon {card.name}{wind}, printed cost {card.cost}, with {_reducer_label(reducers)}: cost {cost},"
              f" holding [{held}]",
        given={"round": len(area) + 1, "players": [{"hand": [card_id], "area": area, "stones": held.to_json()}]},
        decision={"kind": "action", "player": PLAYER},
        expected=tuple(_pay_action("summon", card_id, p) for p in legal),
        facts={"held": held.to_json(), "printed_cost": card.cost, "family": card.family.value,
               "reducers": list(reducers), "cost": cost, "values": values._asdict()},
        cards=(card.name, *(card_name(c) for c in area)),
    )


def _cost_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    card_id, reducers, held = _cost_key(case.key)
    cost = _cost_of(card_id, reducers)
    values = m.PRINTED_VALUES
    actual = {p for a in case.expected if a not in missing for p in [_payment_of(a)] if p is not None}
    actual |= {p for a in extra for p in [_payment_of(a)] if p is not None}
    for other in range(m.MIN_COST, m.MAX_COST + 1):
        if other != cost and set(m.payments(held, values, other)) == actual:
            printed = catalogue().cards[card_id].cost
            return Diagnosis(("SUM-3",), f"the engine's payments are those for a cost of {other}; the model's cost"
                                         f" is {cost} (printed {printed}, {_reducer_label(reducers)})")
    base = _classify_payments(case, missing, extra, held, values, cost, lambda _: None)
    return Diagnosis(tuple(dict.fromkeys((*base.rules, "SUM-3"))), base.message, base.reject)


# ----------------------------------------------------------------------------- row: holding limit


def _limit_domain() -> list[str]:
    keys = []
    for hestia in (False, True):
        limit = m.holding_limit(hestia)
        keys += [f"{'hestia' if hestia else 'base'}/{m.stones_label(held)}"
                 for held in m.stone_collections(limit + m.LIMIT_OVER, min_total=limit - 1)]
    return keys


def _limit_key(key: str) -> tuple[bool, Stones]:
    which, label = key.split("/")
    if which not in ("base", "hestia"):
        raise ValueError(f"expected base or hestia, got {which!r}")
    return which == "hestia", _parse_label(label)


def _limit_build(key: str) -> Case:
    hestia, held = _limit_key(key)
    limit = m.holding_limit(hestia)
    choices = sorted(m.keep_choices(held, limit), key=lambda s: (-s.red, -s.blue))
    over = held.total > limit
    decision: JSON = {"kind": "keep_stones", "player": PLAYER, "limit": limit} if over else {
        "kind": "action", "player": PLAYER}
    follow: tuple[Follow, ...] = ()
    if choices:
        kept = choices[0]
        extra = next(c for c in (Stones(red=1), Stones(blue=1), Stones(purple=1)) if held.contains(kept + c))
        follow = (
            Follow(_keep_action(kept), ("LIMIT-2",), stones_after=kept, decision_kind="action"),
            Follow(_keep_action(kept + extra), ("LIMIT-2",), reject=("KEEP_WRONG_COUNT", "LIMIT-2")),
        )
    area = [HESTIA] if hestia else []
    return Case(
        row="holding-limit", key=key,
        title=f"holding [{held}] ({held.total} stones) with a limit of {limit}" + (" (Hestia)" if hestia else ""),
        given={"round": 2, "players": [{"area": area, "stones": held.to_json()}]},
        decision=decision,
        expected=tuple(_keep_action(k) for k in choices),
        follow=follow,
        facts={"held": held.to_json(), "limit": limit, "hestia": hestia, "over": over},
        cards=tuple(card_name(c) for c in area),
    )


def _limit_compared(action: JSON) -> bool:
    return action.get("type") == "keep_stones"


def _limit_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    hestia, held = _limit_key(case.key)
    limit = m.holding_limit(hestia)
    if extra:
        wrong = [a for a in extra if (_payment_of(a) or Stones(-1)).total != limit]
        unheld = [a for a in extra if (s := _payment_of(a)) is None or not held.contains(s)]
        if unheld:
            return Diagnosis(("LIMIT-2",), f"offers keeping stones not held: {describe(unheld)}",
                             ("STONES_NOT_HELD", "LIMIT-2"))
        sizes = sorted({(_payment_of(a) or Stones()).total for a in wrong})
        return Diagnosis(("LIMIT-1", "LIMIT-2"), f"offers keeping {sizes} stones instead of exactly {limit}:"
                                                 f" {describe(wrong)}", ("KEEP_WRONG_COUNT", "LIMIT-2"))
    return Diagnosis(("LIMIT-2",), f"refuses legal keep choices (any {limit} of the stones held): {describe(missing)}")


# ----------------------------------------------------------------------------- the table

ROWS: tuple[Row, ...] = (
    Row("summon-payment", "summon payments", ("PAY-1", "PAY-2", "PAY-3", "PAY-4", "PAY-5", "RUL-16"), 240,
        _summon_domain, _summon_build, _summon_compared, _summon_diagnose, ("PAY-4",)),
    Row("remove-payment", "removal payments", ("REM-1", "PAY-1", "PAY-2", "PAY-3", "PAY-5"), 120,
        _remove_domain, _remove_build, _remove_compared, _remove_diagnose, ("REM-1",)),
    Row("summon-cost", "summoning costs", ("SUM-3", "PAY-1", "PAY-3"), 120,
        _cost_domain, _cost_build, _summon_compared, _cost_diagnose, ("SUM-3",)),
    Row("holding-limit", "holding limit", ("LIMIT-1", "LIMIT-2"), 120,
        _limit_domain, _limit_build, _limit_compared, _limit_diagnose, ("LIMIT-1",)),
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


# ----------------------------------------------------------------------------- running


@dataclass(frozen=True)
class ConformOptions:
    full: bool = False
    """Every case of every domain, instead of a deterministic sample of each."""
    seed: int = 1
    budget: float = 60.0
    """Seconds for the whole run; cases left when it runs out are reported as not checked."""
    save_failures: Path | None = None
    max_reports: int = 3
    """Divergences reported per row and rule id (the total is always given)."""
    rows: tuple[str, ...] = ()
    case: str | None = None
    """Check this one case id only (the ``reproduce`` command of a failure)."""
    impl: str = ""
    sample_scale: float = 1.0


def select_keys(row: Row, options: ConformOptions) -> tuple[list[str], int]:
    """The keys to check (in domain order, smallest cases first) and the domain size."""
    keys = row.domain()
    if options.full or len(keys) <= row.sample * options.sample_scale:
        return keys, len(keys)
    n = max(1, int(row.sample * options.sample_scale))
    rng = random.Random(f"z3-conformance/{row.name}/{options.seed}")
    chosen = sorted(rng.sample(range(len(keys)), n))
    return [keys[i] for i in chosen], len(keys)


def _matches(expected: JSON, actual: JSON | None) -> bool:
    return actual is not None and all(actual.get(k) == v for k, v in expected.items())


def _decision_text(decision: JSON | None) -> str:
    if decision is None:
        return "no decision (game over)"
    text = f"{decision.get('kind')} of player {decision.get('player')}"
    if decision.get("kind") == "keep_stones":
        text += f", limit {decision.get('limit')}"
    return text


def check_case(subject: Subject, row: Row, case: Case, follow: bool = True) -> Divergence | None:
    """Compare the engine with the model on one case; the first difference found, or None."""
    snapshot = complete_snapshot(case.given)
    subject.load_snapshot(snapshot)
    pending = subject.decision()
    if not _matches(case.decision, pending):
        rules = row.decision_rules
        if case.decision.get("kind") == "keep_stones" or (pending or {}).get("kind") == "keep_stones":
            rules = ("LIMIT-1",)
        steps: list[JSON] = [{"decision": case.decision, "note": f"the model expects {_decision_text(case.decision)}"}]
        if case.expected:
            steps[0]["legal"] = list(case.expected)
        wanted, got = _decision_text(case.decision), _decision_text(pending)
        return Divergence(case, rules, Outcome.FAIL, f"the engine asks {got}; the model expects {wanted}",
                          wanted, got, tuple(steps))
    actual = [a for a in subject.legal_actions() if isinstance(a, dict) and row.compared(a)]
    expected_keys = {action_key(a): a for a in case.expected}
    actual_keys = {action_key(a): a for a in actual}
    missing = [a for k, a in expected_keys.items() if k not in actual_keys]
    extra = [a for k, a in actual_keys.items() if k not in expected_keys]
    if missing or extra:
        diagnosis = row.diagnose(case, missing, extra)
        outcome = Outcome.ILLEGAL_ACCEPTED if extra else Outcome.WRONGLY_REJECTED
        step: JSON = {"note": f"z3 model: exactly {len(case.expected)} legal; {diagnosis.message}"}
        if case.expected:
            step["legal"] = list(case.expected)
        pinned = [c for c in (_canonical(a) for a in extra) if c is not None]
        if pinned:
            step["not_legal"] = pinned
        steps = [step]
        if pinned and diagnosis.reject is not None:
            code, rule = diagnosis.reject
            steps.append({"do": pinned[0], "reject": {"code": code, "rule": rule}})
        return Divergence(case, diagnosis.rules, outcome, diagnosis.message, describe(case.expected),
                          describe(actual), tuple(steps),
                          {"missing": missing, "extra": extra})
    if follow:
        for f in case.follow:
            found = _check_follow(subject, case, snapshot, f)
            if found is not None:
                return found
    return None


def _check_follow(subject: Subject, case: Case, snapshot: JSON, f: Follow) -> Divergence | None:
    subject.load_snapshot(snapshot)
    result = subject.apply(f.action)
    rejection = result.get("rejection") or {}
    if f.reject is not None:
        code, rule = f.reject
        step: JSON = {"do": f.action, "reject": {"code": code, "rule": rule}}
        if result["accepted"]:
            return Divergence(case, (rule,), Outcome.ILLEGAL_ACCEPTED,
                              f"accepts {describe([f.action])}; the model rejects it ({rule}, {code})",
                              f"rejected: {code} ({rule})", "accepted", (step,))
        if rejection.get("rule") != rule:
            return Divergence(case, (rule,), Outcome.FAIL,
                              f"rejects {describe([f.action])} citing {rejection.get('rule')!r}"
                              f" ({rejection.get('code')}); the model's reason is {rule} ({code})",
                              f"rejected: {code} ({rule})",
                              f"rejected: {rejection.get('code')} ({rejection.get('rule')})", (step,))
        return None
    step = {"do": f.action}
    if f.stones_after is not None:
        step["expect"] = {"players": [{"stones": f.stones_after.to_json()}]}
    if f.decision_kind is not None:
        step["decision"] = {"kind": f.decision_kind, "player": PLAYER}
    if not result["accepted"]:
        return Divergence(case, f.rules, Outcome.WRONGLY_REJECTED,
                          f"the engine lists {describe([f.action])} as legal, then refuses it: {rejection}",
                          "accepted", f"rejected: {rejection}", (step,))
    if not subject.handshake.can("export"):
        return None
    after = _stones_of(subject.export()["players"][PLAYER].get("stones"))
    pending = subject.decision()
    problems = []
    rules = f.rules
    if f.stones_after is not None and after != f.stones_after:
        paid = _payment_of(f.action)
        if after is not None and after.contains(f.stones_after) and f.rules == ("PAY-2",) and paid is not None:
            problems.append(f"gives change: holds [{after}] after paying [{paid}], not [{f.stones_after}]"
                            f" ({after - f.stones_after} given back)")
        else:
            problems.append(f"holds [{after}] afterwards, not [{f.stones_after}]")
            if f.rules == ("PAY-2",):
                rules = ("PAY-2", "SUM-2")
    if f.decision_kind is not None and (pending or {}).get("kind") != f.decision_kind:
        problems.append(f"then asks {_decision_text(pending)}, not {f.decision_kind}")
    if not problems:
        return None
    return Divergence(case, rules, Outcome.FAIL, f"after {describe([f.action])}: " + "; ".join(problems),
                      f"holds [{f.stones_after}]" + (f", then {f.decision_kind}" if f.decision_kind else ""),
                      f"holds [{after}], then {_decision_text(pending)}", (step,))


def _reproduce(options: ConformOptions, case: Case) -> str:
    impl = f" --impl {options.impl}" if options.impl else ""
    return f"oracle z3 conform{impl} --case {case.id}"


def _scenario(divergence: Divergence, engine: str) -> JSON:
    case = divergence.case
    rules = list(dict.fromkeys(divergence.rules))
    return {
        "id": scenario_id(f"z3-{case.id}-{'-'.join(rules)}"),
        "title": f"{case.title}: {divergence.message}"[:300],
        "rules": rules,
        "cards": list(dict.fromkeys(case.cards)),
        "source": f"z3 conformance counterexample ({case.id}) found on {engine}",
        "given": case.given,
        "steps": list(divergence.steps),
    }


def _result(divergence: Divergence, options: ConformOptions, row: Row, engine: str, total: int) -> CheckResult:
    case = divergence.case
    details: JSON = {"state": case.facts, "case": case.id, **divergence.details}
    reproduce = _reproduce(options, case)
    if options.save_failures is not None:
        path = write_scenario(options.save_failures, _scenario(divergence, engine), "z3")
        details["scenario"] = str(path)
        reproduce += f"  (scenario: {path})"
    message = divergence.message
    if total > 1:
        message += f" [{total} divergent cases in {row.name}]"
    return CheckResult(SUITE, f"z3/{case.id}", f"{row.title}: {case.title}", divergence.outcome,
                       rules=divergence.rules, cards=case.cards, expected=divergence.expected,
                       actual=divergence.actual, message=message, reproduce=reproduce, details=details)


def _rows(options: ConformOptions) -> Iterator[Row]:
    if options.case is not None:
        yield row_named(options.case.partition("/")[0])
        return
    for row in ROWS:
        if not options.rows or row.name in options.rows:
            yield row


def run_conformance(new_subject: Callable[[], Subject], options: ConformOptions) -> list[CheckResult]:
    """Check every row (or one case) against the engine ``new_subject()`` creates."""
    started = time.perf_counter()
    results: list[CheckResult] = []
    try:
        subject = new_subject()
    except EngineFault as fault:
        return [CheckResult(SUITE, "z3/engine", "create the engine", Outcome.ERROR, message=str(fault))]
    engine = f"{subject.handshake.engine} {subject.handshake.version}".strip()
    if not subject.handshake.can("load"):
        return [CheckResult(SUITE, "z3/load", "model conformance needs positions loaded from snapshots",
                            Outcome.UNSUPPORTED, message="the engine does not declare the 'load' capability")]
    rows = list(_rows(options))
    deadline = started + options.budget
    for index, row in enumerate(rows):
        row_started = time.perf_counter()
        # each row gets an equal share of what is left of the budget
        row_deadline = row_started + max(0.0, deadline - row_started) / (len(rows) - index)
        missing_features = [f for f in row.requires if not getattr(subject.handshake, f, False)]
        if missing_features:
            results.append(CheckResult(SUITE, f"z3/{row.name}", row.title, Outcome.UNSUPPORTED, rules=row.rules,
                                       message=f"the engine does not declare {', '.join(missing_features)}"))
            continue
        if options.case is not None:
            keys, domain = [options.case.partition("/")[2]], len(row.domain())
        else:
            keys, domain = select_keys(row, options)
        found: list[Divergence] = []
        faults: list[CheckResult] = []
        checked = 0
        out_of_time = False
        for key in keys:
            if time.perf_counter() > row_deadline:
                out_of_time = True
                break
            case = row.build(key)
            try:
                divergence = check_case(subject, row, case)
            except EngineFault as fault:
                faults.append(CheckResult(SUITE, f"z3/{case.id}", f"{row.title}: {case.title}",
                                          {"timeout": Outcome.TIMEOUT, "unsupported": Outcome.UNSUPPORTED}.get(
                                              fault.kind, Outcome.ERROR),
                                          rules=row.rules, message=str(fault), reproduce=_reproduce(options, case),
                                          details={"state": case.facts}))
                if len(faults) >= options.max_reports:
                    break
                subject = new_subject()
                continue
            checked += 1
            if divergence is not None:
                found.append(divergence)
        seconds = time.perf_counter() - row_started
        summary = {"cases_checked": checked, "cases_selected": len(keys), "domain": domain,
                   "full": options.full, "seconds": round(seconds, 3), "out_of_budget": out_of_time}
        results.extend(faults)
        if found:
            shown: dict[tuple[str, ...], int] = {}
            for divergence in found:
                if shown.get(divergence.rules, 0) >= options.max_reports:
                    continue
                shown[divergence.rules] = shown.get(divergence.rules, 0) + 1
                result = _result(divergence, options, row, engine, len(found))
                result.details.update(summary)
                results.append(result)
        elif not faults:
            note = f"{checked} of {domain} cases agree with the model"
            if out_of_time:
                note += (f" (its share of the {options.budget:g} s budget ran out before {len(keys) - checked}"
                         " more selected cases)")
            outcome = Outcome.PASS if checked else Outcome.TIMEOUT
            results.append(CheckResult(SUITE, f"z3/{row.name}", f"{row.title} agree with the Z3 model", outcome,
                                       rules=row.rules, message=note, duration=seconds, details=summary))
    return results
