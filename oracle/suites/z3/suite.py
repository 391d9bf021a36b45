"""The ``z3`` suite of ``oracle check``: the engine's payments, costs and holding-limit choices, and with the
Artifacts expansion the Incense Burner's price and the stone upgrades (Book of Thoth, Duduri, Duduri King),
compared with the exact sets the Z3 models allow (:mod:`oracle.suites.z3.conformance`).

One unit per row; each row reports one check per rule it models (``z3/summon-payment/PAY-3``), so the ids
and the count never depend on the counterexamples found. Options read from
:class:`~oracle.suites.registry.CheckOptions`: ``seed`` (which deterministic sample of each domain is checked),
``save_failures`` (each divergence is also written there as a scenario file, under ``z3/``), and its
:class:`~oracle.suites.registry.Z3Options`:

* ``full`` (bool): every case of every domain instead of a sample (``oracle z3 conform --full``);
* ``budget`` (seconds, default 20, times the run's budget scale): wall-clock budget of each row; a row cut short
  is ``incomplete``;
* ``sample_scale`` (float, default 1): multiplies the sample size of each row.

And ``legal_share``: below 0.5 (an engine whose listing costs more than a step), a row compares the engine's
full listing at its first case only and judges the others' candidates with ``try_actions`` where the engine has
it (:mod:`oracle.suites.z3.conform_verdicts`).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from oracle.core.results import CheckResult
from oracle.engines.legal_share import DEFAULT_SHARE
from oracle.scenarios.given import DEFAULT_SETUP
from oracle.suites.registry import (
    CheckOptions,
    PlanContext,
    PlannedCheck,
    RunContext,
    SuiteSpec,
    Unit,
    Z3Options,
    players_unsupported,
)
from oracle.suites.z3.conformance import ROWS, SUITE, ConformOptions, row_checks, row_named, row_unsupported, run_row

DEFAULT_BUDGET = Z3Options.budget
# Seconds the supervisor allows a row past its budget (the last case in flight, engine start-up).
GRACE = 30.0


@dataclass(frozen=True)
class Z3Row:
    """A ``z3`` unit's work: the name of the row it checks."""

    row: str


def conform_options(impl: str, options: CheckOptions) -> ConformOptions:
    """The conformance run the options ask for."""
    z3 = options.z3
    return ConformOptions(full=z3.full, seed=options.seed, budget=options.scaled(z3.budget),
                          save_failures=options.save_failures, impl=impl, sample_scale=z3.sample_scale,
                          list_every_case=options.legal_share >= DEFAULT_SHARE)


def _plan(context: PlanContext) -> list[Unit[Z3Row]]:
    budget = conform_options(context.impl, context.options).budget
    players = int(DEFAULT_SETUP["players"])
    unsupported = players_unsupported(context.handshake, players)
    if unsupported:
        unsupported += f" (the Z3 cases are {players}-player positions)"
    deadline = budget + GRACE + 2 * context.options.timeout + context.options.start_timeout
    return [
        Unit(SUITE, row.name, tuple(PlannedCheck(cid, title, rules) for cid, title, rules in row_checks(row)),
             payload=Z3Row(row.name), deadline=deadline,
             unsupported=unsupported or row_unsupported(row, context.handshake),
             reproduce=f"oracle z3 conform --impl {shlex.quote(context.impl)} --row {row.name}")
        for row in ROWS
    ]


def _run(unit: Unit[Z3Row], context: RunContext) -> list[CheckResult]:
    """Model conformance of payments (PAY-*, REM-1), summoning costs (SUM-3), the holding limit (LIMIT-*), the
    Incense Burner's price (RUL-9) and stone upgrades (RUL-8, STONE-2)."""
    return run_row(context.eut.fresh, row_named(unit.payload.row), conform_options(context.eut.impl, context.options))


Z3 = SuiteSpec(SUITE, _plan, _run, "payments, costs, holding limit and upgrades against the Z3 models")
