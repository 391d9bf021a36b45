"""The engine protocol: how any implementation of The Vale of Eternity plugs into the oracle.

An engine is any object with the methods of :class:`Engine`. Everything that crosses the boundary is
plain JSON data (dicts, lists, strings, numbers), so an adapter for an engine written in another language
only has to translate JSON. ``docs/protocol.md`` is the full specification with a minimal adapter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol, runtime_checkable

from oracle.core.json_types import JSON
from oracle.core.versions import PROTOCOL_VERSION


class DecisionKind(str, Enum):
    """What the pending decision asks for, and so which action types answer it."""

    HUNT_PICK = "hunt_pick"
    ACTION = "action"
    KEEP_STONES = "keep_stones"
    NEXT_ACTIVE = "next_active"
    CHOOSE_PLAYER = "choose_player"
    CHOOSE_CARDS = "choose_cards"
    CHOOSE_OPTIONS = "choose_options"
    SHUFFLE = "shuffle"
    ARTIFACT_PICK = "artifact_pick"
    PAY = "pay"
    UPGRADE_STONES = "upgrade_stones"


class ActionType(str, Enum):
    PICK = "pick"
    SELL = "sell"
    TAME = "tame"
    SUMMON = "summon"
    REMOVE = "remove"
    END_TURN = "end_turn"
    KEEP_STONES = "keep_stones"
    RESOLVE_ACTIVE = "resolve_active"
    CHOOSE_PLAYER = "choose_player"
    CHOOSE_CARDS = "choose_cards"
    CHOOSE_OPTIONS = "choose_options"
    SHUFFLE = "shuffle"
    TAKE_ARTIFACT = "take_artifact"
    USE_ARTIFACT = "use_artifact"
    PAY = "pay"
    UPGRADE_STONES = "upgrade_stones"


ANSWERS: dict[DecisionKind, frozenset[ActionType]] = {
    DecisionKind.HUNT_PICK: frozenset({ActionType.PICK}),
    DecisionKind.ACTION: frozenset(
        {ActionType.SELL, ActionType.TAME, ActionType.SUMMON, ActionType.REMOVE, ActionType.END_TURN,
         ActionType.USE_ARTIFACT}
    ),
    DecisionKind.KEEP_STONES: frozenset({ActionType.KEEP_STONES}),
    DecisionKind.NEXT_ACTIVE: frozenset({ActionType.RESOLVE_ACTIVE}),
    DecisionKind.CHOOSE_PLAYER: frozenset({ActionType.CHOOSE_PLAYER}),
    DecisionKind.CHOOSE_CARDS: frozenset({ActionType.CHOOSE_CARDS}),
    DecisionKind.CHOOSE_OPTIONS: frozenset({ActionType.CHOOSE_OPTIONS}),
    DecisionKind.SHUFFLE: frozenset({ActionType.SHUFFLE}),
    DecisionKind.ARTIFACT_PICK: frozenset({ActionType.TAKE_ARTIFACT}),
    DecisionKind.PAY: frozenset({ActionType.PAY}),
    DecisionKind.UPGRADE_STONES: frozenset({ActionType.UPGRADE_STONES}),
}


def answer_is_ordered(decision: JSON | None) -> bool:
    """EFF-8: a decision marked ``"ordered": true`` takes the order of its answer's list as part of the answer
    (two orders are two actions); every other answer is the same action in any order."""
    return decision is not None and decision.get("ordered") is True


FREE_TEXT = {"decision": frozenset({"prompt"}), "rejection": frozenset({"message"}),
             "handshake": frozenset({"engine", "version"})}
"""Free text, by the message that carries it: shown beside a failure where it helps, never compared, so an engine
words its questions and refusals its own way (docs/protocol.md, "What is compared")."""


def decision_contract(decision: JSON) -> JSON:
    """The decision without its free text (the prompt): what two engines must agree on."""
    return {k: v for k, v in decision.items() if k not in FREE_TEXT["decision"]}


def snapshot_contract(snapshot: JSON) -> JSON:
    """The snapshot with its pending decision's free text left out (``private`` kept: PROTO-1 round trips it)."""
    pending = snapshot.get("pending")
    if not isinstance(pending, dict):
        return snapshot
    return {**snapshot, "pending": decision_contract(pending)}


class RejectionCode(str, Enum):
    """Why an action was refused. Each rejection also names the rule id it enforces."""

    MALFORMED_ACTION = "MALFORMED_ACTION"
    GAME_OVER = "GAME_OVER"
    NOT_YOUR_DECISION = "NOT_YOUR_DECISION"
    WRONG_DECISION = "WRONG_DECISION"
    UNKNOWN_CARD = "UNKNOWN_CARD"
    CARD_NOT_IN_DISPLAY = "CARD_NOT_IN_DISPLAY"
    CARD_ALREADY_MARKED = "CARD_ALREADY_MARKED"
    NO_MARKER_ON_CARD = "NO_MARKER_ON_CARD"
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    CARD_NOT_IN_AREA = "CARD_NOT_IN_AREA"
    AREA_FULL = "AREA_FULL"
    INSTANT_UNRESOLVABLE = "INSTANT_UNRESOLVABLE"
    STONES_NOT_HELD = "STONES_NOT_HELD"
    PAYMENT_SHORT = "PAYMENT_SHORT"
    PAYMENT_SUPERFLUOUS_STONE = "PAYMENT_SUPERFLUOUS_STONE"
    MARKER_STILL_PLACED = "MARKER_STILL_PLACED"
    KEEP_WRONG_COUNT = "KEEP_WRONG_COUNT"
    ACTIVE_NOT_AVAILABLE = "ACTIVE_NOT_AVAILABLE"
    INVALID_CHOICE = "INVALID_CHOICE"
    INVALID_SHUFFLE = "INVALID_SHUFFLE"
    ARTIFACT_NOT_AVAILABLE = "ARTIFACT_NOT_AVAILABLE"
    NO_USABLE_ARTIFACT = "NO_USABLE_ARTIFACT"
    UPGRADE_INVALID = "UPGRADE_INVALID"
    UNSUPPORTED = "UNSUPPORTED"


