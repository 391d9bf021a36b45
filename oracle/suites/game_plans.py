"""The seeded games the game suites play: one per mode the engine declares, player count and seed."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from oracle.core.json_types import JSON
from oracle.engines.harness import Handshake
from oracle.engines.play import new_setup
from oracle.suites.registry import CheckOptions


@dataclass(frozen=True)
class GamePlan:
    """One seeded game a suite plays: the mode (base, expansion cards, or cards and tiles), players, seed."""

    mode: str
    players: int
    seed: int

    @property
    def label(self) -> str:
        game = f"{self.players}p/seed-{self.seed}"
        return game if self.mode == "base" else f"{self.mode}/{game}"

    def setup(self) -> JSON:
        return new_setup(self.players, self.seed, expansion=self.mode != "base", artifacts=self.mode == "artifacts")

    def reproduce(self, impl: str) -> str:
        flag = {"base": "", "expansion": " --expansion", "artifacts": " --artifacts"}[self.mode]
        return f"oracle play --impl {shlex.quote(impl)} --players {self.players} --seed {self.seed}{flag}"


def game_plans(handshake: Handshake, options: CheckOptions, games: int, seed_offset: int) -> list[GamePlan]:
    """The games to play: every requested player count, in each mode the engine declares (ART-1, ART-2)."""
    modes = ["base"] + (["expansion"] if handshake.expansion else []) + (["artifacts"] if handshake.artifacts else [])
    return [
        GamePlan(mode, players, options.seed + seed_offset + game)
        for mode in modes
        for players in options.players
        for game in range(games)
    ]
