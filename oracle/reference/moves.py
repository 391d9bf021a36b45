"""The typed actions: each answer's JSON parsed once into a frozen value of its action type, or refused (DEC-2).

A :data:`Move` is what the checks judge, the candidates list and the answers apply; ``to_json`` gives back the
protocol's form. A move's ``player`` is the action's own, matched to the deciding player before parsing (DEC-1).
Each ``parse_*`` reads the fields of one action type and refuses a missing or mistyped field
(``MALFORMED_ACTION``) or a card id no card has (``UNKNOWN_CARD``), both under DEC-2; a summon's or a removal's
payment is read after its card (:func:`card_field`) has been judged.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass
from typing import ClassVar

from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.core.protocol import ActionType, Rejection, RejectionCode


@dataclass(frozen=True, slots=True)
class Pick:
    """HUNT-2: a marker on a display card."""

    type: ClassVar[ActionType] = ActionType.PICK
    player: int | None
    card: str

    def to_json(self) -> JSON:
        return {"type": "pick", "player": self.player, "card": self.card}


@dataclass(frozen=True, slots=True)
class Sell:
    """SELL-1: sell a marked card."""

    type: ClassVar[ActionType] = ActionType.SELL
    player: int | None
    card: str

    def to_json(self) -> JSON:
        return {"type": "sell", "player": self.player, "card": self.card}


@dataclass(frozen=True, slots=True)
class Tame:
    """TAME-1: tame a marked card into the hand."""

    type: ClassVar[ActionType] = ActionType.TAME
    player: int | None
    card: str

    def to_json(self) -> JSON:
        return {"type": "tame", "player": self.player, "card": self.card}


@dataclass(frozen=True, slots=True)
class Summon:
    """SUM-2: summon a card from the hand, paying ``payment``."""

    type: ClassVar[ActionType] = ActionType.SUMMON
    player: int | None
    card: str
    payment: Stones

    def to_json(self) -> JSON:
        return {"type": "summon", "player": self.player, "card": self.card, "payment": self.payment.to_json()}


@dataclass(frozen=True, slots=True)
class Remove:
    """REM-1: remove a card from the area, paying ``payment``."""

    type: ClassVar[ActionType] = ActionType.REMOVE
    player: int | None
    card: str
    payment: Stones

    def to_json(self) -> JSON:
        return {"type": "remove", "player": self.player, "card": self.card, "payment": self.payment.to_json()}


@dataclass(frozen=True, slots=True)
class EndTurn:
    """ACT-1: end the turn."""

    type: ClassVar[ActionType] = ActionType.END_TURN
    player: int | None

    def to_json(self) -> JSON:
        return {"type": "end_turn", "player": self.player}


@dataclass(frozen=True, slots=True)
class KeepStones:
    """LIMIT-2: the stones kept."""

    type: ClassVar[ActionType] = ActionType.KEEP_STONES
    player: int | None
    stones: Stones

    def to_json(self) -> JSON:
        return {"type": "keep_stones", "player": self.player, "stones": self.stones.to_json()}


@dataclass(frozen=True, slots=True)
class ResolveActive:
    """EFF-5: the next Active effect to resolve."""

    type: ClassVar[ActionType] = ActionType.RESOLVE_ACTIVE
    player: int | None
    card: str

    def to_json(self) -> JSON:
        return {"type": "resolve_active", "player": self.player, "card": self.card}


@dataclass(frozen=True, slots=True)
class ChoosePlayer:
    """DEC-2: the player chosen."""

    type: ClassVar[ActionType] = ActionType.CHOOSE_PLAYER
    player: int | None
    target: int

    def to_json(self) -> JSON:
        return {"type": "choose_player", "player": self.player, "target": self.target}


@dataclass(frozen=True, slots=True)
class ChooseCards:
    """DEC-2: the cards chosen, in the order given (EFF-8)."""

    type: ClassVar[ActionType] = ActionType.CHOOSE_CARDS
    player: int | None
    cards: tuple[str, ...]

    def to_json(self) -> JSON:
        return {"type": "choose_cards", "player": self.player, "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class ChooseOptions:
    """DEC-2: the options chosen."""

    type: ClassVar[ActionType] = ActionType.CHOOSE_OPTIONS
    player: int | None
    options: tuple[str, ...]

    def to_json(self) -> JSON:
        return {"type": "choose_options", "player": self.player, "options": list(self.options)}


@dataclass(frozen=True, slots=True)
class Shuffle:
    """DECK-1: chance's order of the discard pile, top first; answered by no player."""

    type: ClassVar[ActionType] = ActionType.SHUFFLE
    player: int | None
    order: tuple[str, ...]

    # Only the oracle's candidates for an engine without legal_actions list a shuffle: oracle/engines/candidates.py.
    def to_json(self) -> JSON:  # pragma: no cover - the reference never lists chance's answer
        return {"type": "shuffle", "player": self.player, "order": list(self.order)}


@dataclass(frozen=True, slots=True)
class TakeArtifact:
    """ART-3: the artifact tile taken."""

    type: ClassVar[ActionType] = ActionType.TAKE_ARTIFACT
    player: int | None
    tile: str

    def to_json(self) -> JSON:
        return {"type": "take_artifact", "player": self.player, "tile": self.tile}


