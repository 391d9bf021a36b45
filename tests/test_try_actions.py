"""``try_actions`` (issue 25): the batch verdict, in process and on the wire, guarded by the harness, contradicted by
``apply`` as a PROTO-2 fault, answered for free by the Node kit, and used to probe an engine's legal actions."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from oracle.core.causes import CAUSE_KEY, CauseFacts, Verdict
from oracle.core.faults import EngineFault, TriedThenContradicted
from oracle.core.json_types import JSON
from oracle.engines.adapter_like import AdapterLike, AdapterLikeEngine
from oracle.engines.harness import Subject
from oracle.engines.play import new_setup
from oracle.engines.wire.channel import Deadline
from oracle.engines.wire.connection import Connection
from oracle.engines.wire.impl import wire_factory
from oracle.engines.wire.settings import current_settings
from oracle.reference import ReferenceEngine
from tests.helpers import CALL_SECONDS

ROOT = Path(__file__).resolve().parents[1]


def _started(engine: Any) -> Subject:
    subject = Subject(lambda: engine, "test", timeout=CALL_SECONDS)
    subject.new_game(new_setup(3, 4))
    return subject


def _illegal(action: JSON) -> JSON:
    return {**action, "player": (action["player"] + 1) % 3}


# ---------------------------------------------------------------------- the reference's verdicts


def test_the_reference_judges_each_action_as_apply_does_and_changes_nothing() -> None:
    engine = ReferenceEngine()
    engine.new_game(new_setup(3, 4))
    legal = engine.legal_actions()
    asked = [legal[0], _illegal(legal[0]), {"type": "summon", "player": 0, "card": "nope", "payment": {}}]
    before = engine.export()
    verdicts = engine.try_actions(asked)
    assert before == engine.export()
    applied = []
    for action in asked:
        twin = ReferenceEngine()
        twin.load(before)
        result = twin.apply(action)
        applied.append({k: v for k, v in result.items() if k in ("accepted", "rejection")})
    assert applied == verdicts
    assert [True, False, False] == [v["accepted"] for v in verdicts]


# ---------------------------------------------------------------------- the harness


class _Lenient(ReferenceEngine):
    """Judges every action accepted in ``try_actions`` (its ``apply`` is the reference's)."""

    def try_actions(self, candidates: list[JSON]) -> list[JSON]:
        return [{"accepted": True} for _ in candidates]


class _Junk(ReferenceEngine):
    def try_actions(self, candidates: list[JSON]) -> list[JSON]:
        return [{"accepted": "yes"}]


class _Raises(ReferenceEngine):
    def try_actions(self, candidates: list[JSON]) -> list[JSON]:
        raise RuntimeError("boom")


def test_an_apply_that_contradicts_the_verdict_tried_is_one_proto_2_fault() -> None:
    subject = _started(_Lenient())
    action = _illegal(subject.legal_actions()[0])
    assert [{"accepted": True}] == subject.try_actions([action])
    with pytest.raises(TriedThenContradicted) as raised:
        subject.apply(action)
    facts = CauseFacts.from_json(raised.value.details[CAUSE_KEY])
    assert facts is not None
    assert ("PROTO-2", Verdict.CONTRADICTS, "contradicts/try_actions/PROTO-2") == (
        raised.value.rule, facts.verdict, facts.signature)


def test_verdicts_are_forgotten_once_an_action_is_accepted() -> None:
    subject = _started(_Lenient())
    legal = subject.legal_actions()
    subject.try_actions([_illegal(legal[0])])
    assert subject.apply(legal[0])["accepted"]
    assert {} == subject.tried


def test_the_reference_s_verdicts_agree_with_its_apply() -> None:
    subject = _started(ReferenceEngine())
    legal = subject.legal_actions()
    subject.try_actions([legal[0], _illegal(legal[0])])
    assert not subject.apply(_illegal(legal[0]))["accepted"]
    assert subject.apply(legal[0])["accepted"]


@pytest.mark.parametrize(("engine", "kind"), [(_Junk, "bad-output"), (_Raises, "error")])
def test_a_faulty_try_actions_is_a_fault_of_that_call(engine: type[ReferenceEngine], kind: str) -> None:
    subject = _started(engine())
    with pytest.raises(EngineFault) as raised:
        subject.try_actions(subject.legal_actions()[:2])
    assert (kind, "try_actions") == (raised.value.kind, raised.value.method)


class _Counting(ReferenceEngine):
    """Declares no ``legal_actions``; counts its ``try_actions`` calls."""

    calls = 0

    def handshake(self) -> JSON:
        shake = super().handshake()
        shake["capabilities"] = [c for c in shake["capabilities"] if c != "legal_actions"]
        return shake

    def try_actions(self, candidates: list[JSON]) -> list[JSON]:
        _Counting.calls += 1
        return super().try_actions(candidates)


def test_probing_an_engine_without_legal_actions_takes_one_try_actions_batch() -> None:
    subject = _started(_Counting())
    reference = ReferenceEngine()
    reference.new_game(new_setup(3, 4))
    _Counting.calls = 0
    assert sorted(map(str, reference.legal_actions())) == sorted(map(str, subject.legal_actions()))
    assert 1 == _Counting.calls


# ---------------------------------------------------------------------- on the wire


def test_a_served_engine_judges_over_the_wire_and_keeps_what_it_looked_ahead() -> None:
    engine = wire_factory(f"cmd:{sys.executable} -P -m oracle.cli.app serve --impl oracle.reference")()
    engine.new_game(new_setup(2, 1))
    assert "try_actions" in engine.handshake()["capabilities"]
    engine.apply(engine.legal_actions()[0])
    pending, legal = engine.decision(), engine.legal_actions()
    verdicts = engine.try_actions([legal[0], {**legal[0], "player": 5}])
    assert [True, False] == [v["accepted"] for v in verdicts]
    assert (pending, legal) == (engine.decision(), engine.legal_actions())


def test_no_try_actions_leaves_the_capability_out_and_answers_it_unsupported() -> None:
    engine = AdapterLikeEngine(ReferenceEngine(), AdapterLike(no_try=True))
    assert ["load", "export", "legal_actions", "events"] == engine.handshake()["capabilities"]
    with pytest.raises(NotImplementedError):
        engine.try_actions([])


def test_the_node_kit_answers_try_actions_with_clone_and_restore() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (CI has Node.js 20)")
    connection = Connection([node, str(ROOT / "tests" / "data" / "node" / "counting_engine.mjs")], current_settings())
    try:
        assert "try_actions" in connection.handshake["capabilities"]
        connection.call("new_game", {"setup": {}}, Deadline.after(CALL_SECONDS))
        end, other = {"type": "end_turn", "player": 0}, {"type": "end_turn", "player": 1}
        verdicts = connection.call("try_actions", {"actions": [end, other, end]}, Deadline.after(CALL_SECONDS))
        assert [True, False, True] == [v["accepted"] for v in verdicts]
        assert "NOT_YOUR_DECISION" == verdicts[1]["rejection"]["code"]
        assert {"turns": 0, "players": []} == connection.call("export", {}, Deadline.after(CALL_SECONDS))
    finally:
        connection.close()
