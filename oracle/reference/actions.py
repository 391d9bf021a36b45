"""One entry per action type: its parser, its legality check, its candidates and its answer, side by side.

Legality is written once: an entry's ``check`` rejects an illegal action in ``apply`` and filters the
candidates into the list of legal actions, so the two can never disagree. The action's JSON is parsed once
(:mod:`oracle.reference.moves`); the check and the answer read the typed move. The candidates are drawn from an
:class:`~oracle.reference.offers.Offer`, the reference's own or the oracle's for an engine without
``legal_actions`` (:mod:`oracle.engines.candidates`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.core.protocol import ANSWERS, ActionType, DecisionKind, Rejection, RejectionCode
from oracle.reference import flow
from oracle.reference.decisions import DecisionSpec, selections
from oracle.reference.effects.registry import INSTANT, TILES, Answer, TileAbility, always, instant_can_resolve
from oracle.reference.moves import (
    ChooseCards,
    ChooseOptions,
    ChoosePlayer,
    EndTurn,
    KeepStones,
    Move,
    Parse,
    ParsePayment,
    Pay,
    Pick,
    Remove,
    ResolveActive,
    Sell,
    Shuffle,
    Summon,
    TakeArtifact,
    Tame,
    UpgradeStones,
    UseArtifact,
    card_field,
    parse_choose_cards,
    parse_choose_options,
    parse_choose_player,
    parse_end_turn,
    parse_keep_stones,
    parse_pay,
    parse_pick,
    parse_remove_payment,
    parse_resolve_active,
    parse_sell,
    parse_shuffle,
    parse_summon_payment,
    parse_take_artifact,
    parse_tame,
    parse_upgrade_stones,
    parse_use_artifact,
)
from oracle.reference.offers import Offer, TableOffer
from oracle.reference.payment import check_payment
from oracle.reference.state import EffectKind
from oracle.reference.table import Table

M = TypeVar("M", bound=Move)


@dataclass(frozen=True, slots=True)
class ActionEntry(Generic[M]):
    """An action type's parser, legality check, candidate generator and answer."""

    type: ActionType
    parse: Read
    """The action's fields read into a move, or why they are malformed (DEC-2)."""
    check: Callable[[Table, DecisionSpec, M], Rejection | None]
    """Why the move does not legally answer the decision; None if it does."""
    candidates: Callable[[Offer], Sequence[Move]]
    """The moves worth checking for a decision this type answers, a superset of the legal ones; the answers of an
    Action-phase turn share one lister (:func:`_turn_candidates`)."""
    apply: Callable[[Table, int, M], None]
    """Apply the legal move for the deciding player (:data:`CHANCE` for a shuffle)."""
    rule: str
    """The rule the action follows when applied (what it does rules its events; an answer to an effect's choice is
    ruled by the effect it answers: :mod:`oracle.reference.rulings`)."""


def _reject(code: RejectionCode, rule: str, message: str) -> Rejection:
    return Rejection(code, rule, message)


Read = Callable[[Table, DecisionSpec, JSON], "Move | Rejection"]
"""Reads an action of one type answering the decision: the move, or the first fault found."""


def _fields(parse: Parse) -> Read:
    """An action whose fields are all read before any rule is judged."""

    def read(table: Table, spec: DecisionSpec, action: JSON) -> Move | Rejection:
        return parse(table.cards.cards, spec.player, action)

    return read


def _card_before_payment(
    card_rules: Callable[[Table, DecisionSpec, str], Rejection | None], parse_payment: ParsePayment
) -> Read:
    """DEC-2 precedence of a card and its payment (summon, remove): the card's field, then the card's own rules,
    then the payment's field; an action breaking a card rule and malformed in its payment is refused for the card."""

    def read(table: Table, spec: DecisionSpec, action: JSON) -> Move | Rejection:
        card = card_field(table.cards.cards, action)
        if isinstance(card, Rejection):
            return card
        return card_rules(table, spec, card) or parse_payment(spec.player, card, action)

    return read


ACTION_TYPES: dict[str, ActionType] = {t.value: t for t in ActionType}
"""Each action type by its name in the protocol (a dict lookup is several times cheaper than ``ActionType(name)``)."""

CHANCE = -1
"""The player index a chance decision (a shuffle) is answered under."""


# ---------------------------------------------------------------------- pick (HUNT-2)


