"""How a scenario's ``[given]`` position is reached on an engine: loaded, or played by its preamble (issue 39)."""

from __future__ import annotations

from enum import Enum

from oracle.engines.harness import Handshake
from oracle.scenarios.model import Scenario
from oracle.scenarios.reach.preamble import Preamble


class Way(str, Enum):
    """``--reach``: ``auto`` loads when the engine can, else plays the preamble; ``load`` and ``preamble`` only
    that way; ``both`` runs each scenario both ways (an engine with ``load``)."""

    AUTO = "auto"
    LOAD = "load"
    PREAMBLE = "preamble"
    BOTH = "both"
    NEW_GAME = "new_game"
    """Not an option: the scenario starts with its own ``[new_game]``."""


def way_for(scenario: Scenario, handshake: Handshake, preamble: Preamble | None, asked: Way) -> Way | None:
    """How this scenario starts on this engine (None: it cannot)."""
    if scenario.new_game is not None:
        return Way.NEW_GAME
    can_load = handshake.can("load")
    playable = preamble is not None
    chosen = {
        Way.AUTO: Way.LOAD if can_load else (Way.PREAMBLE if playable else None),
        Way.LOAD: Way.LOAD if can_load else None,
        Way.PREAMBLE: Way.PREAMBLE if playable else None,
        Way.BOTH: Way.LOAD if can_load else (Way.PREAMBLE if playable else None),
    }
    return chosen[asked]
