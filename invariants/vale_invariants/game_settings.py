"""What a fuzzed game is played with (its settings and limits) and what the games count (stats)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from oracle.core.protocol import DecisionKind
from oracle.engines.harness import DEFAULT_START_TIMEOUT
from vale_invariants.trace import Signature

MAX_STEPS = 3000
STEP_CALLS = 4
SEED_MAX = 2**32 - 1


@dataclass
class Stats:
    games: int = 0
    decisions: int = 0
    truncated: int = 0
    checks: Counter[str] = field(default_factory=Counter)
    probes: Counter[DecisionKind] = field(default_factory=Counter)
    """Guard probes sent, by the kind of the decision they were sent to."""
    games_by_mode: Counter[str] = field(default_factory=Counter)
    """Games played, by game mode (base, expansion, artifacts)."""
    undrivable: Counter[str] = field(default_factory=Counter)
    """Games stopped at a decision the adapter marks undrivable, by decision kind."""
    undrivable_reasons: dict[str, str] = field(default_factory=dict)
    """The adapter's reason for the first undrivable decision of each kind."""
    forcing_games: int = 0
    """Games played from positions that force the decision kinds the sampled games did not probe."""
    set_aside: Counter[str] = field(default_factory=Counter)
    """Divergences and findings of known causes set aside (the run went on past them), by their first rule."""
    restored: int = 0
    """Times the engine was loaded back to a position both engines share after a set-aside cause moved it on."""
    ended: Counter[str] = field(default_factory=Counter)
    """Games that could not go on past a set-aside cause, by why (no 'load', a state the reference refuses ...)."""
    positions: int = 0
    """Positions the games reached (the start of each game and the position after each decision)."""
    decisions_seen: Counter[str] = field(default_factory=Counter)
    """Decisions played while each invariant (or LOCKSTEP) was checked, by its name."""
    positions_seen: Counter[str] = field(default_factory=Counter)
    """Positions reached while each invariant (or LOCKSTEP) was checked, by its name."""

    def saw(self, names: Iterable[str], decisions: int, positions: int) -> None:
        """One game's count: the decisions and positions it reached, for each invariant it checked."""
        self.positions += positions
        for name in names:
            self.decisions_seen[name] += decisions
            self.positions_seen[name] += positions


@dataclass(frozen=True)
class GameSettings:
    factory: Callable[[], Any]
    impl: str
    players: tuple[int, ...]
    active: frozenset[str]
    lockstep: bool
    timeout: float = 5.0
    start_timeout: float = DEFAULT_START_TIMEOUT
    """Seconds an engine may take to start (``create`` and the handshake), on top of a step's budget."""
    max_steps: int = MAX_STEPS
    positions: bool = False
    modes: tuple[str, ...] = ("base",)
    set_aside: frozenset[str] = frozenset()
    """``--set-aside``: rules of known causes. A divergence or finding blamed on one (its first rule) is counted, the
    engines are re-synchronised, and the game goes on (:meth:`~vale_invariants.game_core.RunnerCore.diverged`)."""
    known: frozenset[Signature] = frozenset()
    """The causes this run has reported already: set aside like ``set_aside``, so the run looks for the next."""
    scarce: bool = False
    """Start from a random position whose draw pile is empty (:func:`vale_invariants.game_position.random_position`)."""
    setup_known: bool = False
    """A set-up deviation was reported: a divergence at step 0 re-synchronises the reference instead."""
    resync_until: int = 0
    """Replaying a failure at this step: every divergence caused by an earlier action is set aside."""
    legal_share: float = 1.0
    """The share of decisions at which, in lock-step, the engine's complete legal set is compared
    (:mod:`oracle.engines.legal_share`); at the others the chosen action and a few probes are judged."""
