"""What a handshake declares binds the engine (PROTO-2): a declared capability refused is one cause naming it,
and a handshake that breaks handshake.schema.json is refused up front, naming the field."""

from __future__ import annotations

import subprocess
import sys

import pytest

from oracle.core.faults import DeclaredButUnsupported, EngineFault
from oracle.core.json_types import JSON
from oracle.core.results import Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.engines.harness import Subject
from oracle.engines.play import new_setup
from oracle.reference import ReferenceEngine
from oracle.reports.causes import group_causes
from oracle.reports.common import failed_results
from oracle.suites.all import run_check
from oracle.suites.registry import CheckOptions
from vale_fixtures import bad_handshakes
from vale_fixtures import declares_legal_actions_unsupported as contradiction
from vale_fixtures.bad_handshakes import BAD_FIELDS

CONTRADICTION = "vale_fixtures.declares_legal_actions_unsupported"
SERVED_CONTRADICTION = f"cmd:{sys.executable} -P -m oracle.cli.app serve --impl {CONTRADICTION}"


class RefusesLoad(ReferenceEngine):
    def load(self, snapshot: JSON) -> None:
        raise NotImplementedError


class RefusesExport(ReferenceEngine):
    def export(self) -> JSON:
        raise NotImplementedError


class RefusesLegalActions(ReferenceEngine):
    def legal_actions(self) -> list[JSON]:
        raise NotImplementedError


class UndeclaredExport(RefusesExport):
    def handshake(self) -> JSON:
        shake = super().handshake()
        return {**shake, "capabilities": [c for c in shake["capabilities"] if c != "export"]}


def started_snapshot() -> JSON:
    reference = ReferenceEngine()
    reference.new_game(new_setup(2, 1))
    return reference.export()


def refused(subject: Subject, capability: str) -> EngineFault:
    calls = {"load": lambda: subject.load_snapshot(started_snapshot()), "export": subject.export,
             "legal_actions": subject.legal_actions}
    with pytest.raises(EngineFault) as caught:
        calls[capability]()
    return caught.value


# ---------------------------------------------------------------------- a declared capability refused

@pytest.mark.parametrize(("engine", "capability"), [(RefusesLoad, "load"), (RefusesExport, "export"),
                                                    (RefusesLegalActions, "legal_actions")])
def test_refusing_a_declared_capability_is_a_protocol_error_naming_it(engine: type[ReferenceEngine],
                                                                      capability: str) -> None:
    subject = Subject(engine, "test")
    subject.new_game(new_setup(2, 1))
    fault = refused(subject, capability)
    assert isinstance(fault, DeclaredButUnsupported)
    assert (capability, ("PROTO-2",), Outcome.ERROR) == (fault.capability, fault.rules, fault.outcome)
    assert f"declares the capability {capability!r}" in fault.message


def test_refusing_an_undeclared_capability_stays_unsupported() -> None:
    subject = Subject(UndeclaredExport, "test")
    subject.new_game(new_setup(2, 1))
    fault = refused(subject, "export")
    assert (False, Outcome.UNSUPPORTED) == (isinstance(fault, DeclaredButUnsupported), fault.outcome)


@pytest.mark.parametrize("impl", [CONTRADICTION, SERVED_CONTRADICTION], ids=["in-process", "wire"])
def test_a_declared_capability_refused_is_one_PROTO_2_cause_naming_it(impl: str) -> None:
    results = run_check(EngineUnderTest.load(impl, 10.0), CheckOptions(games=1, players=(2, 3)),
                        ["random-play", "roundtrip"])
    failing = failed_results(results)
    assert failing
    assert [] == [r.id for r in results if r.outcome is Outcome.UNSUPPORTED]
    [cause] = group_causes(failing)
    assert f"contradicts/{contradiction.CONTRADICTED_CAPABILITY}/PROTO-2" == cause.facts.signature
    assert contradiction.CONTRADICTED_CAPABILITY in cause.title
    broken = contradiction.DeclaresLegalActionsUnsupported.BROKEN_RULE
    assert {broken} == {rule for member in cause.members for rule in member.rules if rule.startswith("PROTO")}


def test_the_whole_check_of_the_contradiction_fixture_reports_one_cause() -> None:
    results = run_check(EngineUnderTest.load(CONTRADICTION, 10.0), CheckOptions(games=1, players=(2,)),
                        ["random-play", "roundtrip", "scenarios", "invariants"])
    [cause] = group_causes(failed_results(results))
    assert "contradicts" == cause.facts.verdict.value
    assert {"random-play", "scenarios", "invariants"} == {m.suite for m in cause.members}
    # below a legal-set share of 1 the round trip plays the reference's legal actions: it never lists the engine's
    assert {Outcome.PASS} == {r.outcome for r in results if r.suite == "roundtrip"}


# ---------------------------------------------------------------------- handshakes against the schema

@pytest.mark.parametrize("factory", sorted(BAD_FIELDS))
def test_a_handshake_breaking_the_schema_is_refused_naming_the_field(factory: str) -> None:
    field, _ = BAD_FIELDS[factory]
    with pytest.raises(EngineFault) as caught:
        Subject(getattr(bad_handshakes, factory), factory)
    assert ("handshake", ("PROTO-2",)) == (caught.value.method, caught.value.rules)
    assert caught.value.message.startswith(f"field {field}: "), caught.value.message


def test_oracle_check_refuses_a_bad_handshake_in_one_located_line_exit_2() -> None:
    run = subprocess.run([sys.executable, "-P", "-m", "oracle.cli.app", "check", "--suite", "setup",
                          "--impl", "vale_fixtures.bad_handshakes:engine_object"],
                         capture_output=True, text=True, timeout=120, check=False)
    assert 2 == run.returncode, run.stdout[-500:]
    [line] = run.stderr.strip().splitlines()
    assert "handshake(): field engine: {'name': 'an object'} is not of type 'string'" in line


def test_the_reference_handshake_fits_the_tightened_schema() -> None:
    assert "vale-oracle-reference" == Subject(ReferenceEngine, "oracle.reference").handshake.engine
