"""The reference engine's game state.

``GameState`` and ``PlayerState`` are the only mutable objects of the engine, and only
:mod:`oracle.reference.table` changes them. Everything else (cards, stones, decisions, rejections)
is an immutable value.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from oracle.model import NO_STONES, Stones

JSON = dict[str, Any]


class Phase(str, Enum):
    """The phase state machine of a round (rule ROUND-1), plus the end of the game."""

    HUNTING = "hunting"
    ACTION = "action"
    RESOLUTION = "resolution"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Setup:
    """What fixes a game before it starts. ``variants`` names the rule variants the engine follows."""

    players: int
    rounds: int = 10
    end_score: int = 60
    expansion: bool = False
    artifacts: bool = False
    variants: tuple[tuple[str, str], ...] = ()
    advanced_tiles: tuple[str, ...] = ()

    def variant(self, name: str, default: str) -> str:
        return dict(self.variants).get(name, default)

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


@dataclass
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


@dataclass
class Frame:
    """One unfinished piece of work on the resolution stack.

    kinds: ``summon`` (a summon in progress: its Permanent effect is not yet in force), ``effect``
    (an Instant or Active effect part-way through its stages), ``keep`` (a player over the holding
    limit), ``shuffle`` (the discard pile must be shuffled into a new draw pile).
    """

    kind: str
    player: int
    card: str = ""
    source: str = ""
    effect: str = ""
    stage: int = 0
    memo: JSON = field(default_factory=dict)

    def clone(self) -> Frame:
        return Frame(self.kind, self.player, self.card, self.source, self.effect, self.stage, copy.deepcopy(self.memo))

    def to_json(self) -> JSON:
        return {
            "kind": self.kind,
            "player": self.player,
            "card": self.card,
            "source": self.source,
            "effect": self.effect,
            "stage": self.stage,
            "memo": copy.deepcopy(self.memo),
        }

    @staticmethod
    def from_json(data: JSON) -> Frame:
        return Frame(
            kind=str(data["kind"]),
            player=int(data["player"]),
            card=str(data.get("card", "")),
            source=str(data.get("source", "")),
            effect=str(data.get("effect", "")),
            stage=int(data.get("stage", 0)),
            memo=copy.deepcopy(dict(data.get("memo", {}))),
        )


@dataclass
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

    def owner_of_summoned(self, card_id: str) -> int | None:
        for index, player in enumerate(self.players):
            if card_id in player.area:
                return index
        return None
