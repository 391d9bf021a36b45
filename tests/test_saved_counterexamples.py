"""Every fuzz counterexample is saved (issue 24, item 7): as a scenario when it loads, else as its raw trace with the
reason, named after its cause and rule, never after the ``--impl`` string (``oracle fuzz`` and ``oracle check``)."""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from oracle.core.results import Outcome
from oracle.engines.connect import EngineUnderTest
from oracle.reference import create as reference
from oracle.scenarios.loader import load_file
from oracle.scenarios.runner import run_scenario
from oracle.suites.invariants import INVARIANTS
from oracle.suites.registry import CheckOptions, FuzzOptions, run_suites
from tests.helpers import CALL_SECONDS
from vale_invariants.fuzz import FuzzConfig, run_fuzz
from vale_invariants.scenario import TITLE_LENGTH, scenario_title
from vale_invariants.trace import Divergence

ODD_IMPL = "cmd:./fuzz-cmd --engine DEC-2"
"""An ``--impl`` whose words must not reach a file name."""
NAME = re.compile(r"^[A-Z]+-\d+-(accepts|rejects|differs)-[a-z_]+-[0-9a-f]{8}\.toml$")


def _fixture(name: str) -> Callable[[], Any]:
    factory: Callable[[], Any] = importlib.import_module(f"vale_fixtures.{name}").create
    return factory


def test_a_counterexample_that_loads_is_a_scenario_named_after_its_cause_and_rule(tmp_path: Path) -> None:
    config = FuzzConfig(games=8, seed=0, mode="lockstep", shrink_examples=0, max_failures=1, save_failures=tmp_path)
    report = run_fuzz(_fixture("superfluous_payment"), ODD_IMPL, config)
    [failure] = report.failures
    [saved] = list(tmp_path.iterdir())
    assert (str(saved), "") == (failure.scenario, failure.trace_file)
    assert NAME.match(saved.name), saved.name
    assert saved.name.startswith(f"{failure.rule}-") and "cmd" not in saved.name
    scenario = load_file(saved)
    assert re.match(r"^PAY-3: \d+ illegal action\(s\) listed, e\.g\. summon p\d base-[a-z]+-\d+ payment=\w+, "
                    r"after \d+ steps, seed 0$", scenario.title), scenario.title
    assert Outcome.PASS == run_scenario(EngineUnderTest("oracle.reference", reference, CALL_SECONDS), scenario).outcome


def test_a_counterexample_that_is_no_scenario_is_saved_as_its_raw_trace_with_the_reason(tmp_path: Path) -> None:
    config = FuzzConfig(games=2, seed=0, shrink_examples=0, max_failures=1, save_failures=tmp_path,
                        invariants=("INV-SETUP",), mode="invariants", positions=False)
    report = run_fuzz(_fixture("scores_from_seat_zero"), ODD_IMPL, config)
    [failure] = report.failures
    [saved] = list(tmp_path.iterdir())
    assert ("", str(saved)) == (failure.scenario, failure.trace_file)
    assert re.match(r"^SETUP-2-differs-new_game-[0-9a-f]{8}\.trace\.json$", saved.name), saved.name
    doc = json.loads(saved.read_text(encoding="utf-8"))
    assert failure.scenario_note and failure.scenario_note == doc["why_not_a_scenario"]
    assert (failure.trace.setup, failure.trace.choices) == (doc["failure"]["trace"]["setup"],
                                                            doc["failure"]["trace"]["choices"])
    result = next(r for r in report.results() if r.id == "invariants/INV-SETUP")
    assert f"saved trace: {saved}" in result.reproduce


def test_oracle_check_saves_the_invariants_suites_counterexamples_the_same_way(tmp_path: Path) -> None:
    options = CheckOptions(players=(2,), save_failures=tmp_path, fuzz=FuzzOptions(games=2, mode="invariants"))
    eut = EngineUnderTest("vale_fixtures.scores_from_seat_zero", _fixture("scores_from_seat_zero"), CALL_SECONDS)
    results = run_suites(eut, options, [INVARIANTS])
    assert any(r.id == "invariants/INV-SETUP" and not r.outcome.ok for r in results)
    names = [p.name for p in (tmp_path / "invariants").iterdir()]
    assert any(n.startswith("SETUP-2-differs-new_game-") and n.endswith(".trace.json") for n in names), names


def test_a_title_says_the_rule_what_diverged_the_steps_and_the_seed_in_words_never_as_a_python_dict() -> None:
    action = {"type": "end_turn", "player": 0}
    rejection = {"code": "MARKER_ON_CARD", "rule": "ACT-2", "message": "a marker is still on " + "a card " * 40}
    accepted = Divergence("rejected", 5, action, rejection=rejection, rules=("ACT-2", "DEC-2"))
    too_long = Divergence("legal", 3, None, extra=[{"type": "summon", "player": 1, "card": "x" * 300}])
    titles = (scenario_title("ACT-2", accepted, 5, 7), scenario_title("PAY-3", too_long, 3))
    assert ("ACT-2: the engine accepts end_turn p0, which the reference rejects (MARKER_ON_CARD), "
            "after 5 steps, seed 7", (True, TITLE_LENGTH)) == (titles[0], (titles[1].endswith("…, after 3 steps"),
                                                                          len(titles[1])))
