"""Running scenarios against an engine under test (``docs/scenarios.md``).

Each scenario gets a fresh engine: its ``requires`` are checked against the handshake, the completed
``given`` position is loaded, then each step runs in order (``legal``/``not_legal`` before ``do``,
then ``reject`` or acceptance, ``expect``, ``decision``, ``events``), and finally ``expect_end``.
Every engine call is guarded (:class:`~oracle.engines.harness.Subject`), and the whole scenario has a
wall-clock budget besides the per-call timeout, counted once its engine has started. The first problem ends
the scenario with one :class:`~oracle.core.results.CheckResult`; a failing one carries the facts of the scenario's
first divergence from the reference (:mod:`oracle.scenarios.blame`), which may come before the failing step.
"""

from __future__ import annotations

import dataclasses
import shlex
import time
from collections.abc import Callable, Iterable
from typing import Any

from oracle.core.causes import (
    CAUSE_KEY,
    CauseFacts,
    accepted_illegal,
    changed_then_rejected,
    differs_after,
    other_code,
    rejected_legal,
)
from oracle.core.diff import first_difference as first_path
from oracle.core.faults import EngineFault, describe_fault
from oracle.core.json_types import JSON
from oracle.core.narrate import action_text
from oracle.core.protocol import (
    ANSWERS,
    SHUFFLES_INSIDE,
    DecisionKind,
    answer_is_ordered,
    decision_contract,
    snapshot_contract,
)
from oracle.core.results import REACHED_BY, CheckResult, Outcome
from oracle.core.rules import variants
from oracle.core.undrivable import UNDRIVABLE, undrivable_message, undrivable_reason
from oracle.engines.connect import EngineUnderTest
from oracle.engines.harness import Handshake, Subject
from oracle.scenarios.blame import StepKind, Trace, TraceStep, blamed, canonical, decision_difference
from oracle.scenarios.given import DEFAULT_SETUP, complete_snapshot
from oracle.scenarios.match import canonical_action, first_difference, first_mismatch, show
from oracle.scenarios.model import Scenario, Step
from oracle.scenarios.reach.preamble import Preamble
from oracle.scenarios.reach.way import Way, way_for

SUITE = "scenarios"
VARIANT_NOT_APPLICABLE = "the scenario depends on"
"""How the reason starts when a scenario plays a variant value the engine does not declare (not-applicable)."""
DEFAULT_SCENARIO_TIMEOUT = 10.0
BLAMED = frozenset({Outcome.FAIL, Outcome.WRONGLY_REJECTED, Outcome.ILLEGAL_ACCEPTED, Outcome.ERROR})
"""The outcomes whose facts the first-divergence replay settles: an engine that raised may have diverged before (a
state the rules never reach); one that hung is not replayed (the replay would wait as long)."""


def reproduce_command(impl: str, scenario_id: str, scenarios_dir: str | None = None) -> str:
    """``oracle check --impl IMPL --select ID`` (plus ``--scenarios DIR`` for a directory of one's own)."""
    command = f"oracle check --impl {shlex.quote(impl)} --select {scenario_id}"
    return f"{command} --scenarios {scenarios_dir}" if scenarios_dir else command


def describe_action(action: JSON) -> str:
    """``P0 summons Salamander paying 1 red``; the raw action when it is too malformed to narrate."""
    try:
        return action_text(action)
    except (KeyError, TypeError, AttributeError):
        return show(action)


def missing_features(scenario: Scenario, handshake: Handshake) -> list[str]:
    """The scenario's ``requires`` the engine does not declare."""
    missing = []
    for feature in scenario.requires:
        if feature == "expansion":
            ok = handshake.expansion
        elif feature == "artifacts":
            ok = handshake.artifacts
        else:
            continue
        if not ok:
            missing.append(feature)
    return missing


def declared_variants(handshake: Handshake) -> dict[str, str]:
    """The value the engine follows for every variant of the catalogue (the project's ruling when it declares
    none)."""
    return {rule: handshake.variants.get(rule, variant.default) for rule, variant in variants().items()}


def pinned_variants(scenario: Scenario) -> dict[str, str]:
    """The variant values the scenario depends on: those it plays, and the project's ruling for every variant
    rule it names without a value."""
    pinned = {rule: variant.default for rule, variant in variants().items()
              if rule in scenario.rules or rule in scenario.reject_rules}
    return {**pinned, **scenario.variants}


