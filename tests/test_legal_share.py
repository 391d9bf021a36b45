"""The sampled legal-set comparison (issue 25): which decisions compare the engine's complete legal set, how the
share is set, and that the fixtures breaking legality are still caught at the smallest share."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.protocol import DecisionKind
from oracle.core.results import Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.engines.harness import on_engine_cost
from oracle.engines.legal_share import DEFAULT_SHARE, MIN_SHARE, LegalSampler, LegalShare, ShareSource, given_problem
from oracle.reference import create
from oracle.suites.all import run_check
from oracle.suites.registry import CheckOptions
from tests.helpers import CALL_SECONDS
from vale_invariants.game import GameRunner, GameSettings, RandomChooser, Stats
from vale_invariants.trace import Violation

# ---------------------------------------------------------------------- which decisions


def _full(share: float, seed: object, kinds: list[str]) -> list[bool]:
    sampler = LegalSampler(share, seed)
    return [sampler.full(kind, step) for step, kind in enumerate(kinds)]


def test_the_first_decision_of_each_kind_is_compared_in_full() -> None:
    kinds = ["hunt_pick"] * 50 + ["action"] * 50 + ["hunt_pick"] * 50
    full = _full(MIN_SHARE, 7, kinds)
    assert (True, True) == (full[0], full[50])


def test_the_sample_is_a_function_of_the_seed_alone() -> None:
    kinds = ["action"] * 400
    assert _full(0.2, 3, kinds) == _full(0.2, 3, kinds)
    assert _full(0.2, 3, kinds) != _full(0.2, 4, kinds)


def test_share_1_compares_every_decision() -> None:
    assert [True] * 300 == _full(1.0, 5, ["action"] * 300)


def test_the_smallest_share_compares_about_one_decision_in_twenty() -> None:
    compared = sum(_full(MIN_SHARE, 11, ["action"] * 4000))
    assert 120 <= compared <= 300


# ---------------------------------------------------------------------- how the share is set


def test_a_costly_listing_gets_the_smallest_share_and_a_cheap_one_the_default() -> None:
    slow, fast = LegalShare.of(0.020, 0.0003), LegalShare.of(0.00002, 0.0002)
    assert (MIN_SHARE, ShareSource.MEASURED) == (slow.share, slow.source)
    assert (DEFAULT_SHARE, ShareSource.MEASURED) == (fast.share, fast.source)
    assert "--legal-share 0.05 reproduces it" in slow.text()


def test_a_listing_a_few_times_a_step_gets_a_share_between() -> None:
    assert 0.12 == LegalShare.of(0.004, 0.001).share


# ---------------------------------------------------------------------- listing or probing (issue 36, item 10)


def test_a_listing_no_dearer_than_a_try_actions_of_the_probes_judges_every_decision() -> None:
    chosen = LegalShare.of(0.001, 0.004, trying_seconds=0.002)
    assert (1.0, ShareSource.MEASURED) == (chosen.share, chosen.source)
    assert ("legal-set share 1 (measured: a listing took 1.000 ms, a step 4.000 ms, a try_actions of the probes "
            "2.000 ms: every decision is judged by the listing, the cheaper; --legal-share 1 reproduces it)") \
        == chosen.text()


def test_a_listing_dearer_than_the_probes_keeps_the_share_and_says_the_probes_are_cheaper() -> None:
    chosen = LegalShare.of(0.004, 0.001, trying_seconds=0.002)
    assert 0.12 == chosen.share
    assert "a try_actions of the probes 2.000 ms; the others by try_actions, the cheaper" in chosen.text()


SLOW_PROBES = """
import time

from oracle.reference import ReferenceEngine


class SlowProbes(ReferenceEngine):
    \"\"\"The reference, its listing cheap and its try_actions dear, as the Node kit's save-apply-restore is.\"\"\"

    def try_actions(self, candidates):
        time.sleep(0.002)
        return super().try_actions(candidates)


