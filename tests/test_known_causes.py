"""Nothing hides behind a known deviation: a cause reported or named by --set-aside is counted and the games go on
past it (the engines re-synchronised), the guard battery runs every probe, and a rejection that changed the state is
a verdict of its own, filed under the reference's rejection rule with the engine's own message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from oracle.cli.app import app as oracle_app
from oracle.cli.fuzz import fuzz_command
from oracle.core.causes import Verdict
from oracle.core.json_types import JSON
from oracle.core.results import Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.reference import ReferenceEngine
from oracle.reports.causes import cause_of, group_causes
from oracle.scenarios.given import complete_snapshot
from oracle.suites.all import run_check
from oracle.suites.invariants import fuzz_config
from oracle.suites.registry import CheckOptions
from tests.helpers import CALL_SECONDS
from vale_fixtures.broken import BrokenEngine
from vale_fixtures.fixed_active_order import FixedActiveOrder
from vale_fixtures.negative_stone_counts import NegativeStoneCounts
from vale_fixtures.pays_then_rejects import PaysThenRejects
from vale_invariants.catalog import LOCKSTEP
from vale_invariants.fuzz import FuzzConfig, run_fuzz
from vale_invariants.game_guards import GUARDS

REPOSITORY = Path(__file__).resolve().parent.parent


class TwoBugs(BrokenEngine):
    """Takes negative stone counts at their word (DEC-2, seen only by a probe) and resolves Active effects in a fixed
    order (EFF-5, seen in play)."""

    BROKEN_RULE = "DEC-2"
    PATCHES = (*NegativeStoneCounts.PATCHES, *FixedActiveOrder.PATCHES)


def two_bugs() -> TwoBugs:
    return TwoBugs()


class _EndTurnWhileKeeping(NegativeStoneCounts):
    """Also takes ``end_turn`` as an answer to a keep-stones decision (and does nothing): two guards missing."""

    def apply(self, action: JSON) -> JSON:
        pending = self.decision() or {}
        if pending.get("kind") == "keep_stones" and action.get("type") == "end_turn":
            return {"accepted": True, "events": []}
        return super().apply(action)


class _NoLoad(_EndTurnWhileKeeping):
    """The same, without the 'load' capability: it cannot be taken back to the position before a probe."""

    def handshake(self) -> JSON:
        shake = super().handshake()
        shake["capabilities"] = [c for c in shake["capabilities"] if c != "load"]
        return shake


def _fuzz_cli(*args: str) -> Any:
    app = typer.Typer()
    app.command("fuzz")(fuzz_command)

    @app.command("other")
    def other() -> None:
        """Keeps typer from treating fuzz as the only command."""

    return CliRunner().invoke(app, ["fuzz", *args])


# ---------------------------------------------------------------------------------------------- set aside, go on


def test_set_aside_goes_on_past_an_accepted_probe_and_finds_the_second_deviation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The workers import the engine from this module: they run with the repository on their path.
    monkeypatch.setenv("PYTHONPATH", str(REPOSITORY))
    result = _fuzz_cli("--impl", "tests.test_known_causes:two_bugs", "--check", "lockstep", "--games", "4",
                       "--set-aside", "DEC-2", "--max-failures", "3", "--shrink-examples", "0")
    assert 1 == result.exit_code, result.output
    assert "LOCKSTEP (EFF-5" in result.output
    assert "LOCKSTEP (DEC-2" not in result.output
    assert "known causes set aside: DEC-2" in result.output
    assert "nothing left to check" not in result.output


def test_without_set_aside_both_deviations_are_reported_one_after_the_other() -> None:
    report = run_fuzz(two_bugs, "two", FuzzConfig(games=4, mode="lockstep", shrink_examples=0))
    assert {"DEC-2", "EFF-5"} == {f.rule for f in report.failures}, [f.message for f in report.failures]
    failing = [r for r in report.results() if not r.outcome.ok]
    assert ["invariants/LOCKSTEP"] == [r.id for r in failing]
    assert ["invariants/LOCKSTEP", "invariants/LOCKSTEP"] == [r.id for r in failing[0].failures()]


def test_the_guard_battery_runs_every_probe_and_reports_each_missing_guard() -> None:
    config = FuzzConfig(games=4, seed=0, mode="invariants", invariants=(GUARDS,), shrink_examples=0, max_failures=3)
    report = run_fuzz(_EndTurnWhileKeeping, "guards", config)
    accepted = {f.known_as.code for f in report.failures}
    assert {"WRONG_DECISION", "MALFORMED_ACTION"} == accepted, [f.message for f in report.failures]
    assert {Outcome.ILLEGAL_ACCEPTED} == {f.outcome for f in report.failures}
    assert 0 < report.stats.restored


def test_an_engine_without_load_is_not_sent_a_probe_it_would_accept_as_a_known_cause() -> None:
    config = FuzzConfig(games=3, seed=0, mode="invariants", invariants=(GUARDS,), shrink_examples=0,
                        set_aside=("DEC-2",))
    report = run_fuzz(_NoLoad, "no-load", config)
    assert [] == report.failures
    assert "" == report.stopped
    assert 0 == sum(report.stats.ended.values())
    assert 0 < report.stats.checks[GUARDS]


class _PaysThenRejectsNoLoad(PaysThenRejects):
    """Takes the stones of a short summon, then rejects it, and cannot load a position."""

    def handshake(self) -> JSON:
        shake = super().handshake()
        shake["capabilities"] = [c for c in shake["capabilities"] if c != "load"]
        return shake


def test_a_game_that_cannot_go_back_past_a_known_cause_ends_there_and_says_why() -> None:
    config = FuzzConfig(games=3, seed=0, mode="lockstep", shrink_examples=0, max_failures=2)
    report = run_fuzz(_PaysThenRejectsNoLoad, "no-load", config)
    assert [("PAY-1", "DEC-4")] == [f.rules for f in report.failures]
    assert 0 < report.stats.set_aside["PAY-1"]
    why = "the engine moved on and cannot load the position before it (no 'load' capability)"
    assert 0 < report.stats.ended[why]
    assert why in report.summary()
    passed = next(r for r in report.results() if r.outcome is Outcome.PASS)
    assert passed.details["games_ended_at_a_known_cause"][why] > 0


# ---------------------------------------------------------------------------------------------- changed, then rejected


def test_a_rejection_that_changed_the_state_is_its_own_verdict_in_lockstep() -> None:
    report = run_fuzz(PaysThenRejects, "pays", FuzzConfig(games=4, mode="lockstep", shrink_examples=0, max_failures=1))
    assert [LOCKSTEP.name] == [f.invariant for f in report.failures]
    failure = report.failures[0]
    assert failure.divergence is not None
    assert "changed" == failure.divergence.kind
    assert ("PAY-1", "DEC-4") == failure.rules
    facts = cause_of(report.results()[0])
    assert Verdict.CHANGED_THEN_REJECTED == facts.verdict
    assert "DEC-4" == facts.rule
    assert "short of the cost" in facts.engine_message


def test_a_rejection_that_changed_the_state_fails_a_reject_step_blamed_on_dec_4() -> None:
    results = run_check(EngineUnderTest.load("vale_fixtures.pays_then_rejects", timeout=CALL_SECONDS),
                        CheckOptions(rules=("PAY-1",)), ["scenarios"])
    failed = [r for r in results if not r.outcome.ok]
    assert failed
    causes = group_causes(failed)
    assert [Verdict.CHANGED_THEN_REJECTED] == [c.facts.verdict for c in causes]
    assert {"DEC-4"} == {c.facts.rule for c in causes}
    assert all(c.facts.engine_message for c in causes)
    assert all(r.rules[:1] != ("DEC-4",) and "DEC-4" in r.rules for r in failed)


# ---------------------------------------------------------------------------------------------- oracle check


def test_the_default_check_catches_a_negative_count_balanced_by_a_surplus() -> None:
    results = run_check(EngineUnderTest.load("vale_fixtures.negative_stone_counts", timeout=CALL_SECONDS),
                        CheckOptions(), ["invariants"])
    failed = [r for r in results if not r.outcome.ok]
    assert [f"invariants/{GUARDS}"] == [r.id for r in failed]
    assert "DEC-2" == failed[0].rules[0]
    assert Outcome.ILLEGAL_ACCEPTED == failed[0].outcome
    assert "MALFORMED_ACTION" == cause_of(failed[0]).code


@pytest.mark.parametrize(("engine", "accepted"), [(NegativeStoneCounts, True), (ReferenceEngine, False)])
def test_a_kept_set_with_a_negative_count_is_taken_only_by_the_fixture(engine: type[ReferenceEngine],
                                                                      accepted: bool) -> None:
    subject = engine()
    subject.load(complete_snapshot({"round": 2, "phase": "action", "players": [{"stones": {"red": 5}}, {}]}))
    assert "keep_stones" == (subject.decision() or {}).get("kind")
    result = subject.apply({"type": "keep_stones", "player": 0, "stones": {"red": 5, "blue": -1, "purple": 0}})
    assert accepted == result["accepted"]


def test_check_options_reach_the_fuzz_run() -> None:
    config = fuzz_config(CheckOptions(set_aside=("DEC-2",)))
    assert ("DEC-2",) == config.set_aside
    assert 20 == config.max_failures


@pytest.mark.parametrize(("args", "message"), [
    (("--set-aside", "NOPE-1"), "--set-aside 'NOPE-1': no such rule id"),
    (("--max-causes", "0"), "--max-causes must be 1 or more"),
])
def test_check_refuses_a_bad_set_aside_or_max_causes(args: tuple[str, ...], message: str) -> None:
    result = CliRunner().invoke(oracle_app, ["check", *args])
    assert 2 == result.exit_code, result.stdout + result.stderr
    assert message in result.stderr


def test_random_play_goes_past_a_refusal_under_a_set_aside_rule() -> None:
    eut = EngineUnderTest.load("vale_fixtures.refuses_late_tames", timeout=CALL_SECONDS)
    options = CheckOptions(games=1, players=(2,), select=("random-play/*",))
    refused = [r for r in run_check(eut, options, ["random-play"]) if not r.outcome.ok]
    assert {Outcome.WRONGLY_REJECTED} == {r.outcome for r in refused}
    played = run_check(eut, CheckOptions(games=1, players=(2,), select=("random-play/*",), set_aside=("TAME-1",)),
                       ["random-play"])
    assert {Outcome.PASS} == {r.outcome for r in played}
    assert all(r.details["set_aside"] > 0 for r in played if r.id.startswith("random-play/2p"))