def _check_pick(table: Table, spec: DecisionSpec, move: Pick) -> Rejection | None:
    """HUNT-1 / HUNT-4: an unmarked display card."""
    if move.card not in table.state.display:
        return _reject(RejectionCode.CARD_NOT_IN_DISPLAY, "HUNT-1", f"{move.card} is not in the display")
    for player in table.state.players:
        if move.card in player.markers:
            return _reject(RejectionCode.CARD_ALREADY_MARKED, "HUNT-4", f"{move.card} already carries a marker")
    return None


def _pick_candidates(offer: Offer) -> list[Pick]:
    player = offer.player
    return [Pick(player, c) for c in offer.cards]


def _pick(table: Table, player: int, move: Pick) -> None:
    """HUNT-2: the player's marker goes on the chosen display card."""
    table.place_marker(player, move.card)


# ---------------------------------------------------------------------- sell and tame (SELL-1, TAME-1)


def _check_marked(table: Table, spec: DecisionSpec, move: Sell | Tame) -> Rejection | None:
    """SELL-2: a player sells or tames only a card carrying their own marker."""
    if move.card in table.state.players[spec.decider].markers:
        return None
    return _reject(RejectionCode.NO_MARKER_ON_CARD, "SELL-2", f"player {spec.player} has no marker on {move.card}")


def _sell(table: Table, player: int, move: Sell) -> None:
    """SELL-1."""
    table.sell(player, move.card)


def _tame(table: Table, player: int, move: Tame) -> None:
    """TAME-1."""
    table.tame(player, move.card)


# ---------------------------------------------------------------------- summon (SUM-1..SUM-6)


def instant_can_resolve_once_paid(table: Table, player: int, card_id: str, paid: Stones) -> bool:
    """SUM-4: the Instant effect resolves after the cost is paid (rulebook, Summon a Card: pay, place, resolve), so
    whether it can be fully resolved is judged on the stones left after paying (Scorch copying Duduri, Horus
    summoning Duduri: a red or blue stone must be left)."""
    effect = INSTANT.get(card_id)
    if effect is None or effect.can_resolve is always or paid.total == 0:
        return instant_can_resolve(table, player, card_id)
    paying = table.what_if()
    paying.pay_stones(player, paid, purpose=f"summon {card_id}")
    return instant_can_resolve(paying, player, card_id)


def _check_summoned_card(table: Table, spec: DecisionSpec, card_id: str) -> Rejection | None:
    """SUM-2, SUM-1: a card of the hand, into a free area."""
    player = spec.decider
    if card_id not in table.hand(player):
        return _reject(RejectionCode.CARD_NOT_IN_HAND, "SUM-2", f"{card_id} is not in player {player}'s hand")
    if not table.area_free(player):
        capacity = table.area_capacity(player)
        return _reject(
            RejectionCode.AREA_FULL, "SUM-1", f"player {player}'s area is full ({capacity} of {capacity})"
        )
    return None


def _check_summon(table: Table, spec: DecisionSpec, move: Summon) -> Rejection | None:
    """SUM-1, SUM-2, SUM-4: a card of the hand into a free area, paid legally, its Instant effect resolvable."""
    return _check_summoned_card(table, spec, move.card) or _check_summon_payment(table, spec, move)


def _check_summon_payment(table: Table, spec: DecisionSpec, move: Summon) -> Rejection | None:
    """SUM-2, SUM-4: the summon cost paid legally, the Instant effect resolvable once paid."""
    card_id = move.card
    player = spec.decider
    card = table.card(card_id)
    paid = move.payment
    rejection = check_payment(table.stones(player), paid, table.stone_values(player), table.summon_cost(player, card))
    if rejection is not None:
        return rejection
    if not instant_can_resolve_once_paid(table, player, card_id, paid):
        return _reject(
            RejectionCode.INSTANT_UNRESOLVABLE, "SUM-4",
            f"{card.name}'s Instant effect cannot be fully resolved now",
        )
    return None


def _summon(table: Table, player: int, move: Summon) -> None:
    """SUM-2: pay the cost, then the card goes from the hand to the area and its summon begins."""
    table.pay_stones(player, move.payment, purpose=f"summon {move.card}")
    table.place_summoned(player, move.card, move.payment, free=False)


# ---------------------------------------------------------------------- remove (REM-1)


