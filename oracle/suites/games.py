"""The suites that play whole games: ``setup`` (SETUP-1..3), ``random-play`` (END-1) and ``roundtrip`` (PROTO-1).

Each game is one unit. Games are bounded: a legal action the engine then refuses is a failure, and a game that
stalls (not ended after :data:`~oracle.engines.play.MAX_STEPS` decisions, or at a decision with no legal answer)
is a failure of its own cause kind (``stalls``) naming the phase, the decision and who holds it, blamed on no rule.
"""

from __future__ import annotations

import random
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from oracle.core.causes import (
    CAUSE_KEY,
    CauseFacts,
    Verdict,
    accepted_illegal,
    field_pattern,
    rejected_legal,
    stalled,
)
from oracle.core.diff import first_difference, value_at
from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.protocol import snapshot_contract
from oracle.core.results import CheckResult, Outcome
from oracle.core.undrivable import UNDRIVABLE, undrivable_message, undrivable_reason
from oracle.engines.harness import Handshake, Subject
from oracle.engines.legal_share import LegalSampler
from oracle.engines.play import MAX_STEPS, GameStuck, adopt_deck, choose_action, deal_difference, new_setup
from oracle.engines.trial import Disagreement, Listed, first_disagreement, trial_actions
from oracle.reference import ReferenceEngine
from oracle.scenarios.blame import StepKind, Trace, TraceStep, blamed
from oracle.scenarios.from_trace import (
    judged_scenario,
    random_game_scenario,
    reference_rejection,
    roundtrip_scenario,
    scenario_details,
)
from oracle.suites.game_plans import GamePlan, game_plans
from oracle.suites.registry import (
    AnyUnit,
    CheckOptions,
    PlanContext,
    PlannedCheck,
    RunContext,
    SuiteSpec,
    Unit,
    fault_result,
    players_unsupported,
)
from oracle.suites.reshuffles import ReshuffleGames, plan_reshuffles, run_reshuffles


def where_stalled(subject: Subject, pending: JSON | None) -> tuple[str, str]:
    """``round 3, action phase, P1 to answer actions`` (as much as the engine lets us see), and the phase ('' when
    the engine does not export)."""
    parts, phase = [], ""
    if subject.handshake.can("export"):
        try:
            snapshot = subject.export()
            phase = str(snapshot.get("phase"))
            parts.append(f"round {snapshot.get('round')}, {phase} phase")
        except EngineFault:
            pass
    if pending is not None:
        who = "chance" if pending.get("player") is None else f"P{pending.get('player')}"
        parts.append(f"{who} to answer {pending.get('kind')}")
    return ", ".join(parts) or "unknown position", phase


# ---------------------------------------------------------------------------------------------- setup


@dataclass(frozen=True)
class SetupGame:
    """The set-up a ``setup`` unit checks: a game of ``players`` with player ``first`` to start."""

    players: int
    first: int


def _plan_setup(context: PlanContext) -> list[Unit[SetupGame]]:
    handshake, options = context.handshake, context.options
    units = []
    for players in options.players:
        for first in range(players):
            key = f"{players}p/first-{first}"
            check = PlannedCheck(f"setup/{key}", f"set-up of a {players}-player game with player {first} first",
                                 ("SETUP-1", "SETUP-2", "SETUP-3"))
            reason = players_unsupported(handshake, players)
            if not reason and not handshake.can("export"):
                reason = "the engine does not declare 'export'"
            units.append(Unit("setup", key, (check,), payload=SetupGame(players, first), unsupported=reason,
                              deadline=8 * options.timeout + options.scaled(10) + options.start_timeout,
                              reproduce=f"oracle check --impl {shlex.quote(context.impl)} --select setup/{key}"))
    return units