def variant_mismatch(scenario: Scenario, handshake: Handshake) -> str:
    """'' when the engine follows every variant value the scenario depends on, else which it does not."""
    declared = declared_variants(handshake)
    different = [f"{rule}={value}" for rule, value in sorted(pinned_variants(scenario).items())
                 if declared.get(rule) != value]
    if not different:
        return ""
    follows = ", ".join(f"{rule.split('=')[0]}={declared[rule.split('=')[0]]}" for rule in different)
    return f"{VARIANT_NOT_APPLICABLE} {', '.join(different)}; the engine declares {follows}"


def player_count(scenario: Scenario) -> int:
    """How many players the scenario's position has."""
    setup = {**DEFAULT_SETUP, **scenario.given.get("setup", {})}
    return int(setup["players"])


def not_applicable_reason(scenario: Scenario, handshake: Handshake) -> str:
    """Why the scenario does not apply to the engine: it pins a variant reading the engine does not declare ('' when
    it applies). Checked before :func:`unsupported_reason`: another reading of the rule stays another reading
    whatever the engine can do."""
    return variant_mismatch(scenario, handshake)


def unsupported_reason(scenario: Scenario, handshake: Handshake, preamble: Preamble | None = None,
                       unreached: str = "", way: Way = Way.AUTO) -> str:
    """Why the engine cannot run this scenario, from what its handshake declares ('' when it can). Without ``load``
    a scenario starting from ``[given]`` runs through its ``preamble`` (issue 39); without one, the finder's reason
    ``unreached`` says why."""
    missing = missing_features(scenario, handshake)
    if missing:
        return f"the engine does not declare {', '.join(missing)} (required by the scenario)"
    players = player_count(scenario)
    if players not in handshake.players:
        declared = ", ".join(str(p) for p in handshake.players)
        return f"the engine does not declare {players}-player games (it declares {declared})"
    if scenario.new_game is None and way_for(scenario, handshake, preamble, way) is None:
        if preamble is None and way is not Way.LOAD:
            why = f": {unreached}" if unreached else ""
            return f"the engine cannot load snapshots (no 'load' capability), and no preamble reaches the position{why}"
        return "the engine cannot load snapshots (no 'load' capability)"
    if handshake.can("internal_shuffle") and scenario.new_game is None and not handshake.can("load"):
        return "the scenario is reached by a preamble's deck order, and the engine shuffles inside (internal_shuffle)"
    if handshake.can("internal_shuffle") and scenario.new_game is not None:
        return "the scenario deals a given deck order, and the engine shuffles inside (internal_shuffle)"
    own = next((c for c in SHUFFLES_INSIDE if handshake.can(c)), "")
    if own and any((s.do or {}).get("type") == "shuffle" for s in scenario.steps):
        return f"the scenario chooses a shuffle order, and the engine shuffles inside ({own})"
    needs_export = scenario.expect_end is not None or any(s.expect is not None for s in scenario.steps)
    if needs_export and not handshake.can("export"):
        return "the scenario checks snapshots and the engine cannot export them (no 'export' capability)"
    return ""


class _Stop(Exception):
    """Ends a scenario early with its result."""

    def __init__(self, result: CheckResult) -> None:
        super().__init__(result.message)
        self.result = result