def _check_removed_card(table: Table, spec: DecisionSpec, card_id: str) -> Rejection | None:
    """REM-1: a card of the own area."""
    player = spec.decider
    if card_id not in table.state.players[player].area:
        return _reject(RejectionCode.CARD_NOT_IN_AREA, "REM-1", f"{card_id} is not in player {player}'s area")
    return None


def _check_remove(table: Table, spec: DecisionSpec, move: Remove) -> Rejection | None:
    """REM-1: a card of the own area, for the round number in stones."""
    player = spec.decider
    return _check_removed_card(table, spec, move.card) or check_payment(
        table.stones(player), move.payment, table.stone_values(player), table.state.round)


def _remove(table: Table, player: int, move: Remove) -> None:
    """REM-1: pay the round number, then discard the card from the area."""
    table.pay_stones(player, move.payment, purpose=f"remove {move.card}")
    table.discard_from_area(player, move.card, source="remove")


# ---------------------------------------------------------------------- end turn (ACT-1, ACT-2)


def _check_end_turn(table: Table, spec: DecisionSpec, move: EndTurn) -> Rejection | None:
    """ACT-2: no marker may be left on a card."""
    markers = table.state.players[spec.decider].markers
    return _reject(
        RejectionCode.MARKER_STILL_PLACED, "ACT-2",
        f"player {spec.player} still has a marker on {', '.join(sorted(markers))}",
    ) if markers else None


def _end_turn(table: Table, player: int, move: EndTurn) -> None:
    """ACT-1: the turn passes on."""
    table.emit("turn_ended", player=player)
    flow.next_turn(table)


# ---------------------------------------------------------------------- keep stones (LIMIT-2)


def _check_keep(table: Table, spec: DecisionSpec, move: KeepStones) -> Rejection | None:
    """LIMIT-2: keep exactly the limit, of the stones held."""
    kept = move.stones
    held = table.stones(spec.decider)
    if not held.contains(kept):
        return _reject(RejectionCode.STONES_NOT_HELD, "LIMIT-2", f"keeps {kept} but holds only {held}")
    if kept.total != spec.limit:
        return _reject(
            RejectionCode.KEEP_WRONG_COUNT, "LIMIT-2", f"must keep exactly {spec.limit} stones, keeps {kept.total}"
        )
    return None


def _keep_candidates(offer: Offer) -> list[KeepStones]:
    player, limit = offer.player, offer.limit
    return [KeepStones(player, kept) for kept in offer.held.sub_collections() if kept.total == limit]


def _keep_stones(table: Table, player: int, move: KeepStones) -> None:
    """LIMIT-2: the kept stones stay, the rest are discarded."""
    table.pop_frame()
    table.keep_stones(player, move.stones)


# ---------------------------------------------------------------------- resolve an Active effect (EFF-5)


def _check_resolve_active(table: Table, spec: DecisionSpec, move: ResolveActive) -> Rejection | None:
    """EFF-5: each Active effect of the area once per Resolution turn."""
    if move.card in spec.cards:
        return None
    return _reject(RejectionCode.ACTIVE_NOT_AVAILABLE, "EFF-5",
                   f"{move.card} has no unused Active effect in player {spec.player}'s area")


def _resolve_active_candidates(offer: Offer) -> list[ResolveActive]:
    player = offer.player
    return [ResolveActive(player, c) for c in offer.cards]


def _resolve_active(table: Table, player: int, move: ResolveActive) -> None:
    """EFF-5: the chosen Active effect is spent for this turn and resolves."""
    table.use_active(move.card)
    table.push_effect(player, move.card, EffectKind.ACTIVE)


# ---------------------------------------------------------------------- choices asked by effects (DEC-2)


def _answer_stage(answer_of: Callable[[M], Answer]) -> Callable[[Table, int, M], None]:
    """An answer to the decision of the top effect frame's current stage."""

    def apply(table: Table, player: int, move: M) -> None:
        flow.advance_frame(table, table.state.stack[-1], answer_of(move))

    return apply


def _check_choose_player(table: Table, spec: DecisionSpec, move: ChoosePlayer) -> Rejection | None:
    """DEC-2: one of the players offered."""
    if move.target not in spec.players:
        return _reject(
            RejectionCode.INVALID_CHOICE, "DEC-2", f"player {move.target} is not among {list(spec.players)}")
    return None


def _choose_player_candidates(offer: Offer) -> list[ChoosePlayer]:
    player = offer.player
    return [ChoosePlayer(player, p) for p in offer.players]


