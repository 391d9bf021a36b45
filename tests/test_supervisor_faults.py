"""No false green: each hostile engine of ``vale_fixtures.hostile`` costs only the check it was on.

Every test plants one fault, runs ``oracle check`` as a user would (a separate process, so a fault that
escaped the supervisor would take the test's process down too) and asserts the honest outcome of the
faulty check and that every other check kept its result.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from oracle.core.json_types import JSON
from oracle.reports.json_report import SCHEMA_FILE

HOSTILE = "vale_fixtures.hostile"
# Nine set-up checks and one base game of 2 and of 4 players: the faults strike only in 4-player games.
SMALL_RUN = ("--suite", "setup", "--suite", "random-play", "--games", "1",
             "--select", "setup/*", "--select", "random-play/2p/*", "--select", "random-play/4p/*")
FAULTY = "random-play/4p/seed-1"


def oracle_check(tmp_path: Path, *args: str, timeout: float = 240) -> tuple[int, str, str, JSON]:
    """Run ``oracle check`` in its own process; its exit code, output, and the JSON report it wrote."""
    report = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-P", "-m", "oracle.cli.app", "check", *args, "--report-json", str(report)],
                          capture_output=True, text=True, timeout=timeout, check=False)
    data = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    return done.returncode, done.stdout, done.stderr, data


def outcomes(report: JSON) -> dict[str, str]:
    return {r["id"]: r["outcome"] for r in report["results"]}


def result(report: JSON, check_id: str) -> JSON:
    return next(r for r in report["results"] if r["id"] == check_id)


@pytest.mark.parametrize(("factory", "timeout", "outcome", "says"), [
    ("exits_in_apply", 5.0, "error", "died during apply() (exit code 0); its last output: hostile engine: leaving now"),
    ("segfaults_in_apply", 5.0, "error", "died during apply() (killed by SIGSEGV)"),
    ("swallows_timeout", 1.0, "timeout", "s, past the 1 s allowed (the engine kept running through the timeout)"),
    ("never_returns", 0.5, "timeout", "stopped responding (no new engine call for 3.5 s) during apply()"),
    ("blocks_alarm", 0.5, "timeout", "stopped responding (no new engine call for 3.5 s) during apply()"),
])
def test_a_fault_costs_only_its_check(tmp_path: Path, factory: str, timeout: float, outcome: str, says: str) -> None:
    code, out, err, report = oracle_check(tmp_path, "--impl", f"{HOSTILE}:{factory}", "--timeout", str(timeout),
                                          *SMALL_RUN)
    assert 1 == code, out + err
    found = outcomes(report)
    assert outcome == found.pop(FAULTY)
    assert says in result(report, FAULTY)["message"]
    assert {"pass"} == set(found.values())
    assert 10 == len(found)
    assert report["run"]["complete"]
    assert "Traceback" not in out + err


def test_a_game_that_cannot_end_is_a_bounded_failure(tmp_path: Path) -> None:
    started = time.monotonic()
    code, out, err, report = oracle_check(tmp_path, "--impl", f"{HOSTILE}:rejects_end_turn", "--suite", "roundtrip",
                                          "--suite", "random-play", "--games", "1", "--select", "random-play/2p/*",
                                          "--select", "roundtrip/2p/*")
    assert 1 == code, out + err
    assert {"random-play/2p/seed-1": "wrongly-rejected", "roundtrip/2p/seed-101": "wrongly-rejected"} == \
        outcomes(report)
    assert time.monotonic() - started < 60


def test_an_engine_that_rejects_everything_ends_the_default_run(tmp_path: Path) -> None:
    code, out, err, report = oracle_check(tmp_path, "--impl", f"{HOSTILE}:rejects_everything", timeout=120)
    assert 1 == code, out + err
    assert report["run"]["complete"] and not report["totals"]["passed"]
    from oracle.scenarios.runner import VARIANT_NOT_APPLICABLE

    skipped = [r for r in report["results"] if r["outcome"] in ("unsupported", "not-applicable")]
    assert [] == [r["id"] for r in skipped if r["outcome"] == "unsupported"]
    assert all(r["message"].startswith(VARIANT_NOT_APPLICABLE) for r in skipped)


@pytest.mark.parametrize(("factory", "suite", "outcome", "rule", "says"), [
    ("junk_legal_actions", "random-play", "error", "PROTO-2", "legal_actions: item [0] must be an action object"),
    ("junk_decision", "random-play", "error", "PROTO-2", "decision: field 'kind' must be one of the decision kinds"),
    ("duplicate_legal_actions", "random-play", "fail", "PROTO-3", "more than once"),
    ("nan_snapshot", "roundtrip", "error", "PROTO-2", "export: not JSON data"),
])
def test_malformed_answers_are_the_engines_protocol_errors(tmp_path: Path, factory: str, suite: str, outcome: str,
                                                          rule: str, says: str) -> None:
    code, out, err, report = oracle_check(tmp_path, "--impl", f"{HOSTILE}:{factory}", "--suite", suite,
                                          "--games", "1", "--select", f"{suite}/2p/*")
    assert 1 == code, out + err
    (only,) = report["results"]
    assert (outcome, True) == (only["outcome"], rule in only["rules"])
    assert says in only["message"]
    assert "Traceback" not in out + err


def test_junk_legal_actions_do_not_crash_the_invariants_suite(tmp_path: Path) -> None:
    code, out, err, report = oracle_check(tmp_path, "--impl", f"{HOSTILE}:junk_legal_actions", "--suite",
                                          "invariants")
    assert 1 == code, out + err
    fault = result(report, "invariants/ENGINE-FAULT")
    assert "error" == fault["outcome"] and "must be an action object" in fault["message"]
    assert {"incomplete"} == {r["outcome"] for r in report["results"] if r["id"] != "invariants/ENGINE-FAULT"}
    assert "Traceback" not in out + err


def test_an_adapter_that_mutates_its_actions_gets_fresh_copies(tmp_path: Path) -> None:
    code, out, err, report = oracle_check(tmp_path, "--impl", f"{HOSTILE}:mutates_actions", "--suite",
                                          "random-play", "--suite", "invariants", "--games", "1")
    assert 0 == code, out + err
    assert {"pass"} == set(outcomes(report).values())


def test_engine_text_is_made_safe_for_every_report_and_the_terminal(tmp_path: Path) -> None:
    junit, markdown = tmp_path / "junit.xml", tmp_path / "summary.md"
    code, out, err, report = oracle_check(tmp_path, "--impl", f"{HOSTILE}:noisy_messages", "--suite", "scenarios",
                                          "--select", "PAY-*", "--junit-xml", str(junit), "--markdown", str(markdown))
    assert 1 == code, out + err
    ET.parse(junit)
    text = junit.read_text(encoding="utf-8") + markdown.read_text(encoding="utf-8") + out
    assert not any(char in text for char in "\x1b\x00\x07")
    assert "\\x1b[31mrefused" in text and "\ufffd" in text
    jsonschema.validate(report, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))


def test_player_counts_the_engine_does_not_declare_are_unsupported(tmp_path: Path) -> None:
    code, out, err, report = oracle_check(tmp_path, "--impl", f"{HOSTILE}:two_players_only", "--suite", "roundtrip",
                                          "--suite", "scenarios", "--suite", "setup")
    assert 0 == code, out + err
    found = outcomes(report)
    assert {"pass", "unsupported", "not-applicable"} == set(found.values())
    assert "unsupported" == found["roundtrip/3p/seed-101"] == found["setup/4p/first-3"]
    assert "pass" == found["roundtrip/2p/seed-101"]
    assert "declare 3-player games" in result(report, "roundtrip/3p/seed-101")["message"]
    code, *_ = oracle_check(tmp_path, "--impl", f"{HOSTILE}:two_players_only", "--suite", "setup",
                            "--fail-on-unsupported")
    assert 1 == code


def test_a_z3_row_cut_short_by_its_budget_is_incomplete(tmp_path: Path) -> None:
    code, out, err, report = oracle_check(tmp_path, "--impl", f"{HOSTILE}:slow", "--suite", "z3", "--select",
                                          "z3/holding-limit/*", "--z3-budget", "0.5")
    assert 3 == code, out + err  # incomplete, nothing failed
    assert ["z3/holding-limit/LIMIT-1", "z3/holding-limit/LIMIT-2"] == list(outcomes(report))
    for found in report["results"]:
        assert "incomplete" == found["outcome"]
        assert found["details"]["out_of_budget"]
        assert found["details"]["cases_checked"] < found["details"]["cases_selected"]
    assert "raise it with --z3-budget" in report["results"][0]["message"]


def _start(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    process = subprocess.Popen([sys.executable, "-P", "-m", "oracle.cli.app", "check", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    header = process.stdout.readline()
    assert header.startswith("oracle check:"), header
    time.sleep(1.5)
    return process


@pytest.mark.parametrize(("signal_name", "code"), [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_signal_still_writes_every_report_marked_incomplete(tmp_path: Path, signal_name: str, code: int) -> None:
    import signal

    report, junit, markdown = tmp_path / "r.json", tmp_path / "j.xml", tmp_path / "s.md"
    process = _start(tmp_path, "--impl", f"{HOSTILE}:slow", "--suite", "scenarios", "--report-json", str(report),
                     "--junit-xml", str(junit), "--markdown", str(markdown))
    process.send_signal(getattr(signal, signal_name))
    out, err = process.communicate(timeout=60)
    assert code == process.returncode, out + err
    data = json.loads(report.read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    assert (False, f"stopped by {signal_name}", "INCOMPLETE") == \
        (data["run"]["complete"], data["run"]["stopped"], data["totals"]["verdict"])
    assert data["run"]["not_run"] and data["totals"]["not_run"] == len(data["run"]["not_run"])
    assert "not-run" in [s.attrib["name"] for s in ET.parse(junit).getroot().findall("testsuite")]
    assert "**Incomplete**" in markdown.read_text(encoding="utf-8")
    assert "Traceback" not in out + err


def test_the_time_budget_stops_the_run_with_an_honest_partial_report(tmp_path: Path) -> None:
    code, out, err, report = oracle_check(tmp_path, "--impl", f"{HOSTILE}:slow", "--suite", "scenarios",
                                          "--time-budget", "2")
    assert 3 == code, out + err
    assert "the time budget of 2 s ran out" == report["run"]["stopped"]
    assert report["run"]["not_run"] and report["totals"]["checks"] > 0
    assert "INCOMPLETE" == report["totals"]["verdict"]


def test_max_failures_stops_a_hopeless_run(tmp_path: Path) -> None:
    code, out, err, report = oracle_check(tmp_path, "--impl", f"{HOSTILE}:rejects_everything", "--suite",
                                          "scenarios", "--max-failures", "3")
    assert 1 == code, out + err
    assert "the failure limit was reached" == report["run"]["stopped"]
    assert 3 <= sum(r["outcome"] != "pass" for r in report["results"])
    assert report["run"]["not_run"]


# ---------------------------------------------------------------------------------------------- start-up deadline


class _SlowToStart:
    """An engine whose factory takes ``seconds`` (a process starting on a busy machine)."""

    def __init__(self, seconds: float) -> None:
        time.sleep(seconds)
        from oracle.reference import ReferenceEngine

        self.engine = ReferenceEngine()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)


def test_starting_an_engine_has_its_own_deadline_apart_from_the_per_call_timeout() -> None:
    from oracle.core.faults import EngineFault
    from oracle.engines.harness import DEFAULT_START_TIMEOUT, Subject

    assert 30 <= DEFAULT_START_TIMEOUT
    started = Subject(lambda: _SlowToStart(1.0), "slow-to-start", timeout=0.1)
    assert "vale-oracle-reference" == started.handshake.engine
    with pytest.raises(EngineFault) as caught:
        Subject(lambda: _SlowToStart(60.0), "slow-to-start", timeout=5.0, start_timeout=0.5)
    assert ("timeout", "create") == (caught.value.kind, caught.value.method)
    assert "no answer within 0.5 s (--start-timeout)" == caught.value.message
