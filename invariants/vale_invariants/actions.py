"""Actions as data: canonical keys, the order the fuzzer chooses in, and illegal actions to try.

* :func:`action_key` makes two spellings of the same action equal (``{"red": 1}`` and
  ``{"red": 1, "blue": 0, "purple": 0}``; chosen cards in any order, unless the decision is ``ordered``).
* :func:`greedy` is the fuzzer's default choice (summon the dearest card, keep the most valuable stones):
  Hypothesis shrinks each choice towards it, so minimal traces read like plausible play, and taking it
  for about half of the draws reaches deeper positions than uniform choices.
* :func:`probe_pool` builds illegal actions of three kinds: candidates the engine does not list,
  corrupted payments (one stone more is superfluous or not held, one stone less is short), and
  protocol misuse (another player, a type that does not answer the decision, an unknown card).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.core.protocol import ANSWERS, ActionType, DecisionKind
from oracle.engines.candidates import candidate_actions

Key = tuple[tuple[str, Any], ...]

STONE_KEYS = ("payment", "stones")
ORDERED_LISTS = ("order",)
VALUES = {"red": 1, "blue": 3, "purple": 6}
COLOURS = ("red", "blue", "purple")
UNKNOWN_CARD = "no-such-card"

PROBE_UNLISTED = 1
PROBE_CORRUPT = 2
PROBE_PROTOCOL = 3


def _norm(key: str, value: Any, ordered: bool = False) -> Any:
    if isinstance(value, dict):
        if key in STONE_KEYS:
            return tuple(value.get(c, 0) for c in COLOURS) + tuple(
                sorted((k, v) for k, v in value.items() if k not in COLOURS)
            )
        return tuple(sorted((str(k), _norm(str(k), v)) for k, v in value.items()))
    if isinstance(value, list):
        items = tuple(_norm(key, v) for v in value)
        if ordered or key in ORDERED_LISTS:
            return items
        try:
            return tuple(sorted(items))
        except TypeError:
            return items
    if value is None:
        return -1
    return value


def action_key(action: JSON, ordered: bool = False) -> Key:
    """A hashable, orderable key: equal for two spellings of the same action. The chosen cards of an answer to
    an ``ordered`` decision (EFF-8, :func:`oracle.core.protocol.answer_is_ordered`) keep their order."""
    out: list[tuple[str, Any]] = []
    for key in sorted(action):
        value = action[key]
        kind = type(value)
        if kind is str or kind is int:
            out.append((key, value))
        elif value is None:
            out.append((key, -1))
        elif kind is dict and key in STONE_KEYS and len(value) <= 3 and all(c in COLOURS for c in value):
            out.append((key, (value.get("red", 0), value.get("blue", 0), value.get("purple", 0))))
        else:
            out.append((key, _norm(key, value, ordered)))
    return tuple(out)


def sort_key(action: JSON) -> tuple[Any, ...]:
    """A cheap total order on the actions of one decision (they share a shape), for :func:`rank`."""
    stones = action.get("payment") or action.get("stones")
    counts = (stones.get("red", 0), stones.get("blue", 0), stones.get("purple", 0)) if isinstance(stones, dict) else ()
    target = action.get("target")
    return (str(action.get("type", "")), str(action.get("card", "")), counts,
            target if isinstance(target, int) else -1, tuple(map(str, action.get("cards") or ())),
            tuple(map(str, action.get("options") or ())), tuple(map(str, action.get("order") or ())))


def keys_of(actions: list[JSON], ordered: bool = False) -> set[Key]:
    return {action_key(a, ordered) for a in actions}


def _cost(card_id: Any) -> int:
    card = catalogue().cards.get(card_id) if isinstance(card_id, str) else None
    return card.cost if card is not None else 0


def _worth(stones: Any) -> int:
    if not isinstance(stones, dict):
        return 0
    return sum(VALUES.get(c, 0) * n for c, n in stones.items() if isinstance(n, int))


def _preference(pending: JSON, snapshot: JSON | None) -> Callable[[JSON], tuple[int, ...]]:
    """How much the fuzzer likes an action (lower first): the greedy choice is the minimum."""
    kind = pending.get("kind")
    if kind == DecisionKind.HUNT_PICK.value:
        return lambda a: (-_cost(a.get("card")),)
    if kind == DecisionKind.KEEP_STONES.value:
        return lambda a: (-_worth(a.get("stones")),)
    if kind != DecisionKind.ACTION.value:
        return lambda a: (0,)
    worth = 0
    player = pending.get("player")
    if snapshot is not None and isinstance(player, int) and 0 <= player < len(snapshot.get("players", [])):
        worth = _worth(snapshot["players"][player].get("stones"))

    def preference(action: JSON) -> tuple[int, ...]:
        kind = action.get("type")
        if kind == ActionType.SUMMON.value:
            paid = action.get("payment")
            count = sum(paid.values()) if isinstance(paid, dict) else 0
            return (0, -_cost(action.get("card")), count)
        if kind in (ActionType.SELL.value, ActionType.TAME.value):
            affordable = _cost(action.get("card")) <= worth + 2
            good = (kind == ActionType.TAME.value) == affordable
            return (1 if good else 2, 0, 0)
        if kind == "use_artifact":
            return (1, 0, 0)
        if kind == ActionType.END_TURN.value:
            return (3, 0, 0)
        return (4, 0, 0)

    return preference


def greedy(pending: JSON, legal: list[JSON], snapshot: JSON | None) -> JSON:
    """The fuzzer's default choice: summon the dearest card, tame what the stones can pay for, sell the rest,
    then end the turn; pick the dearest card; keep the most valuable stones. Ties: the first listed."""
    if len(legal) == 1:
        return legal[0]
    return min(legal, key=_preference(pending, snapshot))


def rank(pending: JSON, legal: list[JSON], snapshot: JSON | None) -> list[JSON]:
    """The legal actions in the fuzzer's order of preference (deterministic, engine-independent)."""
    preference = _preference(pending, snapshot)
    return sorted(legal, key=lambda a: (preference(a), sort_key(a)))


