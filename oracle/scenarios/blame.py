"""The first divergence of a failing check (issue 24, docs/reports.md): the check's steps replayed on a fresh engine
under test and on the reference side by side, compared after every step; the first step where they differ gives the
cause's facts, blamed on the reference's rule at that step.

A check hands over its :class:`Trace`: where it started (a loaded snapshot or a ``new_game`` set-up) and the steps it
took, in order: actions it applied, actions whose listing it checked, whole legal lists it compared. After every
step both sides are compared on

1. the verdict: the engine accepting (or listing) what the reference rejects is blamed on the rule of the
   reference's rejection, the reverse on the reference's rule for accepting; both rejecting with different codes, on
   the reference's rule, and counted as accepted when the engine's code is the reference's own verdict past the test
   it failed (it skipped that test); a rejected action that changed the engine's state, on DEC-4;
2. the canonical state (the engine's ``export``, when it has the capability): blamed on the reference's event that
   wrote the differing field, or on the rule in force where the engine did something the reference did not;
3. the pending decision: an item offered on one side only is the verdict on the answer choosing it (blamed on the
   item's own rule, else the refusal's); any other field, on the rule under which the reference asks it;
4. when both agree on those, the events of an accepted action, from an engine that declares ``events``: an event of
   no protocol type is PROTO-2, a missing or wrong one is blamed on the rule of the reference's event, an extra one on
   the rule of the reference's step (:mod:`oracle.engines.events`).

When both the state and the decision differ, the state comes first if the reference wrote the differing field at
that step, else the decision. The reference's rules come from its account of the step and its explanations
(:mod:`oracle.reference.rulings`, :mod:`oracle.reference.explain`). The replay never changes a check's outcome: it
only replaces the facts the check recorded, and a fault, an engine that shuffles by itself or the budget run out on
the way leaves them as they were.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum

from oracle.core.cards import catalogue
from oracle.core.causes import UNCHANGED_BY_REJECTION, CauseFacts, Verdict, decision_kind, field_pattern
from oracle.core.diff import first_difference, value_at
from oracle.core.faults import EngineFault
from oracle.core.json_types import JSON
from oracle.core.narrate import action_text
from oracle.core.protocol import answer_is_ordered
from oracle.engines.events import event_difference
from oracle.engines.harness import Subject
from oracle.reference import ReferenceEngine
from oracle.reference import actions as reference_actions
from oracle.reference.explain import GAME_END_RULE, acceptance_blame, item_blame, rejection_blame, verdict_past
from oracle.reference.rulings import Account, writes
from oracle.scenarios.match import canonical_action, show

MIN_REPLAY_SECONDS = 1.0
"""The replay's budget when the check itself took less (a scenario takes milliseconds)."""
HIDDEN = ("private", "pending")
"""Snapshot fields never compared: the engine's own bookkeeping, and the decision (compared on its own)."""
DECISION_FIELDS = ("kind", "player", "ordered", "cards", "tiles", "players", "options", "min", "max", "limit", "cost",
                   "eligible", "looking")
"""The pending decision's fields compared, in this order (never the prompt)."""
LISTS = frozenset({"cards", "tiles", "players", "options"})


class StepKind(str, Enum):
    """What a check did at one step."""

    APPLY = "apply"
    """Applied the action."""
    LISTED = "listed"
    """Asked whether the engine lists the action as legal (not applied)."""
    LEGAL = "legal"
    """Compared the engine's whole list of legal actions (not applied)."""
    TRIED = "tried"
    """Asked the engine's verdict on the action without applying it (``try_actions``, else on a copy)."""


@dataclass(frozen=True)
class TraceStep:
    kind: StepKind
    action: JSON | None = None
    number: int = 0
    """The check's own number of the step (a scenario's step number, a game's decision count)."""


@dataclass(frozen=True)
class Trace:
    """Where a check started and what it did: ``snapshot`` loaded, else ``setup`` given to ``new_game``."""

    steps: tuple[TraceStep, ...]
    snapshot: JSON | None = None
    setup: JSON | None = None

    @staticmethod
    def of_actions(actions: Iterable[JSON], *, snapshot: JSON | None = None, setup: JSON | None = None) -> Trace:
        """A trace that applies ``actions`` in order (step numbers from 1)."""
        steps = tuple(TraceStep(StepKind.APPLY, a, n) for n, a in enumerate(actions, 1))
        return Trace(steps, snapshot=snapshot, setup=setup)


