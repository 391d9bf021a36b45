"""Verifying a preamble on the reference (issue 39): it is played from its new game, every action accepted; the
position it reaches satisfies every field the scenario's ``[given]`` states (:mod:`oracle.scenarios.reach.target`);
and the scenario's steps, run from there, pass on the reference as they do from ``[given]``."""

from __future__ import annotations

from oracle.core.json_types import JSON
from oracle.core.results import Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.reference.engine import ReferenceEngine, SetupError
from oracle.scenarios.match import show
from oracle.scenarios.model import Scenario
from oracle.scenarios.reach.preamble import Preamble
from oracle.scenarios.reach.target import given_decision, stated_fields, unsatisfied
from oracle.scenarios.reach.way import Way
from oracle.scenarios.runner import run_scenario

STEPS_BUDGET = 60.0


def replay(preamble: Preamble, variants: dict[str, str] | None = None) -> tuple[ReferenceEngine, str]:
    """The reference after the preamble, and '' (or the first action it refused, as a reason)."""
    reference = ReferenceEngine(variants)
    try:
        reference.new_game(preamble.new_game())
    except SetupError as exc:
        return reference, f"the reference cannot start the preamble's game: {exc}"
    for number, action in enumerate(preamble.actions, 1):
        result: JSON = reference.apply(action)
        if not result.get("accepted"):
            rejection = result.get("rejection") or {}
            return reference, (f"the reference refuses preamble action {number}, {show(action, 160)}: "
                               f"{rejection.get('code')} ({rejection.get('rule')})")
    return reference, ""


def verify(scenario: Scenario, preamble: Preamble) -> str:
    """'' when the preamble reaches the scenario's position and its steps pass from there, else why not."""
    reference, refused = replay(preamble, scenario.variants)
    if refused:
        return refused
    mismatch = unsatisfied(stated_fields(scenario.given), given_decision(scenario.given), reference.export(),
                           reference.decision())
    if mismatch is not None:
        want, got = mismatch.describe()
        return f"the preamble's position has {got}, the given states {want}"
    following = EngineUnderTest("oracle.reference", lambda: ReferenceEngine(scenario.variants), 0.0)
    result = run_scenario(following, scenario, STEPS_BUDGET, preamble=preamble, way=Way.PREAMBLE)
    if result.outcome is not Outcome.PASS:
        return f"the steps {result.outcome.value} from the preamble's position: {result.message}"
    return ""
