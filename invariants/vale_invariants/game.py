"""One fuzzed game: drive an engine through the protocol, check the invariants after every step, and
(in lock-step mode) compare it with the reference engine fed the same inputs.

Every choice comes from a :class:`Chooser` (Hypothesis when fuzzing, ``random.Random`` in benchmarks):
three draws fix the set-up, then one draw per decision picks the action and which illegal action (if
any) to try first, and one per reshuffle fixes the new order. The game raises :class:`Violation` at
the first broken invariant or divergence.
"""

from __future__ import annotations

import contextlib
import copy
import marshal
import random
import signal
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

from oracle.harness import EngineFault, EngineTimeout, Subject, where_raised
from oracle.play import ADVANCED_TILES, random_deck
from oracle.protocol import ANSWERS, DecisionKind, RejectionCode
from oracle.reference import ReferenceEngine
from oracle.reference.snapshot import parse_setup, tiles_for
from oracle.results import Outcome
from vale_invariants import checks
from vale_invariants.actions import (
    PROBE_CORRUPT,
    PROBE_PROTOCOL,
    PROBE_UNLISTED,
    action_key,
    greedy,
    keys_of,
    pick_probe,
    probe_pool,
)
from vale_invariants.catalog import ENGINE_FAULT, INVARIANTS, LOCKSTEP, REFERENCE_FAULT
from vale_invariants.checks import Finding, ReferenceView
from vale_invariants.lockstep import (
    cost_rules,
    decision_difference,
    decision_rules,
    first_state_difference,
    legal_difference,
    missing_rules,
    option_rules,
    reference_rejection,
    state_rules,
)
from vale_invariants.trace import Divergence, Failure, Trace, Violation, compact, show_decision

JSON = dict[str, Any]

MAX_STEPS = 3000
STEP_CALLS = 4
SEED_MAX = 2**32 - 1
PROBE_SLOTS = 8
KNOWN_CODES = frozenset(c.value for c in RejectionCode)