class _Unreplayable(Exception):
    """The replay cannot go on (a fault, the budget, a reshuffle the engine made itself): keep the check's facts."""


# ---------------------------------------------------------------------------------------------- words


def action_words(action: JSON | None) -> str:
    if action is None:
        return "the start of the game"
    try:
        return action_text(action)
    except (KeyError, TypeError, AttributeError):
        return show(action)


def decision_words(decision: JSON | None) -> str:
    """``asks keep_stones of P0 (limit 4)``; ``ends the game`` with none pending."""
    if decision is None:
        return "ends the game (no decision pending)"
    who = "chance" if decision.get("player") is None else f"P{decision.get('player')}"
    extra = [f"{k} {show(decision[k], 120)}" for k in DECISION_FIELDS[2:] if k in decision]
    return f"asks {decision.get('kind')} of {who}" + (f" ({', '.join(extra)})" if extra else "")


def _ids(value: object) -> tuple[str, ...]:
    """The card and tile ids named in ``value`` (a string, or a list of them)."""
    known = catalogue()
    items = value if isinstance(value, list) else [value]
    return tuple(str(v) for v in items if isinstance(v, str) and (v in known.cards or v in known.tiles))


def action_cards(action: JSON | None) -> tuple[str, ...]:
    if action is None:
        return ()
    return tuple(dict.fromkeys((*_ids(action.get("card")), *_ids(action.get("tile")), *_ids(action.get("cards")))))


# ---------------------------------------------------------------------------------------------- comparing


ALWAYS = frozenset({"kind", "player", "ordered"})
"""Decision fields compared even when one side leaves them out (absent ``ordered`` is false, EFF-8); the others only
when both give them."""


def decision_shape(pending: JSON | None) -> JSON | None:
    """The fields two engines must agree on in a decision: lists sorted, absent ``ordered`` false (EFF-8), the
    adapter's ``undrivable`` marker and the prompt left out."""
    if pending is None:
        return None
    out: JSON = {}
    for key in DECISION_FIELDS:
        if key in pending:
            value = pending[key]
            out[key] = sorted(value, key=str) if key in LISTS and isinstance(value, list) else value
    out["ordered"] = answer_is_ordered(pending)
    return out


def decision_difference(reference: JSON | None, engine: JSON | None) -> str | None:
    """The first decision field (``decision.kind``) in which the two differ; ``decision`` when only one is pending."""
    a, b = decision_shape(reference), decision_shape(engine)
    if a == b:
        return None
    if a is None or b is None:
        return "decision"
    for key in DECISION_FIELDS:
        if (key in ALWAYS or (key in a and key in b)) and a.get(key) != b.get(key):
            return f"decision.{key}"
    return None


def canonical(snapshot: JSON) -> JSON:
    return {k: v for k, v in snapshot.items() if k not in HIDDEN}


