"""The always-on shape checks (``oracle/core/shapes.py``) beside the shipped JSON Schemas compiled with fastjsonschema,
on one corpus of real messages, in one run (issue 26, item 3: keep the faster).

Run: ``python3 ci/bench_shapes.py [GAMES]``. The corpus is what the guarded ``Subject`` checks while seeded random
games of the reference are played (2 and 4 players, base game and Artifacts): each decision, each list of legal
actions, each apply result and a snapshot after each step, in the order a run checks them (the hand-written checks
remember the last values found to be JSON data, so the order matters). Figures are CPU time (``time.process_time``)
per message, the best of several rounds, with the load average; ``(no memory)`` is shapes.py without its memory
of the last values found to be JSON data.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from functools import cache
from typing import Any
from urllib.parse import urlparse

import fastjsonschema

from oracle.core import shapes
from oracle.core.validation import SCHEMA_DIR
from oracle.engines.play import choose_action, new_setup
from oracle.reference import ReferenceEngine

KINDS = ("decision", "legal_actions", "apply", "export")
"""The messages checked on every call, by their wire method (``wire-results.schema.json#/$defs/<method>``)."""

HAND_WRITTEN: dict[str, Callable[[object], str | None]] = {
    "decision": shapes.decision_problem,
    "legal_actions": shapes.legal_actions_problem,
    "apply": shapes.apply_result_problem,
    "export": shapes.snapshot_problem,
}
ROUNDS = 5


def corpus(games: int) -> list[tuple[str, object]]:
    """The messages of ``games`` seeded games, in the order the harness checks them."""
    import random

    messages: list[tuple[str, object]] = []
    variants = [(2, False), (4, False), (2, True), (4, True)]
    for seed in range(1, games + 1):
        players, artifacts = variants[seed % len(variants)]
        engine = ReferenceEngine()
        engine.new_game(new_setup(players, seed, artifacts=artifacts))
        rng = random.Random(f"play-{seed}")
        while (pending := engine.decision()) is not None:
            messages.append(("decision", pending))
            if pending["kind"] != "shuffle":
                messages.append(("legal_actions", engine.legal_actions()))
            result = engine.apply(choose_action(engine, pending, rng))
            messages.append(("apply", result))
            messages.append(("export", engine.export()))
    return messages


@cache
def _schema_file(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
    return {**data, "$schema": "http://json-schema.org/draft-07/schema#"}


def compiled(kind: str) -> Callable[[object], object]:
    """The shipped schema of a wire method's result, compiled by fastjsonschema (draft 7, which it compiles; the
    schemas' other files are read from the package, never fetched)."""
    results = _schema_file("wire-results.schema.json")
    handlers = {"https": lambda uri: _schema_file(os.path.basename(urlparse(uri).path))}
    definition = {**results, "$ref": f"#/$defs/{kind}"}
    check: Callable[[object], object] = fastjsonschema.compile(definition, handlers=handlers)
    return check


def schema_problem(check: Callable[[object], object]) -> Callable[[object], str | None]:
    def problem(value: object) -> str | None:
        try:
            check(value)
        except fastjsonschema.JsonSchemaException as exc:
            return str(exc)
        return None

    return problem


def best_time(run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(ROUNDS):
        started = time.process_time()
        run()
        best = min(best, time.process_time() - started)
    return best


def measure(messages: list[tuple[str, object]], checks: dict[str, Callable[[object], str | None]]) -> dict[str, float]:
    """CPU µs per message of each kind, and over the whole corpus in call order."""
    figures = {}
    for kind in KINDS:
        mine = [m for k, m in messages if k == kind]
        check = checks[kind]
        figures[kind] = best_time(lambda: [check(m) for m in mine]) / len(mine) * 1e6  # noqa: B023
    figures["all, in call order"] = best_time(lambda: [checks[k](m) for k, m in messages]) / len(messages) * 1e6
    return figures


def main(games: int) -> None:
    messages = corpus(games)
    counts = {kind: sum(k == kind for k, _ in messages) for kind in KINDS}
    from_schemas = {kind: schema_problem(compiled(kind)) for kind in KINDS}
    refused = [(k, p) for k, m in messages if (p := from_schemas[k](m)) is not None]
    print(f"corpus: {games} games, {len(messages)} messages {counts}; load average {os.getloadavg()[0]:.2f}")
    print(f"schemas refuse {len(refused)} of the reference's messages" + (f", e.g. {refused[0]}" if refused else ""))
    hand = measure(messages, HAND_WRITTEN)
    remembered, shapes._REMEMBERED = shapes._REMEMBERED, 0
    unremembered = measure(messages, HAND_WRITTEN)
    shapes._REMEMBERED = remembered
    schema = measure(messages, from_schemas)
    print(f"{'µs per message (CPU)':24} {'shapes.py':>10} {'(no memory)':>12} {'fastjsonschema':>15}")
    for kind in [*KINDS, "all, in call order"]:
        print(f"{kind:24} {hand[kind]:10.2f} {unremembered[kind]:12.2f} {schema[kind]:15.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
