"""The pytest plugin: ``pytest --vale-impl ENGINE`` collects every ``oracle check`` check as a pytest item.

Inert unless ``--vale-impl`` is given: this module imports nothing of the oracle at import time, so loading it
through the ``pytest11`` entry point costs a pytest run (this repository's own included) next to nothing.
With ``--vale-impl``, the suites are planned in the pytest process and every unit runs under the supervisor
(:mod:`oracle.run`), so an engine that crashes or hangs fails its items and never takes pytest down.
A unit that produces several results (the invariants fuzzer, a Z3 row) runs once, when its first selected
item runs; each of its results is an item of its own.

Markers, one per rule and card a check pins (pytest marker names cannot hold ``-``): ``rule_PAY_3`` for
PAY-3, ``card_base_fire_01`` for the card ``base-fire-01``, ``suite_random_play`` for the suite, and
``vale`` on every item. ``-m rule_PAY_3``, ``-k PAY-3`` and ``--vale-suite scenarios`` select as usual.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from oracle.core.results import CheckResult
    from oracle.run.expectations import ExpectedFailure
    from oracle.run.supervisor import Supervisor
    from oracle.suites.registry import AnyUnit, PlannedCheck

PLUGIN_NAME = "vale-oracle-session"


def marker_name(prefix: str, value: str) -> str:
    """A pytest marker name for a rule id, card id or suite: ``rule_PAY_3`` for PAY-3."""
    return f"{prefix}_{re.sub(r'[^0-9A-Za-z_]', '_', value)}"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("vale", "Vale Oracle conformance checks (oracle check as pytest items)")
    group.addoption("--vale-impl", metavar="ENGINE", default=None,
                    help="collect the oracle's checks against this engine: package.module[:factory] or cmd:…")
    group.addoption("--vale-suite", metavar="SUITE", action="append", default=[],
                    help="only these suites (repeatable, comma-separated): setup, random-play, roundtrip, "
                         "scenarios, z3, invariants")
    group.addoption("--vale-expectations", metavar="FILE", default=None, type=Path,
                    help="TOML file of known failures: they become strict xfails (an unexpected pass fails)")
    group.addoption("--vale-timeout", metavar="SECONDS", default=5.0, type=float,
                    help="seconds allowed for each engine call (default 5)")
    group.addoption("--vale-start-timeout", metavar="SECONDS", default=30.0, type=float,
                    help="seconds an engine may take to start: create and the handshake (default 30)")
    group.addoption("--vale-games", metavar="N", default=2, type=int,
                    help="random games per player count and mode (default 2)")
    group.addoption("--vale-seed", metavar="N", default=1, type=int, help="first seed (default 1)")


def pytest_configure(config: pytest.Config) -> None:
    impl = config.getoption("vale_impl")
    if not impl:
        return
    session = ValeSession(config, impl)
    for line in session.marker_lines():
        config.addinivalue_line("markers", line)
    config.pluginmanager.register(session, PLUGIN_NAME)


class ValeSession:
    """The plan of one pytest run, its supervisor, and the results of the units run so far."""

    def __init__(self, config: pytest.Config, impl: str) -> None:
        from oracle.run.request import split_values
        from oracle.suites.all import BY_NAME
        from oracle.suites.registry import CheckOptions

        self.config = config
        self.impl = impl
        self.suites = list(split_values(config.getoption("vale_suite"))) or list(BY_NAME)
        unknown = [s for s in self.suites if s not in BY_NAME]
        if unknown:
            raise pytest.UsageError(f"--vale-suite {unknown[0]!r}: known suites are {', '.join(BY_NAME)}")
        timeout = float(config.getoption("vale_timeout"))
        start_timeout = float(config.getoption("vale_start_timeout"))
        for option, value in (("--vale-timeout", timeout), ("--vale-start-timeout", start_timeout)):
            if not value > 0:
                raise pytest.UsageError(f"{option} must be more than 0 seconds, got {value:g}")
        self.options = CheckOptions(games=int(config.getoption("vale_games")), seed=int(config.getoption("vale_seed")),
                                    timeout=timeout, start_timeout=start_timeout)
        self.expectations_path: Path | None = config.getoption("vale_expectations")
        self.supervisor: Supervisor | None = None
        self.units: list[AnyUnit] = []
        self.expected: dict[str, ExpectedFailure] = {}
        self.results: dict[int, dict[str, CheckResult]] = {}

    @staticmethod
    def marker_lines() -> Iterator[str]:
        from oracle.core.cards import catalogue
        from oracle.core.rules import rules
        from oracle.suites.all import BY_NAME

        yield "vale: a check of the Vale Oracle (oracle check)"
        for suite in BY_NAME:
            yield f"{marker_name('suite', suite)}: a check of the oracle's {suite} suite"
        for rule_id in rules():
            yield f"{marker_name('rule', rule_id)}: a Vale Oracle check of rule {rule_id}"
        for card in catalogue().in_sets(["base", "artifacts"]):
            yield f"{marker_name('card', card.id)}: a Vale Oracle check pinning {card.name} ({card.id})"

    # ------------------------------------------------------------------ planning

    def plan(self) -> None:
        """Start the engine's first worker, plan the suites and load the expectations (a UsageError if any fails)."""
        from oracle.run.expectations import load_expectations
        from oracle.run.supervisor import EngineRefused, Supervisor
        from oracle.suites.all import BY_NAME, plan_named
        from oracle.suites.registry import PlanContext

        supervisor = Supervisor(self.impl, self.options.timeout, self.options)
        self.supervisor = supervisor
        try:
            handshake = supervisor.start()
        except EngineRefused as exc:
            raise pytest.UsageError(f"--vale-impl {self.impl}: {exc}") from None
        except OSError as exc:
            raise pytest.UsageError(f"--vale-impl {self.impl}: {exc}") from None
        context = PlanContext(self.impl, handshake, self.options)
        to_plan = self.suites if self.expectations_path is None else list(dict.fromkeys((*self.suites, *BY_NAME)))
        plan = plan_named(context, to_plan)
        planned = plan.narrowed(self.suites, self.options)
        self.units = [unit for name in self.suites for unit in planned[name]]
        if self.expectations_path is not None:
            self.expected, problems = load_expectations(self.expectations_path, plan.known())
            if problems:
                raise pytest.UsageError(f"--vale-expectations {self.expectations_path}: {problems[0]}")

    def result(self, index: int, check_id: str) -> CheckResult:
        """The result of one check, running its unit the first time one of its checks is asked for."""
        if index not in self.results:
            from oracle.reports.sanitize import clean_result

            assert self.supervisor is not None
            found: dict[str, CheckResult] = {}

            def sink(_: int, results: list[CheckResult]) -> bool:
                found.update((r.id, clean_result(r)) for r in results)
                return True

            status = self.supervisor.run([self.units[index]], sink)
            if status.stopped:
                pytest.exit(f"the Vale Oracle run stopped: {status.stopped}", returncode=3)
            self.results[index] = found
        return self.results[index][check_id]

    # ------------------------------------------------------------------ pytest hooks

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        """Add the oracle's checks before ``-k`` and ``-m`` deselect."""
        self.plan()
        by_suite: dict[str, list[tuple[int, PlannedCheck]]] = {}
        for index, unit in enumerate(self.units):
            by_suite.setdefault(unit.suite, []).extend((index, check) for check in unit.wanted)
        for suite, checks in by_suite.items():
            collector = ValeSuite.from_parent(session, name=f"vale:{suite}", nodeid=f"vale:{suite}")
            for index, check in checks:
                items.append(self.item(collector, suite, index, check))

    def item(self, parent: ValeSuite, suite: str, index: int, check: PlannedCheck) -> ValeCheck:
        item: ValeCheck = ValeCheck.from_parent(parent, name=check.id, vale=self, unit_index=index, check=check)
        item.add_marker("vale")
        item.add_marker(marker_name("suite", suite))
        for rule_id in check.rules:
            item.add_marker(marker_name("rule", rule_id))
        for card in check.cards:
            item.add_marker(marker_name("card", card))
        known = self.expected.get(check.id)
        if known is not None:
            item.add_marker(pytest.mark.xfail(reason=f"known failure ({known.file}:{known.line}): {known.reason}",
                                              strict=True))
        return item

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.supervisor is not None:
            self.supervisor.close()
            self.supervisor = None


