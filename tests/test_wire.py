"""The wire protocol: one method table for both sides, versions, the server's answers, the pool and copies."""

from __future__ import annotations

import copy
import inspect
import json
import subprocess
import sys
from io import BytesIO
from typing import Any

import pytest

from oracle import PROTOCOL_VERSION
from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.protocol import Engine
from oracle.core.results import Outcome
from oracle.core.validation import validation_errors
from oracle.engines.connect import EngineUnderTest
from oracle.engines.harness import Subject
from oracle.engines.play import new_setup
from oracle.engines.wire import methods
from oracle.engines.wire.connection import harness_capabilities, request_line
from oracle.engines.wire.framing import incompatibility
from oracle.engines.wire.impl import wire_factory
from oracle.engines.wire.methods import ENGINE_METHODS, METHODS, may_send
from oracle.engines.wire.pool import pool_for
from oracle.engines.wire.server import Server
from oracle.engines.wire.validate import response_violation, violations
from oracle.reference import ReferenceEngine
from oracle.suites.all import run_check
from oracle.suites.registry import CheckOptions
from tests.helpers import CALL_SECONDS
from vale_fixtures.minimal_adapter import MinimalAdapter

SERVE = f"cmd:{sys.executable} -P -m oracle.cli.app serve"


def served(impl: str) -> str:
    return f"{SERVE} --impl {impl}"


def legal_at(snapshot: JSON) -> list[JSON]:
    reference = ReferenceEngine()
    reference.load(snapshot)
    return reference.legal_actions()


def ask(server: Server, method: str, **params: Any) -> JSON:
    answer: JSON = json.loads(server.reply(request_line(1, method, params)))
    return answer


# ---------------------------------------------------------------------- one description, two transports

def test_every_engine_method_is_on_the_wire_with_the_same_arguments() -> None:
    assert ENGINE_METHODS, "no engine method listed"
    for name in ENGINE_METHODS:
        in_process = tuple(p for p in inspect.signature(getattr(Engine, name)).parameters if p != "self")
        assert in_process == METHODS[name].params, name


def test_every_request_the_client_writes_fits_the_request_schema() -> None:
    setup = new_setup(2, 1)
    reference = ReferenceEngine()
    reference.new_game(setup)
    params: dict[str, JSON] = {
        "new_game": {"setup": setup}, "apply": {"action": reference.legal_actions()[0]},
        "load": {"snapshot": reference.export()}, "observe": {"legal_actions": True, "snapshot": False},
        "try_actions": {"actions": reference.legal_actions()[:2]},
    }
    assert METHODS, "no wire method listed"
    for name in METHODS:
        assert [] == violations("wire-request.schema.json", json.loads(request_line(7, name, params.get(name, {}))))


def test_every_answer_of_the_server_fits_the_response_and_result_schemas() -> None:
    server = Server(ReferenceEngine, BytesIO())
    answers = [("handshake", ask(server, "handshake")), ("new_game", ask(server, "new_game", setup=new_setup(3, 2)))]
    answers.append(("observe", ask(server, "observe", legal_actions=True, snapshot=True)))
    answers.append(("decision", ask(server, "decision")))
    legal = ask(server, "legal_actions")
    answers.append(("legal_actions", legal))
    illegal = {**legal["result"][0], "player": 9}
    answers.append(("try_actions", ask(server, "try_actions", actions=[legal["result"][0], illegal])))
    answers.append(("apply", ask(server, "apply", action=legal["result"][0])))
    answers.append(("export", ask(server, "export")))
    answers.append(("load", ask(server, "load", snapshot=answers[-1][1]["result"])))
    assert [] == [(name, response_violation(name, answer)) for name, answer in answers
                  if response_violation(name, answer) is not None]


# ---------------------------------------------------------------------- versions

def test_the_protocol_is_version_1_1() -> None:
    assert "1.1" == PROTOCOL_VERSION


def test_an_engine_of_another_major_version_is_refused_with_a_reason() -> None:
    assert None is incompatibility("1.0")
    assert None is incompatibility("2.0")
    assert "major versions differ" in (incompatibility("3.0") or "")
    assert "not a version number" in (incompatibility("one") or "")


def test_observe_is_never_sent_to_an_engine_that_declared_1_0() -> None:
    observe = METHODS["observe"]
    assert not may_send(observe, "1.0", frozenset({"observe"}))
    assert may_send(observe, "1.1", frozenset({"observe"}))
    assert not may_send(observe, "1.1", frozenset())


def test_capabilities_of_a_newer_minor_version_are_ignored_and_typos_of_this_one_kept_for_refusal() -> None:
    declared = ["export", "observe", "telepathy"]
    assert ["export"] == harness_capabilities(declared, "1.2")
    assert ["export", "telepathy"] == harness_capabilities(declared, "1.1")


