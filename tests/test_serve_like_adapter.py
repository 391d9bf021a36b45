"""``oracle serve --legal-by-trial`` and ``--legal-cost MS``: the reference served as real adapters are (issue 25)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from oracle.engines.adapter_like import AdapterLike
from oracle.engines.play import new_setup
from oracle.engines.wire.channel import Deadline
from oracle.engines.wire.connection import Connection
from oracle.engines.wire.settings import current_settings
from tests.helpers import CALL_SECONDS

SERVE = [sys.executable, "-P", "-m", "oracle.cli.app", "serve"]
REQUESTS = [
    {"id": 1, "method": "handshake"},
    {"id": 2, "method": "new_game", "params": {"setup": new_setup(2, 1)}},
    {"id": 3, "method": "legal_actions"},
    {"id": 4, "method": "quit"},
]


def _served(*options: str) -> dict[int, dict[str, object]]:
    """Each answer of the served reference to :data:`REQUESTS`, by request id."""
    lines = "".join(json.dumps(r) + "\n" for r in REQUESTS)
    run = subprocess.run([*SERVE, *options], input=lines, capture_output=True, text=True, timeout=120, check=True)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    return {int(a["id"]): a for a in answers}


def test_legal_by_trial_leaves_legal_actions_out_of_the_handshake_and_answers_it_unsupported() -> None:
    plain, by_trial = _served(), _served("--legal-by-trial")
    plain_capabilities = plain[1]["result"]["capabilities"]  # type: ignore[index]
    assert "legal_actions" in plain_capabilities
    expected = [c for c in plain_capabilities if c != "legal_actions"]
    assert expected == by_trial[1]["result"]["capabilities"]  # type: ignore[index]
    assert "unsupported" == by_trial[3]["error"]["code"]  # type: ignore[index]
    assert plain[2] == by_trial[2]


def test_legal_cost_makes_every_listing_wait_and_lists_the_same_actions() -> None:
    cost_ms = 400
    connection = Connection([*SERVE, "--legal-cost", str(cost_ms)], current_settings())
    plain = Connection(SERVE, current_settings())
    try:
        for served in (connection, plain):
            served.call("new_game", {"setup": new_setup(3, 7)}, Deadline.after(CALL_SECONDS))
        started = time.perf_counter()
        listed = connection.call("legal_actions", {}, Deadline.after(CALL_SECONDS))
        elapsed = time.perf_counter() - started
        assert elapsed >= cost_ms / 1000
        assert plain.call("legal_actions", {}, Deadline.after(CALL_SECONDS)) == listed
    finally:
        connection.close()
        plain.close()


@pytest.mark.parametrize(("options", "message"), [
    (["--legal-cost", "-1"], "error: --legal-cost must be a number of milliseconds from 0, not -1"),
    (["--legal-cost", "nan"], "error: --legal-cost must be a number of milliseconds from 0, not nan"),
    (["--legal-cost", "20", "--legal-by-trial"],
     "error: --legal-cost prices a legal_actions call, which --legal-by-trial never answers: give one of them"),
])
def test_serve_refuses_a_legal_cost_it_cannot_serve_in_one_line(options: list[str], message: str) -> None:
    run = subprocess.run([*SERVE, *options], input="", capture_output=True, text=True, timeout=120, check=False)
    assert (2, message) == (run.returncode, run.stderr.strip())


def test_nothing_changes_without_either_option() -> None:
    assert (False, None) == (AdapterLike().changes_anything, AdapterLike().problem())
    assert (True, True) == (AdapterLike(by_trial=True).changes_anything, AdapterLike(cost_ms=0.5).changes_anything)
