"""The Artifacts rows of the conformance table: the Incense Burner's price; Book of Thoth, Duduri, King upgrades."""

from __future__ import annotations

from oracle.core.json_types import JSON
from oracle.core.model import Family, Stones
from oracle.scenarios.writer import card_name
from oracle.suites.z3 import models as m
from oracle.suites.z3.conform_actions import describe, parse_label, payment_of
from oracle.suites.z3.conform_payments import (
    HESTIA,
    HIPPOGRIFF,
    PEGASUS,
    area_for,
    classify_payments,
    explain_by_cost,
    explain_by_values,
    payment_facts,
    payment_probes,
)
from oracle.suites.z3.conform_types import PLAYER, Case, Diagnosis, Follow

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
SUMMON_ROWS = frozenset({"summon-payment", "remove-payment", "summon-cost"})


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
        answer = payment_of(action)
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


def incense_domain() -> list[str]:
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
    return parse_label(label), m.ValueCards.parse(cards), names, n


def incense_build(key: str) -> Case:
    held, cards, effects, areas = _incense_key(key)
    values = cards.values
    area = area_for(cards, held) + [COST_EFFECTS[e] for e in effects]
    price = m.INCENSE_BURNER_PRICE
    given: JSON = {"setup": dict(ARTIFACTS_SETUP), "round": len(area) + 1, "players": [{
        "area": area, "stones": held.to_json(), "artifact": INCENSE_BURNER, "extra_areas": areas}]}
    where = f"holding [{held}] at {values} ({cards.label}), {_effects_label(effects)} in the area, {areas} extra areas"
    facts = payment_facts(held, values, cards, price, cost_effects=list(effects), extra_areas=areas,
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
        follow=payment_probes(_price_action, held, values, price, legal, player_after={"extra_areas": areas + 1},
                               player_rules=("ART-8",)),
        prelude=(_use_artifact(), {"type": "choose_options", "player": PLAYER, "options": ["buy_area"]}),
        facts=facts, cards=tuple(names),
    )


def incense_compared(action: JSON) -> bool:
    kind = action.get("type")
    options = action.get("options")
    return kind == "pay" or (kind == "choose_options" and isinstance(options, list) and "buy_area" in options)


def incense_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
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
        return explain_by_values(held, cards, price, actual) or explain_by_cost(
            held, values, price, actual, "RUL-9", f"price ({_effects_label(effects)} in the area)")

    base = classify_payments(case, missing, extra, held, values, price, explain)
    return Diagnosis(tuple(dict.fromkeys((*base.rules, "RUL-9"))), base.message, base.reject)


# ----------------------------------------------------------------------------- row: Book of Thoth upgrades

_THOTH = m.UpgradeSource.BOOK_OF_THOTH
_THOTH_RULES = ("STONE-2", "RUL-8")


def held_domain() -> list[str]:
    return [m.stones_label(held) for held in m.stone_collections(m.MAX_STONES)]


def thoth_build(key: str) -> Case:
    held = parse_label(key)
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


def thoth_compared(action: JSON) -> bool:
    return action.get("type") in ("upgrade_stones", "use_artifact")


def thoth_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    held = parse_label(case.key)
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


def duduri_build(key: str) -> Case:
    held = parse_label(key)
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


def duduri_compared(action: JSON) -> bool:
    return action.get("type") == "upgrade_stones" or (action.get("type") == "summon" and action.get("card") == DUDURI)


def duduri_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    held = parse_label(case.key)
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


def king_domain() -> list[str]:
    top = m.holding_limit(True)
    return [f"{family.value}/{m.stones_label(held)}" for family in Family
            for held in m.stone_collections(top - m.sale_stones(family).total)]


def _king_key(key: str) -> tuple[Family, Stones]:
    family, label = key.split("/")
    return Family(family), parse_label(label)


def king_build(key: str) -> Case:
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


def king_compared(action: JSON) -> bool:
    return action.get("type") in ("upgrade_stones", "sell")


def king_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    family, _ = _king_key(case.key)
    sells = [a for a in (*missing, *extra) if a.get("type") == "sell"]
    if sells:
        return Diagnosis(("SELL-1",), f"the sales differ: expected {describe(case.expected)}; missing"
                                      f" {describe(missing)}, extra {describe(extra)}")
    return _classify_upgrades(missing, extra, m.sale_stones(family), _KING, _KING_RULES,
                              "stones received from the sale")
