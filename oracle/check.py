"""``oracle check``: run the conformance suites against an engine and collect results.

Suites register themselves in :data:`SUITES`; each takes an :class:`EngineUnderTest` and the run's
options and returns :class:`~oracle.results.CheckResult` objects.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from oracle.harness import EngineFault, Subject, resolve_impl
from oracle.play import GameStuck, choose_action, new_setup
from oracle.results import CheckResult, Outcome

JSON = dict[str, Any]


@dataclass(frozen=True)
class CheckOptions:
    games: int = 2
    roundtrip_games: int = 1
    seed: int = 1
    timeout: float = 5.0
    players: tuple[int, ...] = (2, 3, 4)
    select: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class EngineUnderTest:
    """The ``--impl`` string, its factory, and the handshake it gave."""

    impl: str
    factory: Callable[[], Any]
    timeout: float

    def fresh(self) -> Subject:
        return Subject(self.factory, self.impl, self.timeout)

    @staticmethod
    def load(impl: str, timeout: float) -> EngineUnderTest:
        return EngineUnderTest(impl, resolve_impl(impl), timeout)


Suite = Callable[[EngineUnderTest, CheckOptions], list[CheckResult]]
SUITES: dict[str, Suite] = {}


def suite(name: str) -> Callable[[Suite], Suite]:
    def register(fn: Suite) -> Suite:
        SUITES[name] = fn
        return fn

    return register


def fault_result(suite_name: str, check_id: str, title: str, fault: EngineFault, **kw: Any) -> CheckResult:
    outcome = {"timeout": Outcome.TIMEOUT, "unsupported": Outcome.UNSUPPORTED}.get(fault.kind, Outcome.ERROR)
    return CheckResult(suite_name, check_id, title, outcome, message=str(fault), **kw)


@dataclass(frozen=True)
class GamePlan:
    """One seeded game a suite plays: the mode (base, expansion cards, or cards and tiles), players, seed."""

    mode: str
    players: int
    seed: int

    @property
    def label(self) -> str:
        game = f"{self.players}p/seed-{self.seed}"
        return game if self.mode == "base" else f"{self.mode}/{game}"

    def setup(self) -> JSON:
        return new_setup(self.players, self.seed, expansion=self.mode != "base", artifacts=self.mode == "artifacts")

    def reproduce(self, impl: str) -> str:
        flag = {"base": "", "expansion": " --expansion", "artifacts": " --artifacts"}[self.mode]
        return f"oracle play --impl {impl} --players {self.players} --seed {self.seed}{flag}"


def game_plans(eut: EngineUnderTest, options: CheckOptions, games: int, seed_offset: int) -> list[GamePlan]:
    """The games to play: every supported player count, in each mode the engine declares (ART-1, ART-2)."""
    handshake = eut.fresh().handshake
    modes = ["base"] + (["expansion"] if handshake.expansion else []) + (["artifacts"] if handshake.artifacts else [])
    return [
        GamePlan(mode, players, options.seed + seed_offset + game)
        for mode in modes
        for players in options.players
        for game in range(games)
    ]


@suite("random-play")
def random_play(eut: EngineUnderTest, options: CheckOptions) -> list[CheckResult]:
    """Whole games of random legal play: every listed action accepted, and the game ends (END-1)."""
    results = []
    for plan in game_plans(eut, options, options.games, 0):
        players, seed = plan.players, plan.seed
        check_id = f"random-play/{plan.label}"
        title = f"random legal play ({plan.mode}), {players} players, seed {seed}"
        started = time.perf_counter()
        step = 0
        try:
            subject = eut.fresh()
            if players not in subject.handshake.players:
                results.append(CheckResult("random-play", check_id, title, Outcome.UNSUPPORTED,
                                           message=f"the engine does not support {players} players"))
                continue
            subject.new_game(plan.setup())
            rng = random.Random(f"play-{seed}")
            while (pending := subject.decision()) is not None:
                step += 1
                action = choose_action(subject, pending, rng)
                result = subject.apply(action)
                if not result["accepted"]:
                    results.append(CheckResult(
                        "random-play", check_id, title, Outcome.WRONGLY_REJECTED,
                        rules=(str(result["rejection"].get("rule", "")),), step=step,
                        expected="accepted (listed as legal)", actual=f"rejected: {result['rejection']}",
                        message=f"the engine listed {action} as legal, then refused it",
                        reproduce=plan.reproduce(eut.impl), duration=time.perf_counter() - started))
                    break
                if step > 20_000:
                    raise GameStuck("no end after 20000 decisions")
            else:
                results.append(CheckResult("random-play", check_id, title, Outcome.PASS, rules=("END-1",),
                                           duration=time.perf_counter() - started,
                                           details={"decisions": step}))
        except EngineFault as fault:
            results.append(fault_result("random-play", check_id, title, fault, step=step,
                                        reproduce=plan.reproduce(eut.impl),
                                        duration=time.perf_counter() - started))
        except GameStuck as stuck:
            results.append(CheckResult("random-play", check_id, title, Outcome.FAIL, rules=("END-1",), step=step,
                                       message=str(stuck), reproduce=plan.reproduce(eut.impl),
                                       duration=time.perf_counter() - started))
    return results


def canonical(snapshot: JSON) -> JSON:
    """The part of a snapshot every engine must agree on (``private`` is the engine's own)."""
    return {k: v for k, v in snapshot.items() if k != "private"}


@suite("setup")
def setup_suite(eut: EngineUnderTest, options: CheckOptions) -> list[CheckResult]:
    """SETUP-1..3: after ``new_game`` the engine's snapshot equals the reference's (scores 1..n from the first
    player, empty hands and areas, no stones, round 1, the deck order as given, the first hunting decision)."""
    from oracle.reference import ReferenceEngine

    results = []
    for players in options.players:
        for first in range(players):
            check_id = f"setup/{players}p/first-{first}"
            title = f"set-up of a {players}-player game with player {first} first"
            started = time.perf_counter()
            setup = new_setup(players, options.seed + first, first_player=first)
            try:
                subject = eut.fresh()
                if players not in subject.handshake.players:
                    results.append(CheckResult("setup", check_id, title, Outcome.UNSUPPORTED,
                                               message=f"the engine does not support {players} players"))
                    continue
                if not subject.handshake.can("export"):
                    results.append(CheckResult("setup", check_id, title, Outcome.UNSUPPORTED,
                                               message="the engine does not declare 'export'"))
                    continue
                subject.new_game(setup)
                actual = canonical(subject.export())
            except EngineFault as fault:
                results.append(fault_result("setup", check_id, title, fault, rules=("SETUP-1",)))
                continue
            reference = ReferenceEngine()
            reference.new_game(setup)
            expected = canonical(reference.export())
            where = _first_difference(expected, actual)
            if where is None:
                results.append(CheckResult("setup", check_id, title, Outcome.PASS,
                                           rules=("SETUP-1", "SETUP-2", "SETUP-3"),
                                           duration=time.perf_counter() - started))
                continue
            rule = "SETUP-2" if ".score" in where else "SETUP-3" if "players" in where else "SETUP-1"
            results.append(CheckResult(
                "setup", check_id, title, Outcome.FAIL, rules=(rule,), step=0,
                expected=f"{where} = {_at(expected, where)!r}", actual=f"{where} = {_at(actual, where)!r}",
                message="the snapshot right after new_game differs from the reference's",
                reproduce=f"oracle check --impl {eut.impl} --suite setup", duration=time.perf_counter() - started))
    return results


def _at(data: object, path: str) -> object:
    import re

    for key, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path.split(" ")[0]):
        if index and isinstance(data, list) and int(index) < len(data):
            data = data[int(index)]
        elif key and isinstance(data, dict):
            data = data.get(key)
    return data