@dataclass(frozen=True, slots=True)
class Rejection:
    """A refused action: a typed code, the rule id it enforces, and a sentence for humans."""

    code: RejectionCode
    rule: str
    message: str

    def to_json(self) -> JSON:
        return {"code": self.code.value, "rule": self.rule, "message": self.message}


@dataclass(frozen=True)
class ApplyResult:
    """What :meth:`Engine.apply` returns, as JSON: ``{"accepted": bool, "events": [...], "rejection": {...}}``."""

    accepted: bool
    events: list[JSON] = field(default_factory=list)
    rejection: Rejection | None = None

    def to_json(self) -> JSON:
        out: JSON = {"accepted": self.accepted, "events": self.events}
        if self.rejection is not None:
            out["rejection"] = self.rejection.to_json()
        return out


EVENT_TYPES = frozenset({
    "game_started", "round_started", "phase_started", "cards_revealed", "marker_placed", "card_sold", "card_tamed",
    "card_summoned", "summon_completed", "stones_gained", "stones_paid", "stones_discarded", "stones_exchanged",
    "points_gained", "points_lost", "card_discarded", "card_recovered", "card_drawn", "draw_failed",
    "card_to_draw_pile", "card_taken_from_discard_pile", "discard_pile_shuffled", "cards_swapped", "effect_resolved",
    "turn_ended", "game_over",
    "artifact_taken", "artifact_used", "artifact_returned", "area_bought", "card_sheltered", "card_retrieved",
    "stones_upgraded",
})
"""The ``type`` of every event an engine may return (docs/protocol.md, Events; the last row: the Artifacts
expansion). An event of another type, or of none, is not protocol data (PROTO-2)."""


CAPABILITIES = ("load", "export", "legal_actions", "events", "internal_shuffle", "internal_reshuffle", "try_actions")
"""What an engine may declare. ``try_actions``: the engine judges a batch of actions without applying them (the
verdict its ``apply`` would give each, PROTO-2), so the oracle need not apply candidates on copies.
``internal_shuffle``: the engine shuffles with its own random generator, the set-up deck and every reshuffle (it
ignores ``setup.deck`` and never asks a ``shuffle`` decision); ``internal_reshuffle``: it deals ``setup.deck`` as
given and shuffles only the reshuffles itself (DECK-1). The oracle adopts and checks their orders from ``export``."""
SHUFFLES_INSIDE = ("internal_shuffle", "internal_reshuffle")
"""The capabilities of an engine that reshuffles the discard pile by itself (it never asks a ``shuffle``)."""
REFERENCE_CAPABILITIES = ("load", "export", "legal_actions", "events", "try_actions")
CAPABILITY_METHODS = {"load": "load", "export": "export", "legal_actions": "legal_actions",
                      "try_actions": "try_actions"}
"""Capability -> the engine method it promises: an engine that declares one must answer that method (PROTO-2)."""


@runtime_checkable
class Engine(Protocol):
    """What an engine under test provides. Methods a capability does not cover may raise NotImplementedError.

    * ``handshake()`` -> ``{"protocol": "1.0", "engine": name, "version": str, "players": [2, 3, 4],
      "expansion": bool, "artifacts": bool, "capabilities": [...], "variants": {...}}``
    * ``new_game(setup)`` starts a game: ``{"players": n, "first_player": i, "deck": [card ids, top first],
      "expansion": bool, "artifacts": bool}`` and returns the events of the set-up.
    * ``decision()`` -> the pending decision (``{"kind", "player", ...}``) or None when the game is over.
    * ``legal_actions()`` -> every action that answers the pending decision legally (capability
      ``legal_actions``).
    * ``apply(action)`` -> ``{"accepted": bool, "events": [...], "rejection": {"code", "rule", "message"}}``;
      a rejected action must leave the state unchanged.
    * ``try_actions(actions)`` -> one verdict per action, in order: ``{"accepted": true}`` or ``{"accepted": false,
      "rejection": {"code", "rule", "message"}}``, the verdict ``apply`` would give it now; the state does not change
      (capability ``try_actions``; a verdict its ``apply`` then contradicts breaks PROTO-2).
    * ``export()`` -> the canonical snapshot (capability ``export``); ``load(snapshot)`` the reverse
      (capability ``load``).
    """

    def handshake(self) -> JSON: ...

    def new_game(self, setup: JSON) -> list[JSON]: ...

    def decision(self) -> JSON | None: ...

    def legal_actions(self) -> list[JSON]: ...

    def apply(self, action: JSON) -> JSON: ...

    def try_actions(self, actions: list[JSON]) -> list[JSON]: ...

    def export(self) -> JSON: ...

    def load(self, snapshot: JSON) -> None: ...


def reference_handshake(name: str, version: str) -> JSON:
    return {
        "protocol": PROTOCOL_VERSION,
        "engine": name,
        "version": version,
        "players": [2, 3, 4],
        "expansion": True,
        "artifacts": True,
        "capabilities": list(REFERENCE_CAPABILITIES),
        "variants": {},
    }