def _check_selection(chosen: tuple[str, ...], key: str, offered: tuple[str, ...], least: int,
                     most: int) -> Rejection | None:
    """DEC-2: a choice lists distinct offered items, between ``least`` and ``most`` of them."""
    if len(set(chosen)) != len(chosen) or not set(chosen) <= set(offered):
        return _reject(
            RejectionCode.INVALID_CHOICE, "DEC-2", f"{list(chosen)} are not distinct {key} of {list(offered)}")
    if not least <= len(chosen) <= most:
        return _reject(
            RejectionCode.INVALID_CHOICE, "DEC-2", f"choose between {least} and {most} {key}, not {len(chosen)}"
        )
    return None


def _check_choose_cards(table: Table, spec: DecisionSpec, move: ChooseCards) -> Rejection | None:
    return _check_selection(move.cards, "cards", spec.cards, spec.min, spec.max)


def _choose_cards_candidates(offer: Offer) -> list[ChooseCards]:
    player, chosen = offer.player, selections(tuple(offer.cards), offer.least, offer.most, offer.ordered)
    return [ChooseCards(player, c) for c in chosen]


def _check_choose_options(table: Table, spec: DecisionSpec, move: ChooseOptions) -> Rejection | None:
    return _check_selection(move.options, "options", spec.options, spec.min, spec.max)


def _choose_options_candidates(offer: Offer) -> list[ChooseOptions]:
    player, chosen = offer.player, selections(tuple(offer.options), offer.least, offer.most)
    return [ChooseOptions(player, o) for o in chosen]


def _check_pay(table: Table, spec: DecisionSpec, move: Pay) -> Rejection | None:
    """PAY-1..PAY-5: the price asked, paid legally."""
    return check_payment(table.stones(spec.decider), move.payment, table.stone_values(spec.decider), spec.cost)


def _pay_candidates(offer: Offer) -> list[Pay]:
    player = offer.player
    return [Pay(player, paid) for paid in offer.price_payments()]


def _check_upgrade(table: Table, spec: DecisionSpec, move: UpgradeStones) -> Rejection | None:
    """STONE-2: red or blue stones that may be upgraded, each one step, between the least and most asked."""
    chosen = move.stones
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


def _upgrade_candidates(offer: Offer) -> list[UpgradeStones]:
    player, upgradable, least, most = offer.player, offer.upgradable, offer.least, offer.most
    return [
        UpgradeStones(player, Stones(r, b, 0))
        for r in range(upgradable.red + 1)
        for b in range(upgradable.blue + 1)
        if least <= r + b <= most
    ]


# ---------------------------------------------------------------------- shuffle (DECK-1)


def _check_shuffle(table: Table, spec: DecisionSpec, move: Shuffle) -> Rejection | None:
    """DECK-1: the new draw pile is the discard pile in some order."""
    if sorted(move.order) != sorted(table.state.discard_pile):
        return _reject(
            RejectionCode.INVALID_SHUFFLE, "DECK-1", "the order must list every card of the discard pile once"
        )
    return None


def _shuffle_candidates(offer: Offer) -> list[Shuffle]:
    return [Shuffle(None, order) for order in offer.shuffles()]


def _shuffle(table: Table, player: int, move: Shuffle) -> None:
    """DECK-1: the discard pile becomes the draw pile in the order chance gave."""
    table.pop_frame()
    table.shuffle_discard_into_draw(list(move.order))


# ---------------------------------------------------------------------- artifact tiles (ART-3, ART-5)


def _check_take_artifact(table: Table, spec: DecisionSpec, move: TakeArtifact) -> Rejection | None:
    """ART-3: a tile of the display without the player's own square marker."""
    if move.tile not in spec.cards:
        return _reject(
            RejectionCode.ARTIFACT_NOT_AVAILABLE, "ART-3",
            f"{move.tile} is not in the display or carries player {spec.player}'s own square marker",
        )
    return None


def _take_artifact_candidates(offer: Offer) -> list[TakeArtifact]:
    player = offer.player
    return [TakeArtifact(player, t) for t in offer.cards]


def _take_artifact(table: Table, player: int, move: TakeArtifact) -> None:
    """ART-3 / ART-4: take the tile; an Instant tile is used at once."""
    table.take_tile(player, move.tile)
    if TILES[move.tile].ability is TileAbility.INSTANT:
        table.push_effect(player, move.tile, EffectKind.ARTIFACT)