def _run_setup(unit: Unit[SetupGame], context: RunContext) -> list[CheckResult]:
    """SETUP-1..3: after ``new_game`` the engine's snapshot equals the reference's (scores 1..n from the first
    player, empty hands and areas, no stones, round 1, the deck order as given, the first hunting decision)."""
    from oracle.reference import ReferenceEngine

    check = unit.checks[0]
    started = time.perf_counter()
    setup = new_setup(unit.payload.players, context.options.seed + unit.payload.first, first_player=unit.payload.first)
    try:
        subject = context.eut.fresh()
        declared = dict(subject.handshake.variants)
        subject.new_game(setup)
        actual = canonical(subject.export())
    except EngineFault as fault:
        return [fault_result("setup", check.id, check.title, fault, rules=("SETUP-1",))]
    details: JSON = {}
    if subject.handshake.can("internal_shuffle"):
        wrong = deal_difference(list(setup["deck"]), actual)
        if wrong:
            return [_wrong_deal(unit, len(setup["deck"]), wrong, time.perf_counter() - started)]
        setup = adopt_deck(setup, actual)
        details["deck"] = ("adopted from the engine, which shuffles inside (internal_shuffle): it holds exactly the "
                           "cards of the deck, in an order that is not checked")
    reference = ReferenceEngine(declared)
    reference.new_game(setup)
    expected = canonical(reference.export())
    where = first_difference(expected, actual)
    if where is None:
        return [CheckResult("setup", check.id, check.title, Outcome.PASS, rules=check.rules,
                            duration=time.perf_counter() - started, details=details)]
    own = CauseFacts(Verdict.DIFFERS, "new_game", field=field_pattern(where), rule="SETUP-1", step=0)
    facts = blamed(context.eut.fresh, Trace((), setup=setup), own, time.perf_counter() - started) or own
    return [CheckResult(
        "setup", check.id, check.title, Outcome.FAIL, rules=(facts.rule or "SETUP-1",), step=0,
        expected=f"{where} = {value_at(expected, where)!r}", actual=f"{where} = {value_at(actual, where)!r}",
        message="the snapshot right after new_game differs from the reference's",
        reproduce=unit.reproduce, duration=time.perf_counter() - started,
        details={**details, CAUSE_KEY: facts.to_json()})]


def _wrong_deal(unit: Unit[SetupGame], size: int, wrong: str, duration: float) -> CheckResult:
    """SETUP-1: an engine that shuffles the set-up deck by itself dealt other cards than the deck's."""
    check = unit.checks[0]
    dealt = f"the {size} cards of the deck, in an order of the engine's"
    cause = CauseFacts(Verdict.DIFFERS, "new_game", field="draw_pile", rule="SETUP-1",
                       reference_does=f"deals {dealt}", engine_does=f"deals other cards: {wrong}")
    return CheckResult("setup", check.id, check.title, Outcome.FAIL, rules=("SETUP-1",), step=0,
                       expected=dealt, actual=wrong, message="the engine shuffles the set-up deck by itself "
                       "(internal_shuffle) and deals other cards than the deck's", reproduce=unit.reproduce,
                       duration=duration, details={CAUSE_KEY: cause.to_json()})


# ---------------------------------------------------------------------------------------------- random play


def _plan_games(suite: str, title: str, rules: Callable[[Handshake], tuple[str, ...]],
                games: Callable[[CheckOptions], int], seed_offset: int, needs: tuple[str, ...]) \
        -> Callable[[PlanContext], list[Unit[GamePlan]]]:
    def plan(context: PlanContext) -> list[Unit[GamePlan]]:
        handshake, options = context.handshake, context.options
        units = []
        for game in game_plans(handshake, options, games(options), seed_offset):
            check = PlannedCheck(f"{suite}/{game.label}",
                                 f"{title} ({game.mode}), {game.players} players, seed {game.seed}", rules(handshake))
            reason = players_unsupported(handshake, game.players)
            missing = [c for c in needs if not handshake.can(c)]
            if not reason and missing:
                reason = f"the engine does not declare {' and '.join(repr(c) for c in missing)}"
            units.append(Unit(suite, game.label, (check,), payload=game, unsupported=reason,
                              deadline=options.scaled(options.unit_timeout), reproduce=game.reproduce(context.impl)))
        return units

    return plan


class Disagreed(Exception):
    """The engine judged an action otherwise than the reference at a decision sampled out of the full listing."""

    def __init__(self, found: Disagreement) -> None:
        super().__init__(f"the engine judges {found.action} otherwise than the reference")
        self.found = found


