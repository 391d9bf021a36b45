"""The Node.js kit as an engine author gets it (issue 26, items 2 and 7): ``oracle kit node DIR`` writes it from the
installed package with a ``cards.json`` stamped with the oracle's version, which the kit reads at start-up and
checks against the oracle's in the handshake; it works from CommonJS as from ESM; ``node --test`` runs the oracle's
checks as tests (unsupported ones skipped, known failures todo); and the example engine, whose state is a store
with ``export`` and ``load`` mapped field by field, passes what it runs."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core import versions
from oracle.core.results import CheckResult, Outcome
from oracle.reports.common import RunInfo
from oracle.reports.json_report import report_text

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="the kit needs Node.js 18 or later (CI has Node.js 20)")
ALL = os.environ.get("VALE_ORACLE_WIRE_ALL", "") == "1"
runner = CliRunner()


@pytest.fixture
def kit(tmp_path: Path) -> Path:
    done = runner.invoke(app, ["kit", "node", str(tmp_path / "kit")])
    assert 0 == done.exit_code, done.stdout + done.stderr
    return tmp_path / "kit"


def wire(program: Path, *requests: dict[str, object]) -> list[dict[str, object]]:
    """The answers of a wire engine to the requests, one JSON line each."""
    assert NODE is not None
    lines = "".join(json.dumps({"id": n, **r}) + "\n" for n, r in enumerate(requests, 1))
    done = subprocess.run([NODE, str(program)], input=lines, capture_output=True, text=True, timeout=60, check=False)
    return [json.loads(line) for line in done.stdout.splitlines()]


def tap_counts(output: str) -> dict[str, int]:
    """The totals a TAP report of ``node --test`` ends with (``# pass 3``, ``# skip 1`` ...)."""
    return {key: int(value) for key, value in re.findall(r"^# (pass|fail|skipped|todo|cancelled) (\d+)$", output,
                                                          re.MULTILINE)}


def node_test(test_file: Path, environment: dict[str, str], *, named: bool = True) -> subprocess.CompletedProcess[str]:
    """``node --test`` in the test file's folder, on that file (``named``) or on what Node's default glob finds."""
    assert NODE is not None
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return subprocess.run([NODE, "--test", "--test-reporter=tap", *([str(test_file)] if named else [])],
                          cwd=test_file.parent, env={**os.environ, "PATH": path, **environment},
                          capture_output=True, text=True, timeout=300, check=False)


# ---------------------------------------------------------------------------------------------- oracle kit node


def test_the_kit_is_written_with_cards_json_stamped_with_the_oracles_version(kit: Path) -> None:
    assert ["cards.json", "example.cjs", "example.mjs", "example.test.mjs", "vale-cards.mjs", "vale-oracle-checks.mjs",
            "vale-wire.cjs", "vale-wire.mjs"] == sorted(p.name for p in kit.iterdir())
    cards = json.loads((kit / "cards.json").read_text(encoding="utf-8"))
    assert ("vale-oracle/cards/1", versions.__version__, 98) == (cards["format"], cards["oracle_version"],
                                                                 len(cards["cards"]))


def test_writing_the_kit_again_renews_the_kit_and_the_card_data_and_keeps_the_authors_example(kit: Path) -> None:
    (kit / "example.mjs").write_text("// my engine\n", encoding="utf-8")
    (kit / "vale-wire.mjs").write_text("// stale\n", encoding="utf-8")
    (kit / "cards.json").write_text("{}", encoding="utf-8")
    done = runner.invoke(app, ["kit", "node", str(kit)])
    assert "kept your example.cjs, example.mjs, example.test.mjs (delete one to get the kit's again)" in done.stdout
    assert "// my engine\n" == (kit / "example.mjs").read_text(encoding="utf-8")
    assert "// stale\n" != (kit / "vale-wire.mjs").read_text(encoding="utf-8")
    assert versions.__version__ == json.loads((kit / "cards.json").read_text(encoding="utf-8"))["oracle_version"]


def test_a_directory_that_cannot_be_written_is_a_located_refusal(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    done = runner.invoke(app, ["kit", "node", str(tmp_path / "file" / "kit")])
    assert 2 == done.exit_code
    assert f"error: {tmp_path / 'file' / 'kit'}: cannot write the kit" in done.stderr


@pytest.mark.parametrize("name", ["vale-wire.mjs", "cards.json", "example.mjs"])
def test_a_symbolic_link_in_the_folder_is_refused_located_and_nothing_is_written_through_it(
        tmp_path: Path, name: str) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n", encoding="utf-8")
    (tmp_path / "kit").mkdir()
    (tmp_path / "kit" / name).symlink_to(victim)
    done = runner.invoke(app, ["kit", "node", str(tmp_path / "kit")])
    assert (2, "mine\n", [name]) == (done.exit_code, victim.read_text(encoding="utf-8"),
                                     [p.name for p in (tmp_path / "kit").iterdir()])
    assert f"error: {tmp_path / 'kit' / name}: is a symbolic link; refused" in done.stderr


def test_a_dangling_symbolic_link_in_the_folder_is_refused_and_creates_nothing_where_it_points(tmp_path: Path) -> None:
    (tmp_path / "kit").mkdir()
    (tmp_path / "kit" / "vale-wire.cjs").symlink_to(tmp_path / "planted.cjs")
    done = runner.invoke(app, ["kit", "node", str(tmp_path / "kit")])
    assert (2, False) == (done.exit_code, (tmp_path / "planted.cjs").exists())


def test_a_kit_file_hard_linked_elsewhere_is_replaced_not_written_through(kit: Path, tmp_path: Path) -> None:
    (kit / "vale-wire.mjs").unlink()
    shared = tmp_path / "shared.txt"
    shared.write_text("mine\n", encoding="utf-8")
    os.link(shared, kit / "vale-wire.mjs")
    done = runner.invoke(app, ["kit", "node", str(kit)])
    assert (0, "mine\n") == (done.exit_code, shared.read_text(encoding="utf-8"))
    assert "mine\n" != (kit / "vale-wire.mjs").read_text(encoding="utf-8")


def test_a_folder_or_a_fifo_by_a_kit_files_name_is_refused_located(tmp_path: Path) -> None:
    (tmp_path / "kit" / "cards.json").mkdir(parents=True)
    os.mkfifo(tmp_path / "kit" / "vale-wire.mjs")
    done = runner.invoke(app, ["kit", "node", str(tmp_path / "kit")])
    assert 2 == done.exit_code
    assert f"error: {tmp_path / 'kit' / 'vale-wire.mjs'}: is not a regular file (a FIFO" in done.stderr


# ---------------------------------------------------------------------------------------------- CommonJS, versions


@needs_node
def test_a_commonjs_adapter_reads_the_cards_and_its_unsupported_is_answered_unsupported(kit: Path) -> None:
    answers = wire(kit / "example.cjs", {"method": "handshake", "params": {"oracle_version": versions.__version__}},
                   {"method": "new_game", "params": {"setup": {"players": 2, "deck": []}}},
                   {"method": "apply", "params": {"action": {"type": "pick"}}}, {"method": "quit", "params": {}})
    assert "starter-kit example (set-up only, CommonJS)" == answers[0]["result"]["engine"]  # type: ignore[index]
    assert {"code": "unsupported", "message": "this example plays only the set-up"} == answers[2]["error"]
    assert 4 == len(answers)


@needs_node
def test_a_kit_written_by_another_oracle_refuses_the_handshake_and_says_how_to_renew_it(kit: Path) -> None:
    cards = json.loads((kit / "cards.json").read_text(encoding="utf-8"))
    (kit / "cards.json").write_text(json.dumps({**cards, "oracle_version": "0.0.1"}), encoding="utf-8")
    done = runner.invoke(app, ["check", "--impl", f"cmd:{NODE} {kit / 'example.cjs'}", "--suite", "setup"])
    assert 2 == done.exit_code
    assert (f"this kit's cards.json was written by vale-oracle 0.0.1 and the oracle checking the engine is "
            f"{versions.__version__}: write the kit again with `oracle kit node DIR`") in done.stderr


# ---------------------------------------------------------------------------------------------- try_actions

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "node"
TINY_ENGINE = """import {{ serve, Unsupported }} from "./vale-wire.mjs";
let state = {{ moves: [] }};
const engine = {{
  handshake: () => ({{ capabilities: {capabilities} }}),
  newGame: () => {{ state = {{ moves: [] }}; return []; }},
  decision: () => ({{ kind: "hunt_pick", player: 0 }}),
  legalActions: () => [{{ type: "pick", player: 0, card: "base-fire-01" }}],
  apply: (action) => {{ state.moves.push(action); return {{ accepted: true, events: [] }}; }},
  export: () => {export},
  load: (snapshot) => {{ state = structuredClone(snapshot); }},
}};
{remove}
await serve(engine{options});
"""


LOADS = {"load": "", "no load": "delete engine.load;",
         "load unsupported": "engine.load = () => { throw new Unsupported('no load yet'); };"}


def declared_capabilities(kit: Path, *, copies: bool, load: str, option: str | None,
                          asks: bool = False) -> list[str]:
    """The capabilities the kit declares for a tiny engine: its export a copy or its live state, with load or not,
    ``serve``'s option tryActions given or not, try_actions in its own handshake or not."""
    program = kit / "tiny.mjs"
    program.write_text(TINY_ENGINE.format(
        capabilities=json.dumps(["legal_actions", "export", "load", *(["try_actions"] if asks else [])]),
        export="structuredClone(state)" if copies else "state", remove=LOADS[load],
        options="" if option is None else f", {{ tryActions: {option} }}"), encoding="utf-8")
    answers = wire(program, {"method": "handshake", "params": {}}, {"method": "quit", "params": {}})
    return answers[0]["result"]["capabilities"]  # type: ignore[index,no-any-return]


@needs_node
@pytest.mark.parametrize(("copies", "load", "option", "asks", "declared"), [
    (True, "load", None, False, True),
    (False, "load", None, False, False),
    (True, "no load", None, False, False),
    (True, "load unsupported", None, False, False),
    (True, "load", "false", False, False),
    (True, "load", "false", True, False),
    (False, "load", "true", False, True),
    (False, "load", None, True, True),
    (True, "no load", "true", False, False),
], ids=["a restore that restores", "export shares the live state", "no load", "load unsupported", "turned off",
        "turned off though the handshake asks", "asked by the option", "asked by the handshake",
        "asked without load"])
def test_the_kit_declares_try_actions_only_when_asked_or_a_restore_was_seen_to_restore(
        kit: Path, copies: bool, load: str, option: str | None, asks: bool, declared: bool) -> None:
    """Issue 36, item 10: try_actions answered by save, apply and restore is declared when the adapter asks for it
    (serve's option, or its own handshake), or when the start-up check saw a restore restore from an export that
    is a copy; never without load, never when turned off."""
    capabilities = declared_capabilities(kit, copies=copies, load=load, option=option, asks=asks)
    assert declared == ("try_actions" in capabilities)


@needs_node
def test_an_engine_whose_export_shares_its_live_state_gets_no_try_actions_and_no_false_causes(
        kit: Path, tmp_path: Path) -> None:
    """The public engine of issue 36, item 10, as a fixture: with try_actions answered by its export and load, its
    random play gave false causes (3) and PROTO-2 errors; the kit's start-up check declines try_actions."""
    shutil.copy(FIXTURES / "shares-live-log.mjs", kit)
    report = tmp_path / "report.json"
    done = subprocess.run([str(Path(sys.executable).parent / "oracle"), "check", "--impl",
                           f"cmd:{NODE} {kit / 'shares-live-log.mjs'}", "--suite", "random-play", "-j", "1",
                           "--report-json", str(report)], capture_output=True, text=True, timeout=600, check=False,
                          env={**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"})
    written = json.loads(report.read_text(encoding="utf-8"))
    assert [] == [(r["id"], r["outcome"]) for r in written["results"] if r["outcome"] != "pass"], done.stdout
    assert "try_actions" not in {m["method"] for m in written["run"]["engine_costs"]["methods"]}


# ---------------------------------------------------------------------------------------------- node --test


def canned_report(tmp_path: Path) -> Path:
    """A fake ``oracle`` that prints a report of four checks, one of each way a check ends for node:test."""
    results = [
        CheckResult("setup", "setup/2p/first-0", "set-up", Outcome.PASS, rules=("SETUP-1",)),
        CheckResult("scenarios", "CARD-Imp-gains", "Imp", Outcome.FAIL, rules=("RUL-1",), cards=("base-fire-02",),
                    expected="2 red", actual="1 red", reproduce="oracle check --select CARD-Imp-gains"),
        CheckResult("roundtrip", "roundtrip/2p", "round trip", Outcome.UNSUPPORTED, rules=("PROTO-1",),
                    message="the engine does not declare 'load'"),
        CheckResult("scenarios", "PAY-3-no-change", "change", Outcome.EXPECTED_FAILURE, rules=("PAY-3",),
                    details={"expected_failure": {"reason": "we give change (issue 12)"}}),
    ]
    report = tmp_path / "report.json"
    report.write_text(report_text(results, RunInfo("fake", "1", "cmd:fake")), encoding="utf-8")
    oracle = tmp_path / "fake-oracle.cjs"
    oracle.write_text(f"process.stdout.write(require('node:fs').readFileSync({json.dumps(str(report))}));\n"
                      "process.exitCode = 1;\n", encoding="utf-8")
    return oracle


@needs_node
def test_node_test_reports_each_check_as_a_test_skips_the_unsupported_and_marks_known_failures_todo(
        kit: Path, tmp_path: Path) -> None:
    oracle = canned_report(tmp_path)
    gate = kit / "gate.test.mjs"
    gate.write_text('import { oracleTests } from "./vale-oracle-checks.mjs";\n'
                    f'await oracleTests({{ engine: "node e.mjs", oracle: ["node", {json.dumps(str(oracle))}] }});\n',
                    encoding="utf-8")
    done = node_test(gate, {})
    assert {"pass": 1, "fail": 2, "skipped": 1, "todo": 1, "cancelled": 0} == tap_counts(done.stdout), done.stdout
    tests = [line.strip() for line in done.stdout.splitlines() if re.match(r"\s*(not )?ok \d", line)]
    assert ["ok 1 - setup/2p/first-0 [SETUP-1]", "ok 1 - setup",
            "not ok 1 - CARD-Imp-gains [RUL-1] (base-fire-02)",
            "not ok 2 - PAY-3-no-change [PAY-3] # TODO we give change (issue 12)", "not ok 2 - scenarios",
            "ok 1 - roundtrip/2p [PROTO-1] # SKIP the engine does not declare 'load'", "ok 3 - roundtrip",
            "not ok 4 - oracle check: FAILED: 4 checks, 3 ran, 1 unsupported, 0 not applicable"] == tests
    assert "reproduce: oracle check --select CARD-Imp-gains" in done.stdout


@needs_node
def test_node_test_on_the_example_runs_the_set_up_and_a_loaded_scenario_as_passing_tests(kit: Path) -> None:
    narrowed = "--suite setup,scenarios --select setup/2p/* --select ACT-2-cannot-end-turn-with-a-marker -j 1"
    done = node_test(kit / "example.test.mjs", {"VALE_ORACLE_ARGS": narrowed})
    assert {"pass": 4, "fail": 0, "skipped": 0, "todo": 0, "cancelled": 0} == tap_counts(done.stdout), \
        done.stdout + done.stderr
    assert "ok 1 - ACT-2-cannot-end-turn-with-a-marker [ACT-2, SELL-1] (base-water-02)" in done.stdout, \
        done.stdout


@needs_node
def test_node_test_in_the_kit_runs_only_the_example_test_and_reports_one_verdict(kit: Path) -> None:
    """Issue 41, item 3: the kit's library is no test file to Node's default glob (``*-test.mjs`` and the like),
    so a bare ``node --test`` in the kit gives the checks and one verdict, no second top-level test."""
    done = node_test(kit / "example.test.mjs", {"VALE_ORACLE_ARGS": "--suite setup --select setup/2p/* -j 1"},
                     named=False)
    top_level = [line for line in done.stdout.splitlines() if re.match(r"(not )?ok \d", line)]
    assert ["ok 1 - setup", "ok 2 - oracle check: PASSED: 2 checks, 2 ran, 0 unsupported, 0 not applicable"] \
        == top_level, done.stdout + done.stderr


@needs_node
@pytest.mark.skipif(not ALL, reason="the whole default check over the example (about 40 s): VALE_ORACLE_WIRE_ALL=1")
def test_the_example_with_a_store_passes_the_default_check_with_every_check_it_can_run(kit: Path) -> None:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    oracle = str(Path(sys.executable).parent / "oracle")
    done = subprocess.run([oracle, "check", "--impl", f"cmd:{NODE} {kit / 'example.mjs'}", "--report-json", "-"],
                          env={**os.environ, "PATH": path}, capture_output=True, text=True, timeout=900, check=False)
    totals = json.loads(done.stdout)["totals"]
    assert (0, "PASSED", 0) == (done.returncode, totals["verdict"], totals["unsupported"]), done.stderr[-3000:]