def usable_artifact(table: Table, player: int) -> str | None:
    """ART-5: the Action-ability tile the player holds, if its ability can be fully used now."""
    tile_id = table.state.players[player].artifact
    if tile_id is None:
        return None
    ability = TILES.get(tile_id)
    if ability is None or ability.ability is not TileAbility.ACTION or ability.effect is None:
        return None
    return tile_id if ability.effect.can_resolve(table, player, tile_id) else None


def _check_use_artifact(table: Table, spec: DecisionSpec, move: UseArtifact) -> Rejection | None:
    """ART-5: a held tile whose Action ability can be fully used now."""
    if usable_artifact(table, spec.decider) is not None:
        return None
    return _reject(
        RejectionCode.NO_USABLE_ARTIFACT, "ART-5",
        f"player {spec.player} holds no artifact with an Action ability that can be used now",
    )


def _use_artifact(table: Table, player: int, move: UseArtifact) -> None:
    """ART-5: the tile goes back to the display first, then its ability resolves."""
    tile_id = table.state.players[player].artifact
    assert tile_id is not None
    table.emit("artifact_used", player=player, tile=tile_id)
    table.return_tile(player)
    table.push_effect(player, tile_id, EffectKind.ARTIFACT)


# ---------------------------------------------------------------------- an Action-phase turn (ACT-1)


def _turn_candidates(offer: Offer) -> list[Move]:
    """ACT-1: an Action-phase turn's answers, in the order listed: each marked card sold then tamed (SELL-1,
    TAME-1), each card of the hand with each payment worth trying (SUM-2), each payment of the round number for
    each card of the area (REM-1), the artifact's use (ART-5), the end of the turn."""
    player = offer.player
    out: list[Move] = []
    for card in offer.markers:
        out += (Sell(player, card), Tame(player, card))
    out += [Summon(player, card, paid) for card, payments in offer.summons() for paid in payments]
    area = offer.area
    if area:
        out += [Remove(player, card, paid) for paid in offer.removal_payments() for card in area]
    if offer.artifact:
        out.append(UseArtifact(player))
    out.append(EndTurn(player))
    return out


# ---------------------------------------------------------------------- the table


def _entries(*entries: ActionEntry[Any]) -> dict[ActionType, ActionEntry[Any]]:
    return {e.type: e for e in entries}


ENTRIES: dict[ActionType, ActionEntry[Any]] = _entries(
    ActionEntry(ActionType.PICK, _fields(parse_pick), _check_pick, _pick_candidates, _pick, "HUNT-2"),
    ActionEntry(ActionType.SELL, _fields(parse_sell), _check_marked, _turn_candidates, _sell, "SELL-1"),
    ActionEntry(ActionType.TAME, _fields(parse_tame), _check_marked, _turn_candidates, _tame, "TAME-1"),
    ActionEntry(ActionType.SUMMON, _card_before_payment(_check_summoned_card, parse_summon_payment), _check_summon,
                _turn_candidates, _summon, "SUM-2"),
    ActionEntry(ActionType.REMOVE, _card_before_payment(_check_removed_card, parse_remove_payment), _check_remove,
                _turn_candidates, _remove, "REM-1"),
    ActionEntry(ActionType.END_TURN, _fields(parse_end_turn), _check_end_turn, _turn_candidates, _end_turn, "ACT-1"),
    ActionEntry(ActionType.KEEP_STONES, _fields(parse_keep_stones), _check_keep, _keep_candidates, _keep_stones,
                "LIMIT-2"),
    ActionEntry(ActionType.RESOLVE_ACTIVE, _fields(parse_resolve_active), _check_resolve_active,
                _resolve_active_candidates, _resolve_active, "EFF-5"),
    ActionEntry(ActionType.CHOOSE_PLAYER, _fields(parse_choose_player), _check_choose_player,
                _choose_player_candidates, _answer_stage(lambda move: move.target), "DEC-2"),
    ActionEntry(ActionType.CHOOSE_CARDS, _fields(parse_choose_cards), _check_choose_cards, _choose_cards_candidates,
                _answer_stage(lambda move: move.cards), "DEC-2"),
    ActionEntry(ActionType.CHOOSE_OPTIONS, _fields(parse_choose_options), _check_choose_options,
                _choose_options_candidates, _answer_stage(lambda move: tuple(sorted(move.options))), "DEC-2"),
    ActionEntry(ActionType.SHUFFLE, _fields(parse_shuffle), _check_shuffle, _shuffle_candidates, _shuffle, "DECK-1"),
    ActionEntry(ActionType.TAKE_ARTIFACT, _fields(parse_take_artifact), _check_take_artifact,
                _take_artifact_candidates, _take_artifact, "ART-3"),
    ActionEntry(ActionType.USE_ARTIFACT, _fields(parse_use_artifact), _check_use_artifact, _turn_candidates,
                _use_artifact, "ART-5"),
    ActionEntry(ActionType.PAY, _fields(parse_pay), _check_pay, _pay_candidates,
                _answer_stage(lambda move: move.payment), "DEC-2"),
    ActionEntry(ActionType.UPGRADE_STONES, _fields(parse_upgrade_stones), _check_upgrade, _upgrade_candidates,
                _answer_stage(lambda move: move.stones), "DEC-2"),
)
"""Every action type's entry."""