class _Game:
    """One unit's seeded game of random legal play, bounded, with the loop both game suites share. The engine lists
    its legal actions at a share of the decisions only (:mod:`oracle.engines.legal_share`); at the others the
    action is chosen among the reference's, which follows the game, and judged with a few probes
    (:mod:`oracle.engines.trial`)."""

    def __init__(self, suite: str, unit: Unit[GamePlan], context: RunContext, compares_legal: bool = True) -> None:
        self.suite, self.unit, self.context = suite, unit, context
        self.compares_legal = compares_legal
        """Whether the game compares the engine's complete legal set at its sampled decisions (random play); a game
        that checks something else (the round trip, PROTO-1) lists only where the reference cannot follow."""
        self.check = unit.checks[0]
        self.started = time.perf_counter()
        self.step = 0
        self.sampler = LegalSampler(context.options.legal_share, unit.payload.seed)
        self.follower: ReferenceEngine | None = None
        """The reference fed the same inputs, whose legal actions stand in for the engine's at a sampled-out
        decision; None when it cannot follow (an engine that shuffles by itself, a step the reference refuses)."""
        self.played: list[JSON] = []
        self.tried_kinds: set[str] = set()
        """The kinds of decision at which a declared ``try_actions`` was asked, where the listing judges them all."""
        self.set_aside = 0
        """Refusals of listed actions blamed on a ``--set-aside`` rule, past which the game went on."""

    def result(self, outcome: Outcome, **kw: Any) -> list[CheckResult]:
        return [CheckResult(self.suite, self.check.id, self.check.title, outcome, step=self.step or None,
                            reproduce=self.unit.reproduce, duration=time.perf_counter() - self.started, **kw)]

    def blamed(self, facts: CauseFacts | None, refused_last: bool = False) -> JSON:
        """The details entry of the game's first divergence from the reference (issue 24): its actions replayed from
        the set-up; with ``refused_last`` the last action, which the engine listed then refused, is first checked as
        listed. Empty when neither the replay nor the game found facts."""
        steps = [TraceStep(StepKind.APPLY, a, n) for n, a in enumerate(self.played, 1)]
        if refused_last and steps:
            steps.insert(len(steps) - 1, TraceStep(StepKind.LISTED, self.played[-1], len(steps)))
        elapsed = time.perf_counter() - self.started
        found = blamed(self.context.eut.fresh, Trace(tuple(steps), setup=self.unit.payload.setup()), facts, elapsed,
                       ceiling=(self.unit.deadline - elapsed) / 2)
        return {CAUSE_KEY: found.to_json()} if found is not None else {}

    def trace(self, note: str, rules: tuple[str, ...]) -> JSON:
        """The game so far as a scenario for the result's details (saved or embedded)."""
        game = self.unit.payload
        doc = random_game_scenario(self.suite, game.label, rules, self.unit.reproduce, game.setup(), self.played,
                                   note)
        return scenario_details(doc, _save_dir(self.context))

    def stalls(self, subject: Subject, pending: JSON, why: str, expected: str) -> list[CheckResult]:
        """A game that makes no progress: a failure whose cause is the stall itself (phase, decision, who holds
        it), charged to no rule (never END-1: the oracle does not see which rule keeps the game going); its
        ``reproduce`` replays the game (``oracle play``), too long to write as a scenario."""
        where, phase = where_stalled(subject, pending)
        cause = stalled(phase, pending, why)
        return self.result(Outcome.FAIL, expected=expected, actual=f"stalled at {where}", message=f"{why}, at {where}",
                           details={CAUSE_KEY: cause.to_json(), "decisions": self.step})
    def apply(self, subject: Subject, pending: JSON, rng: random.Random) -> tuple[JSON, JSON]:
        """A listed action chosen at random, applied: the action and the engine's answer. A refusal blamed on a rule
        ``--set-aside`` names (a known cause) is counted, and another listed action is tried instead."""
        known = self.context.options.set_aside
        action = self.choose(subject, pending, rng)
        refused: list[JSON] = []
        while True:
            applied = subject.apply(action)
            rejection = applied.get("rejection") or {}
            if applied["accepted"] or (str(rejection.get("rule", "")) or "DEC-2") not in known:
                self.played.append(action)
                if applied["accepted"]:
                    self.follow(action)
                return action, applied
            self.set_aside += 1
            refused.append(action)
            others = [a for a in subject.legal_actions() if a not in refused] \
                if pending.get("kind") != "shuffle" else []
            if not others:
                self.played.append(action)
                return action, applied
            action = others[rng.randrange(len(others))]

    def choose(self, subject: Subject, pending: JSON, rng: random.Random) -> JSON:
        """An action at random among the engine's legal list, or, at a decision sampled out of the full listing,
        among the reference's, judged with a few probes where the engine has ``try_actions`` (:class:`Disagreed`
        when it judges one otherwise)."""
        follower = self.follower
        if pending.get("kind") == "shuffle" or follower is None \
                or (self.compares_legal and self.sampler.full(pending.get("kind"), self.step)) \
                or not same_decision(follower.decision(), pending):
            action = choose_action(subject, pending, rng)
            self.try_once(subject, pending, action)
            return action
        legal = follower.legal_actions()
        if not legal:
            raise GameStuck(f"no legal action for the pending decision {pending}")
        action = legal[rng.randrange(len(legal))]
        if subject.handshake.can("try_actions"):
            trial = trial_actions(action, legal, pending, follower.export(), f"{self.unit.payload.seed}-{self.step}")
            found = first_disagreement(subject, follower, trial)
            if found is not None and found.rule not in self.context.options.set_aside:
                raise Disagreed(found)
            if found is not None:
                self.set_aside += 1
                if found.action is action:
                    return choose_action(subject, pending, rng)
        return action

    def try_once(self, subject: Subject, pending: JSON, action: JSON) -> None:
        """Where the listing judges every decision (legal-set share 1, the cheaper: :mod:`oracle.engines.legal_share`),
        a declared ``try_actions`` is still asked once per kind of decision, on the chosen action and a few probes,
        its own listing the judge: a verdict its ``apply`` on a copy then contradicts breaks PROTO-2 (issue 36, item
        10). Where the listing and ``apply`` agree against it, the listing's own comparison speaks."""
        kind = str(pending.get("kind"))
        if not self.compares_legal or self.sampler.share < 1 or kind == "shuffle" or kind in self.tried_kinds \
                or not subject.handshake.can("try_actions"):
            return
        self.tried_kinds.add(kind)
        legal = subject.legal_actions()
        snapshot = subject.export() if subject.handshake.can("export") else None
        trial = trial_actions(action, legal, pending, snapshot, f"{self.unit.payload.seed}-{self.step}-once")
        first_disagreement(subject, Listed(legal), trial)

    def start_following(self, subject: Subject) -> None:
        """The reference starts the same game, unless the engine shuffles by itself (its orders are its own)."""
        if subject.handshake.reshuffles_inside or subject.handshake.can("internal_shuffle") \
                or self.sampler.share >= 1:
            return
        follower = ReferenceEngine(subject.handshake.variants)
        try:
            follower.new_game(self.unit.payload.setup())
        except Exception:
            return
        self.follower = follower

    def follow(self, action: JSON) -> None:
        """The reference takes the step the engine accepted; it stops following at a step it refuses."""
        if self.follower is None:
            return
        try:
            followed = self.follower.apply(action)["accepted"]
        except Exception:
            followed = False
        if not followed:
            self.follower = None

    def disagreed(self, found: Disagreement) -> list[CheckResult]:
        """An action the engine judges otherwise than the reference: an illegal one accepted, or a legal one refused
        (its verdict confirmed by its ``apply`` on a copy), blamed on the first divergence of the replay."""
        action, refusal, rules = found.action, found.rejection, (found.rule,)
        if found.accepts_illegal:
            cause = accepted_illegal(action, str(refusal.get("code", "")))
            outcome, expected, actual = Outcome.ILLEGAL_ACCEPTED, f"rejected: {refusal}", "accepted"
        else:
            cause = rejected_legal(action, str(refusal.get("code", "")))
            outcome, expected, actual = Outcome.WRONGLY_REJECTED, "accepted", f"rejected: {refusal}"
        note = f"the engine judges this action {actual}, the reference {expected}"
        steps = [TraceStep(StepKind.APPLY, a, n) for n, a in enumerate(self.played, 1)]
        steps.append(TraceStep(StepKind.TRIED, action, self.step))
        elapsed = time.perf_counter() - self.started
        found_cause = blamed(self.context.eut.fresh, Trace(tuple(steps), setup=self.unit.payload.setup()), cause,
                             elapsed, ceiling=(self.unit.deadline - elapsed) / 2)
        game = self.unit.payload
        doc = judged_scenario(self.suite, game.label, rules, self.unit.reproduce, game.setup(), self.played, action,
                              refusal if found.accepts_illegal else None, note)
        return self.result(outcome, rules=rules, expected=expected, actual=actual,
                           message=f"{note} (judged without listing, {action})",
                           details={**scenario_details(doc, _save_dir(self.context)),
                                    **({CAUSE_KEY: found_cause.to_json()} if found_cause is not None else {})})

    def play(self, before_each: Callable[[Subject], list[CheckResult] | None]) -> list[CheckResult] | None:
        """Play to the end (None), or return the failing result: ``before_each`` may end the game at every step;
        a legal action refused is wrongly rejected; a game not ended after MAX_STEPS decisions, or at a decision
        with no legal answer, stalls."""
        game = self.unit.payload
        try:
            subject = self.context.eut.fresh()
            subject.new_game(game.setup())
            self.start_following(subject)
            rng = random.Random(f"play-{game.seed}")
            while True:
                stopped = before_each(subject)
                if stopped is not None:
                    return stopped
                pending = subject.decision()
                if pending is None:
                    return None
                if undrivable_reason(pending):
                    return self.result(Outcome.UNSUPPORTED, rules=self.check.rules,
                                       message=undrivable_message(pending), details=undrivable_details(pending))
                if self.step >= MAX_STEPS:
                    return self.stalls(subject, pending, f"no end after {MAX_STEPS} decisions",
                                       f"the game ends within {MAX_STEPS} decisions")
                self.step += 1
                try:
                    action, applied = self.apply(subject, pending, rng)
                except GameStuck:
                    return self.stalls(subject, pending, "no legal answer is listed",
                                       "at least one legal answer to the pending decision")
                except Disagreed as disagreed:
                    return self.disagreed(disagreed.found)
                if not applied["accepted"]:
                    rejection = applied["rejection"]
                    rules = (str(rejection.get("rule", "")) or "DEC-2",)
                    cause = listed_then_refused(game, self.played, rejection)
                    return self.result(Outcome.WRONGLY_REJECTED, rules=rules,
                                       expected="accepted (listed as legal)", actual=f"rejected: {rejection}",
                                       message=f"the engine listed {action} as legal, then refused it",
                                       details={**self.trace("the engine listed this action as legal, then refused it",
                                                             rules), **self.blamed(cause, refused_last=True)})
        except EngineFault as fault:
            blame = self.blamed(None) if fault.outcome in REPLAYED_FAULTS else {}
            return [fault_result(self.suite, self.check.id, self.check.title, fault, step=self.step or None,
                                 reproduce=self.unit.reproduce, duration=time.perf_counter() - self.started,
                                 details={**self.trace(f"the engine failed here: {fault}", fault.rules), **blame})]


