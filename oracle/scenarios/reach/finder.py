"""The preamble finder: a stacked deck and a search on the reference for actions that reach a scenario's
``[given]`` position (issue 39; ``oracle scenarios reach``).

The plan is the same for every scenario. The deck deals, round after round, the cards each stated player must
hold (hand and area, area cards first) two per round, beside filler cards; rounds before the target round are
played by a fixed policy (pick the needed cards, tame them, sell the rest, summon the area's cards as soon as the
round allows, answer every other decision with the first legal action); the target round is searched with a beam
over every action of the stated players, ranked by the distance to the stated fields. A few filler orders are
tried in turn. Everything is deterministic; the search gives up after its time limit with the reason of the
closest position it saw.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from oracle.core.cards import catalogue
from oracle.core.json_types import JSON
from oracle.reference.engine import ReferenceEngine
from oracle.scenarios.given import complete_snapshot
from oracle.scenarios.match import show
from oracle.scenarios.model import Scenario
from oracle.scenarios.reach.preamble import Preamble
from oracle.scenarios.reach.target import given_decision, stated_fields, unsatisfied

PHASES = ("hunting", "action", "resolution")
COLOURS = ("red", "blue", "purple")
FILLER_ORDERS = (
    ("earth", "fire", "wind", "water", "dragon"),
    ("wind", "water", "dragon", "fire", "earth"),
    ("dragon", "water", "wind", "earth", "fire"),
    ("water", "dragon", "fire", "wind", "earth"),
    ("fire", "wind", "earth", "dragon", "water"),
)
"""The families filler cards are dealt from, most wanted first; one search per order, in this order."""
SEARCHED_ROUNDS = 1
"""The last rounds searched by the beam (the rounds before them are played by the policy)."""
EVERYONE_BRANCHES = ("hunt_pick", "artifact_pick")
"""Decisions the beam branches on whoever answers them: another player's pick decides what the stated player may
take (HUNT-2/3, ART-3)."""
BEAM_WIDTH = 16
MAX_DEPTH = 120
ROUND_WEIGHT = 40
MAX_BRANCH = 40
DEFAULT_TIME_LIMIT = 20.0
"""Seconds of wall clock per scenario: a safety net only; the search is bounded by ``NODE_BUDGET`` so that its
answer does not depend on the machine's load."""
NODE_BUDGET = 400
"""Positions the beam may expand per scenario and filler order."""


class _Budget:
    """Positions left to expand, and the wall-clock safety net."""

    def __init__(self, nodes: int, seconds: float) -> None:
        self.nodes = nodes
        self.deadline = time.perf_counter() + seconds

    def spend(self) -> bool:
        """One more position expanded; False once the budget is spent."""
        self.nodes -= 1
        return self.nodes >= 0 and time.perf_counter() < self.deadline

    @property
    def spent(self) -> bool:
        return self.nodes < 0 or time.perf_counter() >= self.deadline


@dataclass(frozen=True)
class Found:
    """The finder's answer for one scenario: a preamble, or the reason it gave up."""

    preamble: Preamble | None
    reason: str = ""


@dataclass(frozen=True)
class _Goal:
    wanted: JSON
    decision: JSON | None
    round: int
    phase: int
    turn_rank: int
    needs: tuple[tuple[str, ...], ...]
    area_needs: tuple[tuple[str, ...], ...]
    branching: frozenset[int]


def _cards_of(player: JSON) -> list[str]:
    return list(player.get("area", [])) + list(player.get("hand", []))


def _turn_rank(turn: object, first: int, players: int) -> int:
    return (int(turn) - first) % players if isinstance(turn, int) else 0


def _goal(scenario: Scenario) -> _Goal:
    given = scenario.given
    full = complete_snapshot(given)
    n = full["setup"]["players"]
    stated = given.get("players", [])
    needs = tuple(tuple(_cards_of(stated[i])) if i < len(stated) else () for i in range(n))
    area_needs = tuple(tuple(stated[i].get("area", [])) if i < len(stated) else () for i in range(n))
    branching = {i for i, p in enumerate(stated) if p}
    if isinstance(full.get("turn_player"), int):
        branching.add(full["turn_player"])
    return _Goal(
        stated_fields(given), given_decision(given), full["round"], PHASES.index(full["phase"]),
        _turn_rank(full.get("turn_player"), full["first_player"], n), needs, area_needs, frozenset(branching or {0}),
    )