class _Replay:
    def __init__(self, fresh: Callable[[], Subject], trace: Trace, deadline: float) -> None:
        self.fresh = fresh
        self.trace = trace
        self.deadline = deadline
        self.subject: Subject | None = None
        self.reference = ReferenceEngine()
        self.can_export = False
        self.state: JSON | None = None
        """The engine's canonical state after the last step it accepted (None without ``export``)."""
        self.listing: list[JSON] | None = None
        """The engine's legal actions at the current position, once asked (listing steps in a row ask once)."""

    def listed_now(self) -> list[JSON]:
        if self.listing is None:
            self.listing = self.engine().legal_actions()
        return self.listing

    # ------------------------------------------------------------------ the two engines

    def engine(self) -> Subject:
        assert self.subject is not None
        return self.subject

    def in_time(self) -> None:
        if time.perf_counter() > self.deadline:
            raise _Unreplayable("the replay's budget ran out")

    def start(self) -> CauseFacts | None:
        """Both engines at the check's start (step 0), compared."""
        subject = self.subject = self.fresh()
        self.can_export = subject.handshake.can("export")
        self.reference = ReferenceEngine(subject.handshake.variants)
        trace = self.trace
        if trace.snapshot is not None:
            subject.load_snapshot(trace.snapshot)
            self.reference.load(trace.snapshot)
            return self.compare_after(TraceStep(StepKind.APPLY, None, 0), [])
        assert trace.setup is not None
        if subject.handshake.can("internal_shuffle"):
            raise _Unreplayable("the engine deals its own deck")
        events = subject.new_game(trace.setup)
        self.reference.new_game(trace.setup)
        return self.compare_after(TraceStep(StepKind.APPLY, None, 0), events)

    def run(self) -> CauseFacts | None:
        found = self.start()
        for step in self.trace.steps:
            if found is not None:
                return found
            self.in_time()
            found = _STEPS[step.kind](self, step)
        return found

    # ------------------------------------------------------------------ the steps

    def apply(self, step: TraceStep) -> CauseFacts | None:
        action = step.action
        assert action is not None
        subject, reference = self.engine(), self.reference
        before = self.state
        self.listing = None
        engine = subject.apply(action)
        verdict = reference.apply(action)
        if engine.get("accepted") and not verdict.get("accepted"):
            return self.accepted_illegal(step, verdict.get("rejection") or {})
        if verdict.get("accepted") and not engine.get("accepted"):
            return self.rejected_legal(step, engine.get("rejection") or {})
        if not engine.get("accepted"):
            return self.both_rejected(step, engine.get("rejection") or {}, verdict.get("rejection") or {}, before)
        events = engine.get("events")
        listed = events if isinstance(events, list) else []
        return self.compare_after(step, [e for e in listed if isinstance(e, dict)]) or self.events_after(step, listed)

    def listed(self, step: TraceStep) -> CauseFacts | None:
        action = step.action
        assert action is not None
        ordered = answer_is_ordered(self.reference.decision())
        keys = {canonical_action(a, ordered) for a in self.listed_now()}
        return self.judged(step, action, canonical_action(action, ordered) in keys)

    def tried(self, step: TraceStep) -> CauseFacts | None:
        """The engine's verdict on the action, without applying it (``try_actions`` where it has it)."""
        action = step.action
        assert action is not None
        [verdict] = self.engine().judge([action])
        return self.judged(step, action, bool(verdict.get("accepted")), listed=False,
                           rejection=verdict.get("rejection") or {})

    def legal(self, step: TraceStep) -> CauseFacts | None:
        """The first action the engine lists and the reference does not, else the first the reference lists and the
        engine does not."""
        ordered = answer_is_ordered(self.reference.decision())
        listed = {canonical_action(a, ordered): a for a in self.listed_now()}
        legal = {canonical_action(a, ordered): a for a in self.reference.legal_actions()}
        differing = [(a, True) for k, a in sorted(listed.items()) if k not in legal]
        differing += [(a, False) for k, a in sorted(legal.items()) if k not in listed]
        if not differing:
            return None
        action, lists = differing[0]
        return self.judged(TraceStep(StepKind.LISTED, action, step.number), action, lists)

    def judged(self, step: TraceStep, action: JSON, lists: bool, listed: bool = True,
               rejection: JSON | None = None) -> CauseFacts | None:
        """The engine lists ``action`` (or not; with ``listed`` false: accepts it or not, refusing it with
        ``rejection``); the reference judges it without applying it."""
        table = self.reference.table
        assert table is not None
        refusal = reference_actions.check(table, self.reference.spec, action)
        if lists and refusal is not None:
            return self.accepted_illegal(step, refusal.to_json(), listed=listed)
        if not lists and refusal is None:
            engine = rejection if rejection is not None else self.engine_rejection(action)
            return self.rejected_legal(step, engine, listed=listed)
        return None

    def engine_rejection(self, action: JSON) -> JSON:
        """Why the engine refuses an action it does not list: its ``try_actions`` verdict where it has the
        capability, else its answer on a copy (empty when it accepts it)."""
        try:
            [result] = self.engine().judge([action])
        except EngineFault:
            return {}
        rejection = result.get("rejection")
        return rejection if not result.get("accepted") and isinstance(rejection, dict) else {}

    # ------------------------------------------------------------------ the verdicts

    def accepted_illegal(self, step: TraceStep, rejection: JSON, listed: bool = False) -> CauseFacts:
        action = step.action or {}
        blame = rejection_blame(self.reference, action, rejection)
        verb = "lists" if listed else "accepts"
        return CauseFacts(Verdict.ACCEPTS, decision_kind(action.get("type")), blame.code, rule=blame.rule,
                          step=step.number, cards=tuple(dict.fromkeys((*action_cards(action), *blame.cards))),
                          reference_does=f"rejects {action_words(action)} ({rejection.get('code', '')}, "
                                         f"{blame.rule}: {rejection.get('message', '')})",
                          engine_does=f"{verb} {action_words(action)}")

    def rejected_legal(self, step: TraceStep, rejection: JSON, listed: bool = False) -> CauseFacts:
        action = step.action or {}
        code = str(rejection.get("code", ""))
        blame = acceptance_blame(self.reference, action, code)
        verb = "does not list" if listed else "rejects"
        return CauseFacts(Verdict.REJECTS, decision_kind(action.get("type")), code, rule=blame.rule,
                          step=step.number, cards=tuple(dict.fromkeys((*action_cards(action), *blame.cards))),
                          engine_message=str(rejection.get("message", "")),
                          reference_does=f"accepts {action_words(action)} ({blame.rule})",
                          engine_does=f"{verb} {action_words(action)}" + (f" ({code})" if code else ""))

    def both_rejected(self, step: TraceStep, engine: JSON, reference: JSON, before: JSON | None) -> CauseFacts | None:
        action = step.action or {}
        rule = rejection_blame(self.reference, action, reference).rule
        message = str(engine.get("message", ""))
        after = canonical(self.engine().export()) if before is not None else None
        where = first_difference(before, after) if before is not None else None
        if where is not None:
            return CauseFacts(Verdict.CHANGED_THEN_REJECTED, decision_kind(action.get("type")),
                              str(reference.get("code", "")), field=field_pattern(where), rule=UNCHANGED_BY_REJECTION,
                              step=step.number, cards=action_cards(action), engine_message=message,
                              reference_does=f"rejects {action_words(action)} and leaves the state as it was",
                              engine_does=f"rejects {action_words(action)} but changes {where} from "
                                          f"{show(value_at(before, where), 120)} to "
                                          f"{show(value_at(after, where), 120)}")
        code, reference_code = str(engine.get("code", "")), str(reference.get("code", ""))
        if code == reference_code:
            return None
        past = verdict_past(self.reference, action, reference)
        if past is not None and past.get("code") == code:
            facts = self.accepted_illegal(step, reference)
            return dataclasses.replace(facts, engine_message=message,
                                       engine_does=f"rejects {action_words(action)} only with {code}, as if "
                                                   f"{facts.rule} did not apply ({message})")
        return CauseFacts(Verdict.OTHER_CODE, decision_kind(action.get("type")), code, reference_code, rule=rule,
                          step=step.number, cards=action_cards(action), engine_message=message,
                          reference_does=f"rejects {action_words(action)} with {reference_code} ({rule})",
                          engine_does=f"rejects it with {code}")

    def compare_after(self, step: TraceStep, engine_events: list[JSON]) -> CauseFacts | None:
        """Both accepted ``step`` (or both started): the pending decisions and the states. When both differ, the state
        comes first if the reference wrote the differing field at this step (the engine went wrong on the way and
        then asks something else), else the decision (the engine skipped or added a decision and went on)."""
        subject, reference = self.engine(), self.reference
        account = reference.account
        pending, expected = subject.decision(), reference.decision()
        if expected is not None and expected.get("kind") == "shuffle" and (pending or {}).get("kind") != "shuffle" \
                and subject.handshake.can("internal_shuffle"):
            raise _Unreplayable("the engine reshuffles by itself")
        decision = decision_difference(expected, pending)
        state: tuple[str, JSON, JSON] | None = None
        if self.can_export:
            actual, wanted = canonical(subject.export()), canonical(reference.export())
            self.state = actual
            where = first_difference(wanted, actual)
            state = (where, wanted, actual) if where is not None else None
        if state is not None and (decision is None or account.writers(state[0].split(" ")[0])):
            return self.state_differs(step, *state, account, engine_events)
        if decision is not None:
            return self.decision_differs(step, decision, expected, pending, account)
        return None

    def events_after(self, step: TraceStep, engine_events: list[object]) -> CauseFacts | None:
        """Both accepted ``step`` and agree on the state and the decision: the engine's events against the reference's,
        when the engine declares ``events`` (:mod:`oracle.engines.events`)."""
        if not self.engine().handshake.can("events"):
            return None
        account = self.reference.account
        found = event_difference(engine_events, account.events, account.root)
        if found is None:
            return None
        action = step.action
        cards = tuple(dict.fromkeys((*action_cards(action), *_event_cards(found.reference or found.engine or {}))))
        return CauseFacts(Verdict.DIFFERS, str((action or {}).get("type")), field=found.field, rule=found.rule,
                          step=step.number, cards=cards,
                          reference_does=f"after {action_words(action)} {found.reference_does}",
                          engine_does=found.engine_does)

    def decision_differs(self, step: TraceStep, where: str, expected: JSON | None, pending: JSON | None,
                         account: Account) -> CauseFacts:
        """The pending decisions differ: for an item offered on one side only, the verdict on the answer choosing
        it; else the field, blamed on the rule under which the reference asks (the end of the game when only one
        side asks anything)."""
        action = step.action
        key = where.partition(".")[2]
        if expected is not None and pending is not None and key in LISTS:
            ours, theirs = list(expected.get(key) or []), list(pending.get(key) or [])
            extra = [i for i in theirs if i not in ours]
            missing = [i for i in ours if i not in theirs]
            answer = ANSWERS.get(str(expected.get("kind")))
            if answer is not None and (extra or missing):
                return self.item_differs(step, expected, pending, answer, extra, missing, account)
        rule = GAME_END_RULE if expected is None or pending is None else account.decision_rule
        source = (expected or pending or {}).get("source")
        cards = tuple(dict.fromkeys((*action_cards(action), *_ids(source))))
        return CauseFacts(Verdict.DIFFERS, str(action.get("type")) if action is not None else "new_game",
                          field=where, rule=rule, step=step.number, cards=cards,
                          reference_does=f"after {action_words(action)} {decision_words(expected)}",
                          engine_does=decision_words(pending))

    def item_differs(self, step: TraceStep, expected: JSON, pending: JSON, answer: Callable[[object, object], JSON],
                     extra: list[object], missing: list[object], account: Account) -> CauseFacts:
        """An item offered by the engine and not the reference is an answer the engine accepts and the reference
        refuses (blamed on the item's own rule, else the refusal's); one the engine does not offer, an answer it
        refuses (blamed on the item's rule, else the decision's)."""
        item = (extra or missing)[0]
        chosen = answer(expected.get("player"), item)
        kind = str(expected.get("kind"))
        table = self.reference.table
        assert table is not None
        cards = tuple(dict.fromkeys((*action_cards(step.action), *_ids(expected.get("source")), *_ids(item))))
        offered = f"after {action_words(step.action)} {decision_words(expected)}"
        if extra:
            rejection = reference_actions.check(table, self.reference.spec, chosen)
            refusal = rejection.to_json() if rejection is not None else {}
            blame = item_blame(self.reference, expected, item, str(refusal.get("code", ""))) \
                or rejection_blame(self.reference, chosen, refusal)
            return CauseFacts(Verdict.ACCEPTS, kind, blame.code, rule=blame.rule or account.decision_rule,
                              step=step.number, cards=tuple(dict.fromkeys((*cards, *blame.cards))),
                              reference_does=f"{offered}, without {show(item)}",
                              engine_does=f"also offers {show(item)}: {decision_words(pending)}")
        refusal = self.engine_rejection(chosen)
        found = item_blame(self.reference, expected, item, str(refusal.get("code", "")))
        return CauseFacts(Verdict.REJECTS, kind, str(refusal.get("code", "")),
                          rule=(found.rule if found is not None else "") or account.decision_rule,
                          step=step.number, cards=cards, engine_message=str(refusal.get("message", "")),
                          reference_does=f"{offered}, {show(item)} among them",
                          engine_does=f"does not offer {show(item)}: {decision_words(pending)}")

    def state_differs(self, step: TraceStep, where: str, wanted: JSON, actual: JSON, account: Account,
                      engine_events: list[JSON]) -> CauseFacts:
        action = step.action
        path = where.split(" ")[0]
        rule, named = self.writer_rule(path, account, engine_events)
        cards = tuple(dict.fromkeys((*action_cards(action), *named)))
        return CauseFacts(Verdict.DIFFERS, str(action.get("type")) if action is not None else "new_game",
                          field=field_pattern(path), rule=rule, step=step.number, cards=cards,
                          reference_does=f"after {action_words(action)} has {path} = "
                                         f"{show(value_at(wanted, path), 160)}",
                          engine_does=f"has {path} = {show(value_at(actual, path), 160)}")


    @staticmethod
    def writer_rule(path: str, account: Account, engine_events: list[JSON]) -> tuple[str, tuple[str, ...]]:
        """The rule (and the cards) behind a state field that differs after a step:

        * the first event of the reference that wrote it and that the engine did not emit;
        * else, when the engine emitted an event writing it that the reference did not, the rule in force at that
          point of the reference's step: a rule it applied there without an event (Kappa's own summon is no
          trigger, EFF-3), else the rule of the reference's event just before;
        * else (the engine gives no events) the first event of the reference that wrote it, or the first rule it
          applied to that player's position without an event, or the step's own rule.
        """
        writers = account.writers(path)
        written = [w.event for w in writers]
        missed = [w for w in writers if w.event not in engine_events] if engine_events else []
        if missed:
            return missed[0].rule, _event_cards(missed[0].event)
        extra = [i for i, e in enumerate(engine_events) if writes(e, path) and e not in written]
        if extra:
            emitted = [r.event for r in account.events]
            at = sum(1 for e in engine_events[: extra[0]] if e in emitted)
            there = [q.rule for q in account.quiet if q.after == at]
            before = account.events[at - 1].rule if 0 < at <= len(account.events) else account.root
            return (there[-1] if there else before), _event_cards(engine_events[extra[0]])
        if writers:
            return writers[0].rule, _event_cards(writers[0].event)
        quiet = account.quiet_for(path)
        return (quiet[0].rule if quiet else account.root), ()