def test_the_server_offers_observe_only_for_engines_of_1_1() -> None:
    assert "observe" in ask(Server(ReferenceEngine, BytesIO()), "handshake")["result"]["capabilities"]
    old = Server(MinimalAdapter, BytesIO())
    assert "observe" not in ask(old, "handshake")["result"]["capabilities"]
    assert "bad_request" == ask(old, "observe")["error"]["code"]


def test_an_engine_of_protocol_3_is_refused_in_one_line() -> None:
    run = subprocess.run([sys.executable, "-P", "-m", "oracle.cli.app", "check", "--impl",
                          f"cmd:{sys.executable} -m vale_fixtures.wire.speaks_3_0", "--suite", "setup"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert 2 == run.returncode
    assert 1 == len(run.stderr.strip().splitlines()), run.stderr
    assert "protocol 3.0 is not compatible with the oracle's 1.1 or 2.0" in run.stderr


# ---------------------------------------------------------------------- the server

def test_the_server_reports_unsupported_methods_and_engine_exceptions_as_error_answers() -> None:
    server = Server(MinimalAdapter, BytesIO())
    assert "unsupported" == ask(server, "legal_actions")["error"]["code"]
    error = ask(server, "new_game", setup={"players": 9})["error"]
    assert ("engine_error", "SetupError") == (error["code"], error["exception"])


def test_the_server_refuses_requests_that_are_not_protocol() -> None:
    server = Server(ReferenceEngine, BytesIO())
    assert "bad_request" == json.loads(server.reply(b"hello\n"))["error"]["code"]
    assert "bad_request" == ask(server, "teleport")["error"]["code"]
    assert "bad_request" == ask(server, "apply")["error"]["code"]


def test_a_served_engine_s_prints_go_to_stderr() -> None:
    results = run_check(EngineUnderTest.load(served("vale_fixtures.wire.chatty"), CALL_SECONDS),
                        CheckOptions(players=(2,)), ["setup", "random-play"])
    assert [] == [(r.id, r.message) for r in results if r.outcome is not Outcome.PASS]


# ---------------------------------------------------------------------- the client

def test_fresh_engines_reuse_the_pooled_processes() -> None:
    spec = served("oracle.reference")
    pool = pool_for(spec[len("cmd:"):].split())
    eut = EngineUnderTest.load(spec, CALL_SECONDS)
    held = [eut.fresh(), eut.fresh()]
    started = pool.started
    del held
    results = run_check(eut, CheckOptions(games=2), ["random-play", "setup"])
    assert 27 == len(results)
    assert started == pool.started


def test_a_copy_without_load_replays_the_game_into_another_process() -> None:
    engine = wire_factory(served("vale_fixtures.minimal_adapter"))()
    engine.new_game(new_setup(2, 4))
    for _ in range(6):
        pending = engine.decision()
        assert pending is not None
        engine.apply(legal_at(engine.export())[0])
    twin = copy.deepcopy(engine)
    assert twin._lease.connection is not engine._lease.connection
    assert engine.export() == twin.export()


def test_after_its_process_dies_an_engine_fails_once_then_continues_on_a_new_process() -> None:
    engine = wire_factory(served("oracle.reference"))()
    engine.new_game(new_setup(3, 6))
    for _ in range(5):
        engine.apply(engine.legal_actions()[0])
    before, legal = engine.export(), engine.legal_actions()
    assert engine._lease.connection is not None
    engine._lease.connection.process.popen.kill()
    with pytest.raises(EngineFault) as caught:
        engine.apply(legal[0])
    assert ("error", "apply") == (caught.value.kind, caught.value.method)
    assert "killed by signal 9" in caught.value.message
    assert before == engine.export()


def test_an_engine_without_legal_actions_and_load_is_probed_over_the_wire() -> None:
    results = run_check(EngineUnderTest.load(served("vale_fixtures.minimal_adapter"), CALL_SECONDS),
                        CheckOptions(games=1, players=(2,)), ["random-play"])
    assert [Outcome.PASS] == [r.outcome for r in results]


def test_a_silent_engine_times_out_on_the_oracle_side_without_a_harness_alarm(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VALE_ORACLE_WIRE_TIMEOUT", "3")
    engine = wire_factory(f"cmd:{sys.executable} -m vale_fixtures.wire.silent_in_decision")()
    engine.new_game(new_setup(3, 1))
    with pytest.raises(EngineFault) as caught:
        for _ in range(10):
            engine.apply(legal_at(engine.export())[0])
            engine.decision()
    assert ("timeout", "decision") == (caught.value.kind, caught.value.method)
    assert "within 3 s" in caught.value.message  # the engine sleeps 600 s: only the oracle's deadline ended it


def test_the_harness_deadline_holds_over_the_wire() -> None:
    subject = Subject(wire_factory(f"cmd:{sys.executable} -m vale_fixtures.wire.silent_in_decision"), "silent", 4.0)
    subject.new_game(new_setup(3, 1))
    with pytest.raises(EngineFault) as caught:
        for _ in range(10):
            subject.apply(subject.legal_actions()[0])
            subject.decision()
    assert ("timeout", "decision") == (caught.value.kind, caught.value.method)
    assert "misbehaving in decision" in caught.value.message


# ---------------------------------------------------------------------- --validate-protocol

def test_validation_names_the_message_the_field_and_the_schema_rule() -> None:
    found = response_violation("apply", {"id": 4, "result": {"accepted": True, "events": [{"card": "x"}]}})
    assert "protocol violation in the answer to apply (id 4): result.events[0]: 'type' is a required property " \
           "(schema rule 'required' at properties/events/items/required)" == found


def test_validate_protocol_reports_output_only_the_schema_forbids(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = served("vale_fixtures.wire.untyped_events")
    options = CheckOptions(games=1, players=(2,))
    eut = EngineUnderTest.load(spec, CALL_SECONDS)
    assert {Outcome.PASS} == {r.outcome for r in run_check(eut, options, ["random-play"])}
    monkeypatch.setenv("VALE_ORACLE_VALIDATE_PROTOCOL", "1")
    results = run_check(EngineUnderTest.load(spec, CALL_SECONDS), options, ["random-play"])
    assert {Outcome.ERROR} == {r.outcome for r in results}
    assert all("apply: protocol violation in the answer to apply" in r.message and "'type' is a required" in r.message
               for r in results), [r.message for r in results]


def test_the_request_schema_refuses_an_unknown_method() -> None:
    assert [] != validation_errors("wire-request", {"id": 1, "method": "teleport", "params": {}})


def test_a_forked_worker_starts_its_own_engine_processes() -> None:
    import multiprocessing

    factory = wire_factory(served("oracle.reference"))
    parent, idle = factory(), factory()
    parent.new_game(new_setup(2, 3))
    parent_pids = {engine._lease.connection.process.popen.pid for engine in (parent, idle)
                   if engine._lease.connection is not None}
    del idle
    with multiprocessing.get_context("fork").Pool(1) as workers:
        child_pid, child_export = workers.apply(_engine_pid_and_export, (factory, 4))
    assert child_pid not in parent_pids
    reference = ReferenceEngine()
    reference.new_game(new_setup(2, 4))
    assert reference.export()["draw_pile"] == child_export["draw_pile"]
    expected = ReferenceEngine()
    expected.new_game(new_setup(2, 3))
    assert expected.export()["draw_pile"] == parent.export()["draw_pile"]


def _engine_pid_and_export(factory: Any, seed: int) -> tuple[int, JSON]:
    engine = factory()
    engine.new_game(new_setup(2, seed))
    assert engine._lease.connection is not None
    return engine._lease.connection.process.popen.pid, engine.export()


@pytest.mark.parametrize("backend", ["json", "orjson"])
def test_lines_are_compact_strict_json_whichever_library_writes_them(backend: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from oracle.engines.wire import methods

    if backend == "json":
        monkeypatch.setattr(methods, "_orjson", None)
    elif methods._orjson is None:
        pytest.skip("orjson is not installed")
    message = {"id": 3, "result": {"accepted": True, "events": [{"type": "card_tamed", "card": "base-fire-01"}]}}
    assert b'{"id":3,"result":{"accepted":true,"events":[{"type":"card_tamed","card":"base-fire-01"}]}}\n' \
        == methods.encode_line(message)
    assert message == methods.decode_line(methods.encode_line(message))
    with pytest.raises(ValueError):
        methods.decode_line(b'{"id": 3, "result": NaN}')


# ---------------------------------------------------------------------------------------------- one JSON reader

SAME_WITH_OR_WITHOUT_ORJSON = [b'{"s":"\\ud800"}\n', b'{"n":%d}\n' % 2**70, b'{"a":1,"a":2}\n']
"""Lines orjson refuses or reads its own way: a lone surrogate's escape, a number past 64 bits, a key twice."""
TOO_DEEP = b"[" * 2000 + b"]" * 2000 + b"\n"
"""Past orjson's 1,024 levels and the standard library's recursion limit alike."""


def test_a_line_reads_as_the_standard_library_reads_it_whatever_is_installed() -> None:
    assert [json.loads(line) for line in SAME_WITH_OR_WITHOUT_ORJSON] == [
        methods.decode_line(line) for line in SAME_WITH_OR_WITHOUT_ORJSON]
    with pytest.raises(methods.NestedTooDeep):
        methods.decode_line(TOO_DEEP)
