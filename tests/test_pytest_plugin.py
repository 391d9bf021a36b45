"""The pytest plugin (``pytest --vale-impl``): one item per check, markers, -k/-m, strict xfails, faults contained."""

from __future__ import annotations

import subprocess
import sys

import pytest

from oracle.cli.pytest_plugin import marker_name
from oracle.engines.connect import EngineUnderTest
from oracle.suites.all import run_check
from oracle.suites.registry import CheckOptions
from tests.helpers import CALL_SECONDS

pytest_plugins = ("pytester",)

# The inner runs load the plugin by name and through its entry point (one plugin, never two); the other plugins of
# the dev environment (xdist, pytest-benchmark, Hypothesis's) play no part in them and cost ~1 s of CPU per run.
PLUGIN = ("-p", "oracle.pytest_plugin", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:xdist.looponfail",
          "-p", "no:benchmark", "-p", "no:hypothesispytest")
PAY3 = "PAY-3-red-and-blue-for-cost-1"


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(*PLUGIN, "-rfEX", *args)


def failed_ids(result: pytest.RunResult) -> list[str]:
    return sorted(line.split()[1].split("::")[-1] for line in result.outlines if line.startswith("FAILED "))


def test_marker_names_hold_no_dash() -> None:
    assert ("rule_PAY_3", "card_base_fire_01", "suite_random_play") == (
        marker_name("rule", "PAY-3"), marker_name("card", "base-fire-01"), marker_name("suite", "random-play"))


def planned(impl: str, suites: list[str] | None = None, unsupported: bool | None = None) -> int:
    """How many checks ``oracle check`` plans for this engine (the suites given, or all; only those the plan
    already knows are not run (unsupported or not applicable), or only the others, when ``unsupported`` says so)."""
    from oracle.suites.all import BY_NAME, plan_named
    from oracle.suites.registry import PlanContext

    names = suites or list(BY_NAME)
    context = PlanContext(impl, EngineUnderTest.load(impl, CALL_SECONDS).fresh().handshake, CheckOptions())
    return sum(len(unit.wanted) for units in plan_named(context, names).narrowed(names, CheckOptions()).values()
               for unit in units
               if unsupported is None or unit.skipped == unsupported)


def test_the_reference_passes_one_item_per_check(pytester: pytest.Pytester) -> None:
    result = run(pytester, "-rs", "--vale-impl", "oracle.reference")
    result.assert_outcomes(passed=planned("oracle.reference", unsupported=False),
                           skipped=planned("oracle.reference", unsupported=True))
    skips = [line for line in result.outlines if line.startswith("SKIPPED")]
    assert skips and all(": not-applicable: the scenario depends on " in line for line in skips), skips


def cli_failures(impl: str, suite: str) -> list[str]:
    """The ids ``oracle check --suite SUITE`` fails for this engine (run inline)."""
    results = run_check(EngineUnderTest.load(impl, CALL_SECONDS), CheckOptions(), [suite])
    return sorted(r.id for r in results if not r.outcome.ok)


def test_superfluous_payment_fails_the_items_the_cli_fails_pay_3_among_them(pytester: pytest.Pytester) -> None:
    result = run(pytester, "--vale-impl", "vale_fixtures.superfluous_payment", "--vale-suite", "scenarios",
                 "-m", "rule_PAY_3")
    failed = failed_ids(result)
    expected = [i for i in cli_failures("vale_fixtures.superfluous_payment", "scenarios") if i in failed or
                i.startswith("PAY-3")]
    assert (expected, True) == (failed, PAY3 in failed)


def test_a_failure_prints_rule_expected_actual_and_reproduce(pytester: pytest.Pytester) -> None:
    result = run(pytester, "--vale-impl", "vale_fixtures.superfluous_payment", "--vale-suite", "scenarios",
                 "-k", PAY3)
    result.stdout.fnmatch_lines([
        f"ILLEGAL-ACCEPTED {PAY3}: *",
        "*rule PAY-3, step 2",
        "*expected: rejected with PAYMENT_SUPERFLUOUS_STONE (PAY-3)",
        "*actual: accepted",
        f"*reproduce: oracle check --impl vale_fixtures.superfluous_payment --select {PAY3}",
    ])
    result.assert_outcomes(failed=1, deselected=planned("vale_fixtures.superfluous_payment", ["scenarios"]) - 1)


def test_invariants_run_once_and_give_one_item_per_invariant(pytester: pytest.Pytester) -> None:
    result = run(pytester, "--vale-impl", "vale_fixtures.no_holding_limit", "--vale-suite", "invariants")
    assert ["invariants/INV-LIMIT", "invariants/LOCKSTEP"] == failed_ids(result)
    result.assert_outcomes(failed=2, passed=planned("vale_fixtures.no_holding_limit", ["invariants"]) - 2)


def test_known_failures_are_strict_xfails(pytester: pytest.Pytester) -> None:
    known = pytester.makefile(".toml", known=f'[[expected_failure]]\nid = "{PAY3}"\nreason = "issue 7"\n'
                                             '[[expected_failure]]\nid = "PAY-5-stones-not-held"\nreason = "stale"\n')
    result = run(pytester, "--vale-impl", "vale_fixtures.superfluous_payment", "--vale-suite", "scenarios",
                 "--vale-expectations", str(known), "-k", f"{PAY3} or PAY-5-stones-not-held")
    result.assert_outcomes(xfailed=1, failed=1,
                           deselected=planned("vale_fixtures.superfluous_payment", ["scenarios"]) - 2)
    assert ["PAY-5-stones-not-held"] == failed_ids(result)


def test_an_engine_that_kills_its_process_fails_its_items_only(pytester: pytest.Pytester) -> None:
    result = run(pytester, "--vale-impl", "vale_fixtures.hostile:segfaults_in_apply", "--vale-suite", "random-play")
    failed = failed_ids(result)
    assert (6, True) == (len(failed), all("/4p/" in name for name in failed))
    result.assert_outcomes(failed=6, passed=12)


def test_rule_and_card_markers_are_registered(pytester: pytest.Pytester) -> None:
    result = run(pytester, "--vale-impl", "oracle.reference", "--vale-suite", "scenarios", "--strict-markers",
                 "-W", "error::pytest.PytestUnknownMarkWarning", "-m", "rule_PAY_3 and card_base_fire_05")
    outcomes = result.parseoutcomes()
    assert (0, True) == (result.ret, outcomes["passed"] >= 1)


def test_a_bad_engine_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = run(pytester, "--vale-impl", "no.such.module")
    assert (pytest.ExitCode.USAGE_ERROR, True) == (result.ret, "--vale-impl no.such.module" in result.stderr.str())


def test_without_vale_impl_the_plugin_imports_nothing_of_the_oracle(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_inert="""
        import sys

        def test_only_the_plugin_is_loaded():
            loaded = sorted(m for m in sys.modules if m.startswith(("oracle.", "vale_")))
            assert ["oracle.cli", "oracle.cli.pytest_plugin"] == loaded
    """)
    result = run(pytester)
    result.assert_outcomes(passed=1)


def test_the_plugin_module_imports_nothing_but_itself_once_pytest_is_loaded() -> None:
    code = ("import sys, pytest; before = set(sys.modules); import oracle.cli.pytest_plugin; "
            "print(' '.join(sorted(set(sys.modules) - before)))")
    added = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert ["oracle", "oracle.cli", "oracle.cli.pytest_plugin"] == added


def test_the_plugin_is_registered_through_the_pytest11_entry_point() -> None:
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert {"oracle.pytest_plugin": "oracle.cli.pytest_plugin"} == project["entry-points"]["pytest11"]
