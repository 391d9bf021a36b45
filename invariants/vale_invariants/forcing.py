"""Forcing games: after the sampled games, each decision kind a declared game mode can ask but no game probed is
sought from positions with an empty draw pile, so the rare kinds (``shuffle`` above all) are probed every run."""

from __future__ import annotations

import dataclasses

from oracle.core.protocol import DecisionKind
from vale_invariants.game import GameRunner, GameSettings, RandomChooser, Stats
from vale_invariants.trace import Failure, Violation

BASE_KINDS = frozenset({
    DecisionKind.HUNT_PICK, DecisionKind.ACTION, DecisionKind.KEEP_STONES, DecisionKind.NEXT_ACTIVE,
    DecisionKind.CHOOSE_PLAYER, DecisionKind.CHOOSE_CARDS, DecisionKind.CHOOSE_OPTIONS, DecisionKind.SHUFFLE,
})
KINDS_BY_MODE: dict[str, frozenset[DecisionKind]] = {
    "base": BASE_KINDS,
    "expansion": BASE_KINDS | {DecisionKind.UPGRADE_STONES},
    "artifacts": BASE_KINDS | {DecisionKind.UPGRADE_STONES, DecisionKind.ARTIFACT_PICK, DecisionKind.PAY},
}
"""The decision kinds each game mode can ask (docs/decisions.md lists the cards and tiles behind them)."""
ATTEMPTS_PER_MODE = 12


def kinds_of(modes: tuple[str, ...]) -> frozenset[DecisionKind]:
    """Every decision kind the game modes ``modes`` can ask."""
    return frozenset().union(*(KINDS_BY_MODE[m] for m in modes))


def unprobed(modes: tuple[str, ...], stats: Stats) -> frozenset[DecisionKind]:
    """The kinds ``modes`` can ask that no guard probe reached, apart from those the adapter cannot drive."""
    undrivable = {kind for kind in DecisionKind if kind.value in stats.undrivable}
    return kinds_of(modes) - set(stats.probes) - undrivable


def force_missing_kinds(settings: GameSettings, seed: int | str, stats: Stats) -> Failure | None:
    """Play forcing games, mode by mode, until every kind of ``settings.modes`` has been probed (:func:`unprobed`) or
    ``ATTEMPTS_PER_MODE`` games of a mode found no more; the first failure ends them. ``seed`` names the games
    (a shard's has its shard in it, so two shards play other forcing games). Each game is counted in
    ``stats.forcing_games``, and its probes and checks in ``stats``."""
    for mode in settings.modes:
        for attempt in range(ATTEMPTS_PER_MODE):
            if not unprobed((mode,), stats):
                break
            forcing = dataclasses.replace(settings, modes=(mode,), scarce=True)
            runner = GameRunner(forcing, RandomChooser(f"forcing-{seed}-{mode}-{attempt}"), stats)
            stats.forcing_games += 1
            try:
                runner.play()
            except Violation as violation:
                return violation.failure
    return None