class Chooser(Protocol):
    def integer(self, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high`` inclusive."""
        ...


class RandomChooser:
    """Choices from ``random.Random(seed)``: for benchmarks and quick runs without Hypothesis."""

    def __init__(self, seed: object) -> None:
        self.rng = random.Random(str(seed))

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


class ReplayChooser:
    """Replays recorded choices (then 0, the default choice, when they run out)."""

    def __init__(self, choices: list[int]) -> None:
        self.choices = list(choices)
        self.index = 0

    def integer(self, low: int, high: int) -> int:
        value = self.choices[self.index] if self.index < len(self.choices) else low
        self.index += 1
        return min(max(value, low), high)


@dataclass
class Stats:
    games: int = 0
    decisions: int = 0
    truncated: int = 0
    checks: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True)
class GameSettings:
    factory: Callable[[], Any]
    impl: str
    players: tuple[int, ...]
    active: frozenset[str]
    lockstep: bool
    timeout: float = 5.0
    max_steps: int = MAX_STEPS
    positions: bool = False
    modes: tuple[str, ...] = ("base",)


class GameRunner:
    """Plays one game; :meth:`play` returns the trace or raises :class:`Violation`."""

    def __init__(self, settings: GameSettings, chooser: Chooser, stats: Stats | None = None) -> None:
        self.settings = settings
        self.chooser = chooser
        self.stats = stats if stats is not None else Stats()
        self.trace = Trace(setup={})
        self.reference: ReferenceEngine | None = None
        self.reference_snapshot: JSON | None = None
        self.history: list[JSON | None] = []
        self.can_export = False
        self.active: frozenset[str] = settings.active
        self.deck: frozenset[str] = frozenset()
        self._subject: Subject | None = None
        self._exported: tuple[JSON, JSON] | None = None
        self._armed = False
        self._calling = "new_game"
        self._twin: Subject | None = None
        self.keep_copies = True

    @property
    def subject(self) -> Subject:
        assert self._subject is not None, "no game started"
        return self._subject

    # ------------------------------------------------------------------ choices and failures

    def draw(self, low: int, high: int) -> int:
        value = self.chooser.integer(low, high)
        self.trace.choices.append(value)
        return value

    def fail(self, finding: Finding, step: int, mode: str = "invariants") -> Violation:
        return Violation(Failure(finding.invariant, mode, finding.rules, finding.message, step, self.trace,
                                 finding.expected, finding.actual, finding.outcome))

    def diverge(self, divergence: Divergence) -> Violation:
        rules = divergence.rules
        shown = show_decision if divergence.kind == "decision" else _text
        return Violation(Failure(LOCKSTEP.name, "lockstep", rules, divergence.describe(), divergence.step,
                                 self.trace, shown(divergence.expected), shown(divergence.actual),
                                 Outcome.ILLEGAL_ACCEPTED if divergence.kind == "rejected" else Outcome.FAIL,
                                 divergence))

    def fault(self, invariant: str, fault: EngineFault, step: int, what: str = "") -> Violation:
        outcome = {"timeout": Outcome.TIMEOUT}.get(fault.kind, Outcome.ERROR)
        detail = fault.message
        if fault.kind == "timeout":
            detail = f"no answer within the step's budget of {self.settings.timeout * STEP_CALLS:g} s " \
                     f"({STEP_CALLS} calls of {self.settings.timeout:g} s)"
        message = f"engine {fault.kind} in {fault.method}(){what}: {detail}"
        return Violation(Failure(invariant, "invariants", (), message, step, self.trace, outcome=outcome))

    def on(self, name: str) -> bool:
        if name in self.active:
            self.stats.checks[name] += 1
            return True
        return False

    def _reference(self, step: int, method: str, call: Callable[[], Any]) -> Any:
        try:
            return call()
        except Exception as exc:
            raise Violation(Failure(REFERENCE_FAULT.name, "lockstep", (), f"the reference raised in {method}(): "
                                    f"{type(exc).__name__}: {exc}", step, self.trace, outcome=Outcome.ERROR)) from None

    # ------------------------------------------------------------------ the game

    def play(self) -> Trace:
        with contextlib.suppress(_Stop), self._alarms():
            self._play()
        return self.trace

    # ------------------------------------------------------------------ time limits

    @contextlib.contextmanager
    def _alarms(self) -> Iterator[None]:
        """One SIGALRM handler per game, re-armed at each step, instead of one per engine call (the harness's
        per-call guard costs more than a whole decision of the reference engine)."""
        usable = (self.settings.timeout > 0 and hasattr(signal, "setitimer")
                  and threading.current_thread() is threading.main_thread())
        if not usable:
            yield
            return

        def on_alarm(signum: int, frame: object) -> None:
            raise EngineTimeout()

        previous = signal.signal(signal.SIGALRM, on_alarm)
        self._armed = True
        try:
            yield
        except EngineTimeout:
            raise self.fault(ENGINE_FAULT.name, EngineFault("timeout", self._calling, "no answer"), 0) from None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            self._armed = False

    def _arm(self, what: str) -> None:
        """Start the time budget of one step (STEP_CALLS engine calls at most ``timeout`` each)."""
        self._calling = what
        if self._armed:
            signal.setitimer(signal.ITIMER_REAL, self.settings.timeout * STEP_CALLS)

    def _new_subject(self) -> Subject:
        """A Subject whose calls the step alarm times (see :meth:`_alarms`), else a Subject with its own."""
        if self._armed:
            return _LeanSubject(self.settings.factory, self.settings.impl, 0)
        return Subject(self.settings.factory, self.settings.impl, self.settings.timeout)

    def _play(self) -> None:
        settings = self.settings
        players = settings.players[self.draw(0, len(settings.players) - 1)]
        first = self.draw(0, players - 1)
        mode = settings.modes[self.draw(0, len(settings.modes) - 1)] if len(settings.modes) > 1 else settings.modes[0]
        deck_seed = self.draw(0, SEED_MAX)
        setup: JSON = {"players": players, "first_player": first, "deck": random_deck(deck_seed, mode != "base")}
        if mode != "base":
            setup["expansion"] = True
        if mode == "artifacts":
            setup["artifacts"] = True
            setup["advanced_tiles"] = sorted(random.Random(f"tiles-{deck_seed}").sample(ADVANCED_TILES, 3))
        self.trace.setup = setup
        self.deck = frozenset(setup["deck"])
        self.trace.positions = settings.positions
        self.trace.modes = settings.modes
        if settings.positions and self.draw(0, 1):
            self.trace.start = self._position(setup)
        start = self.trace.start
        step = 0
        self._arm("new_game")
        try:
            subject = self._new_subject()
            self._subject = subject
            self.can_export = subject.handshake.can("export")
            # Snapshots kept across steps are copied, unless only the lock-step comparison runs (it compares
            # each snapshot at once; copying would cost 5% of a lock-step decision).
            self.keep_copies = any(name != LOCKSTEP.name for name in settings.active)
            self.active = frozenset(
                name for name in settings.active
                if name not in INVARIANTS or all(subject.handshake.can(c) for c in INVARIANTS[name].needs)
            )
            if start is None:
                subject.new_game(setup)
            else:
                subject.load_snapshot(start)
            if settings.lockstep:
                reference = ReferenceEngine()
                self.reference = reference
                if start is None:
                    self._reference(0, "new_game", lambda: reference.new_game(setup))
                else:
                    self._reference(0, "load", lambda: reference.load(start))
            snapshot = self._export()
            pending = subject.decision()
        except EngineFault as fault:
            raise self.fault(ENGINE_FAULT.name, fault, 0) from None
        if snapshot is not None and start is None and self.on("INV-SETUP"):
            self._raise(checks.check_setup(snapshot, setup), 0)
        self._check_state(None, snapshot, pending, 0)
        if self.reference is not None:
            self._compare_after(None, None, snapshot, pending, 0)
        self._roundtrip(snapshot, 0)
        self.history.append(snapshot if snapshot is not None else pending)
        while pending is not None:
            self._arm("apply")
            if step >= settings.max_steps:
                if self.on("INV-PROGRESS"):
                    self._raise(Finding("INV-PROGRESS", "END-1", f"no end after {step} decisions",
                                        "game over by round 10", f"still going at round {_round(snapshot)}"), step)
                self.stats.truncated += 1
                return
            try:
                action, legal, probe_slot, salt = self._choose(pending, snapshot, step)
                if probe_slot:
                    self._probe(probe_slot, pending, snapshot, legal, salt, step)
                step += 1
                self.stats.decisions += 1
                result = subject.apply(action)
                if not result["accepted"]:
                    self._rejected_legal(action, result, step)
                self.trace.actions.append(action)
                after = self._export(step)
                pending_after = subject.decision()
            except EngineFault as fault:
                raise self.fault(ENGINE_FAULT.name, fault, step) from None
            self._check_step(snapshot, action, after, pending_after, step)
            if self.reference is not None:
                self._compare_after(action, snapshot, after, pending_after, step)
            self._roundtrip(after, step)
            if self.keep_copies:
                self.history.append(after if after is not None else pending_after)
            snapshot, pending = after, pending_after
        self._arm("replay")
        self._determinism(step)

    def _export(self, step: int = 0) -> JSON | None:
        """The engine's snapshot, copied (the engine may keep changing what it returned: see INV-SNAPSHOT-STABLE)."""
        if not self.can_export:
            return None
        if self._exported is not None and self.on("INV-SNAPSHOT-STABLE"):
            returned, copied = self._exported
            if returned != copied:
                where = first_state_difference(copied, returned) or _private_difference(copied, returned)
                self._raise(Finding("INV-SNAPSHOT-STABLE", "PROTO-1", f"a snapshot export() returned earlier "
                                    f"changed while the game went on (at {where}): it shares mutable state with "
                                    "the engine", "the snapshot as returned", f"{where} changed"), step)
        returned = self.subject.export()
        if not self.keep_copies:
            return returned
        copied = freeze(returned)
        self._exported = (returned, copied)
        return copied

    def _position(self, setup: JSON) -> JSON:
        """A random Action-phase position: the round, then each player's hand, area, stones and score (with the
        tiles also their shelter, Additional Areas and held tile), then the discard pile and (with the tiles)
        the square markers, dealt from the set-up's deck (the rest is the draw pile)."""
        n = setup["players"]
        artifacts = bool(setup.get("artifacts"))
        round_number = self.draw(1, 10)
        deck = list(setup["deck"])
        free_tiles = tiles_for(parse_setup(setup)) if artifacts else []
        players: list[JSON] = []
        for _ in range(n):
            hand_size = self.draw(0, 8)
            area_size = self.draw(0, min(round_number - 1, 3))
            hand, area, deck = deck[:hand_size], deck[hand_size:hand_size + area_size], deck[hand_size + area_size:]
            purple = self.draw(0, 2)
            blue = self.draw(0, 4 - purple)
            red = self.draw(0, 4 - purple - blue)
            score = self.draw(0, 45)
            player: JSON = {"score": score, "hand": sorted(hand), "area": sorted(area),
                            "stones": {"red": red, "blue": blue, "purple": purple}, "markers": []}
            if artifacts:
                shelter_size = self.draw(0, 2)
                player["shelter"], deck = sorted(deck[:shelter_size]), deck[shelter_size:]
                player["extra_areas"] = self.draw(0, 2)
                held = self.draw(0, len(free_tiles))
                player["artifact"] = free_tiles.pop(held - 1) if held else None
            players.append(player)
        markers: dict[str, int] = {}
        for index in range(n if artifacts else 0):
            marked = self.draw(0, len(free_tiles))
            if marked and free_tiles[marked - 1] not in markers:
                markers[free_tiles[marked - 1]] = index
        discard_size = self.draw(0, 12)
        first = setup["first_player"]
        position: JSON = {
            "setup": {"players": n, "rounds": 10, "end_score": 80 if artifacts else 60,
                      "expansion": bool(setup.get("expansion")), "artifacts": artifacts, "variants": {}},
            "round": round_number, "phase": "action", "first_player": first, "turn_player": first,
            "actives_used": [], "players": players, "display": [], "draw_pile": deck[discard_size:],
            "discard_pile": sorted(deck[:discard_size]), "winners": [],
        }
        if artifacts:
            position["setup"]["advanced_tiles"] = list(setup["advanced_tiles"])
            position["artifacts"] = {"display": sorted(free_tiles), "square_markers": dict(sorted(markers.items()))}
        return position

    # ------------------------------------------------------------------ choosing

    def _choose(self, pending: JSON, snapshot: JSON | None, step: int) -> tuple[JSON, list[JSON], int, int]:
        """The action to take, the legal list, the probe category (0 for none) and a salt for the probe."""
        if pending.get("kind") == DecisionKind.SHUFFLE.value:
            seed = self.draw(0, SEED_MAX)
            cards = pending.get("cards")
            if not isinstance(cards, list) and snapshot is not None:
                cards = snapshot.get("discard_pile", [])
            order = sorted(cards or [])
            random.Random(f"shuffle-{seed}").shuffle(order)
            action: JSON = {"type": "shuffle", "player": None, "order": order}
            slot = _probe_category(seed % PROBE_SLOTS)
            return action, [action], slot, seed
        legal = self.subject.legal_actions()
        self._check_listed(pending, legal, step)
        if self.reference is not None:
            self._compare_legal(pending, legal, step)
        n = len(legal)
        x = self.draw(0, 2 * n * PROBE_SLOTS - 1)
        c = x % (2 * n)
        action = greedy(pending, legal, snapshot) if c < n else legal[c - n]
        return action, legal, _probe_category(x // (2 * n)), x

    def _check_listed(self, pending: JSON, legal: list[JSON], step: int) -> None:
        if not self.on("INV-LEGAL-APPLIES"):
            if not legal:
                raise _Stop()
            return
        if not legal:
            self._raise(Finding("INV-LEGAL-APPLIES", "DEC-2", f"no legal action is listed for the pending "
                                f"decision {pending}", "at least one legal action", "none"), step)
        try:
            answers = ANSWERS[DecisionKind(pending.get("kind"))]
        except ValueError:
            self._raise(Finding("INV-LEGAL-APPLIES", "DEC-2", f"unknown decision kind {pending.get('kind')!r}",
                                "a protocol decision kind", str(pending.get("kind"))), step)
            return
        kinds = {a.value for a in answers}
        for action in legal:
            if not isinstance(action, dict) or action.get("type") not in kinds:
                self._raise(Finding("INV-LEGAL-APPLIES", "DEC-2", f"the listed action {action} does not answer a "
                                    f"{pending.get('kind')} decision", f"one of {sorted(kinds)}", str(action)), step)
            if action.get("player") != pending.get("player"):
                self._raise(Finding("INV-LEGAL-APPLIES", "DEC-1", f"the listed action {compact(action)} is for "
                                    f"another player than the decision's", str(pending.get("player")),
                                    str(action.get("player"))), step)

    def _rejected_legal(self, action: JSON, result: JSON, step: int) -> NoReturn:
        rejection = result.get("rejection") or {}
        if self.on("INV-LEGAL-APPLIES"):
            rule = str(rejection.get("rule", ""))
            self._raise(Finding("INV-LEGAL-APPLIES", "DEC-2", f"the engine listed {compact(action)} as legal, then "
                                f"rejected it: {rejection}", "accepted", f"rejected {rejection.get('code')}",
                                Outcome.WRONGLY_REJECTED, (rule,)), step)
        if self.reference is not None and "LOCKSTEP" in self.active:
            reference = self.reference
            verdict = self._reference(step, "apply", lambda: reference.apply(action))
            if verdict.get("accepted"):
                raise self.diverge(Divergence("accepted", step - 1, action, rejection=rejection,
                                              rules=missing_rules(action, rejection)))
        raise _Stop()

    # ------------------------------------------------------------------ invariants

    def _raise(self, finding: Finding | None, step: int) -> None:
        if finding is not None:
            raise self.fail(finding, step)

    def _check_state(self, before: JSON | None, snapshot: JSON | None, pending: JSON | None, step: int) -> None:
        if snapshot is None:
            return
        if self.on("INV-LIMIT"):
            self._raise(checks.check_limit(snapshot, pending, ReferenceView(snapshot)), step)
        if self.on("INV-AREA"):
            self._raise(checks.check_area(snapshot), step)
        if self.on("INV-CONSERVATION"):
            self._raise(checks.check_conservation(snapshot, self.deck), step)
        if self.on("INV-SCORE-FLOOR"):
            self._raise(checks.check_score_floor(snapshot), step)
        if self.on("INV-TURN-ORDER"):
            self._raise(checks.check_turn_order(before, snapshot, pending), step)

    def _check_step(self, before: JSON | None, action: JSON, after: JSON | None, pending: JSON | None,
                    step: int) -> None:
        if before is None or after is None:
            return
        if action.get("type") in ("summon", "remove") and self.on("INV-PAYMENT"):
            self._raise(checks.check_payment_step(before, action, after, ReferenceView(before)), step)
        self._check_state(before, after, pending, step)
        if self.on("INV-PROGRESS"):
            self._raise(checks.check_progress(before, after, pending), step)

    def _probe(self, category: int, pending: JSON, snapshot: JSON | None, legal: list[JSON], salt: int,
               step: int) -> None:
        """Try one illegal action: it must be rejected with a known code and change nothing (invariants
        mode), and the reference must reject it too (lock-step mode)."""
        checking = "INV-ILLEGAL-REJECTED" in self.active
        comparing = self.reference is not None and "LOCKSTEP" in self.active
        if not checking and not comparing:
            return
        players = len(snapshot["players"]) if snapshot is not None else self.trace.setup["players"]
        pool = probe_pool(category, pending, snapshot, legal, players, salt)
        if not pool:
            return
        probe = pick_probe(pool, keys_of(legal), salt * 7919 + step)
        if probe is None:
            return
        if checking:
            self.stats.checks["INV-ILLEGAL-REJECTED"] += 1
        try:
            result = self.subject.apply(probe)
        except EngineFault as fault:
            self.trace.probe = probe
            raise self.fault("INV-ILLEGAL-REJECTED", fault, step, f" on the illegal action {compact(probe)}") \
                from None
        expected = reference_rejection(self.reference, probe) if comparing and self.reference is not None else None
        if result["accepted"]:
            self.trace.probe = probe
            if checking:
                view = ReferenceView(snapshot).engine
                rejection = reference_rejection(view, probe) if view is not None else None
                raise self.fail(self._accepted_probe(probe, rejection), step + 1)
            if expected is not None:
                raise self.diverge(Divergence("probe", step, probe, rejection=expected,
                                              rules=_dedupe([str(expected.get("rule", "")), "DEC-2"])))
            raise _Stop()
        if comparing and expected is None and self.reference is not None:
            self.trace.probe = probe
            rejection = result.get("rejection") or {}
            raise self.diverge(Divergence("accepted", step, probe, rejection=rejection,
                                          rules=missing_rules(probe, rejection)))
        if checking:
            self._check_rejection(probe, result, pending, snapshot, step)

    def _accepted_probe(self, probe: JSON, rejection: JSON | None) -> Finding:
        if rejection is not None:
            return Finding("INV-ILLEGAL-REJECTED", str(rejection.get("rule", "")),
                           f"the engine accepted {compact(probe)}, which the rules forbid: {rejection.get('message')}",
                           f"rejected {rejection.get('code')}", "accepted", Outcome.ILLEGAL_ACCEPTED, ("DEC-2",))
        return Finding("INV-ILLEGAL-REJECTED", "DEC-2", f"the engine accepted {compact(probe)}, which its "
                       "legal_actions() does not list", "rejected (not listed as legal)", "accepted",
                       Outcome.ILLEGAL_ACCEPTED)

    def _check_rejection(self, probe: JSON, result: JSON, pending: JSON, snapshot: JSON | None, step: int) -> None:
        code = result["rejection"].get("code")
        if code not in KNOWN_CODES:
            self.trace.probe = probe
            self._raise(Finding("INV-ILLEGAL-REJECTED", "DEC-2", f"{compact(probe)} was rejected with the unknown "
                                f"code {code!r}", "a protocol rejection code", str(code)), step + 1)
        try:
            if snapshot is not None:
                again = self.subject.export()
                where = None if again == snapshot else first_state_difference(snapshot, again) or "private"
            else:
                where = None if self.subject.decision() == pending else "decision"
        except EngineFault as fault:
            raise self.fault("INV-ILLEGAL-REJECTED", fault, step) from None
        if where is not None:
            self.trace.probe = probe
            self._raise(Finding("INV-ILLEGAL-REJECTED", "DEC-4", f"rejecting {compact(probe)} changed the state "
                                f"(first difference at {where})", "state unchanged", f"{where} changed"), step + 1)

    def _roundtrip(self, snapshot: JSON | None, step: int) -> None:
        if snapshot is None or not self.on("INV-ROUNDTRIP"):
            return
        try:
            if self._twin is None:
                self._twin = self._new_subject()
            twin = self._twin
            twin.load_snapshot(snapshot)
            again = twin.export()
        except EngineFault as fault:
            raise self.fault("INV-ROUNDTRIP", fault, step, " while loading its own snapshot") from None
        if again != snapshot:
            where = first_state_difference(snapshot, again) or "private"
            self._raise(Finding("INV-ROUNDTRIP", "PROTO-1", f"load(export(s)) exports a different snapshot (first "
                                f"difference at {where})", "the same snapshot", f"{where} differs"), step)

    def _determinism(self, step: int) -> None:
        if not self.on("INV-DETERMINISM"):
            return
        try:
            twin = self._new_subject()
            if self.trace.start is None:
                twin.new_game(self.trace.setup)
            else:
                twin.load_snapshot(self.trace.start)
            for index, action in enumerate([None, *self.trace.actions]):
                self._arm("replay")
                if action is not None and not twin.apply(action)["accepted"]:
                    self._raise(Finding("INV-DETERMINISM", "SETUP-1", f"replaying the game, action {index} "
                                        f"({compact(action)}) was rejected", "accepted as before", "rejected"), step)
                seen = twin.export() if self.can_export else twin.decision()
                if seen != self.history[index]:
                    where = first_state_difference(self.history[index] or {}, seen or {}) if self.can_export \
                        else "decision"
                    self._raise(Finding("INV-DETERMINISM", "SETUP-1", f"replaying the same inputs gave a different "
                                        f"state after {index} action(s) (first difference at {where})",
                                        "the same state", f"{where} differs", extra_rules=("DECK-1",)), step)
        except EngineFault as fault:
            raise self.fault("INV-DETERMINISM", fault, step, " while replaying the game") from None

    # ------------------------------------------------------------------ lock-step

    def _compare_legal(self, pending: JSON, legal: list[JSON], step: int) -> None:
        if not self.on("LOCKSTEP"):
            return
        reference = self.reference
        assert reference is not None
        expected = self._reference(step, "legal_actions", reference.legal_actions)
        missing, extra = legal_difference(expected, legal)
        if not missing and not extra:
            return
        extra_rejections = [reference_rejection(reference, a) or {} for a in extra]
        rules: list[str] = option_rules({str(o) for a in missing + extra for o in a.get("options", []) or []})
        rules += [str(r.get("rule", "")) for r in extra_rejections]
        if missing:
            engine_rejection = None
            try:
                twin = self.subject.clone()
                verdict = twin.apply(missing[0])
                engine_rejection = None if verdict["accepted"] else verdict.get("rejection")
            except EngineFault:
                pass
            if engine_rejection is not None:
                rules.append(str(engine_rejection.get("rule", "")))
        if any(str(r.get("rule", "")).startswith("PAY-") for r in extra_rejections) or any(
                a.get("type") in ("summon", "remove", "pay") for a in missing):
            rules.extend(cost_rules(reference, missing + extra))
        if missing:
            rules.extend(missing_rules(missing[0], None))
        raise self.diverge(Divergence("legal", step, None, missing=missing, extra=extra,
                                      rejection=extra_rejections[0] if extra_rejections else None,
                                      extra_rejections=extra_rejections,
                                      reference_decision=pending, rules=_dedupe(rules)))

    def _compare_after(self, action: JSON | None, before: JSON | None, after: JSON | None, pending: JSON | None,
                       step: int) -> None:
        if not self.on("LOCKSTEP"):
            return
        reference = self.reference
        assert reference is not None
        previous = self.reference_snapshot
        if action is not None:
            verdict = self._reference(step, "apply", lambda: reference.apply(action))
            if not verdict.get("accepted"):
                rejection = verdict.get("rejection") or {}
                raise self.diverge(Divergence("rejected", step - 1, action, rejection=rejection,
                                              rules=_dedupe([str(rejection.get("rule", "")), "DEC-2"])))
        expected = self._reference(step, "export", reference.export)
        self.reference_snapshot = expected
        expected_pending = reference.decision()
        if after is not None:
            where = first_state_difference(expected, after)
            if where is not None:
                before_engine = _reference_at(previous)
                rules = state_rules(where, action, before_engine, before, expected,
                                    previous if action is not None else self.trace.start, after)
                raise self.diverge(Divergence("state", step, action, field=where,
                                              expected=_at(expected, where), actual=_at(after, where),
                                              reference_snapshot=expected, reference_decision=expected_pending,
                                              rules=rules))
        where = decision_difference(expected_pending, pending)
        if where is not None:
            rules = decision_rules(expected_pending, pending, action, _reference_at(previous), reference)
            raise self.diverge(Divergence("decision", step, action, field=where, expected=expected_pending,
                                          actual=pending, reference_snapshot=expected,
                                          reference_decision=expected_pending, rules=rules))


class _LeanSubject(Subject):
    """A Subject for calls timed by the game's step alarm: the same faults, without a context manager and a
    signal handler per call (they cost more than a decision of the reference engine)."""

    def _guard(self, method: str, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except EngineTimeout:
            raise EngineFault("timeout", method, "no answer within the step's budget") from None
        except EngineFault:
            raise
        except NotImplementedError:
            raise EngineFault("unsupported", method, "not implemented by this engine") from None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            raise EngineFault("error", method, f"raised {type(exc).__name__}: {exc}{where_raised(exc)}") from None


class _Stop(Exception):
    """The game cannot go on for a reason no active invariant covers."""


def freeze(data: JSON) -> JSON:
    """A deep copy of JSON data (marshal is several times faster than copy.deepcopy)."""
    try:
        copied: JSON = marshal.loads(marshal.dumps(data))
        return copied
    except ValueError:
        return copy.deepcopy(data)


def _private_difference(a: JSON, b: JSON) -> str:
    from oracle.diff import first_difference as _first_difference

    where = _first_difference(a.get("private"), b.get("private"), "private")
    return where or "private"


def _probe_category(slot: int) -> int:
    if slot in (3, 4):
        return PROBE_UNLISTED
    if slot in (5, 6):
        return PROBE_CORRUPT
    if slot == 7:
        return PROBE_PROTOCOL
    return 0


def _dedupe(rules: list[str]) -> tuple[str, ...]:
    out: list[str] = []
    for rule in rules:
        if rule and rule not in out:
            out.append(rule)
    return tuple(out[:6])


def _reference_at(snapshot: JSON | None) -> ReferenceEngine | None:
    if snapshot is None:
        return None
    engine = ReferenceEngine()
    try:
        engine.load(snapshot)
    except Exception:
        return None
    return engine


def _round(snapshot: JSON | None) -> object:
    return snapshot.get("round") if snapshot is not None else "?"


def _at(snapshot: JSON, path: str) -> Any:
    """The value at a difference path like ``players[1].stones.red`` (the whole list for list paths)."""
    value: Any = snapshot
    for part in path.split(" ")[0].split("."):
        name, _, index = part.partition("[")
        if name:
            if not isinstance(value, dict) or name not in value:
                return None
            value = value[name]
        if index and isinstance(value, list):
            i = int(index.rstrip("]"))
            if name != "players":
                return value
            value = value[i] if i < len(value) else None
    return value


def _text(value: Any) -> str:
    if value is None:
        return ""
    return compact(value) if isinstance(value, dict) and "type" in value else str(value)


def action_in(action: JSON, actions: list[JSON]) -> bool:
    key = action_key(action)
    return any(action_key(a) == key for a in actions)