REPLAYED_FAULTS = frozenset({Outcome.ERROR})
"""An engine that raised is replayed beside the reference (its error may follow an earlier divergence: a state the
rules never reach); one that hung is not (the replay would wait as long)."""


def random_play_rules(handshake: Handshake) -> tuple[str, ...]:
    """What a game of random play checks: it ends (END-1), everything the engine returns is protocol data (PROTO-2),
    and, from an engine that lists its legal actions, each is listed once (PROTO-3)."""
    return ("END-1", "PROTO-2", "PROTO-3") if handshake.can("legal_actions") else ("END-1", "PROTO-2")


NO_DECISION = "the game ended before its first decision: nothing was played, so nothing was checked"


def _run_random_play(unit: Unit[GamePlan], context: RunContext) -> list[CheckResult]:
    """Whole games of random legal play: every listed action accepted, and the game ends (END-1); a game that ends
    before its first decision checked nothing and is incomplete."""
    game = _Game("random-play", unit, context)
    failed = game.play(lambda subject: None)
    if failed:
        return failed
    if not game.step:
        return game.result(Outcome.INCOMPLETE, rules=game.check.rules, message=NO_DECISION, details={"decisions": 0})
    aside = {"set_aside": game.set_aside} if game.set_aside else {}
    return game.result(Outcome.PASS, rules=game.check.rules, details={"decisions": game.step, **aside})


