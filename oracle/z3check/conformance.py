"""Conformance through the models: an engine's legal actions compared with the exact sets the models allow.

For every case of a bounded domain (a stone collection, the stone values in force, a cost or a limit) the
check builds a position with :func:`oracle.given.complete_snapshot`, loads it into the engine (capability
``load``), and compares the engine's legal actions of one kind with the set the Z3 model enumerates.
Where a case has a follow-up (pay, then look at the stones left; keep, then look again), the engine
applies it and the exported state is compared with the model's (capability ``export``).

The checks are table-driven: each :class:`Row` of :data:`ROWS` names its domain, builds a case from a
key, says which legal actions it compares and how to explain a difference with a rule id. A case may
first play a *prelude* of actions from the loaded position (use the Incense Burner and choose to buy an
area; use the Book of Thoth; summon Duduri; sell with Duduri King) to reach the decision it compares.
The Artifacts rows (``requires``: the handshake's ``expansion`` and ``artifacts``, or ``expansion`` alone
for the Duduri cards) are reported unsupported by engines that do not declare them.

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
from oracle.scenarios.writer import card_name, scenario_id, write_scenario
from oracle.z3check import models as m

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
    player_after: JSON = field(default_factory=dict)
    """Other fields of the player's exported state expected afterwards (``extra_areas`` after buying an area)."""
    player_rules: tuple[str, ...] = ()


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
    prelude: tuple[JSON, ...] = ()
    """Actions applied from the loaded position before the decision is compared (each must be accepted)."""

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
    if kind in ("keep_stones", "upgrade_stones"):
        return (kind, action.get("player"), _stones_of(action.get("stones")) or repr(action))
    if kind == "pay":
        return (kind, action.get("player"), _stones_of(action.get("payment")) or repr(action))
    if kind == "choose_options" and isinstance(action.get("options"), list):
        return (kind, action.get("player"), tuple(sorted(map(str, action["options"]))))
    return (str(kind), repr(sorted(action.items(), key=lambda kv: str(kv[0]))))


def _canonical(action: JSON) -> JSON | None:
    """An engine's action in the scenario vocabulary (no extra fields), or None if it is malformed."""
    stones = _payment_of(action)
    kind, player, card = action.get("type"), action.get("player"), action.get("card")
    if not isinstance(player, int) or isinstance(player, bool):
        return None
    if kind == "use_artifact":
        return {"type": kind, "player": player}
    options = action.get("options")
    if kind == "choose_options" and isinstance(options, list) and all(isinstance(o, str) for o in options):
        return {"type": kind, "player": player, "options": list(options)}
    if kind == "sell" and isinstance(card, str):
        return {"type": kind, "player": player, "card": card}
    if stones is None:
        return None
    if kind in ("summon", "remove") and isinstance(card, str):
        return {"type": kind, "player": player, "card": card, "payment": stones.to_json()}
    if kind == "pay":
        return {"type": kind, "player": player, "payment": stones.to_json()}
    if kind in ("keep_stones", "upgrade_stones"):
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
        elif a.get("type") == "pay":
            parts.append(f"pay [{what}]")
        elif a.get("type") == "upgrade_stones":
            parts.append(f"upgrade [{_upgrade_text(stones) if stones is not None else what}]")
        elif a.get("type") == "use_artifact":
            parts.append("use the artifact")
        elif a.get("type") == "choose_options":
            parts.append(f"choose {a.get('options')}")
        elif a.get("type") == "sell":
            parts.append(f"sell {card_name(str(a.get('card')))}")
        else:
            parts.append(repr(a))
    return "; ".join(sorted(parts))


def _upgrade_text(answer: Stones) -> str:
    """``1 red -> blue, 1 blue -> purple`` (and a purple "upgrade", which no rule has)."""
    parts = [f"{answer.red} red -> blue"] if answer.red else []
    parts += [f"{answer.blue} blue -> purple"] if answer.blue else []
    parts += [f"{answer.purple} purple -> (no step above purple)"] if answer.purple else []
    return ", ".join(parts) or "nothing"


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


