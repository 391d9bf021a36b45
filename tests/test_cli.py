"""The CLI: main commands work, and bad input gets a one-line error and exit code 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest


def oracle(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-P", "-m", "oracle.cli.app", *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_play_prints_a_complete_four_player_game() -> None:
    run = oracle("play", "--players", "4", "--seed", "1")
    assert 0 == run.returncode, run.stderr
    assert "== Round 10" in run.stdout or "== Game over" in run.stdout
    assert 1 == run.stdout.count("== Game over")


def test_play_is_deterministic_for_a_seed() -> None:
    first = oracle("play", "--players", "3", "--seed", "5")
    assert first.stdout == oracle("play", "--players", "3", "--seed", "5").stdout


def test_cards_lists_fifteen_fire_cards() -> None:
    run = oracle("cards", "--family", "fire")
    assert 0 == run.returncode
    assert "15 card(s)" in run.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "--impl", "no_such_package.engine"], "cannot import module 'no_such_package'"),
        (["check", "--impl", "oracle.reference:no_factory"], "has no factory 'no_factory'"),
        (["check", "--impl", "vale_fixtures.import_fails"], "raised ImportError"),
        (["check", "--impl", "not a module"], "expected 'package.module' or 'package.module:factory'"),
        (["play", "--players", "5"], "the game is for 2 to 4 players"),
        (["cards", "--family", "metal"], "--family 'metal'"),
        (["check", "--suite", "nonsense"], "--suite 'nonsense'"),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(args: list[str], message: str) -> None:
    run = oracle(*args)
    assert 2 == run.returncode
    assert message in run.stderr
    assert "Traceback" not in run.stderr + run.stdout
    assert 1 == len(run.stderr.strip().splitlines())


def test_an_engine_that_hangs_is_reported_as_a_timeout() -> None:
    run = oracle("check", "--impl", "vale_fixtures.hangs", "--timeout", "0.3", "--suite", "random-play", "--games", "1")
    assert 1 == run.returncode
    assert "TIMEOUT" in run.stdout
    assert "no answer within 0.3 s" in run.stdout
    assert "Traceback" not in run.stderr + run.stdout


def test_an_engine_that_crashes_is_reported_as_an_error() -> None:
    run = oracle("check", "--impl", "vale_fixtures.crashes", "--suite", "random-play", "--games", "1")
    assert 1 == run.returncode
    assert "ERROR" in run.stdout
    assert "ZeroDivisionError: deliberate crash in new_game" in run.stdout
    assert "Traceback" not in run.stderr + run.stdout


def test_an_engine_with_only_export_is_checked_by_probing() -> None:
    run = oracle("check", "--impl", "vale_fixtures.minimal_adapter", "--suite", "random-play", "--suite", "roundtrip",
                 "--games", "1")
    assert 0 == run.returncode, run.stdout
    assert "unsupported" in run.stdout
