"""The reshuffle check of the ``random-play`` suite, for an engine that reshuffles by itself (capabilities
``internal_shuffle``, ``internal_reshuffle``; DECK-1).

It plays games of random legal play with the reference following each one (re-synchronised from the engine's
snapshot whenever they part, since other checks report other differences): every reshuffle must hold exactly the
discard pile, and over all the reshuffles of the run no card may keep to the top or the bottom of the new draw pile
(:mod:`oracle.core.fair_shuffle`). The position test needs every reshuffle of the run in one place, and each unit
runs in a worker process of its own, so this check is one unit playing its games itself: ``--games`` per player
count and mode, like the random-play games, with seeds of its own.
"""

from __future__ import annotations

import dataclasses
import random
import shlex
import time
from dataclasses import dataclass

from oracle.core.cards import catalogue
from oracle.core.causes import CAUSE_KEY, CauseFacts, Verdict
from oracle.core.fair_shuffle import (
    FALSE_ALARM,
    TESTS,
    THRESHOLD,
    CardPosition,
    Position,
    PositionVerdict,
    ReshuffleSeen,
    position_test,
)
from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.protocol import DecisionKind
from oracle.core.results import CheckResult, Outcome
from oracle.core.undrivable import undrivable_reason
from oracle.engines.play import MAX_STEPS, GameStuck, choose_action
from oracle.reference import ReferenceEngine
from oracle.suites.game_plans import GamePlan, game_plans
from oracle.suites.registry import PlanContext, PlannedCheck, RunContext, Unit, fault_result
from vale_invariants.lockstep import first_state_difference
from vale_invariants.reshuffles import DeckFault, adopt_reshuffles

SUITE = "random-play"
CHECK_ID = f"{SUITE}/reshuffles"
SEED_OFFSET = 200
"""The games' seeds follow the run's seed from here (the random-play games start at 0, the round trips at 100)."""
POSITIONS_FIELD = "draw_pile positions"


@dataclass(frozen=True)
class ReshuffleGames:
    """The games the reshuffle check plays, one after the other in its unit."""

    games: tuple[GamePlan, ...]


@dataclass(frozen=True)
class _Wrong:
    """A reshuffle that did not hold exactly the discard pile, and where: the game and its decision."""

    game: GamePlan
    step: int
    fault: DeckFault


def plan_reshuffles(context: PlanContext) -> list[Unit[ReshuffleGames]]:
    """The reshuffle check's unit, for an engine that reshuffles by itself (none for any other: the oracle chooses
    every order the others use)."""
    handshake, options = context.handshake, context.options
    games = tuple(g for g in game_plans(handshake, options, options.games, SEED_OFFSET)
                  if g.players in handshake.players)
    if not handshake.reshuffles_inside or not games:
        return []
    check = PlannedCheck(CHECK_ID, f"the engine's own reshuffles in {len(games)} games of random play: each holds "
                                   "exactly the discard pile, and no card keeps to the top or the bottom", ("DECK-1",))
    reason = "" if handshake.can("export") else "the engine does not declare 'export': its reshuffles cannot be seen"
    reproduce = (f"oracle check --impl {shlex.quote(context.impl)} --select {CHECK_ID} --games {options.games} "
                 f"--seed {options.seed}")
    return [Unit(SUITE, "reshuffles", (check,), payload=ReshuffleGames(games), unsupported=reason,
                 deadline=options.unit_timeout * len(games), silence=options.unit_timeout, reproduce=reproduce)]


def run_reshuffles(unit: Unit[ReshuffleGames], context: RunContext) -> list[CheckResult]:
    """DECK-1: every reshuffle of every game holds exactly the discard pile, then the position test over them all."""
    started = time.perf_counter()
    check = unit.checks[0]
    seen: list[ReshuffleSeen] = []
    try:
        for done, game in enumerate(unit.payload.games, start=1):
            wrong = _follow(game, context, seen)
            if wrong is not None:
                return [_wrong_reshuffle(unit, wrong, len(seen), time.perf_counter() - started)]
            context.heartbeat(done)
    except EngineFault as fault:
        return [fault_result(SUITE, check.id, check.title, fault, reproduce=unit.reproduce,
                             duration=time.perf_counter() - started, details={"reshuffles": len(seen)})]
    verdict = position_test(seen)
    details = _details(verdict, len(unit.payload.games))
    duration = time.perf_counter() - started
    if not seen:
        return [CheckResult(SUITE, check.id, check.title, Outcome.INCOMPLETE, rules=check.rules, duration=duration,
                            message=f"saw no reshuffle in {len(unit.payload.games)} games: nothing was checked "
                                    "(four-player games reach one; more games reach more)",
                            reproduce=unit.reproduce, details=details)]
    if verdict.closest is not None and verdict.alarm:
        return [_pinned(unit, verdict.closest, len(seen), duration, details)]
    closest = f"; the closest: {verdict.closest.sentence()}" if verdict.closest is not None else ""
    return [CheckResult(SUITE, check.id, check.title, Outcome.PASS, rules=check.rules, duration=duration,
                        message=f"{_seen(len(seen))}: each held exactly the discard pile, and no card kept "
                                f"to the top or the bottom{closest}", details=details)]


