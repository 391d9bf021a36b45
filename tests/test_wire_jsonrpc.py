"""Wire protocol 2.0, JSON-RPC 2.0: the error codes, negotiation from 1.1, batches, `oracle serve` in both framings, and
engines built on a JSON-RPC library (the Node example on json-rpc-2.0) through --suite setup and the default check.

The Node tests need the example's library: without `adapters/node/jsonrpc-example/node_modules` they are skipped
(the message says how to install it), and under CI (``CI`` set) they fail instead. The two default checks over the
wire take about 20 s of CPU each, so they run when ``VALE_ORACLE_WIRE_ALL=1`` (`.ci/run` sets it for them).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest

from oracle.core.json_types import JSON
from oracle.core.results import CheckResult, Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.engines.play import new_setup
from oracle.engines.wire.channel import Deadline
from oracle.engines.wire.connection import Connection, error_fault
from oracle.engines.wire.framing import JSON_LINES, JSON_RPC, Framing
from oracle.engines.wire.impl import wire_factory
from oracle.engines.wire.server import Server
from oracle.engines.wire.settings import current_settings
from oracle.engines.wire.validate import response_violation, violations
from oracle.reference import ReferenceEngine
from oracle.suites.all import run_check
from oracle.suites.registry import CheckOptions
from tests.helpers import CALL_SECONDS
from tests.shared_runs import checked

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "adapters" / "node" / "jsonrpc-example"
SERVE = f"{sys.executable} -P -m oracle.cli.app serve"
JSONRPC_ONLY = f"{sys.executable} -m vale_fixtures.wire.jsonrpc_only"
ALL = os.environ.get("VALE_ORACLE_WIRE_ALL", "") == "1"


def rpc(request_id: Any, method: str, **params: Any) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).encode()


def answered(server: Server, line: bytes) -> Any:
    return json.loads(server.reply(line))


def _run(impl: str, suites: list[str], options: CheckOptions | None = None) -> list[CheckResult]:
    return run_check(EngineUnderTest.load(impl, CALL_SECONDS), options or CheckOptions(), suites)


def _framing_after_handshake(spec: str) -> Framing:
    engine = wire_factory(spec)()
    connection = engine._lease.connection
    assert connection is not None
    return connection.framing


# ---------------------------------------------------------------------- error codes

@pytest.mark.parametrize(("error", "kind", "message"), [
    ({"code": -32601, "message": "Method not found"}, "unsupported", "not implemented by this engine"),
    ({"code": -32001, "message": "no"}, "unsupported", "not implemented by this engine"),
    ({"code": -32602, "message": "Invalid params"}, "error", "refused the request: Invalid params"),
    ({"code": -32603, "message": "Internal error"}, "error", "failed: Internal error"),
    ({"code": 0, "message": "boom"}, "error", "failed: boom"),
    ({"code": -32000, "message": "boom", "data": {"name": "engine_error", "exception": "RangeError",
                                                  "where": "engine.mjs:7"}},
     "error", "raised RangeError: boom (at engine.mjs:7)"),
    ({"code": 7, "message": "later", "data": {"name": "unsupported"}}, "unsupported", "not implemented by this engine"),
])
def test_a_jsonrpc_error_is_read_by_its_code_or_the_oracle_s_name_in_data(error: JSON, kind: str,
                                                                        message: str) -> None:
    fault = error_fault("apply", JSON_RPC.inward({"jsonrpc": "2.0", "id": 3, "error": error})["error"])
    assert (kind, message) == (fault.kind, fault.message)


def test_an_answer_without_the_jsonrpc_member_is_a_fault_in_2_0() -> None:
    with pytest.raises(ValueError, match=r'needs "jsonrpc": "2\.0"'):
        JSON_RPC.inward({"id": 3, "result": None})


# ---------------------------------------------------------------------- oracle serve in both framings

def test_the_server_answers_each_request_in_its_own_framing() -> None:
    server = Server(ReferenceEngine, BytesIO())
    assert {"id": 1, "result": None} == answered(server, b'{"id": 1, "method": "quit", "params": {}}')
    assert {"jsonrpc": "2.0", "id": 2, "result": None} == answered(server, rpc(2, "quit"))


def test_the_server_refuses_bad_jsonrpc_requests_with_the_reserved_codes() -> None:
    server = Server(ReferenceEngine, BytesIO())
    assert -32601 == answered(server, rpc(1, "teleport"))["error"]["code"]
    assert -32602 == answered(server, rpc(2, "apply"))["error"]["code"]
    assert -32700 == answered(server, b"hello")["error"]["code"]
    assert -32600 == answered(server, b"[]")["error"]["code"]
    assert {"name": "bad_request"} == answered(server, rpc(3, "teleport"))["error"]["data"]


def test_the_server_reports_unsupported_and_engine_errors_with_the_oracle_s_codes() -> None:
    from vale_fixtures.minimal_adapter import MinimalAdapter

    server = Server(MinimalAdapter, BytesIO())
    unsupported = answered(server, rpc(1, "legal_actions"))["error"]
    assert (-32001, "unsupported") == (unsupported["code"], unsupported["data"]["name"])
    failed = answered(server, rpc(2, "new_game", setup={"players": 9}))["error"]
    assert (-32000, "engine_error", "SetupError") == (failed["code"], failed["data"]["name"],
                                                      failed["data"]["exception"])


def test_the_server_answers_a_batch_with_a_batch() -> None:
    server = Server(ReferenceEngine, BytesIO())
    batch = b"[" + rpc(1, "new_game", setup=new_setup(2, 1)) + b"," + rpc(2, "decision") + b"]"
    answers = answered(server, batch)
    assert [1, 2] == [answer["id"] for answer in answers]
    assert "hunt_pick" == answers[1]["result"]["kind"]


def test_every_jsonrpc_answer_of_the_server_fits_the_response_schema() -> None:
    server = Server(ReferenceEngine, BytesIO())
    answers = [("handshake", answered(server, rpc(1, "handshake"))),
               ("new_game", answered(server, rpc(2, "new_game", setup=new_setup(3, 2)))),
               ("observe", answered(server, rpc(3, "observe", legal_actions=True, snapshot=True))),
               ("teleport", answered(server, rpc(4, "teleport")))]
    assert [] == [(name, response_violation(name, answer, JSON_RPC.response_schema)) for name, answer in answers
                  if response_violation(name, answer, JSON_RPC.response_schema) is not None]
    assert [] == violations("wire-response.schema.json", [answer for _, answer in answers])


def test_the_jsonrpc_envelope_refuses_the_1_x_error_form() -> None:
    found = response_violation("apply", {"jsonrpc": "2.0", "id": 4, "error": {"code": "unsupported", "message": "x"}},
                               JSON_RPC.response_schema)
    assert "protocol violation in the answer to apply (id 4): error.code: 'unsupported' is not of type 'integer'" \
        in (found or "")


def test_a_jsonrpc_request_fits_the_request_schema() -> None:
    assert [] == violations("wire-request.schema.json", json.loads(rpc(7, "apply", action={"type": "pass"})))


def test_the_reference_served_in_jsonrpc_gives_the_in_process_results() -> None:
    suites, options = ["setup", "random-play"], CheckOptions(games=1, players=(2,))
    expected = [(r.id, r.outcome.value) for r in _run("oracle.reference", suites, options)]
    assert expected == [(r.id, r.outcome.value) for r in _run(f"cmd+jsonrpc:{SERVE}", suites, options)]


# ---------------------------------------------------------------------- negotiation

def test_a_1_1_engine_is_spoken_to_in_json_lines_and_a_2_0_engine_in_jsonrpc() -> None:
    assert JSON_LINES is _framing_after_handshake(f"cmd:{SERVE}")
    assert JSON_RPC is _framing_after_handshake(f"cmd:{JSONRPC_ONLY} --after-a-json-lines-handshake")


def test_a_jsonrpc_only_engine_is_reached_by_negotiation_and_by_starting_in_jsonrpc() -> None:
    assert JSON_RPC is _framing_after_handshake(f"cmd:{JSONRPC_ONLY}")
    assert JSON_RPC is _framing_after_handshake(f"cmd+jsonrpc:{JSONRPC_ONLY}")


def test_a_batch_answered_last_first_is_matched_by_id() -> None:
    connection = Connection(JSONRPC_ONLY.split(), current_settings())
    deadline = Deadline.after(CALL_SECONDS)
    ids = connection.send([("new_game", {"setup": new_setup(2, 5)}), ("decision", {}), ("export", {})], deadline)
    snapshot = connection.answer(ids[2], deadline)
    assert "hunt_pick" == connection.answer(ids[1], deadline)["kind"]
    assert 3 == len(connection.answer(ids[0], deadline))
    assert "hunt_pick" == snapshot["pending"]["kind"]
    connection.close()


def test_a_jsonrpc_only_engine_plays_random_games() -> None:
    results = _run(f"cmd:{JSONRPC_ONLY}", ["setup", "random-play"], CheckOptions(games=1, players=(2,)))
    assert results, "no check ran"
    assert {Outcome.PASS} == {r.outcome for r in results}, [r.message for r in results if not r.outcome.ok]


# ---------------------------------------------------------------------- an engine built on a JSON-RPC library (Node)

@pytest.mark.parametrize("name", ["stdio.mjs", "engine.mjs"])
def test_docs_wire_shows_the_jsonrpc_adapter_as_it_is(name: str) -> None:
    shown = (ROOT / "docs" / "wire.md").read_text(encoding="utf-8")
    source = (EXAMPLE / name).read_text(encoding="utf-8")
    assert f"`adapters/node/jsonrpc-example/{name}`:\n\n```js\n{source}```" in shown


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        _missing("node is not installed (CI has Node.js 20)")
    if not (EXAMPLE / "node_modules" / "json-rpc-2.0").is_dir():
        _missing(f"the example's JSON-RPC library is not installed; install it with: npm ci --prefix {EXAMPLE}")
    assert node is not None
    return node


def _missing(message: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the JSON-RPC library engine: {message}")
    pytest.skip(message)


def test_the_jsonrpc_library_example_passes_the_setup_suite() -> None:
    results = _run(f"cmd+jsonrpc:{_node()} {EXAMPLE / 'engine.mjs'}", ["setup"])
    assert 9 == len(results)
    assert {Outcome.PASS} == {r.outcome for r in results}, [r.message for r in results if not r.outcome.ok]


def test_the_node_kit_answers_in_jsonrpc_when_spoken_to_in_it() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (CI has Node.js 20)")
    kit_example = ROOT / "oracle" / "kits" / "node" / "example.cjs"
    results = _run(f"cmd+jsonrpc:{node} {kit_example}", ["setup", "random-play"], CheckOptions(games=1, players=(2,)))
    outcomes = {(r.suite, r.outcome) for r in results}
    assert {("setup", Outcome.PASS), ("random-play", Outcome.UNSUPPORTED)} == outcomes, \
        [r.message for r in results if not r.outcome.ok]


@pytest.mark.skipif(not ALL, reason="the default check over the wire (about 20 s of CPU): set VALE_ORACLE_WIRE_ALL=1")
@pytest.mark.parametrize("impl", ["1.1 engine", "JSON-RPC library engine"])
def test_the_default_check_passes(impl: str) -> None:
    spec = {"1.1 engine": f"cmd:{SERVE}",
            "JSON-RPC library engine": f"cmd:{_node()} {EXAMPLE / 'reference-bridge.mjs'} {SERVE}"}[impl]
    code, out, report = checked("--impl", spec)
    assert 0 == code, out
    outcomes = {result["outcome"] for result in report["results"]}
    assert {"pass", "not-applicable"} == outcomes, out
