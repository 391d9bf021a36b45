"""Playing whole games with seeded random choices: for ``oracle play``, smoke checks and benchmarks.

All randomness lives here, outside the engines: the deck order, each reshuffle order, and which legal
action a player takes all come from one ``random.Random(seed)``.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON

MAX_STEPS = 20_000


class Playable(Protocol):
    def new_game(self, setup: JSON) -> list[JSON]: ...

    def decision(self) -> JSON | None: ...

    def legal_actions(self) -> list[JSON]: ...

    def apply(self, action: JSON) -> JSON: ...


class GameStuck(Exception):
    """A random game could not go on: no legal action, an action refused, or no end in sight."""


def random_deck(seed: int, expansion: bool = False) -> list[str]:
    sets = ["base", "artifacts"] if expansion else ["base"]
    deck = sorted(c.id for c in catalogue().in_sets(sets))
    random.Random(f"deck-{seed}").shuffle(deck)
    return deck


ADVANCED_TILES = ("tile-book-of-thoth", "tile-cap-of-hades", "tile-gem-of-kukulkan", "tile-imperial-seal",
                  "tile-philosopher-s-stone", "tile-ring-of-wishes")


def new_setup(
    players: int, seed: int, first_player: int | None = None, expansion: bool = False, artifacts: bool = False
) -> JSON:
    """A set-up drawn from ``seed``: first player, deck order and (with the tiles) the 3 advanced tiles."""
    rng = random.Random(f"setup-{seed}")
    first = rng.randrange(players) if first_player is None else first_player
    setup: JSON = {"players": players, "first_player": first, "deck": random_deck(seed, expansion or artifacts)}
    if expansion or artifacts:
        setup["expansion"] = True
    if artifacts:
        setup["artifacts"] = True
        setup["advanced_tiles"] = sorted(rng.sample(ADVANCED_TILES, 3))
    return setup


def adopt_deck(setup: JSON, snapshot: JSON) -> JSON:
    """The set-up with the deck an engine that shuffles inside (``internal_shuffle``) dealt itself: its display,
    then its draw pile, top first (the display is listed sorted, and the reference reveals it sorted too)."""
    return {**setup, "deck": [*snapshot.get("display", []), *snapshot.get("draw_pile", [])]}


def deal_difference(deck: list[str], snapshot: JSON) -> str:
    """SETUP-1 for an engine that deals by itself: its display and draw pile hold exactly the cards of ``deck``, in
    any order ('' when they do, else what they lack and hold beyond it)."""
    dealt = Counter([*snapshot.get("display", []), *snapshot.get("draw_pile", [])])
    given = Counter(deck)
    missing, extra = given - dealt, dealt - given
    words = [f"{label} {', '.join(sorted(cards.elements()))}" for label, cards in
             (("lack", missing), ("hold beyond the deck", extra)) if cards]
    return f"the display and draw pile {' and '.join(words)}" if words else ""


@dataclass
class Step:
    decision: JSON
    action: JSON
    events: list[JSON]


@dataclass
class GameLog:
    setup: JSON
    steps: list[Step] = field(default_factory=list)
    setup_events: list[JSON] = field(default_factory=list)


def chance_action(pending: JSON, rng: random.Random) -> JSON:
    """A shuffle order drawn from ``rng`` (DECK-1)."""
    order = sorted(pending.get("cards", []))
    rng.shuffle(order)
    return {"type": "shuffle", "player": None, "order": order}


def choose_action(engine: Playable, pending: JSON, rng: random.Random) -> JSON:
    if pending.get("kind") == "shuffle":
        return chance_action(pending, rng)
    legal = engine.legal_actions()
    if not legal:
        raise GameStuck(f"no legal action for the pending decision {pending}")
    return legal[rng.randrange(len(legal))]


def play_random_game(
    engine: Playable, players: int, seed: int, keep_log: bool = True, expansion: bool = False, artifacts: bool = False
) -> GameLog:
    """Play one game to its end, choosing uniformly among the legal actions."""
    setup = new_setup(players, seed, expansion=expansion, artifacts=artifacts)
    log = GameLog(setup)
    log.setup_events = engine.new_game(setup)
    rng = random.Random(f"play-{seed}")
    for _ in range(MAX_STEPS):
        pending = engine.decision()
        if pending is None:
            return log
        action = choose_action(engine, pending, rng)
        result = engine.apply(action)
        if not result["accepted"]:
            raise GameStuck(f"the engine refused its own legal action {action}: {result.get('rejection')}")
        if keep_log:
            log.steps.append(Step(pending, action, result["events"]))
    raise GameStuck(f"no end after {MAX_STEPS} decisions")
