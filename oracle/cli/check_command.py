"""``oracle check``'s command: its options and help, read without the run's imports, which it loads only to run.

``oracle check --help`` imports this module and the options (:mod:`oracle.cli.check_options`); the run itself is
:func:`oracle.cli.check.run_check`.
"""

from __future__ import annotations

import typer

import oracle.cli.check_options as opt
from oracle.core.defaults import DEFAULT_IMPL, DEFAULT_MAX_CAUSES, DEFAULT_START_TIMEOUT
from oracle.run.signals import START, Stage, stage_reached


def check_command(  # each parameter a typer option, declared in oracle/cli/check_options.py
    impl: opt.Impl = DEFAULT_IMPL, games: opt.Games = 2, seed: opt.Seed = 1, timeout: opt.Timeout = 5.0,
    start_timeout: opt.StartTimeout = DEFAULT_START_TIMEOUT, suite: opt.Suite = None, select: opt.Select = None,
    rule: opt.Rule = None, card: opt.Card = None, expectations: opt.Expectations = None,
    report_json: opt.ReportJson = None, junit_xml: opt.JunitXml = None, markdown: opt.Markdown = None,
    markdown_append: opt.MarkdownAppend = None, scenarios: opt.Scenarios = None,
    scenario_timeout: opt.ScenarioTimeout = 10.0, z3_budget: opt.Z3Budget = 20.0, fuzz_budget: opt.FuzzBudget = 60.0,
    unit_timeout: opt.UnitTimeout = 120.0, time_budget: opt.TimeBudget = None, max_failures: opt.MaxFailures = None,
    max_causes: opt.MaxCauses = DEFAULT_MAX_CAUSES, set_aside: opt.SetAside = None,
    fail_on_unsupported: opt.FailOnUnsupported = False, allow_empty: opt.AllowEmpty = False, jobs: opt.Jobs = None,
    save_failures: opt.SaveFailures = None, z3_full: opt.Z3Full = False,
    validate_protocol: opt.ValidateProtocol = False, variant: opt.Variant = None,
    budget_scale: opt.BudgetScaleOption = None, legal_share: opt.LegalShareOption = None,
    shard: opt.ShardOption = None, reach: opt.Reach = "auto",
) -> None:
    """Check an engine against the rules and print a pass/fail summary.

    Exit codes, the first that applies: 2 bad input; 130/143 stopped by SIGINT/SIGTERM; 5 a report could not be
    written; 1 a check failed; 3 the run stopped early or a check is incomplete; 4 no check ran (--allow-empty: 0);
    0 otherwise.
    """
    asked = dict(locals())
    signals = START.claim()
    with signals.caught():
        stage_reached(Stage.CHECKING)
        from oracle.cli.check import run_check

        raise typer.Exit(run_check(asked, signals))