def _follow(game: GamePlan, context: RunContext, seen: list[ReshuffleSeen]) -> _Wrong | None:
    """Play one game with the reference following it; every reshuffle it sees is added to ``seen``. The game ends
    quietly where random play would report something else (a refused action, no end, an undrivable decision)."""
    subject = context.eut.fresh()
    subject.new_game(game.setup())
    reference = ReferenceEngine(dict(subject.handshake.variants))
    if not _synchronised(reference, subject.export()):
        return None
    rng = random.Random(f"play-{game.seed}")
    for step in range(1, MAX_STEPS + 1):
        pending = subject.decision()
        if pending is None or undrivable_reason(pending):
            return None
        try:
            action = choose_action(subject, pending, rng)
        except GameStuck:
            return None
        if not subject.apply(action)["accepted"]:
            return None
        after = subject.export()
        if not reference.apply(action).get("accepted"):
            if not _synchronised(reference, after):
                return None
            continue
        adopted = adopt_reshuffles(reference, after)
        seen.extend(adopted.seen)
        if adopted.fault is not None:
            return _Wrong(game, step, adopted.fault)
        if first_state_difference(reference.export(), after) is not None and not _synchronised(reference, after):
            return None
    return None


def _synchronised(reference: ReferenceEngine, snapshot: JSON) -> bool:
    """Load the engine's snapshot into the reference (False when the reference refuses it: the game is left)."""
    try:
        reference.load(snapshot)
    except Exception:  # any refusal of the engine's snapshot: other checks report it
        return False
    return True


def _seen(reshuffles: int) -> str:
    """``1 reshuffle seen``, ``31 reshuffles seen``."""
    return f"{reshuffles} reshuffle{'' if reshuffles == 1 else 's'} seen"


def _details(verdict: PositionVerdict, games: int) -> JSON:
    details: JSON = {"reshuffles": verdict.reshuffles, "games": games, "tests": TESTS, "threshold": THRESHOLD,
                     "false_alarm_per_run": FALSE_ALARM}
    closest = verdict.closest
    if closest is not None:
        details["closest"] = {"card": closest.card, "position": closest.position.value, "hits": closest.hits,
                              "trials": closest.trials, "expected": round(closest.expected, 3),
                              "p_value": closest.p_value}
    return details


def _wrong_reshuffle(unit: Unit[ReshuffleGames], wrong: _Wrong, reshuffles: int, duration: float) -> CheckResult:
    check = unit.checks[0]
    fault = wrong.fault
    facts = dataclasses.replace(fault.facts(), step=wrong.step)
    return CheckResult(SUITE, check.id, check.title, Outcome.FAIL, rules=("DECK-1",), cards=fault.cards,
                       step=wrong.step, expected=f"the reference {fault.reference_does}",
                       actual=f"the engine: {fault.engine_does}",
                       message=f"game {wrong.game.label}, decision {wrong.step}: the engine's own reshuffle did not "
                               f"hold exactly the discard pile ({_seen(reshuffles)})",
                       reproduce=unit.reproduce, duration=duration,
                       details={CAUSE_KEY: facts.to_json(), "game": wrong.game.label, "reshuffles": reshuffles})


def _pinned(unit: Unit[ReshuffleGames], found: CardPosition, reshuffles: int, duration: float,
            details: JSON) -> CheckResult:
    """DECK-1: one card keeps to the top or the bottom of the engine's reshuffles beyond what chance allows."""
    check = unit.checks[0]
    name = f"{catalogue()[found.card].name} ({found.card})"
    where = "on top" if found.position is Position.TOP else "at the bottom"
    facts = CauseFacts(Verdict.DIFFERS, DecisionKind.SHUFFLE.value, field=POSITIONS_FIELD, rule="DECK-1",
                       cards=(found.card,),
                       reference_does=f"shuffles fairly: {name} would be {where} about {found.expected:.1f} times "
                                      f"in {found.trials} reshuffles",
                       engine_does=f"puts {name} {where} in {found.hits} of {found.trials} reshuffles")
    return CheckResult(SUITE, check.id, check.title, Outcome.FAIL, rules=("DECK-1",), cards=(found.card,),
                       expected=f"{name} {where} about {found.expected:.1f} times in {found.trials} reshuffles "
                                f"(a fair shuffle)",
                       actual=f"{found.hits} times (p = {found.p_value:.2g})",
                       message=f"{_seen(reshuffles)}: {found.sentence()}; a fair shuffle does that with "
                               f"p <= {THRESHOLD:.2g} ({TESTS} cards and positions tested, at most {FALSE_ALARM:g} "
                               "false alarm per run)",
                       reproduce=unit.reproduce, duration=duration, details={**details, CAUSE_KEY: facts.to_json()})
