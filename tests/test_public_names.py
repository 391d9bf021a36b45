"""Every module name the docs or the entry points present as public still works after the re-layout (issue 23):
the names kept at ``oracle``'s first level are the very objects of the floors that hold them now."""

from __future__ import annotations

import importlib

import pytest

PUBLIC = [
    ("oracle.protocol", "Engine", "oracle.core.protocol"),
    ("oracle.protocol", "RejectionCode", "oracle.core.protocol"),
    ("oracle.results", "Outcome", "oracle.core.results"),
    ("oracle.results", "CheckResult", "oracle.core.results"),
    ("oracle.model", "Stones", "oracle.core.model"),
    ("oracle.cards", "catalogue", "oracle.core.cards"),
    ("oracle.options", "option", "oracle.core.options"),
    ("oracle.play", "adopt_deck", "oracle.engines.play"),
    ("oracle.harness", "Subject", "oracle.engines.harness"),
    ("oracle.harness", "EngineFault", "oracle.core.faults"),
    ("oracle.harness", "resolve_impl", "oracle.engines.connect"),
    ("oracle.check", "EngineUnderTest", "oracle.engines.connect"),
    ("oracle.check", "run_check", "oracle.suites.all"),
    ("oracle.check", "CheckOptions", "oracle.suites.registry"),
    ("oracle.check", "SUITES", "oracle.suites.all"),
    ("oracle.selftest", "plans", "oracle.cli.selftest"),
    ("oracle.pytest_plugin", "pytest_addoption", "oracle.cli.pytest_plugin"),
    ("oracle.cli", "main", "oracle.cli"),
    ("oracle.reference", "create", "oracle.reference.engine"),
    ("oracle.scenarios.runner", "run_scenario", "oracle.scenarios.runner"),
    ("oracle.scenarios.loader", "load_file", "oracle.scenarios.loader"),
    ("vale_invariants.machine", "ValeMachine", "vale_invariants.machine"),
    ("vale_fixtures.superfluous_payment", "create", "vale_fixtures.superfluous_payment"),
]


@pytest.mark.parametrize(("public", "name", "home"), PUBLIC, ids=[f"{p}.{n}" for p, n, _ in PUBLIC])
def test_a_public_name_is_the_object_of_its_floor(public: str, name: str, home: str) -> None:
    assert getattr(importlib.import_module(home), name) is getattr(importlib.import_module(public), name)


def test_the_versions_stay_on_the_package() -> None:
    import oracle
    from oracle.core import versions

    expected = (versions.__version__, versions.PROTOCOL_VERSION, versions.SUITE_VERSION)
    assert expected == (oracle.__version__, oracle.PROTOCOL_VERSION, oracle.SUITE_VERSION)


def test_the_declared_reference_is_still_named_by_its_module() -> None:
    from oracle.engines.connect import resolve_impl

    engine = resolve_impl("oracle.reference.declared:RUL-1=per_stone")()
    assert {"RUL-1": "per_stone"} == engine.handshake()["variants"]
