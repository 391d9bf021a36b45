"""``oracle z3 export DIR``: the models' boundary cases as scenario files any engine can run.

* ``payments/``: for every collection of up to 3 stones and each of the 8 stone-value assignments (Agni,
  Water Giant, Hae-tae in the area), a hand with one card of each cost from 0 up to one more than the
  stones are worth; every minimal payment is ``legal`` and every other sub-collection ``not_legal``,
  and one overpaying payment, one superfluous and one short payment are tried (PAY-1..PAY-5, RUL-16).
* ``limit/``: one stone below, at and above the limit (4, and 6 with Hestia), for every collection of
  those sizes: the keep decision is asked exactly above the limit, every sub-collection of exactly the
  limit is a legal choice, keeping one stone more is rejected, and keeping ends the decision (LIMIT-1/2).
* ``incense/``: the Incense Burner's price (requires the expansion and the artifact tiles): for every
  collection of up to 3 stones and each of the 8 stone-value assignments, with Pegasus, Hippogriff and
  Belphegor in the area, buying an area is offered exactly when a legal payment of 3 exists; then every
  minimal payment of 3 is ``legal``, every other sub-collection ``not_legal``, a superfluous and a short
  payment are rejected, and paying leaves ``held - paid`` and one Additional Area (RUL-9, ART-8, PAY-*).
* ``upgrades/``: Duduri King's one upgrade per sale, for the sales whose upgrade leaves no choice
  (Fire, Water, Earth, Dragon), with stones held before the sale that must not be upgraded (RUL-8;
  requires the expansion); and the upgrade decisions with a choice, each answer ``legal`` or
  ``not_legal`` as the model says, the illegal ones rejected (UPGRADE_INVALID, STONE-2), one applied:
  the Book of Thoth (1 or 2 different red / blue stones; requires the artifact tiles), Duduri (exactly
  one) for every collection of up to 4 stones, and Duduri King on a Wind sale (one of the red and blue
  stones received) for every collection of up to 2 stones held before it.
"""

from __future__ import annotations

from pathlib import Path

from oracle.core.json_types import JSON
from oracle.core.model import Family, Stones
from oracle.scenarios.match import canonical_action
from oracle.scenarios.writer import card_name, scenario_id, write_scenario
from oracle.suites.z3 import models as m
from oracle.suites.z3.conformance import (
    HESTIA,
    PLAYER,
    SALE_CARDS,
    SUMMON_CARDS,
    Case,
    Follow,
    case_by_id,
)

SOURCE = "z3 model boundary case (oracle z3 export)"
PAYMENT_MAX_STONES = 3
DUDURI_KING = "art-earth-02"
INCENSE_MAX_STONES = 3
INCENSE_EFFECTS = "pegasus+hippogriff+belphegor"
UPGRADE_MAX_STONES = 4
WIND_SALE_MAX_STONES = 2
ARTIFACTS = ["expansion", "artifacts"]
SALE_HELD = {Family.FIRE: Stones(blue=1), Family.WATER: Stones(red=1), Family.EARTH: Stones(blue=1),
             Family.DRAGON: Stones(red=1)}
"""Stones held before the sale, chosen so that upgrading one of them instead shows in the colour counts."""


def _summon(card: str, paid: Stones) -> JSON:
    return {"type": "summon", "player": PLAYER, "card": card, "payment": paid.to_json()}


def _probe_step(probe: Follow) -> JSON:
    if probe.reject is not None:
        code, rule = probe.reject
        return {"do": probe.action, "reject": {"code": code, "rule": rule}}
    step: JSON = {"do": probe.action}
    player: JSON = dict(probe.player_after)
    if probe.stones_after is not None:
        player["stones"] = probe.stones_after.to_json()
    if player:
        step["expect"] = {"players": [player]}
    if probe.decision_kind is not None:
        step["decision"] = {"kind": probe.decision_kind, "player": PLAYER}
    return step