def _payment_probes(make: Callable[[Stones], JSON], held: Stones, values: m.Values, cost: int,
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
        follow=_payment_probes(lambda paid: _pay_action("summon", card, paid), held, values, cost, legal),
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
        follow=_payment_probes(lambda paid: _pay_action("remove", target, paid), held, values, rnd, legal),
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


# ----------------------------------------------------------------------------- the Artifacts expansion

BELPHEGOR = "art-fire-06"
INCENSE_BURNER = "tile-incense-burner"
BOOK_OF_THOTH = "tile-book-of-thoth"
DUDURI = "art-earth-01"
DUDURI_KING = "art-earth-02"
ARTIFACTS_SETUP: JSON = {"expansion": True, "artifacts": True}
EXPANSION_SETUP: JSON = {"expansion": True}
COST_EFFECTS: dict[str, str] = {"pegasus": PEGASUS, "hippogriff": HIPPOGRIFF, "belphegor": BELPHEGOR}
INCENSE_EFFECT_SETS: tuple[tuple[str, ...], ...] = (
    (), ("pegasus",), ("hippogriff",), ("belphegor",), ("pegasus", "hippogriff", "belphegor"))
"""Cost effects in the area while the Incense Burner's price is paid: none of them may change it (RUL-9)."""
SALE_CARDS: dict[Family, str] = {
    Family.FIRE: "base-fire-05",  # Salamander
    Family.WATER: "base-water-03",  # Sea Spirit
    Family.EARTH: "base-earth-02",  # Goblin
    Family.WIND: "base-wind-02",  # Harpy
    Family.DRAGON: "base-dragon-02",  # Tidal
}
"""One card per family to sell (a sale gives stones by family, SELL-1; no sold card's effect resolves)."""
UPGRADE_REJECTION = ("UPGRADE_INVALID", "STONE-2")
_SUMMON_ROWS = frozenset({"summon-payment", "remove-payment", "summon-cost"})


def _use_artifact() -> JSON:
    return {"type": "use_artifact", "player": PLAYER}


def _price_action(paid: Stones) -> JSON:
    return {"type": "pay", "player": PLAYER, "payment": paid.to_json()}


def _upgrade_action(answer: Stones) -> JSON:
    return {"type": "upgrade_stones", "player": PLAYER, "stones": answer.to_json()}


def _effects_label(names: tuple[str, ...]) -> str:
    return "+".join(names) or "none"


def _answer_order(answer: Stones) -> tuple[int, int]:
    return answer.total, -answer.red


def _upgrade_probes(held: Stones, eligible: Stones, answers: list[Stones], source: m.UpgradeSource,
                    rules: tuple[str, ...]) -> tuple[Follow, ...]:
    """Apply the legal answer upgrading the most stones (one of each colour if it can): the stones held after
    are the model's, then the Action decision. Answers the model rejects (UPGRADE_INVALID, STONE-2): a stone
    twice (a red going on to purple: more blues than were eligible), a purple stone, one stone too many, none."""
    best = max(answers, key=lambda a: (a.total, min(a.red, a.blue), -a.red))
    probes = [Follow(_upgrade_action(best), rules, stones_after=m.upgraded(held, best), decision_kind="action")]
    wrong: list[Stones] = []
    if eligible.red and eligible.blue + 2 <= source.allowed:
        wrong.append(Stones(red=1, blue=eligible.blue + 1))
    elif eligible.blue + 1 <= source.allowed:
        wrong.append(Stones(blue=eligible.blue + 1))
    if held.purple:
        wrong.append(Stones(purple=1))
    if eligible.total > source.allowed:
        red = min(eligible.red, source.allowed + 1)
        wrong.append(Stones(red=red, blue=source.allowed + 1 - red))
    wrong.append(Stones())
    probes += [Follow(_upgrade_action(a), ("STONE-2",), reject=UPGRADE_REJECTION) for a in wrong
               if a not in answers]
    return tuple(probes)


def _classify_upgrades(missing: list[JSON], extra: list[JSON], eligible: Stones, source: m.UpgradeSource,
                       rules: tuple[str, ...], eligible_what: str) -> Diagnosis:
    if not extra:
        return Diagnosis(rules, f"refuses legal upgrades ({source.least}..{source.allowed} distinct {eligible_what},"
                                f" one step each): {describe(missing)}")
    reasons: dict[str, list[JSON]] = {}
    for action in extra:
        answer = _payment_of(action)
        if answer is None:
            reason = "malformed"
        elif answer.purple:
            reason = "purple"
        elif answer.blue > eligible.blue and answer.red:
            reason = "twice"
        elif answer.red > eligible.red or answer.blue > eligible.blue:
            reason = "not-eligible"
        elif answer.total > source.allowed:
            reason = "too-many"
        else:
            reason = "too-few"
        reasons.setdefault(reason, []).append(action)
    words = {
        "twice": f"upgrading a stone twice (red -> blue -> purple: more blues than the {eligible.blue} eligible)",
        "purple": "upgrading a purple stone (nothing is above purple; a purple never changes)",
        "not-eligible": f"upgrading stones that are not among the {eligible_what} [{eligible}]",
        "too-many": f"upgrading more than {source.allowed} stone(s)",
        "too-few": f"upgrading fewer than {source.least} stone(s)",
        "malformed": "malformed",
    }
    order = [r for r in words if r in reasons]
    message = "; ".join(f"accepts {words[r]}: {describe(reasons[r])}" for r in order)
    return Diagnosis(rules, f"{source.title}: {message}", UPGRADE_REJECTION)


# ----------------------------------------------------------------------------- row: Incense Burner price


def _incense_domain() -> list[str]:
    keys = [f"{m.stones_label(held)}/{cards.label}/{_effects_label(effects)}/areas-0"
            for held in m.stone_collections(m.MAX_STONES) for cards in m.ALL_VALUE_CARDS
            for effects in INCENSE_EFFECT_SETS]
    keys += [f"{m.stones_label(held)}/printed/none/areas-{n}"
             for held in m.stone_collections(m.MAX_STONES) for n in range(1, m.MAX_EXTRA_AREAS + 1)]
    return keys


def _incense_key(key: str) -> tuple[Stones, m.ValueCards, tuple[str, ...], int]:
    label, cards, effects, areas = key.split("/")
    names = () if effects == "none" else tuple(effects.split("+"))
    if not set(names) <= set(COST_EFFECTS):
        raise ValueError(f"unknown cost card(s) in {effects!r}; known: {sorted(COST_EFFECTS)}")
    n = int(areas.removeprefix("areas-"))
    if not 0 <= n <= m.MAX_EXTRA_AREAS:
        raise ValueError(f"{n} Additional Areas: 0..{m.MAX_EXTRA_AREAS}")
    return _parse_label(label), m.ValueCards.parse(cards), names, n


def _incense_build(key: str) -> Case:
    held, cards, effects, areas = _incense_key(key)
    values = cards.values
    area = _area_for(cards, held) + [COST_EFFECTS[e] for e in effects]
    price = m.INCENSE_BURNER_PRICE
    given: JSON = {"setup": dict(ARTIFACTS_SETUP), "round": len(area) + 1, "players": [{
        "area": area, "stones": held.to_json(), "artifact": INCENSE_BURNER, "extra_areas": areas}]}
    where = f"holding [{held}] at {values} ({cards.label}), {_effects_label(effects)} in the area, {areas} extra areas"
    facts = _facts(held, values, cards, price, cost_effects=list(effects), extra_areas=areas,
                   buy_offered=m.incense_buy_offered(held, values, areas))
    names = [card_name(c) for c in area]  # tiles are not cards: the scenarios' cards list cards only
    if not m.incense_buy_offered(held, values, areas):
        return Case(
            row="incense-burner-price", key=key,
            title=f"use the Incense Burner {where}: buying an area is not offered",
            given=given, decision={"kind": "choose_options", "player": PLAYER}, expected=(),
            prelude=(_use_artifact(),), facts=facts, cards=tuple(names),
        )
    legal = sorted(m.incense_payments(held, values), key=lambda s: (s.total, -s.red, -s.blue))
    return Case(
        row="incense-burner-price", key=key,
        title=f"buy an area with the Incense Burner (price {price}) {where}",
        given=given, decision={"kind": "pay", "player": PLAYER, "cost": price},
        expected=tuple(_price_action(p) for p in legal),
        follow=_payment_probes(_price_action, held, values, price, legal, player_after={"extra_areas": areas + 1},
                               player_rules=("ART-8",)),
        prelude=(_use_artifact(), {"type": "choose_options", "player": PLAYER, "options": ["buy_area"]}),
        facts=facts, cards=tuple(names),
    )


def _incense_compared(action: JSON) -> bool:
    kind = action.get("type")
    options = action.get("options")
    return kind == "pay" or (kind == "choose_options" and isinstance(options, list) and "buy_area" in options)


def _incense_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    held, cards, effects, areas = _incense_key(case.key)
    values = cards.values
    price = m.INCENSE_BURNER_PRICE
    if not m.incense_buy_offered(held, values, areas):
        if areas >= m.MAX_EXTRA_AREAS:
            return Diagnosis(("ART-8",), f"offers buying a third Additional Area: {describe(extra)}")
        cheaper = [c for c in range(price) if m.payments(held, values, c)]
        lowered = f" (as if the price were {cheaper[-1]})" if cheaper and effects else ""
        return Diagnosis(("RUL-9", "PAY-1"), f"offers buying an Additional Area with no legal payment of {price}:"
                                             f" the stones held are worth {values.worth(held)}{lowered}")

    def explain(actual: set[Stones]) -> Diagnosis | None:
        return _explain_by_values(held, cards, price, actual) or _explain_by_cost(
            held, values, price, actual, "RUL-9", f"price ({_effects_label(effects)} in the area)")

    base = _classify_payments(case, missing, extra, held, values, price, explain)
    return Diagnosis(tuple(dict.fromkeys((*base.rules, "RUL-9"))), base.message, base.reject)


# ----------------------------------------------------------------------------- row: Book of Thoth upgrades

_THOTH = m.UpgradeSource.BOOK_OF_THOTH
_THOTH_RULES = ("STONE-2", "RUL-8")


def _held_domain() -> list[str]:
    return [m.stones_label(held) for held in m.stone_collections(m.MAX_STONES)]


def _thoth_build(key: str) -> Case:
    held = _parse_label(key)
    area = [HESTIA] if held.total > m.BASE_LIMIT else []
    eligible = Stones(red=held.red, blue=held.blue)
    answers = sorted(m.upgrade_answers(eligible, _THOTH), key=_answer_order)
    given: JSON = {"setup": dict(ARTIFACTS_SETUP), "round": len(area) + 1,
                   "players": [{"area": area, "stones": held.to_json(), "artifact": BOOK_OF_THOTH}]}
    facts = {"held": held.to_json(), "eligible": eligible.to_json(), "min": _THOTH.least, "max": _THOTH.allowed,
             "answers": len(answers)}
    cards = tuple(card_name(c) for c in area)
    if not answers:
        return Case(
            row="book-of-thoth-upgrade", key=key,
            title=f"holding [{held}] with the Book of Thoth: no red or blue stone, it cannot be used",
            given=given, decision={"kind": "action", "player": PLAYER}, expected=(),
            follow=(Follow(_use_artifact(), ("ART-5",), reject=("NO_USABLE_ARTIFACT", "ART-5")),),
            facts=facts, cards=cards,
        )
    return Case(
        row="book-of-thoth-upgrade", key=key,
        title=f"use the Book of Thoth holding [{held}]: upgrade 1 or 2 different red / blue stones one step",
        given=given, decision={"kind": "upgrade_stones", "player": PLAYER},
        expected=tuple(_upgrade_action(a) for a in answers),
        follow=_upgrade_probes(held, eligible, answers, _THOTH, _THOTH_RULES),
        prelude=(_use_artifact(),), facts=facts, cards=cards,
    )


def _thoth_compared(action: JSON) -> bool:
    return action.get("type") in ("upgrade_stones", "use_artifact")


def _thoth_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    held = _parse_label(case.key)
    if any(a.get("type") == "use_artifact" for a in extra):
        return Diagnosis(("STONE-2", "ART-5"), f"offers using the Book of Thoth holding [{held}]: no red or blue"
                                               " stone can go up (a purple never does)",
                         ("NO_USABLE_ARTIFACT", "ART-5"))
    return _classify_upgrades(missing, extra, Stones(red=held.red, blue=held.blue), _THOTH, _THOTH_RULES,
                              "red and blue stones held")


# ----------------------------------------------------------------------------- row: Duduri's upgrade

_DUDURI = m.UpgradeSource.DUDURI


def _duduri_summon() -> JSON:
    return {"type": "summon", "player": PLAYER, "card": DUDURI, "payment": Stones().to_json()}


def _duduri_build(key: str) -> Case:
    held = _parse_label(key)
    area = [HESTIA] if held.total > m.BASE_LIMIT else []
    eligible = Stones(red=held.red, blue=held.blue)
    answers = sorted(m.upgrade_answers(eligible, _DUDURI), key=_answer_order)
    given: JSON = {"setup": dict(EXPANSION_SETUP), "round": len(area) + 1,
                   "players": [{"hand": [DUDURI], "area": area, "stones": held.to_json()}]}
    facts = {"held": held.to_json(), "eligible": eligible.to_json(), "min": 1, "max": 1, "answers": len(answers)}
    cards = ("Duduri", *(card_name(c) for c in area))
    if not answers:
        return Case(
            row="duduri-upgrade", key=key,
            title=f"holding [{held}]: Duduri (cost 0) cannot be summoned, no stone can go up (SUM-4)",
            given=given, decision={"kind": "action", "player": PLAYER}, expected=(),
            follow=(Follow(_duduri_summon(), ("SUM-4",), reject=("INSTANT_UNRESOLVABLE", "SUM-4")),),
            facts=facts, cards=cards,
        )
    return Case(
        row="duduri-upgrade", key=key,
        title=f"summon Duduri holding [{held}]: upgrade exactly one red or blue stone one step",
        given=given, decision={"kind": "upgrade_stones", "player": PLAYER},
        expected=tuple(_upgrade_action(a) for a in answers),
        follow=_upgrade_probes(held, eligible, answers, _DUDURI, ("STONE-2",)),
        prelude=(_duduri_summon(),), facts=facts, cards=cards,
    )


def _duduri_compared(action: JSON) -> bool:
    return action.get("type") == "upgrade_stones" or (action.get("type") == "summon" and action.get("card") == DUDURI)


def _duduri_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    held = _parse_label(case.key)
    summons = [a for a in extra if a.get("type") == "summon"]
    if summons:
        return Diagnosis(("SUM-4", "STONE-2"), f"offers summoning Duduri holding [{held}]: its upgrade cannot be"
                                               f" resolved (a purple never goes up): {describe(summons)}",
                         ("INSTANT_UNRESOLVABLE", "SUM-4"))
    return _classify_upgrades(missing, extra, Stones(red=held.red, blue=held.blue), _DUDURI, ("STONE-2",),
                              "red and blue stones held")


# ----------------------------------------------------------------------------- row: Duduri King's sale upgrade

_KING = m.UpgradeSource.DUDURI_KING
_KING_RULES = ("STONE-2", "SELL-1")


def _king_domain() -> list[str]:
    top = m.holding_limit(True)
    return [f"{family.value}/{m.stones_label(held)}" for family in Family
            for held in m.stone_collections(top - m.sale_stones(family).total)]


def _king_key(key: str) -> tuple[Family, Stones]:
    family, label = key.split("/")
    return Family(family), _parse_label(label)


def _king_build(key: str) -> Case:
    family, held = _king_key(key)
    card = SALE_CARDS[family]
    received = m.sale_stones(family)
    if held.total + received.total > m.holding_limit(True):
        raise ValueError(f"[{held}] plus the {received.total} stones of the {family.value.title()} sale is over the"
                         " limit of 6")
    answers = sorted(m.upgrade_answers(received, _KING), key=_answer_order)
    after_sale = held + received
    area = [DUDURI_KING, HESTIA]
    given: JSON = {"setup": dict(EXPANSION_SETUP), "round": len(area) + 1, "display": [card],
                   "players": [{"area": area, "markers": [card], "stones": held.to_json()}]}
    sell = {"type": "sell", "player": PLAYER, "card": card}
    facts = {"held": held.to_json(), "family": family.value, "received": received.to_json(),
             "answers": len(answers)}
    cards = ("Duduri King", card_name(card), card_name(HESTIA))
    what = f"sell {card_name(card)} ({family.value}: {received}) with Duduri King holding [{held}]"
    if len(answers) > 1:
        return Case(
            row="duduri-king-sale", key=key, title=f"{what}: upgrade one of the two stones received",
            given=given, decision={"kind": "upgrade_stones", "player": PLAYER},
            expected=tuple(_upgrade_action(a) for a in answers),
            follow=_upgrade_probes(after_sale, received, answers, _KING, _KING_RULES),
            prelude=(sell,), facts=facts, cards=cards,
        )
    result = m.upgraded(after_sale, answers[0]) if answers else after_sale
    assert {result} == m.duduri_king_sale(held, family)
    return Case(
        row="duduri-king-sale", key=key, title=f"{what}: the received stone goes up, no choice: [{result}]",
        given=given, decision={"kind": "action", "player": PLAYER}, expected=(sell,),
        follow=(Follow(sell, _KING_RULES, stones_after=result, decision_kind="action"),),
        facts=facts, cards=cards,
    )


def _king_compared(action: JSON) -> bool:
    return action.get("type") in ("upgrade_stones", "sell")


def _king_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    family, _ = _king_key(case.key)
    sells = [a for a in (*missing, *extra) if a.get("type") == "sell"]
    if sells:
        return Diagnosis(("SELL-1",), f"the sales differ: expected {describe(case.expected)}; missing"
                                      f" {describe(missing)}, extra {describe(extra)}")
    return _classify_upgrades(missing, extra, m.sale_stones(family), _KING, _KING_RULES,
                              "stones received from the sale")


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
    Row("incense-burner-price", "Incense Burner price",
        ("RUL-9", "ART-8", "PAY-1", "PAY-2", "PAY-3", "PAY-4", "PAY-5"), 80,
        _incense_domain, _incense_build, _incense_compared, _incense_diagnose, ("RUL-9",),
        requires=("expansion", "artifacts")),
    Row("book-of-thoth-upgrade", "Book of Thoth upgrades", ("RUL-8", "STONE-2", "ART-5"), 40,
        _held_domain, _thoth_build, _thoth_compared, _thoth_diagnose, ("RUL-8",),
        requires=("expansion", "artifacts")),
    Row("duduri-upgrade", "Duduri's upgrade", ("STONE-2", "SUM-4"), 30,
        _held_domain, _duduri_build, _duduri_compared, _duduri_diagnose, ("STONE-2",),
        requires=("expansion",)),
    Row("duduri-king-sale", "Duduri King's sale upgrade", ("STONE-2", "SELL-1", "RUL-8"), 30,
        _king_domain, _king_build, _king_compared, _king_diagnose, ("STONE-2",),
        requires=("expansion",)),
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
    if decision.get("kind") == "pay":
        text += f", cost {decision.get('cost')}"
    if decision.get("kind") == "upgrade_stones":
        text += f", eligible {decision.get('eligible')}, min {decision.get('min')}, max {decision.get('max')}"
    return text


def _prelude_steps(case: Case) -> list[JSON]:
    return [{"do": action} for action in case.prelude]


def _play_prelude(subject: Subject, row: Row, case: Case) -> Divergence | None:
    """Apply the case's prelude from the loaded position; a divergence if the engine refuses an action of it."""
    for index, action in enumerate(case.prelude):
        before = subject.decision()
        result = subject.apply(action)
        if result["accepted"]:
            continue
        rejection = result.get("rejection") or {}
        steps = [*_prelude_steps(case)[:index], {"do": action}]
        return Divergence(case, row.decision_rules, Outcome.WRONGLY_REJECTED,
                          f"the engine refuses {describe([action])} ({rejection.get('code')},"
                          f" {rejection.get('rule')}: {rejection.get('message')}) when asked"
                          f" {_decision_text(before)}; the model allows it",
                          "accepted", f"rejected: {rejection.get('code')} ({rejection.get('rule')})", tuple(steps))
    return None


def check_case(subject: Subject, row: Row, case: Case, follow: bool = True) -> Divergence | None:
    """Compare the engine with the model on one case; the first difference found, or None."""
    snapshot = complete_snapshot(case.given)
    subject.load_snapshot(snapshot)
    refused = _play_prelude(subject, row, case)
    if refused is not None:
        return refused
    pending = subject.decision()
    if not _matches(case.decision, pending):
        rules = row.decision_rules
        if case.decision.get("kind") == "keep_stones" or (pending or {}).get("kind") == "keep_stones":
            rules = ("LIMIT-1",)
        steps: list[JSON] = [*_prelude_steps(case), {
            "decision": case.decision, "note": f"the model expects {_decision_text(case.decision)}"}]
        if case.expected:
            steps[-1]["legal"] = list(case.expected)
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
        steps = [*_prelude_steps(case), step]
        if pinned and diagnosis.reject is not None:
            code, rule = diagnosis.reject
            steps.append({"do": pinned[0], "reject": {"code": code, "rule": rule}})
        return Divergence(case, diagnosis.rules, outcome, diagnosis.message, describe(case.expected),
                          describe(actual), tuple(steps),
                          {"missing": missing, "extra": extra})
    if follow:
        for f in case.follow:
            found = _check_follow(subject, row, case, snapshot, f)
            if found is not None:
                return found
    return None


def _check_follow(subject: Subject, row: Row, case: Case, snapshot: JSON, f: Follow) -> Divergence | None:
    subject.load_snapshot(snapshot)
    refused = _play_prelude(subject, row, case)
    if refused is not None:
        return refused
    result = subject.apply(f.action)
    rejection = result.get("rejection") or {}
    prelude = tuple(_prelude_steps(case))
    if f.reject is not None:
        code, rule = f.reject
        step: JSON = {"do": f.action, "reject": {"code": code, "rule": rule}}
        if result["accepted"]:
            return Divergence(case, (rule,), Outcome.ILLEGAL_ACCEPTED,
                              f"accepts {describe([f.action])}; the model rejects it ({rule}, {code})",
                              f"rejected: {code} ({rule})", "accepted", (*prelude, step))
        if rejection.get("rule") != rule:
            return Divergence(case, (rule,), Outcome.FAIL,
                              f"rejects {describe([f.action])} citing {rejection.get('rule')!r}"
                              f" ({rejection.get('code')}); the model's reason is {rule} ({code})",
                              f"rejected: {code} ({rule})",
                              f"rejected: {rejection.get('code')} ({rejection.get('rule')})", (*prelude, step))
        return None
    step = {"do": f.action}
    expected_player: JSON = dict(f.player_after)
    if f.stones_after is not None:
        expected_player["stones"] = f.stones_after.to_json()
    if expected_player:
        step["expect"] = {"players": [expected_player]}
    if f.decision_kind is not None:
        step["decision"] = {"kind": f.decision_kind, "player": PLAYER}
    if not result["accepted"]:
        return Divergence(case, f.rules, Outcome.WRONGLY_REJECTED,
                          f"the engine lists {describe([f.action])} as legal, then refuses it: {rejection}",
                          "accepted", f"rejected: {rejection}", (*prelude, step))
    if not subject.handshake.can("export"):
        return None
    exported = subject.export()["players"][PLAYER]
    after = _stones_of(exported.get("stones"))
    pending = subject.decision()
    problems = []
    rules: tuple[str, ...] = ()
    if f.stones_after is not None and after != f.stones_after:
        paid = _payment_of(f.action)
        rules = f.rules
        if after is not None and after.contains(f.stones_after) and f.rules == ("PAY-2",) and paid is not None:
            problems.append(f"gives change: holds [{after}] after paying [{paid}], not [{f.stones_after}]"
                            f" ({after - f.stones_after} given back)")
        else:
            problems.append(f"holds [{after}] afterwards, not [{f.stones_after}]")
            if f.rules == ("PAY-2",) and case.row in _SUMMON_ROWS:
                rules = ("PAY-2", "SUM-2")
    wrong = {k: exported.get(k) for k, v in f.player_after.items() if exported.get(k) != v}
    if wrong:
        problems.append(", ".join(f"{k} is {v!r}, not {f.player_after[k]!r}" for k, v in wrong.items()))
        rules = (*rules, *(f.player_rules or f.rules))
    if f.decision_kind is not None and (pending or {}).get("kind") != f.decision_kind:
        problems.append(f"then asks {_decision_text(pending)}, not {f.decision_kind}")
        rules = (*rules, *f.rules)
    if not problems:
        return None
    fields = "".join(f", {k} {v!r}" for k, v in f.player_after.items())
    found = "".join(f", {k} {exported.get(k)!r}" for k in f.player_after)
    return Divergence(case, tuple(dict.fromkeys(rules)), Outcome.FAIL,
                      f"after {describe([f.action])}: " + "; ".join(problems),
                      f"holds [{f.stones_after}]{fields}" + (f", then {f.decision_kind}" if f.decision_kind else ""),
                      f"holds [{after}]{found}, then {_decision_text(pending)}", (*prelude, step))


def _reproduce(options: ConformOptions, case: Case) -> str:
    impl = f" --impl {options.impl}" if options.impl else ""
    return f"oracle z3 conform{impl} --case {case.id}"


def _scenario(divergence: Divergence, engine: str, requires: tuple[str, ...] = ()) -> JSON:
    case = divergence.case
    rules = list(dict.fromkeys(divergence.rules))
    doc: JSON = {
        "id": scenario_id(f"z3-{case.id}-{'-'.join(rules)}"),
        "title": f"{case.title}: {divergence.message}"[:300],
        "rules": rules,
        "cards": list(dict.fromkeys(case.cards)),
        "source": f"z3 conformance counterexample ({case.id}) found on {engine}",
        "given": case.given,
        "steps": list(divergence.steps),
    }
    if requires:
        doc["requires"] = list(requires)
    return doc


def _result(divergence: Divergence, options: ConformOptions, row: Row, engine: str, total: int) -> CheckResult:
    case = divergence.case
    details: JSON = {"state": case.facts, "case": case.id, **divergence.details}
    reproduce = _reproduce(options, case)
    if options.save_failures is not None:
        path = write_scenario(options.save_failures, _scenario(divergence, engine, row.requires), "z3")
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


def check_id(row: Row, rule: str) -> str:
    """The stable id of one property of a row: ``z3/summon-payment/PAY-3`` (the counterexamples go in details)."""
    return f"{SUITE}/{row.name}/{rule}"


def row_checks(row: Row) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """``(id, title, rules)`` of every check a row reports: one per rule it models, whatever the engine does."""
    return tuple((check_id(row, rule), f"{row.title} agree with the Z3 model ({rule})", (rule,))
                 for rule in row.rules)


def _property_of(row: Row, rules: tuple[str, ...]) -> str:
    """The row property a divergence counts against: its first rule the row models."""
    for rule in rules:
        if rule in row.rules:
            return rule
    return row.decision_rules[0] if row.decision_rules and row.decision_rules[0] in row.rules else row.rules[0]


def run_conformance(new_subject: Callable[[], Subject], options: ConformOptions) -> list[CheckResult]:
    """Check every row (or one case) against the engine ``new_subject()`` creates; each row has ``budget`` s."""
    results: list[CheckResult] = []
    for row in _rows(options):
        results.extend(run_row(new_subject, row, options))
    return results


def run_row(new_subject: Callable[[], Subject], row: Row, options: ConformOptions) -> list[CheckResult]:
    """One result per property of the row (:func:`row_checks`): pass, fail with counterexamples, the engine's
    fault, or ``incomplete`` with the count checked when the row's budget ran out first."""
    started = time.perf_counter()
    checks = row_checks(row)

    def every(outcome: Outcome, message: str, **details: object) -> list[CheckResult]:
        return [CheckResult(SUITE, cid, title, outcome, rules=rules, message=message, details=dict(details))
                for cid, title, rules in checks]

    try:
        subject = new_subject()
    except EngineFault as fault:
        return every(fault.outcome, str(fault))
    engine = f"{subject.handshake.engine} {subject.handshake.version}".strip()
    missing_features = [f for f in row.requires if not getattr(subject.handshake, f, False)]
    if missing_features:
        return every(Outcome.UNSUPPORTED, f"the engine does not declare {', '.join(missing_features)}")
    if not subject.handshake.can("load"):
        return every(Outcome.UNSUPPORTED, "model conformance loads positions, and the engine does not declare "
                     "the 'load' capability")
    if options.case is not None:
        keys, domain = [options.case.partition("/")[2]], len(row.domain())
    else:
        keys, domain = select_keys(row, options)
    deadline = started + options.budget
    found: dict[str, list[Divergence]] = {rule: [] for rule in row.rules}
    faults: list[tuple[Case, EngineFault]] = []
    checked = 0
    out_of_time = False
    for key in keys:
        if time.perf_counter() > deadline:
            out_of_time = True
            break
        case = row.build(key)
        try:
            divergence = check_case(subject, row, case)
        except EngineFault as fault:
            faults.append((case, fault))
            if len(faults) >= options.max_reports:
                break
            try:
                subject = new_subject()
            except EngineFault:
                break
            continue
        checked += 1
        if divergence is not None:
            found[_property_of(row, divergence.rules)].append(divergence)
    seconds = time.perf_counter() - started
    summary: JSON = {"cases_checked": checked, "cases_selected": len(keys), "domain": domain, "full": options.full,
                     "seconds": round(seconds, 3), "out_of_budget": out_of_time, "faults": len(faults)}
    results = []
    for cid, title, rules in checks:
        divergences = found[rules[0]]
        if divergences:
            results.append(_failure(cid, title, rules, divergences, options, row, engine, summary))
        elif faults:
            faulty_case, first_fault = faults[0]
            results.append(CheckResult(
                SUITE, cid, title, first_fault.outcome, rules=rules, message=f"{first_fault} (case {faulty_case.id}; "
                f"{len(faults)} case(s) ended by an engine fault, {checked} checked)",
                reproduce=_reproduce(options, faulty_case), duration=seconds,
                details={**summary, "state": faulty_case.facts, "case": faulty_case.id}))
        elif out_of_time or not checked:
            results.append(CheckResult(
                SUITE, cid, title, Outcome.INCOMPLETE, rules=rules, duration=seconds, details=summary,
                message=f"only {checked} of {len(keys)} selected cases checked before the row's budget of "
                        f"{options.budget:g} s ran out (raise it with --z3-budget)"))
        else:
            results.append(CheckResult(SUITE, cid, title, Outcome.PASS, rules=rules, duration=seconds,
                                       message=f"{checked} of {domain} cases agree with the model",
                                       details=summary))
    return results


def _failure(cid: str, title: str, rules: tuple[str, ...], divergences: list[Divergence], options: ConformOptions,
             row: Row, engine: str, summary: JSON) -> CheckResult:
    """A failing property: the first counterexample shown, up to ``max_reports`` of them in the details."""
    shown = [_result(d, options, row, engine, len(divergences)) for d in divergences[: options.max_reports]]
    first = shown[0]
    details: JSON = {**summary, **first.details, "divergent_cases": len(divergences), "rules_broken": list(first.rules),
                     "counterexamples": [{"case": r.details.get("case"), "message": r.message,
                                          "expected": r.expected, "actual": r.actual, "reproduce": r.reproduce}
                                         for r in shown]}
    worst = next((d.outcome for d in divergences if d.outcome is not Outcome.FAIL), Outcome.FAIL)
    return CheckResult(SUITE, cid, title, worst, rules=tuple(dict.fromkeys((*rules, *first.rules))),
                       cards=first.cards, expected=first.expected,
                       actual=first.actual, message=first.message, reproduce=first.reproduce,
                       duration=float(summary["seconds"]), details=details)
