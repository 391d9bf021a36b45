"""The holding-limit row of the conformance table (LIMIT-1, LIMIT-2)."""

from __future__ import annotations

from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.scenarios.writer import card_name
from oracle.suites.z3 import models as m
from oracle.suites.z3.conform_actions import describe, keep_action, parse_label, payment_of
from oracle.suites.z3.conform_payments import HESTIA
from oracle.suites.z3.conform_types import PLAYER, Case, Diagnosis, Follow


def limit_domain() -> list[str]:
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
    return which == "hestia", parse_label(label)


def limit_build(key: str) -> Case:
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
            Follow(keep_action(kept), ("LIMIT-2",), stones_after=kept, decision_kind="action"),
            Follow(keep_action(kept + extra), ("LIMIT-2",), reject=("KEEP_WRONG_COUNT", "LIMIT-2")),
        )
    area = [HESTIA] if hestia else []
    return Case(
        row="holding-limit", key=key,
        title=f"holding [{held}] ({held.total} stones) with a limit of {limit}" + (" (Hestia)" if hestia else ""),
        given={"round": 2, "players": [{"area": area, "stones": held.to_json()}]},
        decision=decision,
        expected=tuple(keep_action(k) for k in choices),
        follow=follow,
        facts={"held": held.to_json(), "limit": limit, "hestia": hestia, "over": over},
        cards=tuple(card_name(c) for c in area),
    )


def limit_compared(action: JSON) -> bool:
    return action.get("type") == "keep_stones"


def limit_diagnose(case: Case, missing: list[JSON], extra: list[JSON]) -> Diagnosis:
    hestia, held = _limit_key(case.key)
    limit = m.holding_limit(hestia)
    if extra:
        wrong = [a for a in extra if (payment_of(a) or Stones(-1)).total != limit]
        unheld = [a for a in extra if (s := payment_of(a)) is None or not held.contains(s)]
        if unheld:
            return Diagnosis(("LIMIT-2",), f"offers keeping stones not held: {describe(unheld)}",
                             ("STONES_NOT_HELD", "LIMIT-2"))
        sizes = sorted({(payment_of(a) or Stones()).total for a in wrong})
        return Diagnosis(("LIMIT-1", "LIMIT-2"), f"offers keeping {sizes} stones instead of exactly {limit}:"
                                                 f" {describe(wrong)}", ("KEEP_WRONG_COUNT", "LIMIT-2"))
    return Diagnosis(("LIMIT-2",), f"refuses legal keep choices (any {limit} of the stones held): {describe(missing)}")
