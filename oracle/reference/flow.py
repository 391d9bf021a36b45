"""The phase state machine and the resolution stack.

:func:`settle` runs the game forward until someone must decide; every phase transition happens in
:func:`_advance_phase`, and every answer is applied by :func:`answer`. Randomness never happens here:
a reshuffle is a chance decision answered from outside (DECK-1).
"""

from __future__ import annotations

from typing import Any

from oracle.model import EffectType, Stones
from oracle.protocol import ActionType, DecisionKind
from oracle.reference.decisions import DecisionSpec
from oracle.reference.effects.context import EffectContext
from oracle.reference.effects.registry import ACTIVE, INSTANT, TILES, TRIGGERED, Answer, Effect
from oracle.reference.state import Frame, Phase
from oracle.reference.table import Table

JSON = dict[str, Any]


def settle(table: Table) -> DecisionSpec | None:
    """Run automatic steps until a decision is pending (returned) or the game is over (None)."""
    state = table.state
    while True:
        if table.recover_triggered():
            continue
        over = table.over_limit()
        if over is not None:
            table.push(Frame(kind="keep", player=over))
        if state.stack:
            frame = state.stack[-1]
            spec = _frame_decision(table, frame)
            if spec is not None:
                return spec
            _advance_frame(table, frame, None)
            continue
        if state.phase is Phase.GAME_OVER:
            return None
        spec = _advance_phase(table)
        if spec is not None:
            return spec


# ---------------------------------------------------------------------- the resolution stack


ARTIFACT_EFFECT = "artifact"


def _effect_of(frame: Frame) -> Effect:
    if frame.effect == ARTIFACT_EFFECT:
        effect = TILES[frame.card].effect
        assert effect is not None
        return effect
    if frame.effect == EffectType.PERMANENT.value:
        return TRIGGERED[frame.card]
    registry = INSTANT if frame.effect == EffectType.INSTANT.value else ACTIVE
    return registry[frame.source or frame.card]


def _frame_decision(table: Table, frame: Frame) -> DecisionSpec | None:
    if frame.kind == "keep":
        limit = table.holding_limit(frame.player)
        return DecisionSpec(
            DecisionKind.KEEP_STONES, frame.player,
            f"holding {table.stones(frame.player).total} stones: keep {limit}", limit=limit,
        )
    if frame.kind == "shuffle":
        return DecisionSpec(
            DecisionKind.SHUFFLE, None, "shuffle the discard pile into a new draw pile",
            cards=tuple(sorted(table.state.discard_pile)),
        )
    if frame.kind == "effect":
        effect = _effect_of(frame)
        if frame.stage >= len(effect.stages):
            return None
        return effect.stages[frame.stage].decide(EffectContext(table, frame))
    return None


def _advance_frame(table: Table, frame: Frame, answer: Answer) -> None:
    """Run one automatic step of the top frame (``answer`` is None) or apply an answer to it."""
    state = table.state
    if frame.kind == "summon":
        if frame.stage == 0:
            frame.stage = 1
            table.fire_summon_triggers(frame.player, frame.card, Stones.from_json(frame.memo["paid"]))
            if frame.card in INSTANT:
                table.push(Frame(kind="effect", player=frame.player, card=frame.card, effect="instant"))
        else:
            state.stack.pop()
            table.emit("summon_completed", player=frame.player, card=frame.card)
        return
    if frame.kind == "effect":
        effect = _effect_of(frame)
        if frame.stage >= len(effect.stages):
            state.stack.remove(frame)
            table.emit("effect_resolved", player=frame.player, card=frame.card, source=frame.source or frame.card,
                       effect=frame.effect)
            return
        if effect.stages[frame.stage].resolve(EffectContext(table, frame), answer):
            frame.stage += 1
        return
    raise AssertionError(f"frame {frame.kind} has no automatic step")


# ---------------------------------------------------------------------- phases


def _hunting_order(table: Table) -> list[int]:
    """HUNT-2 and HUNT-3: first picks clockwise from the first player, then back counter-clockwise."""
    seats = table.state.seat_order()
    return seats + seats[::-1]


def _advance_phase(table: Table) -> DecisionSpec | None:
    """One step of the phase state machine: return the next decision, or make a transition."""
    state = table.state
    if state.phase is Phase.HUNTING:
        if not state.revealed:
            missing = 2 * state.n - len(state.display)
            if missing > 0 and table.needs_shuffle():
                table.push_shuffle()
                return None
            if missing > 0 and state.draw_pile:
                table.reveal(missing)
                return None
            state.revealed = True
            return None
        if state.setup.artifacts:
            picker = _artifact_picker(table)
            if picker is not None:
                return DecisionSpec(
                    DecisionKind.ARTIFACT_PICK, picker, "take an artifact tile without your square marker",
                    cards=tuple(selectable_tiles(table, picker)),
                )
        placed = sum(len(p.markers) for p in state.players)
        marked = {c for p in state.players for c in p.markers}
        order = _hunting_order(table)
        unmarked = [c for c in state.display if c not in marked]
        if placed < len(order) and unmarked:
            return DecisionSpec(DecisionKind.HUNT_PICK, order[placed], "place a marker on a display card")
        _start_phase(table, Phase.ACTION)
        return None
    if state.phase is Phase.ACTION:
        assert state.turn_player is not None
        return DecisionSpec(DecisionKind.ACTION, state.turn_player, "take an action or end your turn")
    if state.phase is Phase.RESOLUTION:
        assert state.turn_player is not None
        available = _unused_actives(table, state.turn_player)
        if available:
            return DecisionSpec(
                DecisionKind.NEXT_ACTIVE, state.turn_player, "choose the next Active effect to resolve",
                cards=tuple(available),
            )
        table.return_tile(state.turn_player)
        _next_turn(table)
        return None
    return None


