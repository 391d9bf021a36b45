"""Benchmark of the default `oracle check` run on the reference engine (issue: under 30 s on 2 cores).

Run: python3 -m pytest ci/bench_check.py --benchmark-enable --benchmark-only
"""

from __future__ import annotations

from typing import Any

from oracle.engines.connect import EngineUnderTest
from oracle.suites.all import BY_NAME, run_check
from oracle.suites.registry import CheckOptions


def test_default_oracle_check_on_the_reference(benchmark: Any) -> None:
    suites = list(BY_NAME)

    def check() -> int:
        results = run_check(EngineUnderTest.load("oracle.reference", 5.0), CheckOptions(), suites)
        assert all(r.outcome.ok for r in results)
        return len(results)

    checks = benchmark.pedantic(check, rounds=3, iterations=1)
    benchmark.extra_info["checks"] = checks