def _why_not(scenario: Scenario, goal: _Goal) -> str:
    """A reason the plan cannot work, found before playing ('' when it may)."""
    given = scenario.given
    for i, player in enumerate(given.get("players", [])):
        if player.get("shelter"):
            return f"player {i} needs cards in a shelter (the finder deals no shelter)"
        picks = 2 * (goal.round if goal.phase > 0 else goal.round - 1)
        if len(_cards_of(player)) > picks:
            return (f"player {i} needs {len(_cards_of(player))} cards in hand and area by round {goal.round} "
                    f"({picks} picks)")
        if len(player.get("area", [])) > goal.round + int(player.get("extra_areas", 0)):
            return f"player {i} needs {len(player['area'])} summoned cards in round {goal.round}"
    for i, player in enumerate(given.get("players", [])):
        start = _starting_score(scenario, i)
        if "score" in player and player["score"] < start and not player.get("area"):
            return f"player {i} has {player['score']} points; the game starts them with {start}"
    return ""


def _starting_score(scenario: Scenario, seat: int) -> int:
    full = complete_snapshot(scenario.given)
    n = full["setup"]["players"]
    first = (full["first_player"] - (full["round"] - 1)) % n
    return int((seat - first) % n + 1)


def _deck(scenario: Scenario, goal: _Goal, order: tuple[str, ...], sold: tuple[str, ...] = ()) -> list[str]:
    """The deck's top: each round's reveal (the needed cards two per player and round, filler after: first of the
    ``sold`` families in the target round), then the stated draw pile's top."""
    given = scenario.given
    full = complete_snapshot(given)
    n = full["setup"]["players"]
    expansion = bool(full["setup"].get("expansion") or full["setup"].get("artifacts"))
    cards = catalogue().in_sets(["base", "artifacts"] if expansion else ["base"])
    reserved: set[str] = set()
    for need in goal.needs:
        reserved |= set(need)
    for key in ("display", "draw_pile", "discard_pile"):
        reserved |= set(given.get(key, []))
    for player in given.get("players", []):
        reserved |= set(player.get("markers", []))
    rank = {family: i for i, family in enumerate(order)}
    filler = [c.id for c in sorted(cards, key=lambda c: (rank.get(c.family.value, 9), c.cost, c.id))
              if c.id not in reserved]
    picked_rounds = goal.round if goal.phase > 0 else goal.round - 1
    top: list[str] = []
    for r in range(1, goal.round + 1):
        reveal: list[str] = []
        if r <= picked_rounds:
            for need in goal.needs:
                reveal += _dealt_in_round(need, r, picked_rounds)
        if r == goal.round:
            for player in given.get("players", []):
                reveal += [c for c in player.get("markers", []) if c not in reveal]
            reveal += [c for c in given.get("display", []) if c not in reveal]
        if r == goal.round:
            for family in sold:
                reveal += _one_per_family(filler, (family,), 2 * n - len(reveal))
        if r >= goal.round - SEARCHED_ROUNDS + 1:
            reveal += _one_per_family(filler, order, 2 * n - len(reveal))
        while len(reveal) < 2 * n and filler:
            reveal.append(filler.pop(0))
        top += reveal
    return top + [c for c in given.get("draw_pile", []) if c not in top]