def create():
    return SlowProbes()
"""


def test_an_engine_listing_cheaper_than_it_probes_is_asked_try_actions_only_once_per_kind_in_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle measures both ways of judging a decision where the engine declares both, and plays by the
    cheaper: here the listing, so random play asks try_actions only once per kind of decision in each game (to hold
    it to its apply), not at half the decisions, and the report says why."""
    (tmp_path / "slow_probes.py").write_text(SLOW_PROBES, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)  # a worker started anew (beside a thread another test left) finds it from here
    report = tmp_path / "report.json"
    done = CliRunner().invoke(app, ["check", "--impl", "slow_probes", "--suite", "random-play", "--games", "1",
                                    "-j", "1", "--report-json", str(report)])
    assert report.is_file(), (done.exit_code, done.output, done.exception)
    run = json.loads(report.read_text(encoding="utf-8"))["run"]
    asked = {m["method"]: m["calls"] for m in run["engine_costs"]["methods"]}
    games = len(json.loads(report.read_text(encoding="utf-8"))["results"])
    assert (1.0, True) == (run["legal_share"], asked["try_actions"] <= games * len(DecisionKind)), done.stdout
    assert "every decision is judged by the listing, the cheaper" in done.stdout


@pytest.mark.parametrize("share", [0.0, 0.01, 1.5, float("nan")])
def test_a_share_outside_0_05_to_1_is_refused(share: float) -> None:
    assert given_problem(share).startswith("--legal-share must be a number from 0.05 to 1")


def test_a_share_in_range_is_taken() -> None:
    assert ("", "") == (given_problem(MIN_SHARE), given_problem(1.0))


# ---------------------------------------------------------------------- the fixtures breaking legality


LEGALITY_FIXTURES = {
    "vale_fixtures.answers_for_the_decider": "DEC-1",
    "vale_fixtures.area_off_by_one": "SUM-1",
    "vale_fixtures.refuses_late_tames": "TAME-1",
    "vale_fixtures.superfluous_payment": "PAY-3",
}
"""Illegal actions accepted (DEC-1, SUM-1, PAY-3) and legal ones refused (TAME-1)."""


@pytest.mark.parametrize(("impl", "rule"), sorted(LEGALITY_FIXTURES.items()))
def test_a_fixture_breaking_legality_is_caught_by_the_lock_step_at_the_smallest_share(impl: str, rule: str) -> None:
    import importlib

    factory = importlib.import_module(impl).create
    settings = GameSettings(factory, impl, (2, 3, 4), frozenset({"LOCKSTEP"}), lockstep=True, legal_share=MIN_SHARE)
    caught: tuple[str, ...] = ()
    for game in range(4):
        try:
            GameRunner(settings, RandomChooser(f"legality-{game}"), Stats()).play()
        except Violation as violation:
            caught = violation.failure.rules
            break
    assert rule in caught, caught


def test_the_reference_passes_the_lock_step_at_the_smallest_share() -> None:
    settings = GameSettings(create, "oracle.reference", (2, 3), frozenset({"LOCKSTEP"}), lockstep=True,
                            legal_share=MIN_SHARE)
    stats = Stats()
    GameRunner(settings, RandomChooser("legality-0"), stats).play()
    assert stats.decisions > 0


# ---------------------------------------------------------------------- the suites that list


def test_the_round_trip_plays_the_references_legal_actions_not_the_engines_listing() -> None:
    calls: Counter[str] = Counter()
    remove = on_engine_cost(lambda method, seconds: calls.update([method]))
    try:
        results = run_check(EngineUnderTest.load("oracle.reference", CALL_SECONDS), CheckOptions(legal_share=MIN_SHARE),
                            ["roundtrip"])
    finally:
        remove()
    assert results and {Outcome.PASS} == {r.outcome for r in results}
    assert all(r.details["snapshots"] > 1 for r in results)
    assert (0, True) == (calls["legal_actions"], calls["try_actions"] > 0)