def _first_difference(a: object, b: object, path: str = "") -> str | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}" if path else str(key)
            found = _first_difference(a[key], b[key], f"{path}.{key}" if path else str(key))
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path} (length {len(a)} vs {len(b)})"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else (path or "(root)")


@suite("roundtrip")
def roundtrip(eut: EngineUnderTest, options: CheckOptions) -> list[CheckResult]:
    """At every step of a random game, ``load(export(s))`` in a fresh engine exports ``s`` again."""
    results = []
    for plan in game_plans(eut, options, options.roundtrip_games, 100):
        players, seed = plan.players, plan.seed
        check_id = f"roundtrip/{plan.label}"
        title = f"snapshot round-trip at every step ({plan.mode}), {players} players, seed {seed}"
        started = time.perf_counter()
        step = 0
        try:
            subject = eut.fresh()
            if not (subject.handshake.can("export") and subject.handshake.can("load")):
                results.append(CheckResult("roundtrip", check_id, title, Outcome.UNSUPPORTED,
                                           message="the engine does not declare both 'export' and 'load'"))
                break
            subject.new_game(plan.setup())
            rng = random.Random(f"play-{seed}")
            failure = None
            while True:
                snapshot = subject.export()
                twin = eut.fresh()
                twin.load_snapshot(snapshot)
                again = twin.export()
                if again != snapshot:
                    where = _first_difference(snapshot, again)
                    failure = CheckResult(
                        "roundtrip", check_id, title, Outcome.FAIL, rules=("PROTO-1",), step=step,
                        expected="load(export(s)) exports s", actual=f"first difference at {where}",
                        reproduce=plan.reproduce(eut.impl), duration=time.perf_counter() - started)
                    break
                pending = subject.decision()
                if pending is None:
                    break
                step += 1
                subject.apply(choose_action(subject, pending, rng))
            results.append(failure or CheckResult("roundtrip", check_id, title, Outcome.PASS, rules=("PROTO-1",),
                                                  duration=time.perf_counter() - started,
                                                  details={"snapshots": step + 1}))
        except (EngineFault, GameStuck) as exc:
            if isinstance(exc, EngineFault):
                results.append(fault_result("roundtrip", check_id, title, exc, step=step,
                                            duration=time.perf_counter() - started))
            else:
                results.append(CheckResult("roundtrip", check_id, title, Outcome.FAIL, step=step,
                                           message=str(exc)))
    return results


SUITE_MODULES = ("oracle.scenarios.suite", "oracle.z3check.suite", "vale_invariants.suite")


def load_suites() -> dict[str, Suite]:
    """Import the modules that register the scenario, Z3 and invariant suites."""
    import importlib

    for module in SUITE_MODULES:
        importlib.import_module(module)
    return SUITES


def run_check(eut: EngineUnderTest, options: CheckOptions, suites: list[str]) -> list[CheckResult]:
    results: list[CheckResult] = []
    for name in suites:
        results.extend(SUITES[name](eut, options))
    return results
