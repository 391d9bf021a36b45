"""The phase state machine and the resolution stack.

:func:`settle` runs the game forward until someone must decide: the top frame of the resolution stack first,
else the step of the current phase (:data:`_PHASE_STEPS`, the Hunting phase in its explicit sub-steps). Every
answer is applied by the entry of its action type (:mod:`oracle.reference.actions`), which moves the turn on
(:func:`next_turn`) or the top frame (:func:`advance_frame`). Randomness never happens here: a reshuffle is a
chance decision answered from outside (DECK-1).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from functools import cache

from oracle.core.protocol import DecisionKind
from oracle.reference.decisions import DecisionSpec
from oracle.reference.effects.context import EffectContext
from oracle.reference.effects.registry import ACTIVE, INSTANT, PERMANENT, TILES, TRIGGERED, Answer, Effect, TileAbility
from oracle.reference.notes import PAID
from oracle.reference.state import MAX_PLAYERS, EffectKind, Frame, FrameKind, Phase
from oracle.reference.table import TRIGGER_RULE, Table


def settle(table: Table) -> DecisionSpec | None:
    """Run automatic steps until a decision is pending (returned) or the game is over (None). The rule under which
    the decision is asked is left in ``table.rulings.asked_under``: the frame's or the phase step's, LIMIT-2 when a
    keep choice waits for a trigger of the gain."""
    state = table.state
    table.rulings.asked_under = ""
    while True:
        if table.scores_changed:
            table.scores_changed = False
            if _ends_at_once(table):
                with table.under(END_1):
                    table.end_game(winners(table))
                return None
        if table.recover_triggered():
            continue
        over = table.over_limit()
        waits = over is not None and _gain_trigger_resolving(table)
        if over is not None and not waits:
            table.push(Frame(FrameKind.KEEP, over))
        if state.stack:
            frame = state.stack[-1]
            spec = _FRAME_DECISIONS[frame.kind](table, frame)
            if spec is not None:
                table.rulings.asked_under = LIMIT_2 if waits else _FRAME_RULES[frame.kind](frame)
                return spec
            advance_frame(table, frame, None)
            continue
        if state.phase is Phase.GAME_OVER:
            return None
        spec = _PHASE_STEPS[state.phase](table)
        if spec is not None:
            return spec


# ---------------------------------------------------------------------- the resolution stack


LIMIT_2 = "LIMIT-2"


def _gain_trigger_resolving(table: Table) -> bool:
    """LIMIT-2: a Permanent effect triggered by the gain happens before the keep choice, also when it asks a
    question (Duduri King's upgrade on a Wind sale); the holding limit is checked once its frame is done."""
    stack = table.state.stack
    return bool(stack) and stack[-1].effect is EffectKind.PERMANENT


def _effect_of(frame: Frame) -> Effect:
    """The effect a frame resolves: a tile's ability, a trigger's staged part, or a card's printed effect."""
    if frame.effect is EffectKind.ARTIFACT:
        effect = TILES[frame.card].effect
        assert effect is not None
        return effect
    if frame.effect is EffectKind.PERMANENT:
        return TRIGGERED[frame.card]
    registry = INSTANT if frame.effect is EffectKind.INSTANT else ACTIVE
    return registry[frame.source or frame.card]


def _keep_decision(table: Table, frame: Frame) -> DecisionSpec:
    """LIMIT-2: a player over the holding limit keeps as many stones as the limit."""
    limit = table.holding_limit(frame.player)
    return DecisionSpec(
        DecisionKind.KEEP_STONES, frame.player,
        f"holding {table.stones(frame.player).total} stones: keep {limit}", limit=limit,
    )


def _shuffle_decision(table: Table, frame: Frame) -> DecisionSpec:
    """DECK-1: chance orders the discard pile into a new draw pile."""
    return DecisionSpec(
        DecisionKind.SHUFFLE, None, "shuffle the discard pile into a new draw pile",
        cards=tuple(sorted(table.state.discard_pile)),
    )


def _effect_decision(table: Table, frame: Frame) -> DecisionSpec | None:
    """The decision the effect's current stage asks, if any (None also when every stage is done)."""
    effect = _effect_of(frame)
    if frame.stage >= len(effect.stages):
        return None
    with table.under(effect_rule(frame)):
        return effect.stages[frame.stage].decide(EffectContext(table, frame))


EFFECT_RULES: dict[EffectKind, str] = {
    EffectKind.INSTANT: "SUM-6",
    EffectKind.ACTIVE: "EFF-5",
    EffectKind.PERMANENT: TRIGGER_RULE,
}
"""The rule of an effect whose handler follows no rule of its own beyond the card text, by where it comes from."""
TILE_RULES: dict[TileAbility, str] = {TileAbility.INSTANT: "ART-4", TileAbility.ACTION: "ART-5",
                                      TileAbility.PERMANENT: "ART-4"}
"""The same for an artifact tile's ability, by when it is used."""


def effect_rule(frame: Frame) -> str:
    """The rule an effect frame follows: its effect's own, else its trigger's or tile's, else where it comes from."""
    effect = _effect_of(frame)
    if effect.rule:
        return effect.rule
    if frame.effect is EffectKind.ARTIFACT:
        tile = TILES[frame.card]
        return tile.rule or TILE_RULES[tile.ability]
    if frame.effect is EffectKind.PERMANENT and frame.card in PERMANENT:  # pragma: no branch - blame account only
        return PERMANENT[frame.card].rule or TRIGGER_RULE  # pragma: no cover - blame account: a Permanent's own frame
    assert frame.effect is not None
    return EFFECT_RULES[frame.effect]


def _asking_rule(frame: Frame) -> str:
    """The rule under which an effect frame asks: its current stage's own (Loki's question, ART-11), else the
    effect's."""
    effect = _effect_of(frame)
    stage = effect.stages[frame.stage] if frame.stage < len(effect.stages) else None
    return str(getattr(stage, "rule", "")) or effect_rule(frame)


def _no_decision(table: Table, frame: Frame) -> None:
    return None


_FRAME_DECISIONS: dict[FrameKind, Callable[[Table, Frame], DecisionSpec | None]] = {
    FrameKind.KEEP: _keep_decision,
    FrameKind.SHUFFLE: _shuffle_decision,
    FrameKind.EFFECT: _effect_decision,
    FrameKind.SUMMON: _no_decision,
}
_FRAME_RULES: dict[FrameKind, Callable[[Frame], str]] = {
    FrameKind.KEEP: lambda frame: "LIMIT-1",
    FrameKind.SHUFFLE: lambda frame: "DECK-1",
    FrameKind.EFFECT: _asking_rule,
    FrameKind.SUMMON: lambda frame: "SUM-6",
}
"""The rule under which each kind of frame asks its decision (a player over the holding limit keeps: LIMIT-1)."""


def ask_again(table: Table) -> DecisionSpec | None:  # pragma: no cover - read by the blame's explanation only
    """The decision the top frame asks, asked again (asking only reads the position: nothing changes)."""
    stack = table.state.stack
    return _FRAME_DECISIONS[stack[-1].kind](table, stack[-1]) if stack else None


def advance_frame(table: Table, frame: Frame, answer: Answer) -> None:
    """Run one automatic step of the top frame (``answer`` is None) or apply an answer to it."""
    if frame.kind is FrameKind.SUMMON:
        _advance_summon(table, frame)
    else:
        assert frame.kind is FrameKind.EFFECT, f"frame {frame.kind.value} has no automatic step (it always asks)"
        _advance_effect(table, frame, answer)


def _advance_summon(table: Table, frame: Frame) -> None:
    """SUM-6: the summon triggers fire first, then the card's own Instant effect resolves, then the summon ends."""
    with table.under("SUM-6"):
        if frame.stage == 0:
            table.next_stage(frame)
            table.fire_summon_triggers(frame.player, frame.card, frame.memo[PAID])
            if frame.card in INSTANT:
                table.push_effect(frame.player, frame.card, EffectKind.INSTANT)
            return
        table.pop_frame()
        table.emit("summon_completed", player=frame.player, card=frame.card)


def _advance_effect(table: Table, frame: Frame, answer: Answer) -> None:
    """One stage of an effect acts on the answer; a stage may ask to run again (after a pushed frame)."""
    effect = _effect_of(frame)
    with table.under(effect_rule(frame)):
        if frame.stage >= len(effect.stages):
            table.pop_frame()
            table.emit("effect_resolved", player=frame.player, card=frame.card, source=frame.source or frame.card,
                       effect=frame.effect.value if frame.effect is not None else "")
            return
        if effect.stages[frame.stage].resolve(EffectContext(table, frame), answer):
            table.next_stage(frame)


# ---------------------------------------------------------------------- phases


class HuntingStep(Enum):
    """The Hunting phase in order: deal the display (HUNT-1), take artifact tiles (ART-3), place markers."""

    DEAL_DISPLAY = "deal the display"
    TAKE_TILES = "take artifact tiles"
    PLACE_MARKERS = "place markers"


def _hunting_step(table: Table) -> HuntingStep:
    """Where the Hunting phase is: the display is dealt once (``revealed``), then tiles are taken, then markers."""
    state = table.state
    if not state.revealed:
        return HuntingStep.DEAL_DISPLAY
    if state.setup.artifacts and _artifact_picker(table) is not None:
        return HuntingStep.TAKE_TILES
    return HuntingStep.PLACE_MARKERS


def _hunting(table: Table) -> DecisionSpec | None:
    """ROUND-1: one step of the Hunting phase."""
    return _HUNTING_STEPS[_hunting_step(table)](table)


PhaseStep = Callable[[Table], "DecisionSpec | None"]


def _ruled(rule: str | Callable[[Table], str], step: PhaseStep) -> PhaseStep:
    """``step`` run under ``rule`` (a rule id, or how to tell it from the position), which also rules the decision
    it asks."""

    def run(table: Table) -> DecisionSpec | None:
        ruling = rule if isinstance(rule, str) else rule(table)
        with table.under(ruling):
            spec = step(table)
        if spec is not None:
            table.rulings.asked_under = ruling
        return spec

    return run


def _deal_display(table: Table) -> None:
    """HUNT-1: fill the display to twice the players, reshuffling the discard pile when the draw pile is out."""
    state = table.state
    missing = 2 * state.n - len(state.display)
    if missing > 0 and table.needs_shuffle():
        table.push_shuffle()
    elif missing > 0 and state.draw_pile:
        table.reveal(missing)
    else:
        table.mark_display_dealt()


def _take_tile_decision(table: Table) -> DecisionSpec:
    """ART-3: the next player without a tile takes one."""
    picker = _artifact_picker(table)
    assert picker is not None
    return DecisionSpec(
        DecisionKind.ARTIFACT_PICK, picker, "take an artifact tile without your square marker",
        cards=tuple(selectable_tiles(table, picker)),
    )


@cache
def _hunting_order(players: int, first_player: int) -> tuple[int, ...]:
    """HUNT-2 and HUNT-3: first picks clockwise from the first player, then back counter-clockwise."""
    seats = [(first_player + i) % players for i in range(players)]
    return (*seats, *reversed(seats))


def _place_marker_decision(table: Table) -> DecisionSpec | None:
    """HUNT-2..HUNT-4: the next player in the hunting order marks an unmarked card; then the Action phase starts."""
    state = table.state
    marked = [c for p in state.players for c in p.markers]
    placed = len(marked)
    order = _hunting_order(state.n, state.first_player)
    unmarked = tuple(sorted(c for c in state.display if c not in marked))
    if placed < len(order) and unmarked:
        return DecisionSpec(DecisionKind.HUNT_PICK, order[placed], "place a marker on a display card", cards=unmarked)
    table.start_phase(Phase.ACTION)
    return None


def _pick_rule(table: Table) -> str:
    """HUNT-2 for the first markers (clockwise), HUNT-3 for the second (counter-clockwise)."""
    return "HUNT-2" if sum(len(p.markers) for p in table.state.players) < table.state.n else "HUNT-3"


_HUNTING_STEPS: dict[HuntingStep, PhaseStep] = {
    HuntingStep.DEAL_DISPLAY: _ruled("HUNT-1", _deal_display),
    HuntingStep.TAKE_TILES: _ruled("ART-3", _take_tile_decision),
    HuntingStep.PLACE_MARKERS: _ruled(_pick_rule, _place_marker_decision),
}


_ACTION_DECISIONS = tuple(
    DecisionSpec(DecisionKind.ACTION, seat, "take an action or end your turn") for seat in range(MAX_PLAYERS)
)
"""The Action decision of each seat: a value, the same at every step of that seat's turns."""


def _action_turn(table: Table) -> DecisionSpec:
    """ACT-1: the turn player acts until they end their turn."""
    assert table.state.turn_player is not None
    return _ACTION_DECISIONS[table.state.turn_player]


def _resolution_turn(table: Table) -> DecisionSpec | None:
    """EFF-5: the turn player resolves their Active effects in an order they choose, then returns their tile (ART-6)."""
    player = table.state.turn_player
    assert player is not None
    available = _unused_actives(table, player)
    if available:
        return DecisionSpec(
            DecisionKind.NEXT_ACTIVE, player, "choose the next Active effect to resolve", cards=tuple(available),
        )
    with table.under("ART-6"):
        table.return_tile(player)
    next_turn(table)
    return None


_PHASE_STEPS: dict[Phase, PhaseStep] = {
    Phase.HUNTING: _hunting,
    Phase.ACTION: _ruled("ACT-1", _action_turn),
    Phase.RESOLUTION: _ruled("EFF-5", _resolution_turn),
}


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


def next_turn(table: Table) -> None:
    """ACT-1 / EFF-5: the next player clockwise takes a turn; after the last, the phase ends."""
    state = table.state
    assert state.turn_player is not None
    seats = state.seat_order()
    position = seats.index(state.turn_player) + 1
    if position < len(seats):
        table.pass_turn(seats[position])
    elif state.phase is Phase.ACTION:
        # Every display card carries a marker (HUNT-1..4) and ACT-2 keeps a turn going until it is taken, so only a
        # loaded position with unmarked display cards gets here; no rule says what becomes of them.
        for card_id in list(state.display):  # pragma: no cover - no game leaves a display card unmarked
            table.discard_from_display(card_id, source="end of Action phase")
        table.start_phase(Phase.RESOLUTION)
    else:
        _end_round(table)


END_1 = "END-1"
IMMEDIATELY = "immediately"


def _ends_at_once(table: Table) -> bool:
    """END-1's ``immediately`` variant: the game ends the moment a player has the end score, mid-round and
    mid-effect (checked after every step of play that changed a score)."""
    state = table.state
    if state.phase is Phase.GAME_OVER or state.setup.variant(END_1) != IMMEDIATELY:
        return False
    return max(p.score for p in state.players) >= state.setup.end_score


def _end_round(table: Table) -> None:
    """END-1 / ROUND-2: end the game, or pass the first player marker to the left and start a new round."""
    state = table.state
    top = max(p.score for p in state.players)
    if top >= state.setup.end_score or state.round >= state.setup.rounds:
        with table.under(END_1):
            table.end_game(winners(table))
        return
    table.start_next_round()
    table.start_phase(Phase.HUNTING)


def winners(table: Table) -> list[int]:
    """END-2: most points; then most summoned cards; a remaining tie is shared."""
    players = table.state.players
    best = max((p.score, len(p.area)) for p in players)
    return [i for i, p in enumerate(players) if (p.score, len(p.area)) == best]
