"""The options of ``oracle check``, each declared once as the type typer reads (its flag, metavar and help)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from oracle.core.impl_forms import IMPL_HELP

Impl = Annotated[str, typer.Option(metavar="ENGINE", help=IMPL_HELP)]
Games = Annotated[int, typer.Option(metavar="N", help="random games per player count and mode")]
Seed = Annotated[int, typer.Option(metavar="N", help="first seed")]
Timeout = Annotated[float, typer.Option(metavar="SECONDS",
    help="seconds allowed for each engine call (more than 0)")]
StartTimeout = Annotated[float, typer.Option(metavar="SECONDS",
    help="seconds an engine may take to start, create and the handshake, apart from --timeout (more than 0)")]
Suite = Annotated[list[str] | None, typer.Option(metavar="SUITE",
    help="run only these suites (repeatable): setup, random-play, roundtrip, scenarios, z3, invariants")]
Select = Annotated[list[str] | None, typer.Option(metavar="GLOB",
    help="run only checks whose id matches (a glob such as 'PAY-*'; repeatable)")]
Rule = Annotated[list[str] | None, typer.Option(metavar="RULE-ID",
    help="run only checks of this rule id (repeatable)")]
Card = Annotated[list[str] | None, typer.Option(metavar="CARD",
    help="run only checks pinning this card, by name or id (repeatable)")]
Expectations = Annotated[Path | None, typer.Option(metavar="FILE",
    help="TOML file of known failures: expected_failure tables with a check id and a reason")]
ReportJson = Annotated[Path | None, typer.Option(metavar="FILE",
    help="write the JSON report here ('-': standard output, "
    "with the summary on standard error)")]
JunitXml = Annotated[Path | None, typer.Option(metavar="FILE", help="write a JUnit XML report here")]
Markdown = Annotated[Path | None, typer.Option(metavar="FILE",
    help="write a Markdown summary here (replacing the file)")]
MarkdownAppend = Annotated[Path | None, typer.Option(metavar="FILE",
    help="append a Markdown summary to this file (for $GITHUB_STEP_SUMMARY)")]
Scenarios = Annotated[Path | None, typer.Option(metavar="DIR",
    help="scenarios directory (default: the bundled suite)")]
ScenarioTimeout = Annotated[float, typer.Option(metavar="SECONDS",
    help="wall-clock seconds allowed for each scenario (times the budget scale); one cut short is incomplete")]
Reach = Annotated[str, typer.Option("--reach", metavar="WAY",
    help="how a scenario's [given] position is reached: auto (loaded when the engine can load, else played by its "
    "preamble), load, preamble, or both (each scenario both ways; docs/scenarios.md, Preambles)")]
Z3Budget = Annotated[float, typer.Option(metavar="SECONDS",
    help="wall-clock seconds allowed for each Z3 row (times the budget scale); a row cut short is incomplete")]
FuzzBudget = Annotated[float, typer.Option(metavar="SECONDS",
    help="wall-clock seconds for the invariants suite's fuzz run (times the budget scale); checks it cuts short "
    "are incomplete")]
UnitTimeout = Annotated[float, typer.Option(metavar="SECONDS",
    help="wall-clock seconds allowed for each whole game (random-play, roundtrip; times the budget scale)")]
BudgetScaleOption = Annotated[float | None, typer.Option("--budget-scale", metavar="FACTOR",
    help="multiply every fixed budget above by FACTOR (1 or more) instead of measuring the engine's speed against "
    "the reference at the start; the factor a run used is in its summary and reports, and reproduces it")]
LegalShareOption = Annotated[float | None, typer.Option("--legal-share", metavar="F",
    help="compare the engine's complete legal set at this share of the decisions of random play and the lock-step "
    "(0.05 to 1; 1: every decision) instead of setting it from the engine's measured speed; the share a run used "
    "is in its summary and reports, and reproduces it")]
TimeBudget = Annotated[float | None, typer.Option(metavar="SECONDS",
    help="stop the whole run after this many seconds, with a partial report marked incomplete")]
MaxFailures = Annotated[int | None, typer.Option(metavar="N",
    help="stop the run after this many failing checks, with a partial report marked incomplete")]
MaxCauses = Annotated[int, typer.Option(metavar="N",
    help="causes the invariants suite's fuzz run looks for: after each it sets the cause aside and goes on, "
    "until it has found N or its budget ends")]
SetAside = Annotated[list[str] | None, typer.Option(metavar="RULE-ID",
    help="a rule id of a known cause (repeatable): the lock-step comparison, the invariants and random play count "
    "what they find blamed on it and go on past it")]
FailOnUnsupported = Annotated[bool, typer.Option(metavar="",
    help="count unsupported checks as failures (not-applicable ones never are)")]
AllowEmpty = Annotated[bool, typer.Option(metavar="",
    help="exit 0, not 4, when no check ran (every one unsupported or not applicable)")]
Jobs = Annotated[int | None, typer.Option(
    "--jobs", "-j", metavar="N",
    help="worker processes running units at once (default: the number of cores; with a cmd: engine, "
    "N engine processes run at once)")]
SaveFailures = Annotated[Path | None, typer.Option(metavar="DIR",
    help="write each counterexample found by the z3 and invariants suites as a scenario file here")]
Z3Full = Annotated[bool, typer.Option(metavar="",
    help="check the whole bounded Z3 domain instead of a sample")]
ValidateProtocol = Annotated[bool, typer.Option(metavar="",
    help="validate every message a cmd: engine sends against the wire JSON Schemas (slow)")]
Variant = Annotated[list[str] | None, typer.Option(metavar="RULE=VALUE",
    help="check the reference playing this rule variant, RULE=VALUE (repeatable; see oracle/data/rules.toml)")]
ShardOption = Annotated[str | None, typer.Option("--shard", metavar="K/N",
    help="run only shard K of N: the units whose id's SHA-256 falls to K (docs/scaling.md); "
    "`oracle report merge` joins the N reports into the whole run's")]