# ---------------------------------------------------------------------------------------------- round trip


def _run_roundtrip(unit: Unit[GamePlan], context: RunContext) -> list[CheckResult]:
    """At every step of a random game, ``load(export(s))`` in a fresh engine exports ``s`` again (PROTO-1). Its
    legal actions are the reference's wherever it follows the game (random play compares the engine's)."""
    game = _Game("roundtrip", unit, context, compares_legal=False)

    def round_trip(subject: Subject) -> list[CheckResult] | None:
        snapshot = subject.export()
        twin = context.eut.fresh()
        twin.load_snapshot(snapshot)
        again = twin.export()
        if snapshot_contract(again) == snapshot_contract(snapshot):
            return None
        where = first_difference(snapshot_contract(snapshot), snapshot_contract(again)) or "the snapshot"
        doc = roundtrip_scenario(unit.payload.label, unit.reproduce, canonical(snapshot), where)
        cause = CauseFacts(Verdict.DIFFERS, "load(export)", field=field_pattern(where), rule="PROTO-1",
                           step=game.step, reference_does=f"load(export(s)) exports s again ({where} included)",
                           engine_does=f"exports another {where} after loading its own snapshot")
        return game.result(Outcome.FAIL, rules=("PROTO-1",), expected="load(export(s)) exports s",
                           actual=f"first difference at {where}",
                           details={**scenario_details(doc, _save_dir(context)), **game.blamed(cause)})

    failed = game.play(round_trip)
    if failed:
        return failed
    if not game.step:
        return game.result(Outcome.INCOMPLETE, rules=("PROTO-1",), details={"snapshots": 1},
                           message="the game ended before its first decision: only its starting position was "
                                   "round-tripped")
    return game.result(Outcome.PASS, rules=("PROTO-1",), details={"snapshots": game.step + 1})