def payment_scenarios() -> list[JSON]:
    docs = []
    for held in m.stone_collections(PAYMENT_MAX_STONES):
        for cards in m.ALL_VALUE_CARDS:
            values = cards.values
            top = min(max(SUMMON_CARDS), values.worth(held) + 1)
            costs = [c for c in SUMMON_CARDS if c <= top]
            hand = [SUMMON_CARDS[c] for c in costs]
            area = list(cards.card_ids)
            legal: list[JSON] = []
            not_legal: list[JSON] = []
            for cost, card in zip(costs, hand, strict=True):
                allowed = m.payments(held, values, cost)
                for paid in held.sub_collections():
                    (legal if paid in allowed else not_legal).append(_summon(card, paid))
            steps: list[JSON] = [{
                "note": f"every payment the z3 model allows for costs {costs[0]}..{costs[-1]} at {values}",
                "decision": {"kind": "action", "player": PLAYER},
            }]
            if legal:
                steps[0]["legal"] = legal
            if not_legal:
                steps[0]["not_legal"] = not_legal
            probes = _payment_probes(held, cards, costs)
            steps += [_probe_step(p) for p in probes if p.reject is not None]
            steps += [_probe_step(p) for p in probes if p.reject is None][:1]
            pinned = {"PAY-1", "PAY-3", "PAY-5"} | ({"PAY-2"} if any(p.reject is None for p in probes) else set())
            if cards.names:
                pinned |= {"PAY-4", "RUL-16"}
            rules = [r for r in ("PAY-1", "PAY-2", "PAY-3", "PAY-4", "PAY-5", "RUL-16") if r in pinned]
            docs.append({
                "id": scenario_id(f"z3-pay-{m.stones_label(held)}-{cards.label}"),
                "title": f"Holding [{held}] at {values} ({cards.label}): the legal payments of each cost"
                         f" 0..{costs[-1]} are exactly the minimal ones",
                "rules": rules,
                "cards": [card_name(c) for c in (*area, *hand)],
                "source": SOURCE,
                "given": {"round": len(area) + 1, "players": [{"hand": hand, "area": area, "stones": held.to_json()}]},
                "steps": steps,
            })
    return docs


def _payment_probes(held: Stones, cards: m.ValueCards, costs: list[int]) -> list[Follow]:
    """A superfluous and a short payment (rejected) and an overpaying one (no change), from the z3 rows' cases."""
    found: dict[str, Follow] = {}
    for cost in costs:
        _, case = case_by_id(f"summon-payment/{m.stones_label(held)}/{cards.label}/cost-{cost}")
        for probe in case.follow:
            found.setdefault(probe.reject[1] if probe.reject else "accept", probe)
    return list(found.values())


def limit_scenarios() -> list[JSON]:
    docs = []
    for hestia in (False, True):
        limit = m.holding_limit(hestia)
        for held in m.stone_collections(limit + 1, min_total=limit - 1):
            _, case = case_by_id(f"holding-limit/{'hestia' if hestia else 'base'}/{m.stones_label(held)}")
            first: JSON = {"decision": case.decision}
            if case.expected:
                first["legal"] = list(case.expected)
                first["not_legal"] = [
                    {"type": "keep_stones", "player": PLAYER, "stones": s.to_json()}
                    for s in held.sub_collections() if s.total in (limit - 1, limit + 1)
                ]
            steps = [first]
            steps += [_probe_step(p) for p in case.follow if p.reject is not None]
            steps += [_probe_step(p) for p in case.follow if p.reject is None]
            where = "above" if held.total > limit else ("at" if held.total == limit else "below")
            docs.append({
                "id": scenario_id(f"z3-limit-{'hestia' if hestia else 'base'}-{m.stones_label(held)}"),
                "title": f"Holding [{held}], {held.total} stones, {where} the limit of {limit}"
                         + (" (Hestia)" if hestia else "")
                         + (f": keep any {limit}, exactly" if held.total > limit else ": no stone to discard"),
                "rules": ["LIMIT-1", "LIMIT-2"] if held.total > limit else ["LIMIT-1"],
                "cards": [card_name(HESTIA)] if hestia else [],
                "source": SOURCE,
                "given": case.given,
                "steps": steps,
            })
    return docs


