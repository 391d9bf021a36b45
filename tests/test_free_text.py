"""Only the contract is compared: free text (a decision's prompt, a rejection's message) is never a failure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.json_types import JSON
from oracle.core.protocol import FREE_TEXT, decision_contract, snapshot_contract

runner = CliRunner()
OWN_WORDS = "vale_fixtures.own_words_prompts"


def outcomes(tmp_path: Path, *args: str) -> tuple[int, dict[str, int]]:
    """Exit code of ``oracle check ARGS`` and its count of checks by outcome."""
    report = tmp_path / "report.json"
    result = runner.invoke(app, ["check", "--impl", OWN_WORDS, "-j", "1", "--report-json", str(report), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    counts: dict[str, int] = {}
    for check in json.loads(report.read_text(encoding="utf-8"))["results"]:
        counts[check["outcome"]] = counts.get(check["outcome"], 0) + 1
    return result.exit_code, counts


def test_the_prompt_is_the_decisions_only_free_text() -> None:
    assert frozenset({"prompt"}) == FREE_TEXT["decision"]
    decision: JSON = {"kind": "hunt_pick", "player": 1, "prompt": "pick a card", "cards": ["base-fire-01"]}
    assert {"kind": "hunt_pick", "player": 1, "cards": ["base-fire-01"]} == decision_contract(decision)


def test_a_snapshot_is_compared_without_its_pending_prompt_but_with_its_private_part() -> None:
    snapshot: JSON = {"round": 1, "pending": {"kind": "action", "player": 0, "prompt": "go"}, "private": {"x": 1}}
    assert {"round": 1, "pending": {"kind": "action", "player": 0}, "private": {"x": 1}} == snapshot_contract(snapshot)


@pytest.mark.parametrize("suite", ["setup", "scenarios"])
def test_an_engine_in_its_own_words_passes(tmp_path: Path, suite: str) -> None:
    code, counts = outcomes(tmp_path, "--suite", suite)
    assert (0, 0) == (code, counts.get("fail", 0))
    assert counts.get("pass", 0) > 0
