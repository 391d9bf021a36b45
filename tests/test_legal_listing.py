"""The reference's listing of legal actions stays exact while it got fast (issue 25, item 4).

* On positions of seeded random games (every player count and game mode) and on every position of the bundled
  scenarios, the listing is exactly the candidates (:func:`oracle.engines.candidates.candidate_actions`, every
  payment from the stones held) that the engine's own verdict accepts: :func:`oracle.reference.actions.check`,
  the judgement ``apply`` makes before it changes anything.
* The SUM-4 tests that used to build the whole list of cards a free summon could take (Young Forest Spirit,
  Dragon Egg, Horus, Scorch, Akhlut) and now stop at the first card, give the same legal sets as the old ones,
  which are kept here as they were written.
* The 96-card hand of ``CARD-Nurikabe-draws-nothing-and-puts-nothing-back`` is listed with few copies of the table
  (the old SUM-4 tests made 150,091 there and took 4 s).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator

import pytest

from oracle.core.json_types import JSON
from oracle.core.model import Family, Stones
from oracle.engines.candidates import candidate_actions
from oracle.engines.play import choose_action, new_setup
from oracle.reference import ReferenceEngine, actions
from oracle.reference.effects.context import area_as_if_summoned, hand_as_if_summoned
from oracle.reference.effects.registry import INSTANT, instant_can_resolve
from oracle.reference.effects.steps import any_card, free_summon_candidates
from oracle.reference.table import Table
from oracle.scenarios.given import complete_snapshot
from oracle.scenarios.loader import default_dir, load_dir, load_file

MODES = ((False, False), (True, False), (True, True))
"""(expansion, artifacts) of each game mode."""

NURIKABE = default_dir() / "expansion/cards/wind/CARD-Nurikabe-draws-nothing-and-puts-nothing-back.toml"


def _key(action: JSON) -> str:
    return json.dumps(action, sort_keys=True)


def _game_positions(games_per_mode: int) -> Iterator[ReferenceEngine]:
    """The engine at every decision of seeded random games, 2 to 4 players in every game mode."""
    for players in (2, 3, 4):
        for expansion, artifacts in MODES:
            for seed in range(1, games_per_mode + 1):
                engine = ReferenceEngine()
                engine.new_game(new_setup(players, seed, expansion=expansion, artifacts=artifacts))
                rng = random.Random(f"play-{seed}")
                while (pending := engine.decision()) is not None:
                    yield engine
                    engine.apply(choose_action(engine, pending, rng))


def _scenario_positions(skip: Callable[[str], bool] = lambda scenario_id: False) -> Iterator[ReferenceEngine]:
    """The engine at the start of every bundled scenario and after each of its actions."""
    for scenario in load_dir(default_dir()).scenarios:
        if skip(scenario.id):
            continue
        engine = ReferenceEngine()
        if scenario.new_game is not None:
            engine.new_game(scenario.new_game)
        else:
            engine.load(complete_snapshot(scenario.given))
        yield engine
        for step in scenario.steps:
            if step.do is not None and engine.decision() is not None:
                engine.apply(step.do)
                yield engine


def _accepted_candidates(engine: ReferenceEngine) -> list[str]:
    pending = engine.decision()
    assert pending is not None
    table = engine.table
    assert table is not None
    return sorted(_key(a) for a in candidate_actions(pending, engine.export())
                  if actions.check(table, engine.spec, a) is None)


def _listing_is_the_accepted_candidates(positions: Iterator[ReferenceEngine]) -> tuple[int, list[str]]:
    """How many positions were compared, and the first few where the listing differs."""
    compared, differing = 0, list[str]()
    for engine in positions:
        pending = engine.decision()
        if pending is None or pending["kind"] == "shuffle":
            continue
        compared += 1
        listed = sorted(_key(a) for a in engine.legal_actions())
        if listed != _accepted_candidates(engine) and len(differing) < 3:
            differing.append(json.dumps(engine.export())[:300])
    return compared, differing


def test_the_listing_is_every_candidate_the_engine_accepts_in_seeded_games() -> None:
    compared, differing = _listing_is_the_accepted_candidates(_game_positions(games_per_mode=1))
    assert [] == differing
    assert compared > 1500


def test_the_listing_is_every_candidate_the_engine_accepts_in_the_bundled_scenarios() -> None:
    compared, differing = _listing_is_the_accepted_candidates(_scenario_positions())
    assert [] == differing
    assert compared > 1000


# ---------------------------------------------------------------------- the SUM-4 tests as they were written


def _old_young_forest_spirit(table: Table, owner: int, acting: str) -> bool:
    placed = table.what_if()
    if acting in placed.hand(owner):
        placed.place_summoned(owner, acting, Stones(), free=True)
    out = []
    for card_id in hand_as_if_summoned(placed, owner, acting):
        after = placed.what_if()
        after.discard_from_hand(owner, card_id, "what-if")
        if after.area_free(owner) and free_summon_candidates(after, owner, acting, any_card):
            out.append(card_id)
    return bool(out)


def _old_dragon_egg(table: Table, owner: int, acting: str) -> bool:
    after = table.what_if()
    if acting in after.hand(owner):
        after.place_summoned(owner, acting, Stones(), free=True)
    after.discard_from_area(owner, acting, "what-if")
    return bool(free_summon_candidates(after, owner, acting, lambda card: card.family is Family.DRAGON))


def _old_horus(table: Table, owner: int, acting: str) -> bool:
    placed = table.what_if()
    if acting in placed.hand(owner):
        placed.place_summoned(owner, acting, Stones(), free=True)
    return placed.area_free(owner) and bool(free_summon_candidates(placed, owner, acting, any_card))


def _old_scorch(table: Table, owner: int, acting: str) -> bool:
    return bool([
        c.id for c in area_as_if_summoned(table, owner, acting)
        if c.id != acting and c.id in INSTANT and instant_can_resolve(table, owner, c.id, acting=acting)
    ])


def _old_akhlut(table: Table, owner: int, acting: str) -> bool:
    placed = table.what_if()
    if acting in placed.hand(owner):
        placed.place_summoned(owner, acting, Stones(), free=True)
    if not placed.area_free(owner):
        return False
    dragons = [c for c in placed.state.discard_pile if placed.card(c).family is Family.DRAGON]
    return bool([c for c in dragons if _old_summonable_from_discard_pile(placed, owner, c)])


def _old_summonable_from_discard_pile(table: Table, owner: int, dragon: str) -> bool:
    taken = table.what_if()
    taken.take_from_discard_pile(owner, dragon, "what-if")
    return instant_can_resolve(taken, owner, dragon)


OLD_SUM_4 = {
    "base-earth-01": _old_young_forest_spirit,
    "base-dragon-01": _old_dragon_egg,
    "art-wind-04": _old_horus,
    "base-dragon-08": _old_scorch,
    "art-water-06": _old_akhlut,
}
"""The five SUM-4 tests as they were before they stopped at the first card (commit 6a9b12c), by card id."""


def _legal_sets_before_and_after(positions: Iterator[ReferenceEngine], monkeypatch: pytest.MonkeyPatch
                                 ) -> tuple[int, list[str]]:
    """How many positions had one of the five cards in the deciding player's hand or area, and the positions
    where the old SUM-4 tests give another legal set (the first few)."""
    old = {card: dataclasses.replace(INSTANT[card], can_resolve=test) for card, test in OLD_SUM_4.items()}
    new = {card: INSTANT[card] for card in OLD_SUM_4}
    concerned, differing = 0, list[str]()
    for engine in positions:
        pending = engine.decision()
        if pending is None or pending["player"] is None:
            continue
        seat = engine.state.players[pending["player"]]
        concerned += not set(OLD_SUM_4).isdisjoint([*seat.hand, *seat.area])
        listed = sorted(_key(a) for a in engine.legal_actions())
        for card, effect in old.items():
            monkeypatch.setitem(INSTANT, card, effect)
        before = sorted(_key(a) for a in engine.legal_actions())
        for card, effect in new.items():
            monkeypatch.setitem(INSTANT, card, effect)
        if before != listed and len(differing) < 3:
            differing.append(json.dumps(engine.export())[:300])
    return concerned, differing


def test_sum_4_tests_stopping_at_the_first_card_give_the_old_legal_sets_in_the_bundled_scenarios(
        monkeypatch: pytest.MonkeyPatch) -> None:
    big_hand = NURIKABE.stem
    concerned, differing = _legal_sets_before_and_after(
        _scenario_positions(skip=lambda scenario_id: scenario_id == big_hand), monkeypatch)
    assert [] == differing
    assert concerned > 80


def test_sum_4_tests_stopping_at_the_first_card_give_the_old_legal_sets_in_seeded_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    concerned, differing = _legal_sets_before_and_after(_game_positions(games_per_mode=1), monkeypatch)
    assert [] == differing
    assert concerned > 100


def test_the_96_card_hand_of_the_nurikabe_scenario_is_listed_with_fewer_table_copies_than_cards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = load_file(NURIKABE)
    engine = ReferenceEngine()
    engine.load(complete_snapshot(scenario.given))
    assert scenario.steps[0].do is not None
    engine.apply(scenario.steps[0].do)
    copies = []
    what_if = Table.what_if

    def counted(table: Table) -> Table:
        copies.append(table)
        return what_if(table)

    monkeypatch.setattr(Table, "what_if", counted)
    listed = engine.legal_actions()
    hand = engine.state.players[1].hand
    assert (96, 6) == (len(hand), len(listed))
    assert len(copies) < len(hand)