class ValeSuite(pytest.Collector):
    """The parent of one suite's items (they are made by the plugin, not collected from a file)."""

    def collect(self) -> list[pytest.Item | pytest.Collector]:
        return []


class CheckFailed(Exception):
    """A check that did not pass; its message is what ``oracle check`` prints for it."""

    def __init__(self, result: CheckResult) -> None:
        super().__init__("\n".join(result_lines(result)))
        self.result = result


class ValeCheck(pytest.Item):
    """One check of the oracle: passes, fails (with its rule, expected/actual and reproduce line) or skips (an
    unsupported or not-applicable check, with ``unsupported: …`` or ``not-applicable: …`` and the reason)."""

    def __init__(self, *, vale: ValeSession, unit_index: int, check: PlannedCheck, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.vale = vale
        self.unit_index = unit_index
        self.check = check

    def runtest(self) -> None:

        result = self.vale.result(self.unit_index, self.check.id)
        if not result.outcome.ran:
            pytest.skip(f"{result.outcome.value}: {result.message}")
        if not result.outcome.ok:
            raise CheckFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | Any:
        if isinstance(excinfo.value, CheckFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[str, int | None, str]:
        return f"vale:{self.check.id}", None, f"{self.check.id}: {self.check.title}"


def result_lines(result: CheckResult) -> list[str]:
    """A failed check as ``oracle check`` prints it: outcome, id and title, rules, expected/actual, reproduce."""
    from oracle.cli.console import failure_lines

    return [f"{result.outcome.value.upper():16} {result.id}: {result.title}", *failure_lines(result)]
