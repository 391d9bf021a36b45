"""Guard probes (DEC-1, DEC-2, DEC-4): every decision kind of a game is sent its battery of illegal answers."""

from __future__ import annotations

import random
from typing import Any

import pytest

from oracle.core.json_types import JSON
from oracle.core.protocol import DecisionKind
from oracle.core.results import Outcome
from oracle.reference import ReferenceEngine
from vale_invariants.catalog import ALL_NAMES, LOCKSTEP
from vale_invariants.fuzz import FuzzConfig, run_fuzz
from vale_invariants.game import GameRunner, GameSettings, RandomChooser
from vale_invariants.game_guards import GUARDS
from vale_invariants.guards import GuardProbe, applicable, guard_probes


def _fuzz(engine: type[ReferenceEngine], mode: str = "invariants", games: int = 20) -> Any:
    invariants = (GUARDS,) if mode == "invariants" else ALL_NAMES
    return run_fuzz(engine, "tests.guards", FuzzConfig(games=games, seed=0, mode=mode, invariants=invariants,
                                                       shrink_examples=0, max_failures=1))


# ---------------------------------------------------------------------------------------------- coverage


class _KindRecorder(GameRunner):
    seen: set[DecisionKind]

    def _guard(self, pending: JSON, snapshot: JSON | None, legal: list[JSON], step: int) -> None:
        self.seen.add(DecisionKind(pending["kind"]))
        super()._guard(pending, snapshot, legal, step)


@pytest.mark.parametrize("game", range(6))
def test_every_kind_a_game_reaches_is_probed_in_that_game(game: int) -> None:
    settings = GameSettings(ReferenceEngine, "oracle.reference", (2, 3, 4), frozenset({GUARDS}), False,
                            positions=True, modes=("base", "expansion", "artifacts"))
    runner = _KindRecorder(settings, RandomChooser(random.Random(game)))
    runner.seen = set()
    runner.play()
    assert runner.seen == {kind for kind, sent in runner.guarded.items() if sent}
    assert all(runner.stats.probes[kind] > 0 for kind in runner.seen)


def test_fuzzing_the_reference_probes_every_decision_kind_and_reports_the_counts() -> None:
    # 5 games per mode (15 in all) reach every decision kind, the rare ones (pay, shuffle) several times over
    report = _fuzz(ReferenceEngine, mode="both", games=5)
    assert [] == report.failures
    result = next(r for r in report.results() if r.id == f"invariants/{GUARDS}")
    assert Outcome.PASS == result.outcome
    assert {k.value for k in DecisionKind} == set(result.details["probes_by_kind"])
    assert all(n > 0 for n in result.details["probes_by_kind"].values())


def test_each_probe_kind_is_built_where_it_applies() -> None:
    keep = {"kind": "keep_stones", "player": 0, "limit": 2}
    legal = [{"type": "keep_stones", "player": 0, "stones": {"red": 1, "blue": 1, "purple": 0}}]
    snapshot = {"players": [{"stones": {"red": 2, "blue": 1, "purple": 0}, "hand": [], "area": [], "markers": []},
                            {"stones": {"red": 0, "blue": 0, "purple": 0}}], "display": []}
    probes = guard_probes(DecisionKind.KEEP_STONES, keep, legal, snapshot, 2, frozenset())
    assert applicable(DecisionKind.KEEP_STONES) == {p.what for p in probes}
    assert {"end_turn", "sell"} == {p.action["type"] for p in probes if p.what is GuardProbe.OTHER_KIND}
    assert {1} == {p.action["player"] for p in probes if p.what is GuardProbe.WRONG_PLAYER}


# ---------------------------------------------------------------------------------------------- engines caught


class _EndTurnWhileKeeping(ReferenceEngine):
    """Takes ``end_turn`` as an answer to a keep-stones decision (and does nothing)."""

    def apply(self, action: JSON) -> JSON:
        pending = self.decision() or {}
        if pending.get("kind") == "keep_stones" and action.get("type") == "end_turn":
            return {"accepted": True, "events": []}
        return super().apply(action)


class _AnyoneChoosesOptions(ReferenceEngine):
    """Lets any player answer a choose-options decision."""

    def apply(self, action: JSON) -> JSON:
        pending = self.decision() or {}
        if pending.get("kind") == "choose_options" and action.get("type") == "choose_options":
            action = {**action, "player": pending.get("player")}
        return super().apply(action)


class _RoundsFractionalStones(ReferenceEngine):
    """Reads a fractional stone count of a keep-stones answer as the whole number below it."""

    def apply(self, action: JSON) -> JSON:
        stones = action.get("stones")
        if action.get("type") == "keep_stones" and isinstance(stones, dict):
            action = {**action, "stones": {c: int(n) if isinstance(n, float) else n for c, n in stones.items()}}
        return super().apply(action)


class _RejectionForgetsTheChoice(ReferenceEngine):
    """Rejecting a wrong-player answer to a choose-player decision drops the pending decision's source (DEC-4, filed
    under the reference's rejection of the answer: DEC-1); its prompt is free text, so a change there would not
    count."""

    def decision(self) -> JSON | None:
        pending = super().decision()
        if pending is not None and getattr(self, "_touched", False) and pending.get("kind") == "choose_player":
            return {**pending, "source": ""}
        return pending

    def apply(self, action: JSON) -> JSON:
        result = super().apply(action)
        self._touched = not result["accepted"] and action.get("type") == "choose_player"
        return result


@pytest.mark.parametrize(("engine", "rule", "outcome"), [
    (_EndTurnWhileKeeping, "DEC-2", Outcome.ILLEGAL_ACCEPTED),
    (_AnyoneChoosesOptions, "DEC-1", Outcome.ILLEGAL_ACCEPTED),
    (_RoundsFractionalStones, "DEC-2", Outcome.ILLEGAL_ACCEPTED),
    (_RejectionForgetsTheChoice, "DEC-1", Outcome.FAIL),
])
def test_a_missing_guard_is_caught(engine: type[ReferenceEngine], rule: str, outcome: Outcome) -> None:
    report = _fuzz(engine)
    assert [GUARDS] == [f.invariant for f in report.failures]
    failure = report.failures[0]
    assert rule == failure.rules[0]
    assert outcome == failure.outcome
    assert failure.trace.probe is not None


def test_lockstep_alone_catches_an_accepted_probe() -> None:
    report = _fuzz(_EndTurnWhileKeeping, mode="lockstep")
    assert [LOCKSTEP.name] == [f.invariant for f in report.failures]
    assert "DEC-2" in report.failures[0].rules