class _Run:
    def __init__(self, eut: EngineUnderTest, scenario: Scenario, budget: float, scenarios_dir: str | None,
                 preamble: Preamble | None = None, way: Way = Way.AUTO) -> None:
        self.eut = eut
        self.preamble = preamble
        self.way = way
        self.started_by: Way | None = None
        self.preamble_done = 0
        """How many of the preamble's actions were applied (the trace the blame replays includes them)."""
        self.reproduce = reproduce_command(eut.impl, scenario.id, scenarios_dir)
        self.scenario = scenario
        self.budget = budget
        self.started = time.perf_counter()
        self.deadline = self.started + budget
        self.step: Step | None = None
        self.subject: Subject | None = None
        self.notes: list[str] = []

    # ------------------------------------------------------------------ results

    def result(
        self,
        outcome: Outcome,
        *,
        expected: str = "",
        actual: str = "",
        message: str = "",
        rules: Iterable[str] = (),
        where: bool = True,
        details: JSON | None = None,
        cause: CauseFacts | None = None,
    ) -> CheckResult:
        scenario, step = self.scenario, self.step
        all_rules = list(scenario.rules)
        for rule in rules:
            if rule and rule not in all_rules:
                all_rules.append(rule)
        prefix = scenario.where(step) + (f": step {step.number}" if step is not None else "") + ": "
        info: JSON = {"file": scenario.file, "line": step.line if step is not None else scenario.line}
        if step is not None and step.note:
            info["note"] = step.note
        if self.notes:
            info["notes"] = list(self.notes)
        if self.started_by is Way.PREAMBLE:
            info[REACHED_BY] = self.started_by.value
        if cause is not None:
            info[CAUSE_KEY] = cause.to_json()
        info.update(details or {})
        return CheckResult(
            SUITE, scenario.id, scenario.title, outcome,
            rules=tuple(all_rules),
            cards=scenario.cards,
            step=step.number if step is not None else None,
            expected=expected,
            actual=actual,
            message=(prefix + message) if message and where else message,
            reproduce=self.reproduce,
            duration=time.perf_counter() - self.started,
            details=info,
        )

    def stop(self, outcome: Outcome, **kw: Any) -> _Stop:
        return _Stop(self.result(outcome, **kw))

    def fault(self, fault: EngineFault) -> CheckResult:
        return self.result(fault.outcome, message=describe_fault(fault), rules=fault.rules, details=fault.details)

    # ------------------------------------------------------------------ guarded calls

    def call(self, method: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Call the engine through the Subject, never past the scenario's deadline. A call cut by the deadline
        rather than by its own ``--timeout`` ends the scenario incomplete, never as the engine's timeout."""
        subject = self.subject
        assert subject is not None
        remaining = self.deadline - time.perf_counter()
        if remaining <= 0:
            raise self.out_of_budget(method)
        per_call = self.eut.timeout
        cut_by_budget = per_call <= 0 or remaining < per_call
        subject.timeout = min(per_call, remaining) if per_call > 0 else remaining
        try:
            return fn(*args)
        except EngineFault as fault:
            if fault.kind == "timeout" and cut_by_budget and time.perf_counter() >= self.deadline - 1e-3:
                raise self.out_of_budget(method) from None
            raise
        finally:
            subject.timeout = per_call

    def out_of_budget(self, method: str) -> _Stop:
        """The scenario's wall-clock budget ran out before it checked everything: ``incomplete`` (exit 3), never a
        failure nor a cause, since a slow engine may still be right (docs/reports.md, Outcomes and exit codes)."""
        return self.stop(Outcome.INCOMPLETE, details={"out_of_budget": True, "budget": self.budget},
                         message=f"the scenario's budget of {self.budget:g} s ran out in {method}() before it "
                                 "checked everything (raise it with --scenario-timeout or --budget-scale)")

    def decision(self) -> JSON | None:
        assert self.subject is not None
        pending: JSON | None = self.call("decision", self.subject.decision)
        return pending

    def export(self) -> JSON:
        assert self.subject is not None
        snapshot: JSON = self.call("export", self.subject.export)
        return snapshot

    # ------------------------------------------------------------------ the scenario

    def run(self) -> CheckResult:
        try:
            try:
                self.subject = self.eut.fresh()
            except EngineFault as fault:
                return self.fault(fault)
            self.deadline = time.perf_counter() + self.budget  # the budget starts once the engine is up
            other_reading = not_applicable_reason(self.scenario, self.subject.handshake)
            if other_reading:
                return self.result(Outcome.NOT_APPLICABLE, message=other_reading, where=False)
            reason = self.unsupported(self.subject.handshake)
            if reason:
                return self.result(Outcome.UNSUPPORTED, message=reason, where=False)
            self.start()
            for step in self.scenario.steps:
                self.step = step
                self.run_step(step)
                if time.perf_counter() > self.deadline:
                    raise self.out_of_budget("scenario")
            self.step = None
            if self.scenario.expect_end is not None:
                self.check_snapshot(self.scenario.expect_end, "expect_end")
            return self.result(Outcome.PASS, details={"steps": len(self.scenario.steps)})
        except _Stop as stop:
            return self.blamed(stop.result)
        except EngineFault as fault:
            return self.blamed(self.fault(fault))

    def start(self) -> None:
        """Put the engine at the scenario's start: its ``new_game``, its ``[given]`` loaded, or its preamble played
        (issue 39)."""
        assert self.subject is not None
        if self.scenario.new_game is not None:
            self.started_by = Way.NEW_GAME
            self.call("new_game", self.subject.new_game, self.scenario.new_game)
            return
        way = way_for(self.scenario, self.subject.handshake, self.preamble, self.way)
        self.started_by = way
        if way is Way.PREAMBLE and self.preamble is not None:
            self.play_preamble(self.preamble)
        else:
            self.call("load", self.subject.load_position, complete_snapshot(self.scenario.given))

    def play_preamble(self, preamble: Preamble) -> None:
        """New game, then each preamble action, which the engine must accept; after each, the engine's state and
        decision are compared with the reference's, so a deviation on the way is its own failure (blamed on the
        rule of the step where the two part), never the scenario's."""
        from oracle.reference import ReferenceEngine

        assert self.subject is not None
        setup = preamble.new_game()
        reference = ReferenceEngine(self.subject.handshake.variants)
        reference.new_game(setup)
        self.call("new_game", self.subject.new_game, setup)
        can_export = self.subject.handshake.can("export")
        for number, action in enumerate(preamble.actions, 1):
            self.compare_on_the_way(reference, can_export, number - 1, preamble.actions[number - 2] if number > 1
                                    else None)
            result: JSON = self.call("apply", self.subject.apply, action)
            reference.apply(action)
            self.preamble_done = number
            if not result["accepted"]:
                rejection = result.get("rejection") or {}
                raise self.stop(
                    Outcome.WRONGLY_REJECTED, cause=rejected_legal(action, str(rejection.get("code", ""))),
                    expected=f"accepted: {describe_action(action)} (preamble action {number})",
                    actual=f"rejected with {rejection.get('code')} ({rejection.get('rule', '')}): "
                           f"{rejection.get('message', '')}",
                    message=f"preamble action {number}: the engine refused {describe_action(action)}",
                    rules=(str(rejection.get("rule", "")),), details={"preamble_action": number})
        self.compare_on_the_way(reference, can_export, len(preamble.actions),
                                preamble.actions[-1] if preamble.actions else None)

    def compare_on_the_way(self, reference: Any, can_export: bool, number: int, action: JSON | None) -> None:
        """The engine's canonical state and pending decision equal the reference's after preamble action
        ``number``."""
        where = decision_difference(reference.decision(), self.decision())
        if can_export and where is None:
            where = first_path(canonical(reference.export()), canonical(self.export()))
        if where is not None:
            raise self.stop(Outcome.FAIL, cause=differs_after(action, where.split(" ")[0]),
                            expected=f"{where} as the reference has it after preamble action {number}",
                            actual=f"{where} differs", details={"preamble_action": number},
                            message=f"preamble action {number}: the engine's {where} differs from the reference's "
                                    "on the way to the scenario's position")

    def blamed(self, result: CheckResult) -> CheckResult:
        """A failing result with the facts of the scenario's first divergence from the reference (issue 24)."""
        if result.outcome not in BLAMED:
            return result
        own = CauseFacts.from_json(result.details.get(CAUSE_KEY))
        preamble = self.preamble if self.started_by is Way.PREAMBLE else None
        trace = scenario_trace(self.scenario, self.step, preamble, self.preamble_done)
        facts = blamed(self.eut.fresh, trace, own, result.duration)
        if facts is None:
            return result
        return dataclasses.replace(result, details={**result.details, CAUSE_KEY: facts.to_json()},
                                   duration=time.perf_counter() - self.started)

    def last_action(self) -> JSON | None:
        """The action of the current step, or of the last step before it that did one."""
        done = [s.do for s in self.scenario.steps[: self.scenario.steps.index(self.step) + 1 if self.step else None]
                if s.do is not None]
        return done[-1] if done else None

    def reference_code(self, action: JSON) -> str:
        """The reference's rejection code for ``action`` at the current step ('' when it accepts it or cannot
        say): the scenario's position replayed on the reference engine."""
        from oracle.reference import ReferenceEngine

        reference = ReferenceEngine()
        try:
            reference.load(complete_snapshot(self.scenario.given))
            for step in self.scenario.steps:
                if step is self.step:
                    break
                if step.do is not None:
                    reference.apply(step.do)
            result = reference.apply(action)
        except Exception:  # the reference's view is a hint for grouping, never a verdict
            return ""
        rejection = result.get("rejection") or {}
        return "" if result.get("accepted") else str(rejection.get("code", ""))

    def unsupported(self, handshake: Handshake) -> str:
        return unsupported_reason(self.scenario, handshake, self.preamble, way=self.way)

    def run_step(self, step: Step) -> None:
        if step.legal or step.not_legal:
            self.check_legal(step)
        if step.legal_exactly is not None:
            self.check_legal_exactly(step.legal_exactly)
        events: list[JSON] = []
        if step.do is not None:
            events = self.rejected(step, step.do) if step.reject is not None else self.accepted(step, step.do)
        if step.expect is not None:
            self.check_snapshot(step.expect, "expect")
        if step.decision is not None:
            self.check_decision(step.decision)
        if step.events and self.subject is not None and self.subject.handshake.can("events"):
            self.check_events(step.events, events)

    def require_drivable(self, pending: JSON | None) -> None:
        """A decision the adapter marks ``undrivable`` ends the scenario as unsupported, with the reason."""
        if pending is not None and undrivable_reason(pending):
            raise self.stop(Outcome.UNSUPPORTED, message=undrivable_message(pending), where=False,
                            details={UNDRIVABLE: undrivable_reason(pending), "kind": pending.get("kind")})

    def check_legal(self, step: Step) -> None:
        assert self.subject is not None
        pending = self.decision()
        self.require_drivable(pending)
        ordered = answer_is_ordered(pending)
        listed: list[JSON] = self.call("legal_actions", self.subject.legal_actions)
        keys = {canonical_action(a, ordered) for a in listed}
        shown = "; ".join(describe_action(a) for a in listed[:12]) + ("; …" if len(listed) > 12 else "")
        for action in step.legal:
            if canonical_action(action, ordered) not in keys:
                raise self.stop(
                    Outcome.FAIL, cause=rejected_legal(action, ""),
                    expected=f"legal: {describe_action(action)}",
                    actual=f"not among the {len(listed)} legal action(s): {shown or 'none'}",
                    message=f"the engine does not list {describe_action(action)} as legal",
                )
        for action in step.not_legal:
            if canonical_action(action, ordered) in keys:
                raise self.stop(
                    Outcome.FAIL, cause=accepted_illegal(action, self.reference_code(action)),
                    expected=f"not legal: {describe_action(action)}",
                    actual="listed as legal",
                    message=f"the engine lists {describe_action(action)} as legal",
                )

    def check_legal_exactly(self, wanted: list[JSON]) -> None:
        """The engine lists exactly these actions, in any order (payments compared in canonical form; the cards of
        an ``ordered`` decision's answer in their order, EFF-8)."""
        assert self.subject is not None
        ordered = answer_is_ordered(self.decision())
        listed: list[JSON] = self.call("legal_actions", self.subject.legal_actions)
        listed_keys = {canonical_action(a, ordered): a for a in listed}
        wanted_keys = {canonical_action(a, ordered): a for a in wanted}
        missing = [describe_action(a) for k, a in wanted_keys.items() if k not in listed_keys]
        extra = [describe_action(a) for k, a in listed_keys.items() if k not in wanted_keys]
        if missing or extra:
            parts = ([f"missing: {'; '.join(missing)}"] if missing else []) + (
                [f"not expected: {'; '.join(extra[:12])}{'; …' if len(extra) > 12 else ''}"] if extra else [])
            raise self.stop(
                Outcome.FAIL,
                expected=f"exactly {len(wanted_keys)} legal action(s)",
                actual=f"{len(listed_keys)} listed; " + "; ".join(parts),
                message="the legal actions differ from legal_exactly",
            )

    def strictness(self, action: JSON) -> None:
        """The pending decision must belong to the action's player and be one the action answers."""
        pending = self.decision()
        scripted = describe_action(action)
        if pending is None:
            raise self.stop(Outcome.FAIL, expected=f"a decision answered by: {scripted}",
                            actual="no pending decision (the game is over)",
                            message=f"the game is over, the scenario scripts {scripted}")
        self.require_drivable(pending)
        kind = pending.get("kind")
        try:
            answers = {a.value for a in ANSWERS[DecisionKind(kind)]}
        except (ValueError, TypeError):
            answers = set()
        player = pending.get("player")
        if player != action.get("player") or isinstance(player, bool) or action.get("type") not in answers:
            who = "chance" if player is None else f"P{player}"
            raise self.stop(
                Outcome.FAIL,
                expected=f"a decision of {'chance' if action.get('player') is None else 'P' + str(action['player'])}"
                         f" answered by {action.get('type')}",
                actual=f"pending decision: {show(pending)}",
                message=f"the engine asks {kind} of {who}, the scenario scripts {scripted}",
            )

    def accepted(self, step: Step, action: JSON) -> list[JSON]:
        assert self.subject is not None
        self.strictness(action)
        result: JSON = self.call("apply", self.subject.apply, action)
        if not result["accepted"]:
            rejection = result.get("rejection") or {}
            rule = str(rejection.get("rule", ""))
            raise self.stop(
                Outcome.WRONGLY_REJECTED, cause=rejected_legal(action, str(rejection.get("code", ""))),
                expected=f"accepted: {describe_action(action)}",
                actual=f"rejected with {rejection.get('code')} ({rule}): {rejection.get('message', '')}",
                message=f"the engine refused {describe_action(action)}",
                rules=(rule,),
            )
        events = result.get("events")
        return [e for e in events if isinstance(e, dict)] if isinstance(events, list) else []

    def rejected(self, step: Step, action: JSON) -> list[JSON]:
        assert self.subject is not None and step.reject is not None
        code = str(step.reject["code"])
        rule = str(step.reject.get("rule", ""))
        wanted = f"rejected with {code}" + (f" ({rule})" if rule else "")
        can_export = self.subject.handshake.can("export")
        before = (_canonical(self.export()) if can_export else None, _contract(self.decision()))
        self.require_drivable(before[1])
        result: JSON = self.call("apply", self.subject.apply, action)
        if result["accepted"]:
            raise self.stop(Outcome.ILLEGAL_ACCEPTED, expected=wanted, actual="accepted",
                            cause=accepted_illegal(action, code),
                            message=f"the engine accepted {describe_action(action)}", rules=(rule,))
        rejection = result.get("rejection") or {}
        got = f"rejected with {rejection.get('code')} ({rejection.get('rule', '')}): {rejection.get('message', '')}"
        after = (_canonical(self.export()) if can_export else None, _contract(self.decision()))
        if after != before:
            changed = first_difference({"state": before[0], "decision": before[1]},
                                       {"state": after[0], "decision": after[1]})
            where = changed.path if changed is not None else "(state)"
            detail = f"{where} changed from {show(changed.expected)} to {show(changed.actual)}" if changed else ""
            raise self.stop(Outcome.FAIL, expected=f"{wanted}, the state unchanged (DEC-4)",
                            cause=changed_then_rejected(action, step.reject, rejection, where.removeprefix("state.")),
                            actual=f"{got}, and {detail or 'the state changed'}",
                            message=f"the engine changed the state, then rejected {describe_action(action)}",
                            rules=(rule, "DEC-4"))
        if rejection.get("code") != code:
            raise self.stop(Outcome.FAIL, expected=wanted, actual=got,
                            message=f"{describe_action(action)} was rejected for another reason",
                            rules=(rule, str(rejection.get("rule", ""))),
                            cause=other_code(action, str(rejection.get("code", "")), code))
        if rule and rejection.get("rule") != rule:
            self.notes.append(f"step {step.number}: {code} cites rule {rejection.get('rule')!r}, "
                              f"the reference cites {rule}")
        return []

    def check_snapshot(self, expected: JSON, label: str) -> None:
        mismatch = first_mismatch(expected, _canonical(self.export()))
        if mismatch is not None:
            want, got = mismatch.describe()
            line = self.scenario.end_line if label == "expect_end" else None
            prefix = f"{self.scenario.file}:{line}: " if line else ""
            raise self.stop(Outcome.FAIL, expected=want, actual=got, where=line is None,
                            message=f"{prefix}{label}: {mismatch.path or 'the state'} differs",
                            cause=differs_after(self.last_action(), mismatch.path or "state"))

    def check_decision(self, expected: JSON | str) -> None:
        """The pending decision has the fields written; ``ordered = false`` also matches a decision without the
        field (EFF-8: absent means false)."""
        pending = self.decision()
        if expected == "none":
            if pending is not None:
                raise self.stop(Outcome.FAIL, expected="decision = none (the game is over)",
                                cause=differs_after(self.last_action(), "decision"),
                                actual=f"decision = {show(pending)}", message="the game should be over")
            return
        if pending is None:
            raise self.stop(Outcome.FAIL, expected=f"decision = {show(expected)}",
                            actual="no pending decision (the game is over)", message="the game ended early",
                            cause=differs_after(self.last_action(), "decision"))
        if "ordered" in expected:
            pending = {**pending, "ordered": answer_is_ordered(pending)}
        mismatch = first_mismatch(decision_contract(expected) if isinstance(expected, dict) else expected, pending,
                                  "decision")
        if mismatch is not None:
            want, got = mismatch.describe()
            raise self.stop(Outcome.FAIL, expected=want, actual=got, message=f"{mismatch.path} differs",
                            cause=differs_after(self.last_action(), mismatch.path))

    def check_events(self, expected: list[JSON], events: list[JSON]) -> None:
        for want in expected:
            if not any(first_mismatch(want, event) is None for event in events):
                raise self.stop(Outcome.FAIL, expected=f"an event matching {show(want)}",
                                cause=differs_after(self.last_action(), f"events.{want.get('type')}"),
                                actual=f"events: {show(events, 600)}",
                                message=f"no {want.get('type')} event matches")


def scenario_trace(scenario: Scenario, last: Step | None, preamble: Preamble | None = None,
                   preamble_done: int | None = None) -> Trace:
    """What the scenario does up to step ``last`` (every step when None), as the replay takes it: from its ``given``
    position (or its ``new_game``, or its preamble's new game and the ``preamble_done`` first of its actions, numbered
    0, as step 0), each step's listing checks, then its action."""
    steps: list[TraceStep] = []
    if preamble is not None:
        done = len(preamble.actions) if preamble_done is None else preamble_done
        steps += [TraceStep(StepKind.APPLY, a, 0) for a in preamble.actions[:done]]
        if done < len(preamble.actions):
            return Trace(tuple(steps), setup=preamble.new_game())
    for step in scenario.steps:
        steps += [TraceStep(StepKind.LISTED, a, step.number) for a in (*step.legal, *step.not_legal)]
        if step.legal_exactly is not None:
            steps.append(TraceStep(StepKind.LEGAL, None, step.number))
        if step.do is not None:
            steps.append(TraceStep(StepKind.APPLY, step.do, step.number))
        if step is last:
            break
    if scenario.new_game is not None:
        return Trace(tuple(steps), setup=scenario.new_game)
    if preamble is not None:
        return Trace(tuple(steps), setup=preamble.new_game())
    return Trace(tuple(steps), snapshot=complete_snapshot(scenario.given))


def _contract(pending: JSON | None) -> JSON | None:
    """The pending decision without its prompt (free text), None when the game is over."""
    return None if pending is None else decision_contract(pending)


def _canonical(snapshot: JSON) -> JSON:
    """The part of a snapshot engines agree on (without the engine's ``private`` bookkeeping and the prompt)."""
    return {k: v for k, v in snapshot_contract(snapshot).items() if k != "private"}


def run_scenario(
    eut: EngineUnderTest, scenario: Scenario, budget: float = DEFAULT_SCENARIO_TIMEOUT,
    scenarios_dir: str | None = None, preamble: Preamble | None = None, way: Way = Way.AUTO,
) -> CheckResult:
    """Run one scenario on a fresh engine; never raises for anything the engine does.

    ``scenarios_dir`` (a directory other than the default) goes into the reproduce command; ``preamble`` reaches
    the ``[given]`` position by playing when ``way`` asks for it or the engine cannot ``load``. ``Way.BOTH`` runs the
    scenario loaded, then (when that passes and a preamble exists) reached by its preamble; the first failure is
    the result.
    """
    if way is Way.BOTH and scenario.new_game is None and preamble is not None:
        loaded = _Run(eut, scenario, budget, scenarios_dir, preamble, Way.LOAD).run()
        if loaded.outcome is Outcome.UNSUPPORTED:
            return _Run(eut, scenario, budget, scenarios_dir, preamble, Way.PREAMBLE).run()
        if loaded.outcome is not Outcome.PASS:
            return loaded
        played = _Run(eut, scenario, budget, scenarios_dir, preamble, Way.PREAMBLE).run()
        if played.outcome is not Outcome.PASS:
            return played
        return dataclasses.replace(loaded, details={**loaded.details, REACHED_BY: Way.BOTH.value})
    return _Run(eut, scenario, budget, scenarios_dir, preamble, way).run()


def run_scenarios(
    eut: EngineUnderTest, scenarios: Iterable[Scenario], budget: float = DEFAULT_SCENARIO_TIMEOUT,
    scenarios_dir: str | None = None,
) -> list[CheckResult]:
    return [run_scenario(eut, s, budget, scenarios_dir) for s in scenarios]