def _event_cards(event: JSON) -> tuple[str, ...]:
    return (*_ids(event.get("card")), *_ids(event.get("source")), *_ids(event.get("tile")))


ANSWERS: dict[str, Callable[[object, object], JSON]] = {
    "choose_cards": lambda player, item: {"type": "choose_cards", "player": player, "cards": [item]},
    "choose_options": lambda player, item: {"type": "choose_options", "player": player, "options": [item]},
    "choose_player": lambda player, item: {"type": "choose_player", "player": player, "target": item},
    "next_active": lambda player, item: {"type": "resolve_active", "player": player, "card": item},
    "artifact_pick": lambda player, item: {"type": "take_artifact", "player": player, "tile": item},
    "hunt_pick": lambda player, item: {"type": "pick", "player": player, "card": item},
}
"""The answer choosing one item of a decision, by the decision's kind (a shuffle's cards are no choice)."""


_STEPS: dict[StepKind, Callable[[_Replay, TraceStep], CauseFacts | None]] = {
    StepKind.APPLY: _Replay.apply,
    StepKind.LISTED: _Replay.listed,
    StepKind.LEGAL: _Replay.legal,
    StepKind.TRIED: _Replay.tried,
}


def first_divergence(fresh: Callable[[], Subject], trace: Trace, seconds: float) -> CauseFacts | None:
    """The facts of the first step where the engine (a new one from ``fresh``) and the reference differ, replaying
    ``trace`` within ``seconds``; None when they never differ, or the replay could not be completed (a fault on
    either side, the budget, an engine that reshuffles by itself)."""
    replay = _Replay(fresh, trace, time.perf_counter() + seconds)
    try:
        return replay.run()
    except (EngineFault, _Unreplayable):
        return None
    except Exception:  # the reference refusing the check's position: the check's own facts stand
        return None


def blamed(fresh: Callable[[], Subject], trace: Trace, facts: CauseFacts | None, check_seconds: float,
           ceiling: float = float("inf")) -> CauseFacts | None:
    """The facts a failing check reports: those of its first divergence when the replay finds one (within the
    check's own time, at least :data:`MIN_REPLAY_SECONDS`, never more than ``ceiling``: what is left of the unit's
    deadline), else the check's own ``facts``."""
    found = first_divergence(fresh, trace, min(max(check_seconds, MIN_REPLAY_SECONDS), ceiling))
    return found if found is not None else facts