def upgrade_scenarios() -> list[JSON]:
    docs = []
    for family, held in SALE_HELD.items():
        card = SALE_CARDS[family]
        after = m.duduri_king_sale(held, family)
        if len(after) != 1:
            continue
        (result,) = after
        received = m.sale_stones(family)
        docs.append({
            "id": scenario_id(f"z3-upgrade-duduri-king-{family.value}-sale"),
            "title": f"Duduri King: selling a {family.value.title()} card ({received}) while holding [{held}]"
                     f" upgrades exactly one received stone one step: [{result}]",
            "rules": ["RUL-8", "SELL-1"],
            "cards": [card_name(DUDURI_KING), card_name(card)],
            "source": SOURCE + "; Duduri King, one upgrade per sale, received stones only",
            "requires": ["expansion"],
            "given": {
                "setup": {"expansion": True},
                "display": [card],
                # Hestia lifts the limit to 6, so an Earth sale's 4 red stones and the one held need no keep.
                "players": [{"area": [DUDURI_KING, HESTIA], "markers": [card], "stones": held.to_json()}],
            },
            "steps": [{
                "do": {"type": "sell", "player": PLAYER, "card": card},
                "expect": {"players": [{"stones": result.to_json()}]},
                "decision": {"kind": "action", "player": PLAYER},
            }],
        })
    return docs


def _case_steps(case: Case, universe: list[JSON], decision: JSON | None = None,
                also_legal: tuple[JSON, ...] = ()) -> list[JSON]:
    """A row's case as scenario steps: its prelude, then the decision with every action of ``universe`` legal
    or not as the model says, the model's rejections, and its accepted follow-up (at most one)."""
    steps: list[JSON] = [{"do": action} for action in case.prelude]
    if not steps:
        steps.append({})
    steps[-1]["decision"] = decision or case.decision
    legal = [*case.expected, *also_legal]
    keys = {canonical_action(a) for a in case.expected}
    check: JSON = {}
    if legal:
        check["legal"] = legal
    not_legal = [a for a in universe if canonical_action(a) not in keys]
    if not_legal:
        check["not_legal"] = not_legal
    if check:
        steps.append(check)
    steps += [_probe_step(p) for p in case.follow if p.reject is not None]
    steps += [_probe_step(p) for p in case.follow if p.reject is None][:1]
    return steps


def _pay(paid: Stones) -> JSON:
    return {"type": "pay", "player": PLAYER, "payment": paid.to_json()}


def _upgrade(answer: Stones) -> JSON:
    return {"type": "upgrade_stones", "player": PLAYER, "stones": answer.to_json()}


def _choose(option: str) -> JSON:
    return {"type": "choose_options", "player": PLAYER, "options": [option]}


def incense_scenarios() -> list[JSON]:
    docs = []
    for held in m.stone_collections(INCENSE_MAX_STONES):
        for cards in m.ALL_VALUE_CARDS:
            _, case = case_by_id(f"incense-burner-price/{m.stones_label(held)}/{cards.label}/{INCENSE_EFFECTS}/areas-0")
            values = cards.values
            offered = m.incense_buy_offered(held, values, 0)
            if offered:
                steps = _case_steps(case, [_pay(p) for p in held.sub_collections()])
                steps[0]["decision"] = {"kind": "choose_options", "player": PLAYER}
                steps.insert(1, {"legal": [_choose("buy_area"), _choose("shelter_top_2")]})
                rules = ["RUL-9", "ART-8", "PAY-1", "PAY-2", "PAY-3", "PAY-5"]
                outcome = f"pay exactly like a cost of {m.INCENSE_BURNER_PRICE}"
            else:
                steps = _case_steps(case, [_choose("buy_area")], also_legal=(_choose("shelter_top_2"),))
                rules = ["RUL-9", "ART-8", "PAY-1"]
                outcome = f"buying an area is not offered (no legal payment of {m.INCENSE_BURNER_PRICE})"
            if cards.names:
                rules += ["PAY-4", "RUL-16"]
            docs.append({
                "id": scenario_id(f"z3-incense-{m.stones_label(held)}-{cards.label}"),
                "title": f"Incense Burner holding [{held}] at {values} ({cards.label}), Pegasus, Hippogriff and"
                         f" Belphegor in the area: {outcome}",
                "rules": rules,
                "cards": list(dict.fromkeys(case.cards)),
                "source": SOURCE + "; the Incense Burner's price is never reduced or fixed",
                "requires": list(ARTIFACTS),
                "given": case.given,
                "steps": steps,
            })
    return docs


