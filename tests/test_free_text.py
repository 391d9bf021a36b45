"""Only the contract is compared: free text (a decision's prompt, a rejection's message) is never a failure."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.json_types import JSON
from oracle.core.protocol import FREE_TEXT, decision_contract, snapshot_contract

runner = CliRunner()
OWN_WORDS = "vale_fixtures.own_words_prompts"


def outcomes(tmp_path: Path, *args: str) -> tuple[int, dict[tuple[str, str], int]]:
    """Exit code of ``oracle check ARGS`` on the engine in its own words, and its checks by (suite, outcome)."""
    report = tmp_path / "report.json"
    result = runner.invoke(app, ["check", "--impl", OWN_WORDS, "-j", "1", "--budget-scale", "1",
                                 "--report-json", str(report), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    counts: dict[tuple[str, str], int] = {}
    for check in json.loads(report.read_text(encoding="utf-8"))["results"]:
        key = (check["suite"], check["outcome"])
        counts[key] = counts.get(key, 0) + 1
    return result.exit_code, counts


def test_the_prompt_is_the_decisions_only_free_text() -> None:
    assert frozenset({"prompt"}) == FREE_TEXT["decision"]
    decision: JSON = {"kind": "hunt_pick", "player": 1, "prompt": "pick a card", "cards": ["base-fire-01"]}
    assert {"kind": "hunt_pick", "player": 1, "cards": ["base-fire-01"]} == decision_contract(decision)


def test_a_snapshot_is_compared_without_its_pending_prompt_but_with_its_private_part() -> None:
    snapshot: JSON = {"round": 1, "pending": {"kind": "action", "player": 0, "prompt": "go"}, "private": {"x": 1}}
    assert {"round": 1, "pending": {"kind": "action", "player": 0}, "private": {"x": 1}} == snapshot_contract(snapshot)


def test_an_engine_in_its_own_words_passes_every_suite(tmp_path: Path) -> None:
    """Its prompts differ from the reference's and between its own copies (a count): the set-up suite, the
    scenarios (ART-11 writes a prompt), the round trip and the fuzz's DEC-4 guards compare none of them."""
    code, counts = outcomes(tmp_path, "--games", "1")
    assert (0, []) == (code, sorted(key for key in counts if key[1] == "fail"))
    assert (9, True) == (counts.get(("setup", "pass")), counts.get(("scenarios", "pass"), 0) > 400)
