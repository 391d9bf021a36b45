"""Legality, written once: each answer to a decision has one check that returns a typed rejection.

``check`` is used both to reject illegal actions and to filter the candidates into the list of legal
actions, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.core.protocol import ANSWERS, ActionType, DecisionKind, Rejection, RejectionCode
from oracle.reference.decisions import DecisionSpec, selections
from oracle.reference.effects.registry import INSTANT, TILES, TileAbility, always, instant_can_resolve
from oracle.reference.payment import check_payment, legal_payments
from oracle.reference.table import Table


def _reject(code: RejectionCode, rule: str, message: str) -> Rejection:
    return Rejection(code, rule, message)


ACTION_TYPES: dict[str, ActionType] = {t.value: t for t in ActionType}
"""Each action type by its name in the protocol (a dict lookup is several times cheaper than ``ActionType(name)``)."""


def _card_field(table: Table, action: JSON, key: str = "card") -> str | Rejection:
    value = action.get(key)
    if not isinstance(value, str):
        return _reject(RejectionCode.MALFORMED_ACTION, "DEC-2", f"'{key}' must be a card id")
    if value not in table.cards.cards:
        return _reject(RejectionCode.UNKNOWN_CARD, "DEC-2", f"unknown card id {value!r}")
    return value


def _stones_field(action: JSON, key: str) -> Stones | Rejection:
    value = action.get(key)
    if not isinstance(value, dict):
        return _reject(RejectionCode.MALFORMED_ACTION, "DEC-2", f"'{key}' must be an object of stone counts")
    try:
        return Stones.from_json(value)
    # A stone count that is not a whole number from 0: tests/test_reference_plumbing.py.
    except ValueError as exc:  # pragma: no cover - the scenario schema cannot write it
        return _reject(RejectionCode.MALFORMED_ACTION, "DEC-2", f"'{key}': {exc}")


def _strings_field(action: JSON, key: str) -> list[str] | Rejection:
    value = action.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return _reject(RejectionCode.MALFORMED_ACTION, "DEC-2", f"'{key}' must be a list of strings")
    return list(value)


def check(table: Table, spec: DecisionSpec | None, action: object) -> Rejection | None:
    """Why ``action`` does not legally answer the pending decision ``spec``; None if it does."""
    if spec is None:
        return _reject(RejectionCode.GAME_OVER, "DEC-3", "the game is over")
    # An action that is not an object: tests/test_reference_plumbing.py.
    if not isinstance(action, dict):  # pragma: no cover - the scenario schema cannot write it
        return _reject(RejectionCode.MALFORMED_ACTION, "DEC-2", "an action must be a JSON object")
    action_type = ACTION_TYPES.get(action.get("type"))  # type: ignore[arg-type]
    # An action type the protocol does not know: tests/test_reference_plumbing.py.
    if action_type is None:  # pragma: no cover - the scenario schema cannot write it
        return _reject(RejectionCode.MALFORMED_ACTION, "DEC-2", f"unknown action type {action.get('type')!r}")
    player = action.get("player")
    if player != spec.player or isinstance(player, bool):
        who = "chance" if spec.player is None else f"player {spec.player}"
        return _reject(RejectionCode.NOT_YOUR_DECISION, "DEC-1", f"the pending decision belongs to {who}")
    if action_type not in ANSWERS[spec.kind]:
        return _reject(
            RejectionCode.WRONG_DECISION, "DEC-2",
            f"a {action_type.value!r} action does not answer a {spec.kind.value!r} decision",
        )
    return _CHECKS[action_type](table, spec, action)


def _check_pick(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    card_id = _card_field(table, action)
    if isinstance(card_id, Rejection):
        return card_id
    if card_id not in table.state.display:
        return _reject(RejectionCode.CARD_NOT_IN_DISPLAY, "HUNT-1", f"{card_id} is not in the display")
    if any(card_id in p.markers for p in table.state.players):
        return _reject(RejectionCode.CARD_ALREADY_MARKED, "HUNT-4", f"{card_id} already carries a marker")
    return None


def _card_among(
    table: Table, action: JSON, among: Collection[str], rejection: Callable[[str], Rejection]
) -> Rejection | None:
    """The action names a known card (DEC-2) that is one of ``among``; else ``rejection`` says which rule it breaks."""
    card_id = _card_field(table, action)
    if isinstance(card_id, Rejection):
        return card_id
    return None if card_id in among else rejection(card_id)


def _check_marked(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    """SELL-2: a player sells or tames only a card carrying their own marker."""
    return _card_among(table, action, table.state.players[spec.decider].markers, lambda card_id: _reject(
        RejectionCode.NO_MARKER_ON_CARD, "SELL-2", f"player {spec.player} has no marker on {card_id}"))


def instant_can_resolve_once_paid(table: Table, player: int, card_id: str, paid: Stones) -> bool:
    """SUM-4: the Instant effect resolves after the cost is paid (rulebook, Summon a Card: pay, place, resolve), so
    whether it can be fully resolved is judged on the stones left after paying (Scorch copying Duduri, Horus
    summoning Duduri: a red or blue stone must be left)."""
    effect = INSTANT.get(card_id)
    if effect is None or effect.can_resolve is always or paid.total == 0:
        return instant_can_resolve(table, player, card_id)
    paying = table.what_if()
    paying.pay_stones(player, paid, purpose="what-if")
    return instant_can_resolve(paying, player, card_id)


def _check_summon(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    card_id = _card_field(table, action)
    if isinstance(card_id, Rejection):
        return card_id
    player = spec.decider
    if card_id not in table.hand(player):
        return _reject(RejectionCode.CARD_NOT_IN_HAND, "SUM-2", f"{card_id} is not in player {player}'s hand")
    if not table.area_free(player):
        capacity = table.area_capacity(player)
        return _reject(
            RejectionCode.AREA_FULL, "SUM-1", f"player {player}'s area is full ({capacity} of {capacity})"
        )
    paid = _stones_field(action, "payment")
    if isinstance(paid, Rejection):
        return paid
    card = table.card(card_id)
    rejection = check_payment(table.stones(player), paid, table.stone_values(player), table.summon_cost(player, card))
    if rejection is not None:
        return rejection
    if not instant_can_resolve_once_paid(table, player, card_id, paid):
        return _reject(
            RejectionCode.INSTANT_UNRESOLVABLE, "SUM-4",
            f"{card.name}'s Instant effect cannot be fully resolved now",
        )
    return None


def _check_remove(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    card_id = _card_field(table, action)
    if isinstance(card_id, Rejection):
        return card_id
    player = spec.decider
    if card_id not in table.state.players[player].area:
        return _reject(RejectionCode.CARD_NOT_IN_AREA, "REM-1", f"{card_id} is not in player {player}'s area")
    paid = _stones_field(action, "payment")
    if isinstance(paid, Rejection):
        return paid
    return check_payment(table.stones(player), paid, table.stone_values(player), table.state.round)


def _check_end_turn(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    markers = table.state.players[spec.decider].markers
    return _reject(
        RejectionCode.MARKER_STILL_PLACED, "ACT-2",
        f"player {spec.player} still has a marker on {', '.join(sorted(markers))}",
    ) if markers else None


def _check_keep(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    kept = _stones_field(action, "stones")
    if isinstance(kept, Rejection):
        return kept
    held = table.stones(spec.decider)
    if not held.contains(kept):
        return _reject(RejectionCode.STONES_NOT_HELD, "LIMIT-2", f"keeps {kept} but holds only {held}")
    if kept.total != spec.limit:
        return _reject(
            RejectionCode.KEEP_WRONG_COUNT, "LIMIT-2", f"must keep exactly {spec.limit} stones, keeps {kept.total}"
        )
    return None


def _check_resolve_active(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    """EFF-5: each Active effect of the area once per Resolution turn."""
    return _card_among(table, action, spec.cards, lambda card_id: _reject(
        RejectionCode.ACTIVE_NOT_AVAILABLE, "EFF-5",
        f"{card_id} has no unused Active effect in player {spec.player}'s area"))


def _check_choose_player(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    target = action.get("target")
    if not isinstance(target, int) or isinstance(target, bool):
        return _reject(RejectionCode.MALFORMED_ACTION, "DEC-2", "'target' must be a player index")
    if target not in spec.players:
        return _reject(RejectionCode.INVALID_CHOICE, "DEC-2", f"player {target} is not among {list(spec.players)}")
    return None


def _check_selection(action: JSON, key: str, offered: tuple[str, ...], least: int, most: int) -> Rejection | None:
    """DEC-2: a choice lists distinct offered items, between ``least`` and ``most`` of them."""
    chosen = _strings_field(action, key)
    if isinstance(chosen, Rejection):
        return chosen
    if len(set(chosen)) != len(chosen) or not set(chosen) <= set(offered):
        return _reject(RejectionCode.INVALID_CHOICE, "DEC-2", f"{chosen} are not distinct {key} of {list(offered)}")
    if not least <= len(chosen) <= most:
        return _reject(
            RejectionCode.INVALID_CHOICE, "DEC-2", f"choose between {least} and {most} {key}, not {len(chosen)}"
        )
    return None


def _check_choose_cards(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    return _check_selection(action, "cards", spec.cards, spec.min, spec.max)


def _check_choose_options(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    return _check_selection(action, "options", spec.options, spec.min, spec.max)


def _check_shuffle(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    order = _strings_field(action, "order")
    if isinstance(order, Rejection):
        return order
    if sorted(order) != sorted(table.state.discard_pile):
        return _reject(
            RejectionCode.INVALID_SHUFFLE, "DECK-1", "the order must list every card of the discard pile once"
        )
    return None


def _check_take_artifact(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    tile_id = action.get("tile")
    if not isinstance(tile_id, str):
        return _reject(RejectionCode.MALFORMED_ACTION, "DEC-2", "'tile' must be an artifact tile id")
    if tile_id not in spec.cards:
        return _reject(
            RejectionCode.ARTIFACT_NOT_AVAILABLE, "ART-3",
            f"{tile_id} is not in the display or carries player {spec.player}'s own square marker",
        )
    return None


def usable_artifact(table: Table, player: int) -> str | None:
    """ART-5: the Action-ability tile the player holds, if its ability can be fully used now."""
    tile_id = table.state.players[player].artifact
    if tile_id is None:
        return None
    ability = TILES.get(tile_id)
    if ability is None or ability.ability is not TileAbility.ACTION or ability.effect is None:
        return None
    return tile_id if ability.effect.can_resolve(table, player, tile_id) else None


def _check_use_artifact(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    if usable_artifact(table, spec.decider) is not None:
        return None
    return _reject(
        RejectionCode.NO_USABLE_ARTIFACT, "ART-5",
        f"player {spec.player} holds no artifact with an Action ability that can be used now",
    )


def _check_pay(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    paid = _stones_field(action, "payment")
    if isinstance(paid, Rejection):
        return paid
    return check_payment(table.stones(spec.decider), paid, table.stone_values(spec.decider), spec.cost)


def _check_upgrade(table: Table, spec: DecisionSpec, action: JSON) -> Rejection | None:
    chosen = _stones_field(action, "stones")
    if isinstance(chosen, Rejection):
        return chosen
    eligible = spec.eligible or Stones()
    if chosen.purple:
        return _reject(RejectionCode.UPGRADE_INVALID, "STONE-2", "a purple stone cannot be upgraded")
    if chosen.red > eligible.red or chosen.blue > eligible.blue:
        return _reject(
            RejectionCode.UPGRADE_INVALID, "STONE-2",
            f"upgrades {chosen} but only {eligible} can be upgraded (each stone once, one step)",
        )
    if not spec.min <= chosen.total <= spec.max:
        return _reject(
            RejectionCode.UPGRADE_INVALID, "STONE-2",
            f"upgrade between {spec.min} and {spec.max} stones, not {chosen.total}",
        )
    return None


_CHECKS = {
    ActionType.PICK: _check_pick,
    ActionType.SELL: _check_marked,
    ActionType.TAME: _check_marked,
    ActionType.SUMMON: _check_summon,
    ActionType.REMOVE: _check_remove,
    ActionType.END_TURN: _check_end_turn,
    ActionType.KEEP_STONES: _check_keep,
    ActionType.RESOLVE_ACTIVE: _check_resolve_active,
    ActionType.CHOOSE_PLAYER: _check_choose_player,
    ActionType.CHOOSE_CARDS: _check_choose_cards,
    ActionType.CHOOSE_OPTIONS: _check_choose_options,
    ActionType.SHUFFLE: _check_shuffle,
    ActionType.TAKE_ARTIFACT: _check_take_artifact,
    ActionType.USE_ARTIFACT: _check_use_artifact,
    ActionType.PAY: _check_pay,
    ActionType.UPGRADE_STONES: _check_upgrade,
}


def candidates(table: Table, spec: DecisionSpec) -> list[JSON]:
    """Answers worth checking for ``spec``: a superset of the legal ones (never lists a shuffle order)."""
    player = spec.player
    kind = spec.kind
    if kind is DecisionKind.HUNT_PICK:
        return [{"type": "pick", "player": player, "card": c} for c in spec.cards]
    if kind is DecisionKind.ACTION:
        assert player is not None
        return _action_candidates(table, player)
    if kind is DecisionKind.KEEP_STONES:
        assert player is not None
        return [
            {"type": "keep_stones", "player": player, "stones": kept.to_json()}
            for kept in table.stones(player).sub_collections()
            if kept.total == spec.limit
        ]
    if kind is DecisionKind.NEXT_ACTIVE:
        return [{"type": "resolve_active", "player": player, "card": c} for c in spec.cards]
    if kind is DecisionKind.CHOOSE_PLAYER:
        return [{"type": "choose_player", "player": player, "target": p} for p in spec.players]
    if kind is DecisionKind.CHOOSE_CARDS:
        chosen = selections(spec.cards, spec.min, spec.max, spec.ordered)
        return [{"type": "choose_cards", "player": player, "cards": list(c)} for c in chosen]
    if kind is DecisionKind.CHOOSE_OPTIONS:
        chosen = selections(spec.options, spec.min, spec.max)
        return [{"type": "choose_options", "player": player, "options": list(o)} for o in chosen]
    if kind is DecisionKind.ARTIFACT_PICK:
        return [{"type": "take_artifact", "player": player, "tile": t} for t in spec.cards]
    if kind is DecisionKind.PAY:
        assert player is not None
        held = table.stones(player)
        payments = legal_payments(held, table.stone_values(player), spec.cost)
        return [{"type": "pay", "player": player, "payment": p.to_json()} for p in payments]
    if kind is DecisionKind.UPGRADE_STONES:
        eligible = spec.eligible or Stones()
        return [
            {"type": "upgrade_stones", "player": player, "stones": Stones(r, b, 0).to_json()}
            for r in range(eligible.red + 1)
            for b in range(eligible.blue + 1)
            if spec.min <= r + b <= spec.max
        ]
    return []


def _action_candidates(table: Table, player: int) -> list[JSON]:
    me = table.state.players[player]
    out: list[JSON] = []
    for card_id in sorted(me.markers):
        out.append({"type": "sell", "player": player, "card": card_id})
        out.append({"type": "tame", "player": player, "card": card_id})
    values = table.stone_values(player)
    if table.area_free(player):
        payments_by_cost: dict[int, tuple[Stones, ...]] = {}
        for card_id in sorted(set(me.hand)):
            cost = table.summon_cost(player, table.card(card_id))
            if cost not in payments_by_cost:
                payments_by_cost[cost] = legal_payments(me.stones, values, cost)
            for paid in payments_by_cost[cost]:
                out.append({"type": "summon", "player": player, "card": card_id, "payment": paid.to_json()})
    for paid in legal_payments(me.stones, values, table.state.round):
        for card_id in sorted(me.area):
            out.append({"type": "remove", "player": player, "card": card_id, "payment": paid.to_json()})
    if me.artifact is not None:
        out.append({"type": "use_artifact", "player": player})
    out.append({"type": "end_turn", "player": player})
    return out


def legal_actions(table: Table, spec: DecisionSpec | None) -> list[JSON]:
    """The candidates that pass :func:`check`; the state does not change while listing, so the table remembers
    SUM-4 answers, summon costs and stone values for the duration of the call."""
    if spec is None:
        return []
    with table.listing():
        return [a for a in candidates(table, spec) if check(table, spec, a) is None]
