"""``oracle z3 export DIR``: the models' boundary cases as scenario files any engine can run.

* ``payments/``: for every collection of up to 3 stones and each of the 8 stone-value assignments (Agni,
  Water Giant, Hae-tae in the area), a hand with one card of each cost from 0 up to one more than the
  stones are worth; every minimal payment is ``legal`` and every other sub-collection ``not_legal``,
  and one overpaying payment, one superfluous and one short payment are tried (PAY-1..PAY-5, RUL-16).
* ``limit/``: one stone below, at and above the limit (4, and 6 with Hestia), for every collection of
  those sizes: the keep decision is asked exactly above the limit, every sub-collection of exactly the
  limit is a legal choice, keeping one stone more is rejected, and keeping ends the decision (LIMIT-1/2).
* ``upgrades/``: Duduri King's one upgrade per sale, for the sales whose upgrade leaves no choice
  (Fire, Water, Earth, Dragon), with stones held before the sale that must not be upgraded (RUL-8;
  requires the expansion). Upgrades with a choice (Duduri, Book of Thoth, a Wind sale) need the choice
  vocabulary of the Artifacts protocol and come with the engine's Artifacts support.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from oracle.model import Family, Stones
from oracle.z3check import models as m
from oracle.z3check.conformance import (
    HESTIA,
    PLAYER,
    SUMMON_CARDS,
    Follow,
    case_by_id,
)
from oracle.z3check.scenario_out import card_name, scenario_id, write_scenario

JSON = dict[str, Any]
SOURCE = "z3 model boundary case (oracle z3 export)"
PAYMENT_MAX_STONES = 3
DUDURI_KING = "art-earth-02"
SALE_CARDS = {
    Family.FIRE: "base-fire-05",  # Salamander
    Family.WATER: "base-water-03",  # Sea Spirit
    Family.EARTH: "base-earth-02",  # Goblin
    Family.DRAGON: "base-dragon-02",  # Tidal
}
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
    if probe.stones_after is not None:
        step["expect"] = {"players": [{"stones": probe.stones_after.to_json()}]}
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
    for family, card in SALE_CARDS.items():
        held = SALE_HELD[family]
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


def export_boundaries(directory: Path) -> dict[str, list[Path]]:
    """Write every boundary scenario below ``directory``; the paths written, by group."""
    groups = {"payments": payment_scenarios(), "limit": limit_scenarios(), "upgrades": upgrade_scenarios()}
    return {group: [write_scenario(directory, doc, group) for doc in docs] for group, docs in groups.items()}

