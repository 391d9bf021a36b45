"""The options of ``oracle fuzz``, each declared once as the type typer reads (its flag, metavar and help)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from oracle.cli.check_options import Impl as Impl

DEFAULT_GAMES = 20
"""Games per game mode ``oracle fuzz`` plays unless ``--games`` or ``--time`` is given."""

Games = Annotated[int | None, typer.Option(metavar="N",
    help=f"games per game mode the engine declares (default {DEFAULT_GAMES} unless --time is given)")]
TimeBudget = Annotated[float | None, typer.Option("--time", metavar="SECONDS", help="seconds to fuzz for")]
Seed = Annotated[int, typer.Option(metavar="N", help="seed of the whole run (same seed, same games)")]
Players = Annotated[str, typer.Option(metavar="COUNTS", help="player counts: 2-4, 3 or 2,4")]
SaveFailures = Annotated[Path | None, typer.Option(metavar="DIR",
    help="save every failure into this directory: a scenario file when one loads, else its raw trace (JSON) with "
    "the reason; named after the cause and rule")]
Check = Annotated[str | None, typer.Option(
    "--check", metavar="WHAT",
    help="what to check: both, invariants or lockstep (against the reference) [default: both]")]
OldCheck = Annotated[str | None, typer.Option("--mode", hidden=True, help="deprecated: --check")]
Invariant = Annotated[list[str] | None, typer.Option(metavar="NAME",
    help="check only these invariants (repeatable; default all)")]
GameModes = Annotated[str | None, typer.Option(
    "--game-modes", metavar="MODES",
    help="game modes to play, as the engine declares them: base, expansion, artifacts (comma-separated) "
    "[default: all three]")]
OldGameModes = Annotated[str | None, typer.Option("--modes", hidden=True, help="deprecated: --game-modes")]
Positions = Annotated[bool, typer.Option(metavar="",
    help="also start games from random mid-game positions (needs the 'load' capability)")]
DEFAULT_SHRINK_EXAMPLES = 300
"""Games ``oracle fuzz`` may replay to shrink each failure unless ``--shrink-examples`` says otherwise."""

ShrinkExamples = Annotated[int | None, typer.Option(metavar="N",
    help=f"games replayed to shrink each failure, a count so the failure found never depends on the machine's "
    f"load (0: do not shrink) [default: {DEFAULT_SHRINK_EXAMPLES}]")]
OldShrinkTime = Annotated[float | None, typer.Option("--shrink-time", hidden=True,
    help="deprecated: --shrink-examples (0 still means: do not shrink)")]
MaxFailures = Annotated[int, typer.Option(metavar="N",
    help="stop after this many failures (each sets its cause aside, so the next is of another cause)")]
BudgetScale = Annotated[float | None, typer.Option("--budget-scale", metavar="FACTOR",
    help="multiply the time the run allows for shrinking by FACTOR (1 or more) instead of measuring the engine's "
    "speed against the reference at the start (--time is not scaled)")]
LegalShare = Annotated[float | None, typer.Option("--legal-share", metavar="F",
    help="compare the engine's complete legal set at this share of the lock-step's decisions (0.05 to 1; 1: every "
    "decision) instead of setting it from the engine's measured speed; the share used is printed and reproduces it")]
SetAside = Annotated[list[str] | None, typer.Option(metavar="RULE-ID",
    help="a rule id of a known cause (repeatable): what is blamed on it (an accepted illegal probe included) is "
    "counted, the engines are re-synchronised, and the games go on")]
Timeout = Annotated[float, typer.Option(metavar="SECONDS", help="seconds allowed for each engine call")]
StartTimeout = Annotated[float, typer.Option(metavar="SECONDS",
    help="seconds an engine may take to start: create and the handshake (more than 0)")]
ReportJson = Annotated[Path | None, typer.Option(metavar="FILE", help="write the JSON report here")]
JunitXml = Annotated[Path | None, typer.Option(metavar="FILE", help="write a JUnit XML report here")]
Markdown = Annotated[Path | None, typer.Option(metavar="FILE", help="write a Markdown summary here")]
Progress = Annotated[bool | None, typer.Option(metavar="",
    help="show a progress line on stderr (default: when stderr is a terminal)")]
Shard = Annotated[str | None, typer.Option("--shard", metavar="K/N",
    help="play shard K of N: the batches of games numbered K-1, K-1+N, ... (no two shards share a seed), each shard "
    "with the whole --games or --time budget (docs/scaling.md)")]
Corpus = Annotated[Path | None, typer.Option(metavar="DIR",
    help="a corpus of counterexamples: replay every scenario saved in DIR first, then fuzz, and save each new "
    "counterexample there (as --save-failures does) unless its cause is already in DIR")]