@dataclass(frozen=True, slots=True)
class UseArtifact:
    """ART-5: use the held tile's Action ability."""

    type: ClassVar[ActionType] = ActionType.USE_ARTIFACT
    player: int | None

    def to_json(self) -> JSON:
        return {"type": "use_artifact", "player": self.player}


@dataclass(frozen=True, slots=True)
class Pay:
    """A price asked by an effect, paid with ``payment`` (PAY-1..PAY-5)."""

    type: ClassVar[ActionType] = ActionType.PAY
    player: int | None
    payment: Stones

    def to_json(self) -> JSON:
        return {"type": "pay", "player": self.player, "payment": self.payment.to_json()}


@dataclass(frozen=True, slots=True)
class UpgradeStones:
    """STONE-2: the stones upgraded, each by one step."""

    type: ClassVar[ActionType] = ActionType.UPGRADE_STONES
    player: int | None
    stones: Stones

    def to_json(self) -> JSON:
        return {"type": "upgrade_stones", "player": self.player, "stones": self.stones.to_json()}


Move = (
    Pick | Sell | Tame | Summon | Remove | EndTurn | KeepStones | ResolveActive | ChoosePlayer | ChooseCards
    | ChooseOptions | Shuffle | TakeArtifact | UseArtifact | Pay | UpgradeStones
)
"""An answer to a decision, parsed."""

Parse = Callable[[Container[str], int | None, JSON], "Move | Rejection"]
"""Reads an action of one type for the deciding player, given the card ids that exist."""

ParsePayment = Callable[[int | None, str, JSON], "Move | Rejection"]
"""Reads the payment of an action whose card was read first, for the deciding player."""


# ---------------------------------------------------------------------- fields


def _malformed(message: str) -> Rejection:
    return Rejection(RejectionCode.MALFORMED_ACTION, "DEC-2", message)


def card_field(known: Container[str], action: JSON, key: str = "card") -> str | Rejection:
    """DEC-2: the field names a card id that exists."""
    value = action.get(key)
    if not isinstance(value, str):
        return _malformed(f"'{key}' must be a card id")
    if value not in known:
        return Rejection(RejectionCode.UNKNOWN_CARD, "DEC-2", f"unknown card id {value!r}")
    return value


def stones_field(action: JSON, key: str) -> Stones | Rejection:
    """DEC-2: the field is an object of stone counts."""
    value = action.get(key)
    if not isinstance(value, dict):
        return _malformed(f"'{key}' must be an object of stone counts")
    try:
        return Stones.from_json(value)
    # A stone count that is not a whole number from 0: tests/test_reference_plumbing.py.
    except ValueError as exc:  # pragma: no cover - the scenario schema cannot write it
        return _malformed(f"'{key}': {exc}")


def strings_field(action: JSON, key: str) -> tuple[str, ...] | Rejection:
    """DEC-2: the field is a list of strings."""
    value = action.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return _malformed(f"'{key}' must be a list of strings")
    return tuple(value)


# ---------------------------------------------------------------------- one parser per action type



def parse_pick(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    card = card_field(known, action)
    return card if isinstance(card, Rejection) else Pick(player, card)


def parse_sell(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    card = card_field(known, action)
    return card if isinstance(card, Rejection) else Sell(player, card)


def parse_tame(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    card = card_field(known, action)
    return card if isinstance(card, Rejection) else Tame(player, card)


def parse_summon_payment(player: int | None, card: str, action: JSON) -> Move | Rejection:
    """The payment of a summon whose card was read (and judged) first."""
    paid = stones_field(action, "payment")
    return paid if isinstance(paid, Rejection) else Summon(player, card, paid)


def parse_remove_payment(player: int | None, card: str, action: JSON) -> Move | Rejection:
    """The payment of a removal whose card was read (and judged) first."""
    paid = stones_field(action, "payment")
    return paid if isinstance(paid, Rejection) else Remove(player, card, paid)


def parse_end_turn(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    return EndTurn(player)


def parse_keep_stones(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    kept = stones_field(action, "stones")
    return kept if isinstance(kept, Rejection) else KeepStones(player, kept)


def parse_resolve_active(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    card = card_field(known, action)
    return card if isinstance(card, Rejection) else ResolveActive(player, card)


def parse_choose_player(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    target = action.get("target")
    if not isinstance(target, int) or isinstance(target, bool):
        return _malformed("'target' must be a player index")
    return ChoosePlayer(player, target)


def parse_choose_cards(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    cards = strings_field(action, "cards")
    return cards if isinstance(cards, Rejection) else ChooseCards(player, cards)


def parse_choose_options(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    options = strings_field(action, "options")
    return options if isinstance(options, Rejection) else ChooseOptions(player, options)


def parse_shuffle(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    order = strings_field(action, "order")
    return order if isinstance(order, Rejection) else Shuffle(player, order)


def parse_take_artifact(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    tile = action.get("tile")
    if not isinstance(tile, str):
        return _malformed("'tile' must be an artifact tile id")
    return TakeArtifact(player, tile)


def parse_use_artifact(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    return UseArtifact(player)


def parse_pay(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    paid = stones_field(action, "payment")
    return paid if isinstance(paid, Rejection) else Pay(player, paid)


def parse_upgrade_stones(known: Container[str], player: int | None, action: JSON) -> Move | Rejection:
    chosen = stones_field(action, "stones")
    return chosen if isinstance(chosen, Rejection) else UpgradeStones(player, chosen)
