"""Pending decisions: who decides what, and the answers that fit.

A :class:`DecisionSpec` is what the engine asks; :func:`selections` lists the card or option choices that fit
its shape. Legality of every answer lives in :mod:`oracle.reference.actions`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from oracle.core.json_types import JSON
from oracle.core.model import Stones
from oracle.core.protocol import DecisionKind


@dataclass(frozen=True, slots=True)
class DecisionSpec:
    """A pending decision. ``player`` is None for chance decisions (a shuffle).

    ``cards`` are the cards (or tiles) on offer: for a marker, the unmarked display cards; for an Active effect,
    the unused ones; for a choice, the candidates; for a shuffle, the discard pile. ``ordered`` says the order
    of a ``choose_cards`` answer matters (several cards discarded one at a time, EFF-8).
    """

    kind: DecisionKind
    player: int | None
    prompt: str
    source: str = ""
    cards: tuple[str, ...] = ()
    players: tuple[int, ...] = ()
    options: tuple[str, ...] = ()
    min: int = 1
    max: int = 1
    limit: int = 0
    cost: int = 0
    eligible: Stones | None = None
    ordered: bool = False
    looking: str = ""
    """choose_options, ART-11: the card, tile or rule id whose effect or check looks at Loki's family."""

    @property
    def decider(self) -> int:
        """The player who decides; only a chance decision has none, and no player's action answers it."""
        if self.player is None:  # pragma: no cover - internal guard: actions.check matches the player first (DEC-1)
            raise ValueError(f"a {self.kind.value} decision is made by chance, not by a player")
        return self.player

    def to_json(self) -> JSON:
        out: JSON = {"kind": self.kind.value, "player": self.player, "prompt": self.prompt}
        if self.source:
            out["source"] = self.source
        if self.kind in (DecisionKind.CHOOSE_CARDS, DecisionKind.SHUFFLE, DecisionKind.NEXT_ACTIVE):
            out["cards"] = list(self.cards)
        if self.kind is DecisionKind.CHOOSE_CARDS or self.kind is DecisionKind.CHOOSE_OPTIONS:
            out["min"] = self.min
            out["max"] = self.max
        if self.ordered:
            out["ordered"] = True
        if self.kind is DecisionKind.CHOOSE_PLAYER:
            out["players"] = list(self.players)
        if self.kind is DecisionKind.CHOOSE_OPTIONS:
            out["options"] = list(self.options)
            if self.looking:
                out["looking"] = self.looking
        if self.kind is DecisionKind.KEEP_STONES:
            out["limit"] = self.limit
        if self.kind is DecisionKind.ARTIFACT_PICK:
            out["tiles"] = list(self.cards)
        if self.kind is DecisionKind.PAY:
            out["cost"] = self.cost
        if self.kind is DecisionKind.UPGRADE_STONES:
            out["eligible"] = (self.eligible or Stones()).to_json()
            out["min"] = self.min
            out["max"] = self.max
        return out


def selections(items: tuple[str, ...], least: int, most: int, ordered: bool = False) -> list[tuple[str, ...]]:
    """Every selection of between ``least`` and ``most`` of ``items`` (cards or options on offer): sorted, or
    with ``ordered`` every order of each selection (EFF-8)."""
    pick = itertools.permutations if ordered else itertools.combinations
    out: list[tuple[str, ...]] = []
    for size in range(least, most + 1):
        out.extend(pick(sorted(items), size))
    return out
