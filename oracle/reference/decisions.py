"""Pending decisions: who decides what, and the answers that fit.

A :class:`DecisionSpec` is what the engine asks; :func:`selections` lists the card or option choices that fit
its shape. Legality of every answer lives in :mod:`oracle.reference.actions`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
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
        _KIND_FIELDS[self.kind](self, out)
        return out


def _no_fields(spec: DecisionSpec, out: JSON) -> None:
    return None


def _cards(spec: DecisionSpec, out: JSON) -> None:
    out["cards"] = list(spec.cards)


def _cards_between(spec: DecisionSpec, out: JSON) -> None:
    out["cards"] = list(spec.cards)
    out["min"] = spec.min
    out["max"] = spec.max
    if spec.ordered:
        out["ordered"] = True


def _options_between(spec: DecisionSpec, out: JSON) -> None:
    out["min"] = spec.min
    out["max"] = spec.max
    out["options"] = list(spec.options)
    if spec.looking:
        out["looking"] = spec.looking


def _players(spec: DecisionSpec, out: JSON) -> None:
    out["players"] = list(spec.players)


def _limit(spec: DecisionSpec, out: JSON) -> None:
    out["limit"] = spec.limit


def _tiles(spec: DecisionSpec, out: JSON) -> None:
    out["tiles"] = list(spec.cards)


def _cost(spec: DecisionSpec, out: JSON) -> None:
    out["cost"] = spec.cost


def _eligible_between(spec: DecisionSpec, out: JSON) -> None:
    out["eligible"] = (spec.eligible or Stones()).to_json()
    out["min"] = spec.min
    out["max"] = spec.max


_KIND_FIELDS: dict[DecisionKind, Callable[[DecisionSpec, JSON], None]] = {
    DecisionKind.HUNT_PICK: _no_fields,
    DecisionKind.ACTION: _no_fields,
    DecisionKind.KEEP_STONES: _limit,
    DecisionKind.NEXT_ACTIVE: _cards,
    DecisionKind.CHOOSE_PLAYER: _players,
    DecisionKind.CHOOSE_CARDS: _cards_between,
    DecisionKind.CHOOSE_OPTIONS: _options_between,
    DecisionKind.SHUFFLE: _cards,
    DecisionKind.ARTIFACT_PICK: _tiles,
    DecisionKind.PAY: _cost,
    DecisionKind.UPGRADE_STONES: _eligible_between,
}
"""The fields each kind of decision adds to its JSON, in order."""


def selections(items: tuple[str, ...], least: int, most: int, ordered: bool = False) -> list[tuple[str, ...]]:
    """Every selection of between ``least`` and ``most`` of ``items`` (cards or options on offer): sorted, or
    with ``ordered`` every order of each selection (EFF-8)."""
    pick = itertools.permutations if ordered else itertools.combinations
    out: list[tuple[str, ...]] = []
    for size in range(least, most + 1):
        out.extend(pick(sorted(items), size))
    return out