def _upgrade_universe(held: Stones, eligible: Stones, allowed: int) -> list[JSON]:
    """Every answer within one step of the legal ones: a red gone on to purple, a purple, one stone too many."""
    return [_upgrade(Stones(r, b, p)) for r in range(eligible.red + 1) for b in range(eligible.blue + r + 1)
            for p in range(min(held.purple, 1) + 1) if r + b + p <= allowed + 1]


def _upgrade_decision(case: Case, eligible: Stones) -> JSON:
    if case.decision.get("kind") != "upgrade_stones":
        return case.decision
    return {**case.decision, "eligible": eligible.to_json(), "min": 1}


def _upgrade_doc(case: Case, held: Stones, eligible: Stones, source: m.UpgradeSource, rules: list[str],
                 requires: list[str], name: str, title: str) -> JSON:
    universe = _upgrade_universe(held, eligible, source.allowed)
    if case.decision.get("kind") != "upgrade_stones":
        universe = []
    return {
        "id": scenario_id(name),
        "title": title,
        "rules": rules,
        "cards": list(dict.fromkeys(case.cards)),
        "source": SOURCE + f"; {source.title}: distinct stones, one step each, never twice, never a purple",
        "requires": requires,
        "given": case.given,
        "steps": _case_steps(case, universe, _upgrade_decision(case, eligible)),
    }


def choice_upgrade_scenarios() -> list[JSON]:
    docs = []
    for held in m.stone_collections(UPGRADE_MAX_STONES):
        label = m.stones_label(held)
        eligible = Stones(red=held.red, blue=held.blue)
        usable = bool(eligible.total)
        _, case = case_by_id(f"book-of-thoth-upgrade/{label}")
        docs.append(_upgrade_doc(
            case, held, eligible, m.UpgradeSource.BOOK_OF_THOTH,
            ["RUL-8", "STONE-2"] if usable else ["ART-5", "STONE-2"], list(ARTIFACTS),
            f"z3-upgrade-book-of-thoth-{label}",
            f"Book of Thoth holding [{held}]: " + ("upgrade 1 or 2 different red or blue stones one step each,"
                                                   " never one twice, never a purple"
                                                   if usable else "no red or blue stone, it cannot be used")))
        _, case = case_by_id(f"duduri-upgrade/{label}")
        docs.append(_upgrade_doc(
            case, held, eligible, m.UpgradeSource.DUDURI,
            ["STONE-2"] if usable else ["SUM-4", "STONE-2"], ["expansion"],
            f"z3-upgrade-duduri-{label}",
            f"Duduri holding [{held}]: " + ("upgrade exactly one red or blue stone one step"
                                            if usable else "no stone can go up, Duduri cannot be summoned")))
    received = m.sale_stones(Family.WIND)
    for held in m.stone_collections(WIND_SALE_MAX_STONES):
        label = m.stones_label(held)
        _, case = case_by_id(f"duduri-king-sale/{Family.WIND.value}/{label}")
        docs.append(_upgrade_doc(
            case, held + received, received, m.UpgradeSource.DUDURI_KING, ["RUL-8", "STONE-2", "SELL-1"],
            ["expansion"], f"z3-upgrade-duduri-king-wind-sale-{label}",
            f"Duduri King: selling a Wind card ({received}) while holding [{held}] upgrades one of the two"
            " received stones one step, the player's choice"))
    return docs


def export_boundaries(directory: Path) -> dict[str, list[Path]]:
    """Write every boundary scenario below ``directory``; the paths written, by group."""
    groups = {"payments": payment_scenarios(), "limit": limit_scenarios(), "incense": incense_scenarios(),
              "upgrades": upgrade_scenarios() + choice_upgrade_scenarios()}
    return {group: [write_scenario(directory, doc, group) for doc in docs] for group, docs in groups.items()}

