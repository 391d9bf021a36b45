"""The reference engine's game state: the phase, the players, the card zones and the resolution stack.

``GameState``, ``PlayerState`` and ``Frame`` are the only mutable objects of the engine; who may write them is
said in :mod:`oracle.reference`. Everything else (cards, stones, notes, decisions, rejections) is an immutable
value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from oracle.core.json_types import JSON
from oracle.core.model import NO_STONES, Stones
from oracle.core.rules import variants
from oracle.reference.notes import NOTES, Note

MIN_PLAYERS, MAX_PLAYERS = 2, 4
"""SETUP-1: the game is for 2 to 4 players."""


class Phase(str, Enum):
    """The phase state machine of a round (rule ROUND-1), plus the end of the game."""

    HUNTING = "hunting"
    ACTION = "action"
    RESOLUTION = "resolution"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Setup:
    """What fixes a game before it starts. ``variants`` names the rule variants the set-up plays; ``declared``
    (never exported) those the engine declares in its handshake, played where ``variants`` names none."""

    players: int
    rounds: int = 10
    end_score: int = 60
    expansion: bool = False
    artifacts: bool = False
    variants: tuple[tuple[str, str], ...] = ()
    advanced_tiles: tuple[str, ...] = ()
    declared: tuple[tuple[str, str], ...] = ()

    def variant(self, name: str) -> str:
        """The value of the rule variant ``name`` this game plays: the set-up's, else the engine's declared one,
        else the project's ruling (the catalogue's first value)."""
        for named in (self.variants, self.declared):
            for rule, value in named:
                if rule == name:
                    return value
        return variants()[name].default

    def to_json(self) -> JSON:
        return {
            "players": self.players,
            "rounds": self.rounds,
            "end_score": self.end_score,
            "expansion": self.expansion,
            "artifacts": self.artifacts,
            "variants": dict(self.variants),
            **({"advanced_tiles": list(self.advanced_tiles)} if self.artifacts else {}),
        }


class Zone(Enum):
    """The zones a card can be in (named so in events)."""

    DISPLAY = "display"
    DRAW_PILE = "draw_pile"
    DISCARD_PILE = "discard_pile"
    HAND = "hand"
    AREA = "area"
    SHELTER = "shelter"


class FrameKind(str, Enum):
    """What a frame of the resolution stack is doing."""

    SUMMON = "summon"
    """A summon in progress: its triggers have still to fire, its Permanent effect is not yet in force (SUM-6)."""
    EFFECT = "effect"
    """An Instant, Active, triggered or artifact effect part-way through its stages."""
    KEEP = "keep"
    """A player over the holding limit chooses the stones to keep (LIMIT-2)."""
    SHUFFLE = "shuffle"
    """The discard pile must be shuffled into a new draw pile (DECK-1)."""


class EffectKind(str, Enum):
    """Which registry an effect frame's effect comes from."""

    INSTANT = "instant"
    ACTIVE = "active"
    PERMANENT = "permanent"
    """The staged part of a Permanent trigger (Duduri King's choice)."""
    ARTIFACT = "artifact"


@dataclass(slots=True)
class PlayerState:
    """One player's public position (hand contents are secret at the table, not to the oracle)."""

    score: int = 0
    hand: list[str] = field(default_factory=list)
    area: list[str] = field(default_factory=list)
    stones: Stones = NO_STONES
    markers: list[str] = field(default_factory=list)
    shelter: list[str] = field(default_factory=list)
    extra_areas: int = 0
    artifact: str | None = None


@dataclass(slots=True)
class Frame:
    """One unfinished piece of work on the resolution stack.

    ``card`` acts as 'this card' and ``source`` is the card whose printed effect resolves (they differ for a
    copied effect, RUL-12); ``stage`` is the next stage of the effect; ``memo`` holds the notes its stages left.
    """

    kind: FrameKind
    player: int
    card: str = ""
    source: str = ""
    effect: EffectKind | None = None
    stage: int = 0
    memo: dict[Note[Any], Any] = field(default_factory=dict)

    def clone(self) -> Frame:
        """An independent copy (notes hold immutable values, so the memo is copied, not its values)."""
        return Frame(self.kind, self.player, self.card, self.source, self.effect, self.stage, dict(self.memo))

    def to_json(self) -> JSON:
        return {
            "kind": self.kind.value,
            "player": self.player,
            "card": self.card,
            "source": self.source,
            "effect": "" if self.effect is None else self.effect.value,
            "stage": self.stage,
            "memo": {note.name: note.to_json(value) for note, value in self.memo.items()},
        }

    # Read back only from the reference's own export, never from a scenario: tests/test_reference_plumbing.py.
    @staticmethod
    def from_json(data: JSON) -> Frame:  # pragma: no cover - own bookkeeping
        effect = data.get("effect", "")
        memo = {NOTES[name]: NOTES[name].from_json(value) for name, value in dict(data.get("memo", {})).items()}
        return Frame(
            kind=FrameKind(data["kind"]),
            player=int(data["player"]),
            card=str(data.get("card", "")),
            source=str(data.get("source", "")),
            effect=EffectKind(effect) if effect else None,
            stage=int(data.get("stage", 0)),
            memo=memo,
        )


@dataclass(slots=True)
class GameState:
    """The whole table. ``turn_player`` is whose Action or Resolution turn it is.

    With the Artifacts tiles: ``tiles`` are the artifact tiles in the display and ``square_markers`` maps a
    tile to the player whose square marker lies on it (that player cannot take it next: ART-3).
    """

    setup: Setup
    round: int = 1
    phase: Phase = Phase.HUNTING
    first_player: int = 0
    players: list[PlayerState] = field(default_factory=list)
    display: list[str] = field(default_factory=list)
    draw_pile: list[str] = field(default_factory=list)
    discard_pile: list[str] = field(default_factory=list)
    turn_player: int | None = None
    actives_used: list[str] = field(default_factory=list)
    revealed: bool = False
    stack: list[Frame] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    tiles: list[str] = field(default_factory=list)
    square_markers: dict[str, int] = field(default_factory=dict)

    def clone(self) -> GameState:
        """An independent copy (cards and stones are immutable values, so lists are copied, not their items)."""
        return GameState(
            setup=self.setup,
            round=self.round,
            phase=self.phase,
            first_player=self.first_player,
            players=[
                PlayerState(p.score, list(p.hand), list(p.area), p.stones, list(p.markers), list(p.shelter),
                            p.extra_areas, p.artifact)
                for p in self.players
            ],
            display=list(self.display),
            draw_pile=list(self.draw_pile),
            discard_pile=list(self.discard_pile),
            turn_player=self.turn_player,
            actives_used=list(self.actives_used),
            revealed=self.revealed,
            stack=[f.clone() for f in self.stack],
            winners=list(self.winners),
            tiles=list(self.tiles),
            square_markers=dict(self.square_markers),
        )

    @property
    def n(self) -> int:
        return self.setup.players

    def seat_order(self) -> list[int]:
        """Players from the first player clockwise."""
        return [(self.first_player + i) % self.n for i in range(self.n)]