def _listed_by(action_type: ActionType) -> Callable[[Offer], Sequence[Move]]:
    """A decision's candidates are those of the entry of one of its answers (all its answers share them)."""

    def listed(offer: Offer) -> Sequence[Move]:
        return ENTRIES[action_type].candidates(offer)

    return listed


LISTERS: dict[DecisionKind, Callable[[Offer], Sequence[Move]]] = {
    kind: _listed_by(min(answers)) for kind, answers in ANSWERS.items()
}
"""The candidate moves of each decision kind (:data:`~oracle.core.protocol.ANSWERS`), looked up when listed."""


def offered(kind: DecisionKind, offer: Offer) -> Sequence[Move]:
    """The candidate moves for a decision of ``kind``."""
    return LISTERS[kind](offer)


# ---------------------------------------------------------------------- parse, check, list, answer


PASSABLE = frozenset({RejectionCode.NOT_YOUR_DECISION})
"""The refusals :func:`parse` can be asked to look past (``past``): DEC-1, the action then judged as the deciding
player's answer (every later test reads the decision's player, never the action's)."""


def parse(table: Table, spec: DecisionSpec | None, action: object,
          past: Collection[RejectionCode] = ()) -> Move | Rejection:
    """The action as a move answering the pending decision ``spec``, or why it does not legally answer it; ``past``:
    refusals of :data:`PASSABLE` not to make (what the verdict would be without them)."""
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
    if (player != spec.player or isinstance(player, bool)) and RejectionCode.NOT_YOUR_DECISION not in past:
        who = "chance" if spec.player is None else f"player {spec.player}"
        return _reject(RejectionCode.NOT_YOUR_DECISION, "DEC-1", f"the pending decision belongs to {who}")
    if action_type not in ANSWERS[spec.kind]:
        return _reject(
            RejectionCode.WRONG_DECISION, "DEC-2",
            f"a {action_type.value!r} action does not answer a {spec.kind.value!r} decision",
        )
    entry = ENTRIES[action_type]
    move = entry.parse(table, spec, action)
    if isinstance(move, Rejection):
        return move
    rejection = entry.check(table, spec, move)
    return move if rejection is None else rejection


# The invariants' lock-step judges actions it does not apply: vale_invariants/lockstep.py.
def check(table: Table, spec: DecisionSpec | None, action: object) -> Rejection | None:  # pragma: no cover - lock-step
    """Why ``action`` does not legally answer the pending decision ``spec``; None if it does."""
    move = parse(table, spec, action)
    return move if isinstance(move, Rejection) else None


def legal_moves(table: Table, spec: DecisionSpec | None) -> list[Move]:
    """The candidates that pass their entry's check; the state does not change while listing, so the table
    remembers SUM-4 answers, summon costs and stone values for the duration of the call."""
    if spec is None:
        return []
    entries = ENTRIES
    with table.listing():
        return [m for m in offered(spec.kind, TableOffer(table, spec)) if entries[m.type].check(table, spec, m) is None]


def apply(table: Table, spec: DecisionSpec, move: Move) -> None:
    """Apply a legal move (already checked) to the pending decision, a step ruled by the action's rule."""
    entry = ENTRIES[move.type]
    table.rulings.start(entry.rule)
    entry.apply(table, CHANCE if spec.player is None else spec.player, move)