# ---------------------------------------------------------------------------------------------- helpers


def _save_dir(context: RunContext) -> str | None:
    save = context.options.save_failures
    return str(save) if save else None


def listed_then_refused(game: GamePlan, played: list[JSON], rejection: JSON) -> CauseFacts:
    """An action the engine listed, then refused: if the reference rejects it too the engine lists an illegal
    action (accepted where the reference rejects); otherwise it refuses a legal one."""
    action = played[-1]
    reference = reference_rejection(game.setup(), played[:-1], action)
    if reference is not None:
        return accepted_illegal(action, str(reference.get("code", "")))
    return rejected_legal(action, str(rejection.get("code", "")))


def same_decision(reference: JSON | None, engine: JSON) -> bool:
    """The reference, following the game, asks the engine's decision (its kind, of the same player)."""
    return reference is not None and (reference.get("kind"), reference.get("player")) == \
        (engine.get("kind"), engine.get("player"))


def undrivable_details(pending: JSON) -> JSON:
    """What a check stopped by an undrivable decision reports: the reason and the decision kind."""
    return {UNDRIVABLE: undrivable_reason(pending), "kind": pending.get("kind")}


def canonical(snapshot: JSON) -> JSON:
    """The part of a snapshot every engine must agree on (``private`` is the engine's own, the prompt free text)."""
    return {k: v for k, v in snapshot_contract(snapshot).items() if k != "private"}


SETUP = SuiteSpec("setup", _plan_setup, _run_setup, "the position after new_game (SETUP-1..3)")
_plan_random_games = _plan_games("random-play", "random legal play", random_play_rules, lambda o: o.games, 0, ())


def _plan_random_play(context: PlanContext) -> list[AnyUnit]:
    """The games of random play, then, for an engine that reshuffles by itself, the check of its reshuffles."""
    return [*_plan_random_games(context), *plan_reshuffles(context)]


_RANDOM_PLAY_RUNS: dict[type, Callable[[Any, RunContext], list[CheckResult]]] = {
    GamePlan: _run_random_play, ReshuffleGames: run_reshuffles}


def _run_random_play_unit(unit: AnyUnit, context: RunContext) -> list[CheckResult]:
    return _RANDOM_PLAY_RUNS[type(unit.payload)](unit, context)


RANDOM_PLAY = SuiteSpec(
    "random-play", _plan_random_play, _run_random_play_unit,
    "whole games of random legal play in every declared mode (END-1, PROTO-2, PROTO-3); the reshuffles of an engine "
    "that shuffles inside (DECK-1)")
ROUNDTRIP = SuiteSpec(
    "roundtrip", _plan_games("roundtrip", "snapshot round-trip at every step", lambda _: ("PROTO-1",),
                             lambda o: o.roundtrip_games, 100, ("export", "load")),
    _run_roundtrip, "load(export(s)) at every step (PROTO-1)")