def _with(action: JSON, **changes: Any) -> JSON:
    out = dict(action)
    out.update(changes)
    return out


def _corrupted(action: JSON) -> list[JSON]:
    out: list[JSON] = []
    for key in STONE_KEYS:
        stones = action.get(key)
        if not isinstance(stones, dict):
            continue
        base = {c: stones.get(c, 0) for c in COLOURS}
        for colour in COLOURS:
            out.append(_with(action, **{key: {**base, colour: base[colour] + 1}}))
            if base[colour] > 0:
                out.append(_with(action, **{key: {**base, colour: base[colour] - 1}}))
    order = action.get("order")
    if isinstance(order, list) and order:
        out.append(_with(action, order=order[1:]))
        out.append(_with(action, order=[*order, order[0]]))
    return out


def _protocol_misuse(pending: JSON, legal: list[JSON], players: int) -> list[JSON]:
    out: list[JSON] = []
    player = pending.get("player")
    sample = legal[0] if legal else {"type": "end_turn", "player": player}
    others = [p for p in range(players) if p != player]
    if others:
        out.append(_with(sample, player=others[0]))
    if player is not None:
        out.append(_with(sample, player=None))
    try:
        answers = ANSWERS[DecisionKind(pending.get("kind"))]
    except ValueError:
        answers = frozenset()
    for wrong in (ActionType.END_TURN, ActionType.PICK, ActionType.KEEP_STONES):
        if wrong not in answers:
            out.append({"type": wrong.value, "player": player, "card": sample.get("card", UNKNOWN_CARD),
                        "stones": {"red": 0, "blue": 0, "purple": 0}})
            break
    if "card" in sample:
        out.append(_with(sample, card=UNKNOWN_CARD))
    out.append({"type": "no-such-action", "player": player})
    return out


def _sampled_candidates(pending: JSON, snapshot: JSON | None, salt: int) -> list[JSON] | None:
    """A few candidates of an Action decision drawn from ``salt`` (enumerating every payment of every card
    would cost more than the decision itself); None for other decisions."""
    player = pending.get("player")
    if pending.get("kind") != DecisionKind.ACTION.value or snapshot is None or not isinstance(player, int):
        return None
    me = snapshot["players"][player]
    held = {c: me.get("stones", {}).get(c, 0) for c in COLOURS}
    rng = random.Random(salt)
    out: list[JSON] = [{"type": "end_turn", "player": player}]
    for card in me.get("markers", []):
        out.append({"type": rng.choice(("sell", "tame")), "player": player, "card": card})
    for kind, zone in (("summon", "hand"), ("remove", "area")):
        cards = me.get(zone, [])
        for _ in range(min(3, len(cards))):
            payment = {c: rng.randint(0, held[c]) for c in COLOURS}
            out.append({"type": kind, "player": player, "card": rng.choice(cards), "payment": payment})
    return out


def probe_pool(category: int, pending: JSON, snapshot: JSON | None, legal: list[JSON], players: int,
               salt: int = 0) -> list[JSON]:
    """Candidate illegal actions of one category for the pending decision (:func:`pick_probe` skips any the
    engine lists as legal)."""
    if category == PROBE_UNLISTED:
        if pending.get("kind") == DecisionKind.SHUFFLE.value:
            return []
        sampled = _sampled_candidates(pending, snapshot, salt)
        try:
            pool = sampled if sampled is not None else candidate_actions(pending, snapshot)
        except (KeyError, TypeError, ValueError):
            pool = []
    elif category == PROBE_CORRUPT:
        payable = [a for a in legal if any(isinstance(a.get(k), dict) for k in STONE_KEYS) or "order" in a]
        chosen = [payable[(salt + i) % len(payable)] for i in range(min(2, len(payable)))]
        pool = [c for a in chosen for c in _corrupted(a)]
    elif category == PROBE_PROTOCOL:
        pool = _protocol_misuse(pending, legal, players)
    else:
        return []
    return pool


def pick_probe(pool: list[JSON], legal_keys: set[Key], start: int, ordered: bool = False) -> JSON | None:
    """The first action of ``pool`` from ``start`` on (cyclically) that is not legal; None if all are."""
    for offset in range(len(pool)):
        action = pool[(start + offset) % len(pool)]
        if action_key(action, ordered) not in legal_keys:
            return action
    return None
