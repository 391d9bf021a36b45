"""Fire family cards (base game): each test pins what is easy to get wrong about one card."""

from __future__ import annotations

from tests.helpers import act, cid, decision, engine_at, score, stones, summon


def test_imp_gains_two_red_stones_and_recovers_itself() -> None:
    engine = engine_at(players=[{"hand": [cid("Imp")]}])
    summon(engine, 0, "Imp")
    assert stones(engine, 0) == {"red": 2, "blue": 0, "purple": 0}
    act(engine, {"type": "end_turn", "player": 0})
    act(engine, {"type": "end_turn", "player": 1})
    assert {"kind": "next_active", "player": 0, "prompt": "choose the next Active effect to resolve"}.items() <= (
        decision(engine).items()
    )
    act(engine, {"type": "resolve_active", "player": 0, "card": cid("Imp")})
    assert [cid("Imp")] == engine.export()["players"][0]["hand"]


def test_ifrit_counts_itself() -> None:
    engine = engine_at(round=3, players=[{"hand": [cid("Ifrit")], "area": [cid("Hestia")], "stones": {"red": 2}}])
    summon(engine, 0, "Ifrit", red=2)
    assert score(engine, 0) == 2


def test_phoenix_does_not_react_to_its_own_summon() -> None:
    engine = engine_at(round=3, players=[{"hand": [cid("Phoenix"), cid("Salamander")], "stones": {"red": 4}}])
    summon(engine, 0, "Phoenix", red=3)
    assert score(engine, 0) == 0
    summon(engine, 0, "Salamander", red=1)
    assert score(engine, 0) == 1