def selectable_tiles(table: Table, player: int) -> list[str]:
    """ART-3: the display's tiles that do not carry the player's own square marker."""
    return sorted(t for t in table.state.tiles if table.state.square_markers.get(t) != player)


def _artifact_picker(table: Table) -> int | None:
    """ART-3: from the first player clockwise, the next player without a tile who can take one."""
    for seat in table.state.seat_order():
        if table.state.players[seat].artifact is None and selectable_tiles(table, seat):
            return seat
    return None


def _unused_actives(table: Table, player: int) -> list[str]:
    """EFF-5: the Active effects in the player's area not used yet this Resolution turn."""
    used = set(table.state.actives_used)
    return sorted(c for c in table.state.players[player].area if c in ACTIVE and c not in used)


def _start_phase(table: Table, phase: Phase) -> None:
    state = table.state
    state.phase = phase
    state.turn_player = state.first_player if phase in (Phase.ACTION, Phase.RESOLUTION) else None
    state.actives_used = []
    table.emit("phase_started", phase=phase.value, round=state.round)


def _next_turn(table: Table) -> None:
    """ACT-1 / EFF-5: the next player clockwise takes a turn; after the last, the phase ends."""
    state = table.state
    assert state.turn_player is not None
    seats = state.seat_order()
    position = seats.index(state.turn_player) + 1
    if position < len(seats):
        state.turn_player = seats[position]
        state.actives_used = []
        return
    if state.phase is Phase.ACTION:
        for card_id in list(state.display):
            state.display.remove(card_id)
            state.discard_pile.append(card_id)
            table.emit("card_discarded", player=None, card=card_id, zone="display", source="end of Action phase")
        _start_phase(table, Phase.RESOLUTION)
    else:
        _end_round(table)


def _end_round(table: Table) -> None:
    """END-1 / ROUND-2: end the game, or pass the first player marker to the left and start a new round."""
    state = table.state
    top = max(p.score for p in state.players)
    if top >= state.setup.end_score or state.round >= state.setup.rounds:
        state.phase = Phase.GAME_OVER
        state.turn_player = None
        state.winners = winners(table)
        table.emit("game_over", round=state.round, winners=list(state.winners),
                   scores=[p.score for p in state.players])
        return
    state.round += 1
    state.first_player = (state.first_player + 1) % state.n
    state.revealed = False
    table.emit("round_started", round=state.round, first_player=state.first_player)
    _start_phase(table, Phase.HUNTING)


def winners(table: Table) -> list[int]:
    """END-2: most points; then most summoned cards; a remaining tie is shared."""
    players = table.state.players
    best = max((p.score, len(p.area)) for p in players)
    return [i for i, p in enumerate(players) if (p.score, len(p.area)) == best]


# ---------------------------------------------------------------------- answers


def answer(table: Table, spec: DecisionSpec, action: JSON) -> None:
    """Apply a legal answer (already checked) to the pending decision."""
    state = table.state
    kind = ActionType(action["type"])
    player = spec.player
    if kind is ActionType.PICK:
        assert player is not None
        table.place_marker(player, action["card"])
    elif kind is ActionType.SELL:
        assert player is not None
        table.sell(player, action["card"])
    elif kind is ActionType.TAME:
        assert player is not None
        table.tame(player, action["card"])
    elif kind is ActionType.SUMMON:
        assert player is not None
        paid = Stones.from_json(action["payment"])
        table.pay_stones(player, paid, purpose=f"summon {action['card']}")
        table.place_summoned(player, action["card"], paid, free=False)
    elif kind is ActionType.REMOVE:
        assert player is not None
        table.pay_stones(player, Stones.from_json(action["payment"]), purpose=f"remove {action['card']}")
        table.discard_from_area(player, action["card"], source="remove")
    elif kind is ActionType.END_TURN:
        table.emit("turn_ended", player=player)
        _next_turn(table)
    elif kind is ActionType.KEEP_STONES:
        assert player is not None
        state.stack.pop()
        table.keep_stones(player, Stones.from_json(action["stones"]))
    elif kind is ActionType.RESOLVE_ACTIVE:
        assert player is not None
        state.actives_used.append(action["card"])
        table.push(Frame(kind="effect", player=player, card=action["card"], effect="active"))
    elif kind is ActionType.SHUFFLE:
        state.stack.pop()
        table.shuffle_discard_into_draw(list(action["order"]))
    elif kind is ActionType.TAKE_ARTIFACT:
        assert player is not None
        tile_id = action["tile"]
        table.take_tile(player, tile_id)
        if TILES[tile_id].ability == "instant":
            table.push(Frame(kind="effect", player=player, card=tile_id, effect=ARTIFACT_EFFECT))
    elif kind is ActionType.USE_ARTIFACT:
        assert player is not None
        tile_id = state.players[player].artifact
        assert tile_id is not None
        table.emit("artifact_used", player=player, tile=tile_id)
        table.return_tile(player)
        table.push(Frame(kind="effect", player=player, card=tile_id, effect=ARTIFACT_EFFECT))
    else:
        frame = state.stack[-1]
        _advance_frame(table, frame, _effect_answer(action))


def _effect_answer(action: JSON) -> Answer:
    if action["type"] == ActionType.CHOOSE_PLAYER.value:
        return int(action["target"])
    if action["type"] == ActionType.PAY.value:
        return Stones.from_json(action["payment"])
    if action["type"] == ActionType.UPGRADE_STONES.value:
        return Stones.from_json(action["stones"])
    key = "cards" if action["type"] == ActionType.CHOOSE_CARDS.value else "options"
    return tuple(sorted(action[key]))
