"""The payment rows of the conformance table: summon and removal payments, summoning costs, their diagnoses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.core.model import Family, Stones
from oracle.scenarios.writer import card_name
from oracle.suites.z3 import models as m
from oracle.suites.z3.conform_actions import describe, parse_label, pay_action, payment_of
from oracle.suites.z3.conform_types import PLAYER, Case, Diagnosis, Follow

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



def area_for(cards: m.ValueCards, held: Stones) -> list[str]:
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


def payment_probes(make: Callable[[Stones], JSON], held: Stones, values: m.Values, cost: int,
                    legal: list[Stones], player_after: JSON | None = None,
                    player_rules: tuple[str, ...] = ()) -> tuple[Follow, ...]:
    """Pay with the most overpaying legal payment (PAY-2: no change; with ``player_after``, what else the
    payment buys, any legal payment when none overpays); pay a legal payment plus one more stone (PAY-3:
    superfluous) and minus one stone (PAY-1: short), which must be rejected. ``make`` builds the action."""
    probes = []
    over = _max_overpay(held, values, cost, legal)
    if over is None and player_after and legal:
        over = legal[0]
    if over is not None:
        probes.append(Follow(make(over), ("PAY-2",), stones_after=held - over, player_after=player_after or {},
                             player_rules=player_rules))
    for paid in legal:
        more = next((c for c in _ONE_STONE if held.contains(paid + c)), None)
        if more is not None:
            probes.append(Follow(make(paid + more), ("PAY-3",), reject=PAYMENT_REJECTIONS["PAY-3"]))
            break
    for paid in legal:
        less = next((c for c in _ONE_STONE if paid.contains(c)), None)
        if less is not None:
            probes.append(Follow(make(paid - less), ("PAY-1",), reject=PAYMENT_REJECTIONS["PAY-1"]))
            break
    return tuple(probes)


_ONE_STONE = (Stones(red=1), Stones(blue=1), Stones(purple=1))


def payment_facts(held: Stones, values: m.Values, cards: m.ValueCards, cost: int, **more: Any) -> JSON:
    return {"held": held.to_json(), "value_cards": list(cards.names), "values": values._asdict(), "cost": cost,
            "held_worth": values.worth(held), **more}


# ----------------------------------------------------------------------------- payment diagnosis


def classify_payments(case: Case, missing: list[JSON], extra: list[JSON], held: Stones, values: m.Values,
                       cost: int, explain_missing: Callable[[set[Stones]], Diagnosis | None]) -> Diagnosis:
    if extra:
        reasons: dict[str, list[JSON]] = {}
        for action in extra:
            paid = payment_of(action)
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
    actual = {p for a in case.expected if a not in missing for p in [payment_of(a)] if p is not None}
    explained = explain_missing(actual)
    if explained is not None:
        return explained
    return Diagnosis(("PAY-1", "PAY-3"), f"refuses legal payments (they cover the cost with no superfluous stone):"
                                         f" {describe(missing)}")


def explain_by_values(held: Stones, cards: m.ValueCards, cost: int, actual: set[Stones]) -> Diagnosis | None:
    for other in m.ALL_VALUE_CARDS:
        if other != cards and set(m.payments(held, other.values, cost)) == actual:
            return Diagnosis(("PAY-4", "RUL-16"), f"the engine's payments are those for stone values {other.values}"
                                                  f" ({other.label}), not {cards.values} ({cards.label})")
    return None


def explain_by_cost(held: Stones, values: m.Values, cost: int, actual: set[Stones], rule: str,
                     what: str) -> Diagnosis | None:
    for other in range(m.MIN_COST, m.MAX_COST + 1):
        if other != cost and set(m.payments(held, values, other)) == actual:
            return Diagnosis((rule,), f"the engine's payments are those for a {what} of {other}, not {cost}")
    return None


# ----------------------------------------------------------------------------- row: summon payments

SUMMON_COSTS = tuple(sorted(SUMMON_CARDS))


def summon_domain() -> list[str]:
    return [f"{m.stones_label(held)}/{cards.label}/cost-{cost}"
            for held in m.stone_collections(m.MAX_STONES) for cards in m.ALL_VALUE_CARDS for cost in SUMMON_COSTS]


def _summon_key(key: str) -> tuple[Stones, m.ValueCards, int]:
    label, cards, cost = key.split("/")
    return parse_label(label), m.ValueCards.parse(cards), int(cost.removeprefix("cost-"))


def summon_build(key: str) -> Case:
    held, cards, cost = _summon_key(key)
    if cost not in SUMMON_CARDS:
        raise ValueError(f"no summon card of cost {cost}; costs: {list(SUMMON_CARDS)}")
    card = SUMMON_CARDS[cost]
    values = cards.values
    area = area_for(cards, held)
    legal = sorted(m.payments(held, values, cost), key=lambda s: (s.total, -s.red, -s.blue))
    return Case(
        row="summon-payment", key=key,
        title=f"summon {card_name(card)} (cost {cost}) holding [{held}] at {values} ({cards.label})",
        given={"round": len(area) + 1, "players": [{"hand": [card], "area": area, "stones": held.to_json()}]},
        decision={"kind": "action", "player": PLAYER},
        expected=tuple(pay_action("summon", card, p) for p in legal),
        follow=payment_probes(lambda paid: pay_action("summon", card, paid), held, values, cost, legal),
        facts=payment_facts(held, values, cards, cost, card=card_name(card)),
        cards=(card_name(card), *(card_name(c) for c in area)),
    )


def summon_compared(action: JSON) -> bool:
    return action.get("type") == "summon"


def summon_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    held, cards, cost = _summon_key(case.key)
    values = cards.values

    def explain(actual: set[Stones]) -> Diagnosis | None:
        return explain_by_values(held, cards, cost, actual) or explain_by_cost(
            held, values, cost, actual, "SUM-3", "cost")

    return classify_payments(case, missing, extra, held, values, cost, explain)


# ----------------------------------------------------------------------------- row: removal payments

ROUNDS = range(1, 11)


def remove_domain() -> list[str]:
    keys = []
    for held in m.stone_collections(m.MAX_STONES):
        for cards in m.ALL_VALUE_CARDS:
            area = area_for(cards, held) or [FILLER]
            keys += [f"{m.stones_label(held)}/{cards.label}/round-{r}" for r in ROUNDS if len(area) <= r]
    return keys


def _remove_key(key: str) -> tuple[Stones, m.ValueCards, int]:
    label, cards, rnd = key.split("/")
    return parse_label(label), m.ValueCards.parse(cards), int(rnd.removeprefix("round-"))


def remove_build(key: str) -> Case:
    held, cards, rnd = _remove_key(key)
    values = cards.values
    area = area_for(cards, held) or [FILLER]
    if len(area) > rnd:
        raise ValueError(f"{len(area)} cards in the area do not fit in round {rnd}")
    legal = sorted(m.payments(held, values, rnd), key=lambda s: (s.total, -s.red, -s.blue))
    target = next(c for c in area if c != HESTIA) if any(c != HESTIA for c in area) else area[0]
    return Case(
        row="remove-payment", key=key,
        title=f"remove a card in round {rnd} holding [{held}] at {values} ({cards.label})",
        given={"round": rnd, "players": [{"area": area, "stones": held.to_json()}]},
        decision={"kind": "action", "player": PLAYER},
        expected=tuple(pay_action("remove", c, p) for c in sorted(area) for p in legal),
        follow=payment_probes(lambda paid: pay_action("remove", target, paid), held, values, rnd, legal),
        facts=payment_facts(held, values, cards, rnd, round=rnd),
        cards=tuple(card_name(c) for c in area),
    )


def remove_compared(action: JSON) -> bool:
    return action.get("type") == "remove"


def remove_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    held, cards, rnd = _remove_key(case.key)
    values = cards.values
    base = classify_payments(case, missing, extra, held, values, rnd, lambda actual: (
        explain_by_values(held, cards, rnd, actual)
        or explain_by_cost(held, values, rnd, actual, "REM-1", "removal cost")))
    return Diagnosis(tuple(dict.fromkeys((*base.rules, "REM-1"))), base.message, base.reject)


# ----------------------------------------------------------------------------- row: summoning cost


def _reducer_label(names: tuple[str, ...]) -> str:
    return "+".join(names) or "none"


REDUCER_SETS: tuple[tuple[str, ...], ...] = ((), ("pegasus",), ("hippogriff",), ("pegasus", "hippogriff"))


def cost_domain() -> list[str]:
    return [f"{card}/{_reducer_label(reducers)}/{m.stones_label(held)}"
            for held in m.stone_collections(m.MAX_STONES) for card in COST_CARDS for reducers in REDUCER_SETS]


def _cost_key(key: str) -> tuple[str, tuple[str, ...], Stones]:
    card, reducers, label = key.split("/")
    names = () if reducers == "none" else tuple(reducers.split("+"))
    if not set(names) <= set(REDUCERS):
        raise ValueError(f"unknown cost card(s) in {reducers!r}; known: {sorted(REDUCERS)}")
    return card, names, parse_label(label)


def _cost_of(card_id: str, reducers: tuple[str, ...]) -> int:
    card = catalogue().cards[card_id]
    return m.card_cost(card.cost, card.family, pegasus="pegasus" in reducers, hippogriff="hippogriff" in reducers)


def cost_build(key: str) -> Case:
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
        expected=tuple(pay_action("summon", card_id, p) for p in legal),
        facts={"held": held.to_json(), "printed_cost": card.cost, "family": card.family.value,
               "reducers": list(reducers), "cost": cost, "values": values._asdict()},
        cards=(card.name, *(card_name(c) for c in area)),
    )


def cost_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    card_id, reducers, held = _cost_key(case.key)
    cost = _cost_of(card_id, reducers)
    values = m.PRINTED_VALUES
    actual = {p for a in case.expected if a not in missing for p in [payment_of(a)] if p is not None}
    actual |= {p for a in extra for p in [payment_of(a)] if p is not None}
    for other in range(m.MIN_COST, m.MAX_COST + 1):
        if other != cost and set(m.payments(held, values, other)) == actual:
            printed = catalogue().cards[card_id].cost
            return Diagnosis(("SUM-3",), f"the engine's payments are those for a cost of {other}; the model's cost"
                                         f" is {cost} (printed {printed}, {_reducer_label(reducers)})")
    base = classify_payments(case, missing, extra, held, values, cost, lambda _: None)
    return Diagnosis(tuple(dict.fromkeys((*base.rules, "SUM-3"))), base.message, base.reject)
