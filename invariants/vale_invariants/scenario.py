"""Saving a shrunk failure as a scenario file (``docs/scenarios.md``) that ``oracle check`` runs as is.

The scenario's ``given`` is the position at the start of the game (round 1, Hunting phase, scores 1..n
from the first player, the whole draw pile in order), its steps are the trace's actions, and the step
where the engine and the reference first diverge carries the reference's expectation:

* a state difference: ``expect`` of the first differing field, as the reference has it;
* a decision difference: ``decision`` (the reference's kind and player, and the differing field);
* a legal-action difference: ``legal`` / ``not_legal``, then ``do`` the listed illegal action with
  ``reject = {code, rule}`` from the reference;
* an accepted illegal action: ``do`` it with the reference's ``reject``;
* a rejection that changed the engine's state: ``do`` it with the reference's ``reject`` (a ``reject`` step
  also checks that the state stays as it was, DEC-4);
* a rejected legal action: ``do`` it (the engine must accept it).

Every counterexample is saved (:func:`save_counterexample`): as such a scenario when it loads and shows the
difference, else as its raw trace (``.trace.json``) with the reason no scenario could be kept. Both are named
after the cause and its rule (``DEC-2-accepts-end_turn-1a2b3c4d``), never after the ``--impl`` string.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracle.core.json_types import JSON
from oracle.core.path_names import bounded_name
from oracle.core.protocol import answer_is_ordered
from oracle.core.rules import rules as rules_catalogue
from oracle.scenarios.writer import scenario_id, toml_text
from vale_invariants.lockstep import DECISION_FIELDS, ORDERED
from vale_invariants.trace import AFTER_ACTION, Divergence, Failure, compact, show_decision

MAX_LISTED = 3


class NotExpressible(ValueError):
    """A value TOML cannot hold (null)."""


# ---------------------------------------------------------------------------------------------- building


def _action(action: JSON) -> JSON:
    """An action as a scenario writes it: no null player (a shuffle's player is implied)."""
    return {k: v for k, v in action.items() if v is not None}


def _given(setup: JSON) -> JSON:
    n, first = setup["players"], setup["first_player"]
    scores = [0] * n
    for rank in range(1, n + 1):
        scores[(first + rank - 1) % n] = rank
    flags = {k: setup[k] for k in ("expansion", "artifacts", "advanced_tiles") if setup.get(k)}
    return {
        "setup": {"players": n, **flags},
        "round": 1,
        "phase": "hunting",
        "first_player": first,
        "players": [{"score": s} for s in scores],
        "display": [],
        "draw_pile": list(setup["deck"]),
    }


GIVEN_KEYS = ("setup", "round", "phase", "first_player", "turn_player", "actives_used", "players", "display",
              "draw_pile", "discard_pile", "artifacts")


def _given_position(start: JSON) -> JSON:
    """A loaded random position as a scenario's ``given``."""
    out = {k: start[k] for k in GIVEN_KEYS if k in start and start[k] is not None}
    out["players"] = [{k: v for k, v in p.items() if v is not None} for p in start["players"]]
    out["setup"] = {k: v for k, v in start["setup"].items() if k != "variants" or v}
    return out


def _expect(path: str, reference: JSON | None) -> JSON | None:
    """The partial snapshot of the first differing field, with the reference's value."""
    if reference is None:
        return None
    head = path.split(" ")[0]
    parts = head.split(".")
    name, _, index = parts[0].partition("[")
    if name == "players" and index:
        i = int(index.rstrip("]"))
        if len(parts) < 2:
            return None
        key = parts[1].partition("[")[0]
        players = reference.get("players", [])
        if i >= len(players) or key not in players[i]:
            return None
        return {"players": [{} for _ in range(i)] + [{key: players[i][key]}]}
    if name not in reference or reference[name] is None:
        return None
    if name == "setup":
        return {"setup": {k: v for k, v in reference["setup"].items() if k != "variants"}}
    return {name: reference[name]}


def _decision(divergence: Divergence) -> JSON | str | None:
    expected = divergence.reference_decision
    if expected is None:
        return "none"
    out: JSON = {"kind": expected.get("kind")}
    if expected.get("player") is not None:
        out["player"] = expected["player"]
    if divergence.field in DECISION_FIELDS and divergence.field in expected:
        out[divergence.field] = expected[divergence.field]
    if divergence.field == ORDERED:
        out[ORDERED] = answer_is_ordered(expected)
    return out


def _final_steps(divergence: Divergence) -> list[JSON]:
    note = f"first divergence from the reference: {divergence.describe()}"[:300]
    kind = divergence.kind
    if kind == "state":
        expect = _expect(divergence.field, divergence.reference_snapshot)
        if expect is None:
            return []
        step: JSON = {"expect": expect, "note": note}
    elif kind == "decision":
        decision = _decision(divergence)
        if decision is None:
            return []
        step = {"decision": decision, "note": note}
    elif kind == "events":
        if not isinstance(divergence.expected, dict):
            raise NotExpressible("a scenario names the events a step must emit, not one it must not (the engine "
                                 "emits an event the reference does not)")
        step = {"events": [divergence.expected], "note": note}
    elif kind == "legal":
        step = {"note": note}
        if divergence.missing:
            step["legal"] = [_action(a) for a in divergence.missing[:MAX_LISTED]]
        if divergence.extra:
            step["not_legal"] = [_action(a) for a in divergence.extra[:MAX_LISTED]]
        steps = [step]
        rejection = divergence.extra_rejections[0] if divergence.extra_rejections else None
        if divergence.extra and rejection and rejection.get("code"):
            steps.append({"do": _action(divergence.extra[0]), "reject": _reject(rejection),
                          "note": "the reference rejects this action"})
        return steps
    elif kind in ("rejected", "probe", "changed"):
        if divergence.action is None or not divergence.rejection or not divergence.rejection.get("code"):
            return []
        return [{"do": _action(divergence.action), "reject": _reject(divergence.rejection), "note": note}]
    elif kind == "accepted":
        if divergence.action is None:
            return []
        return [{"do": _action(divergence.action), "note": note}]
    else:
        return []
    return [step]


def _reject(rejection: JSON) -> JSON:
    out: JSON = {"code": str(rejection["code"])}
    if rejection.get("rule") in rules_catalogue():
        out["rule"] = rejection["rule"]
    return out


def build_scenario(failure: Failure, impl: str, seed: int | None = None) -> JSON | None:
    """The scenario for a failure's first divergence from the reference (None if there is none; NotExpressible when
    no scenario can say it); ``seed``: the ``oracle fuzz --seed`` of the run that found it, named in the title."""
    divergence = failure.divergence
    if divergence is None or not failure.trace.setup:
        return None
    offset = divergence.given_step if divergence.given is not None else 0
    actions = failure.trace.actions[offset:]
    local = divergence.step - offset
    final = _final_steps(divergence)
    if not final:
        return None
    steps: list[JSON] = []
    if divergence.kind in AFTER_ACTION and local > 0:
        steps = [{"do": _action(a)} for a in actions[: local - 1]]
        final[0] = {"do": _action(actions[local - 1]), **final[0]}
    else:
        steps = [{"do": _action(a)} for a in actions[: local]]
    steps.extend(final)
    rule = pinned_rule(failure) or "DEC-2"
    pinned = [failure.trace.setup, steps]
    if divergence.given is not None:
        pinned.insert(1, divergence.given)
    return {
        "id": f"{counterexample_name(failure)}-{_digest(pinned)}",
        "title": scenario_title(rule, divergence, local, seed),
        "rules": [rule],
        "source": f"oracle fuzz --impl {impl}: shrunk {failure.mode} failure of {failure.invariant} "
                  f"({len(actions)} actions), replayed in lock-step with the reference",
        "given": _given_position(divergence.given) if divergence.given is not None
        else _given(failure.trace.setup) if failure.trace.start is None else _given_position(failure.trace.start),
        "steps": steps,
    }


# ---------------------------------------------------------------------------------------------- naming and saving

_ENGINE_DOES = {"rejected": "accepts", "probe": "accepts", "accepted": "rejects", "state": "differs",
                "decision": "differs"}
"""What the engine does, by the kind of divergence (a legal-action difference: ``accepts`` when it lists an illegal
action, else ``rejects``), as the causes' verdicts say it (docs/reports.md, Causes)."""


def _state_differs(d: Divergence) -> str:
    return f"{d.field} differs from the reference {_last(d.action)}"


def _decision_differs(d: Divergence) -> str:
    return (f"the engine asks {show_decision(d.actual)} where the reference asks {show_decision(d.expected)}, "
            f"{_last(d.action)}")


def _legal_differs(d: Divergence) -> str:
    listed = [f"{len(d.extra)} illegal action(s) listed, e.g. {compact(d.extra[0])}"] if d.extra else []
    unlisted = [f"{len(d.missing)} legal action(s) not listed, e.g. {compact(d.missing[0])}"] if d.missing else []
    return "; ".join(listed + unlisted) or "the legal actions differ"


def _illegal_accepted(d: Divergence) -> str:
    code = (d.rejection or {}).get("code")
    return f"the engine accepts {compact(d.action)}, which the reference rejects" + (f" ({code})" if code else "")


def _legal_rejected(d: Divergence) -> str:
    return f"the engine rejects {compact(d.action)}, which the reference accepts"


def _changed_rejecting(d: Divergence) -> str:
    return f"the engine changes {d.field} while it rejects {compact(d.action)}"


def _last(action: JSON | None) -> str:
    return "at the start" if action is None else f"on {compact(action)}"


_WHAT_DIVERGED: dict[str, Callable[[Divergence], str]] = {
    "state": _state_differs, "decision": _decision_differs, "legal": _legal_differs, "rejected": _illegal_accepted,
    "probe": _illegal_accepted, "accepted": _legal_rejected, "changed": _changed_rejecting,
}
"""What diverged, in a few words, by the kind of divergence (values as the console shows them, never as Python)."""

TITLE_LENGTH = 200


def scenario_title(rule: str, divergence: Divergence, steps: int, seed: int | None = None) -> str:
    """``PAY-3: the engine accepts summon p1 base-fire-02 payment=b2, which the reference rejects
    (PAYMENT_SUPERFLUOUS_STONE), after 18 steps, seed 0``: the rule the scenario pins, what diverged, the steps the
    scenario plays before it and the ``oracle fuzz --seed`` that found it (when a fuzz run did)."""
    what = _WHAT_DIVERGED.get(divergence.kind, _legal_rejected)(divergence)
    found = f", after {steps} step{'s' * (steps != 1)}" + (f", seed {seed}" if seed is not None else "")
    room = TITLE_LENGTH - len(rule) - len(found) - 2
    if len(what) > room:
        what = what[: room - 1].rstrip(" ,;(") + "…"
    return f"{rule}: {what}{found}"


def pinned_rule(failure: Failure) -> str:
    """The rule a counterexample is filed under: the reference's rule at the divergence in lock-step mode, the
    invariant's rule otherwise ('' when neither names a rule of the catalogue)."""
    known = rules_catalogue()
    own = [r for r in failure.rules if r in known][:1]
    named = [r for r in failure.divergence.rules if r in known][:1] if failure.divergence is not None else []
    rules = (named or own) if failure.mode == "lockstep" else (own or named)
    return rules[0] if rules else ""


def counterexample_name(failure: Failure) -> str:
    """``DEC-2-accepts-end_turn``: the rule, what the engine does against the reference and the type of the action
    it does it on; without a divergence, the rule and the invariant (``LIMIT-1-INV-LIMIT``). Never the ``--impl``
    string. The engine chooses the action's type, so the name is bounded (:func:`bounded_name`: a long one is cut
    and ends with a digest of the whole), and a file named after it fits a file system."""
    rule = pinned_rule(failure) or "no-rule"
    divergence = failure.divergence
    if divergence is None:
        return bounded_name(scenario_id(f"{rule}-{failure.invariant}"))
    listed = divergence.extra or divergence.missing
    acted = divergence.action if divergence.action is not None else listed[0] if listed else None
    verdict = _ENGINE_DOES.get(divergence.kind, "accepts" if divergence.extra else "rejects")
    action = str(acted.get("type")) if acted is not None else "new_game"
    return bounded_name(scenario_id(f"{rule}-{verdict}-{action}"))


def _digest(pinned: object) -> str:
    return hashlib.sha1(json.dumps(pinned, sort_keys=True, default=str).encode()).hexdigest()[:8]


@dataclass(frozen=True)
class Saved:
    """Where a counterexample was saved: a scenario, or else its raw trace and why no scenario was kept."""

    path: Path
    scenario: bool
    why_not: str = ""


def save_counterexample(directory: Path, failure: Failure, impl: str, factory: Callable[[], Any] | None = None,
                        timeout: float = 5.0, seed: int | None = None) -> Saved:
    """Save ``failure`` into ``directory``: as a scenario when one loads and shows it (:func:`write_scenario`), else
    as its raw trace with the reason (:func:`write_trace`)."""
    path, why_not = write_scenario(directory, failure, impl, factory, timeout, seed)
    if path is not None:
        return Saved(path, True)
    return Saved(write_trace(directory, failure, impl, why_not), False, why_not)


def write_trace(directory: Path, failure: Failure, impl: str, why_not: str) -> Path:
    """``<rule>-<verdict>-<action>-<hash>.trace.json``: the failure as JSON (its trace: the set-up, the choices and
    the actions, and its divergence) with the reason it is not a scenario; ``oracle fuzz`` replays its choices."""
    doc = {"format": "vale-oracle/fuzz-trace/1", "why_not_a_scenario": why_not, "impl": impl,
           "failure": failure.to_json()}
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{counterexample_name(failure)}-{_digest(failure.trace.to_json())}.trace.json"
    path.write_text(json.dumps(doc, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    return path


def write_scenario(directory: Path, failure: Failure, impl: str, factory: Callable[[], Any] | None = None,
                   timeout: float = 5.0, seed: int | None = None) -> tuple[Path | None, str]:
    """Write the failure's scenario into ``directory`` (created if needed): its path, or None and why not.

    With ``factory``, the file is kept only if ``oracle check`` runs it as it is: it must pass on the
    reference engine and fail on the engine under test (a difference that only ``new_game`` shows, for
    one, cannot be a scenario: a scenario starts by loading its position).
    """
    try:
        scenario = build_scenario(failure, impl, seed)
        if scenario is None:
            return None, "no divergence from the reference to pin"
        text = to_toml(scenario)
    except NotExpressible as exc:
        return None, str(exc)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{scenario['id']}.toml"
    path.write_text(text, encoding="utf-8")
    if factory is None:
        return path, ""
    problem = _verify(path, impl, factory, timeout)
    if problem:
        path.unlink()
        return None, problem
    return path, ""


def _verify(path: Path, impl: str, factory: Callable[[], Any], timeout: float) -> str:
    from oracle.core.results import Outcome
    from oracle.engines.connect import EngineUnderTest
    from oracle.reference import create
    from oracle.scenarios.loader import load_file
    from oracle.scenarios.model import ScenarioError
    from oracle.scenarios.runner import run_scenario

    try:
        scenario = load_file(path)
    except ScenarioError as exc:
        return f"the scenario would not load: {exc}"
    on_reference = run_scenario(EngineUnderTest("oracle.reference", create, timeout), scenario)
    if on_reference.outcome is not Outcome.PASS:
        return f"the reference does not pass the scenario: {on_reference.message}"
    on_engine = run_scenario(EngineUnderTest(impl, factory, timeout), scenario)
    if on_engine.outcome.ok:
        return "the engine passes the scenario (the difference does not show from a loaded position)"
    return ""


def to_toml(scenario: JSON) -> str:
    """A scenario as TOML text (``oracle.scenarios.writer``); NotExpressible when a value has no TOML form."""
    try:
        return toml_text(scenario)
    except (ValueError, TypeError) as exc:
        raise NotExpressible(str(exc)) from None