def _dealt_in_round(need: tuple[str, ...], r: int, rounds: int) -> list[str]:
    """The needed cards dealt in round ``r`` of ``rounds``: spread evenly, earlier rounds first (at most two a round),
    so that each round also deals a card to sell for the summons' costs."""
    counts = [len(need) // rounds + (1 if i < len(need) % rounds else 0) for i in range(rounds)]
    start = sum(counts[: r - 1])
    return list(need[start: start + counts[r - 1]])


def _one_per_family(filler: list[str], order: tuple[str, ...], count: int) -> list[str]:
    """Up to ``count`` filler cards of different families (taken out of ``filler``): the target round's picks
    then offer every kind of stones to sell."""
    taken: list[str] = []
    for family in order:
        card = next((c for c in filler if catalogue().cards[c].family.value == family), None)
        if card is not None and len(taken) < count:
            taken.append(card)
            filler.remove(card)
    return taken


def _setup(scenario: Scenario, goal: _Goal, deck: list[str]) -> JSON:
    full = complete_snapshot(scenario.given)
    setup = dict(full["setup"])
    n = setup["players"]
    return {**setup, "first_player": (full["first_player"] - (goal.round - 1)) % n, "deck": deck}


# ---------------------------------------------------------------------------------------------- the policy


def _policy(engine: ReferenceEngine, goal: _Goal) -> JSON:
    """The fixed answer before the target round: pick and keep the needed cards; sell the rest when the player
    still has cards to summon or a stated hand (tame it otherwise: no stones to carry); summon the area's cards
    when the round allows; end the turn; anything else, the first legal action."""
    pending = engine.decision() or {}
    legal = engine.legal_actions()
    player = pending.get("player")
    seat = player if isinstance(player, int) else -1
    needs = goal.needs[seat] if 0 <= seat < len(goal.needs) else ()
    state = engine.export()
    me = state["players"][seat] if seat >= 0 else {}
    owned = Counter(_cards_of(me))
    missing = [c for c in needs if owned[c] == 0]
    kind = pending.get("kind")
    if kind == "hunt_pick":
        everyone = {c for need in goal.needs for c in need}
        for choice in ([a for a in legal if a.get("card") in missing],
                       [a for a in legal if a.get("card") not in everyone]):
            if choice:
                return choice[0]
    if kind == "action":
        for action in legal:
            if action["type"] == "tame" and action.get("card") in needs:
                return action
        area_left = [c for c in goal.area_needs[seat] if c not in me.get("area", [])] if seat >= 0 else []
        hand_stated = seat < len(goal.wanted.get("players", [])) and "hand" in goal.wanted["players"][seat]
        sells = seat in goal.branching and (bool(area_left) or hand_stated)
        for action in legal:
            if action["type"] == "sell" and action.get("card") not in needs:
                return action if sells else {**action, "type": "tame"}
        for action in legal:
            if action["type"] == "summon" and action.get("card") in area_left:
                return action
        for action in legal:
            if action["type"] == "end_turn":
                return action
    if kind == "keep_stones" and seat in goal.branching:
        return min(legal, key=lambda a: _stone_gap(a.get("stones", {}), goal, seat))
    return legal[0]


def _stone_gap(stones: JSON, goal: _Goal, seat: int) -> int:
    players = goal.wanted.get("players", [])
    wanted = players[seat].get("stones") if seat < len(players) else None
    if not wanted:
        return 0
    return sum(abs(int(stones.get(c, 0)) - int(wanted.get(c, 0))) for c in COLOURS)


# ---------------------------------------------------------------------------------------------- the beam


def _position(state: JSON, goal: _Goal) -> tuple[int, int, int]:
    n = state["setup"]["players"]
    return (state["round"], PHASES.index(state["phase"]) if state["phase"] in PHASES else 3,
            _turn_rank(state.get("turn_player"), state["first_player"], n))


def _distance(state: JSON, goal: _Goal) -> int | None:
    """How far a position is from the goal (None: past it, the goal cannot be reached from here)."""
    here = _position(state, goal)
    there = (goal.round, goal.phase, goal.turn_rank)
    if here > there:
        return None
    gap = (there[0] - here[0]) * ROUND_WEIGHT + (there[1] - here[1]) * 12 + max(0, there[2] - here[2]) * 4
    for i, wanted in enumerate(goal.wanted.get("players", [])):
        have = state["players"][i]
        for key, weight in (("hand", 1), ("area", 2), ("markers", 1)):
            if key in wanted:
                gap += weight * sum((Counter(wanted[key]) - Counter(have[key])).values())
                gap += weight * sum((Counter(have[key]) - Counter(wanted[key])).values())
        if "stones" in wanted:
            gap += sum(abs(wanted["stones"][c] - have["stones"][c]) for c in COLOURS)
        if "score" in wanted:
            gap += abs(wanted["score"] - have["score"])
    return gap


@dataclass(frozen=True)
class _Node:
    distance: int
    snapshot: JSON
    actions: tuple[JSON, ...]


def _children(engine: ReferenceEngine, node: _Node, goal: _Goal) -> Iterable[tuple[JSON, JSON]]:
    engine.load(node.snapshot)
    pending = engine.decision()
    if pending is None:
        return
    player = pending.get("player")
    branches = player in goal.branching or pending.get("kind") in EVERYONE_BRANCHES
    options = engine.legal_actions()[:MAX_BRANCH] if branches else [_policy(engine, goal)]
    for action in options:
        engine.load(node.snapshot)
        if engine.apply(action).get("accepted"):
            yield action, engine.export()


SALES = {"fire": (3, 0, 0), "water": (0, 1, 0), "earth": (4, 0, 0), "wind": (1, 1, 0), "dragon": (0, 0, 1)}
"""SELL-1: the stones a sale gives, by family (red, blue, purple)."""
HOLDING_LIMIT = 4


def _kept(stones: tuple[int, int, int], limit: int) -> set[tuple[int, int, int]]:
    """LIMIT-1/2: the holdings a player may keep from ``stones`` (all of them when within the limit)."""
    if sum(stones) <= limit:
        return {stones}
    return {(r, b, limit - r - b) for r in range(stones[0] + 1) for b in range(stones[1] + 1)
            if 0 <= limit - r - b <= stones[2]}


def _sold_families(before: JSON, wanted: JSON) -> tuple[str, ...]:
    """The two families whose sales take ``before`` closest to ``wanted`` (holding limit kept on the way)."""
    start = tuple(int(before.get(c, 0)) for c in COLOURS)
    goal = tuple(int(wanted.get(c, 0)) for c in COLOURS)

    def after(families: tuple[str, ...]) -> int:
        holdings = {start}
        for family in families:
            gain = SALES[family]
            holdings = {k for h in holdings for k in _kept((h[0] + gain[0], h[1] + gain[1], h[2] + gain[2]),
                                                          HOLDING_LIMIT)}
        return min(sum(abs(a - b) for a, b in zip(h, goal, strict=True)) for h in holdings)

    pairs = [(a, b) for a in SALES for b in SALES]
    return min(pairs, key=after)


def _play_to_target_round(engine: ReferenceEngine, goal: _Goal, budget: _Budget) -> tuple[list[JSON], str]:
    """The policy's actions up to the target round (the rounds the beam searches)."""
    actions: list[JSON] = []
    while engine.decision() is not None and engine.export()["round"] <= goal.round - SEARCHED_ROUNDS:
        action = _policy(engine, goal)
        if not engine.apply(action).get("accepted"):  # pragma: no cover - the policy plays listed actions
            return actions, f"the reference refused the policy's {show(action)}"
        actions.append(action)
        if budget.spent:
            return actions, "out of time before the target round"
    return actions, ""


def _search(scenario: Scenario, goal: _Goal, order: tuple[str, ...], budget: _Budget) -> tuple[Preamble | None, str]:
    setup = _setup(scenario, goal, _deck(scenario, goal, order))
    engine = ReferenceEngine(scenario.variants)
    engine.new_game(Preamble(setup, ()).new_game())
    actions, why = _play_to_target_round(engine, goal, budget)
    if why:
        return None, why
    wanted = (goal.wanted.get("players") or [{}])[0].get("stones")
    if wanted is not None:
        sold = _sold_families(engine.export()["players"][0]["stones"], wanted)
        setup = _setup(scenario, goal, _deck(scenario, goal, order, sold))
        engine.new_game(Preamble(setup, ()).new_game())
        actions, why = _play_to_target_round(engine, goal, budget)
        if why:
            return None, why
    start = engine.export()
    first = _distance(start, goal)
    if first is None:
        return None, f"the game is past round {goal.round} before the search"
    beam = [_Node(first, start, tuple(actions))]
    seen: set[str] = set()
    best = beam[0]
    for _ in range(MAX_DEPTH):
        nxt: list[_Node] = []
        for node in beam:
            if _reached(engine, node, goal):
                return Preamble(setup, node.actions), ""
            if not budget.spend():
                break
            for action, child in _children(engine, node, goal):
                key = json.dumps(child, sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
                distance = _distance(child, goal)
                if distance is not None:
                    nxt.append(_Node(distance, child, (*node.actions, action)))
        if not nxt or budget.spent:
            break
        nxt.sort(key=lambda n: n.distance)
        beam = nxt[:BEAM_WIDTH]
        best = min(best, beam[0], key=lambda n: n.distance)
    for node in beam:
        if _reached(engine, node, goal):
            return Preamble(setup, node.actions), ""
    engine.load(best.snapshot)
    mismatch = unsatisfied(goal.wanted, goal.decision, best.snapshot, engine.decision())
    differs = "" if mismatch is None else f"{mismatch.describe()[0]} (closest: {show(mismatch.actual, 120)})"
    return None, f"closest position differs at {differs}"


def _reached(engine: ReferenceEngine, node: _Node, goal: _Goal) -> bool:
    """The node's position satisfies the goal (the engine is left there)."""
    engine.load(node.snapshot)
    return unsatisfied(goal.wanted, goal.decision, node.snapshot, engine.decision()) is None


def find_preamble(scenario: Scenario, time_limit: float = DEFAULT_TIME_LIMIT,
                  accept: object = None) -> Found:
    """Search a preamble for ``scenario``; ``accept`` (a callable taking the preamble) may refuse a candidate that
    reaches the position but fails the verification, and the search goes on with the next filler order."""
    deadline = time.perf_counter() + time_limit
    try:
        goal = _goal(scenario)
    except Exception as exc:  # the given position cannot even be loaded: stated as the reason
        return Found(None, f"the given position does not load on the reference: {exc}")
    reason = _why_not(scenario, goal)
    if reason:
        return Found(None, reason)
    reasons: list[str] = []
    for order in FILLER_ORDERS:
        budget = _Budget(NODE_BUDGET, deadline - time.perf_counter())
        preamble, why = _search(scenario, goal, order, budget)
        if preamble is not None:
            verdict = accept(preamble) if callable(accept) else ""
            if not verdict:
                return Found(preamble)
            why = str(verdict)
        reasons.append(why)
        if time.perf_counter() >= deadline:
            break
    return Found(None, reasons[0] if reasons else "out of time")
