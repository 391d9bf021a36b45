"""Reports (JSON, JUnit XML, Markdown) and expected-failure semantics."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path

import jsonschema

import oracle
from oracle.core.causes import CAUSE_KEY, CauseFacts, Verdict
from oracle.core.results import CheckResult, Outcome
from oracle.reports import RunInfo, build_report, exit_code, totals, write_json, write_junit, write_markdown
from oracle.reports.json_report import SCHEMA_FILE
from oracle.run.expectations import ExpectedFailure, apply_expectations, load_expectations

REPRO = "oracle check --impl oracle.reference --select PAY-3-red-and-blue-for-cost-1"
FAILED = CheckResult(
    "scenarios", "PAY-3-red-and-blue-for-cost-1", "a cost of 1 is paid with one stone", Outcome.ILLEGAL_ACCEPTED,
    rules=("PAY-3",), cards=("base-fire-05",), step=2,
    expected="rejected with PAYMENT_SUPERFLUOUS_STONE (PAY-3)", actual="accepted",
    message="x.toml:20: step 2: the engine accepted P0 summons Salamander paying 1 red, 1 blue",
    reproduce=REPRO, duration=0.01, details={"file": "x.toml", "line": 20},
)
RESULTS = [
    CheckResult("scenarios", "ACT-2-x", "markers", Outcome.PASS, rules=("ACT-2",), cards=("base-water-02",)),
    FAILED,
    CheckResult("scenarios", "HUNT-3-x", "hunting", Outcome.TIMEOUT, rules=("HUNT-3",), step=1, message="slow"),
    CheckResult("scenarios", "EXP-1", "needs the expansion", Outcome.UNSUPPORTED, rules=("RUL-11",)),
    CheckResult("random-play", "random-play/2p/seed-1", "random play", Outcome.PASS, rules=("END-1",)),
]
RUN = RunInfo(engine="test-engine", engine_version="9.9", impl="tests.engine", suites=("scenarios", "random-play"),
              started=datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC), duration=1.5, options={"seed": 1})


def test_totals_and_exit_code() -> None:
    counts = totals(RESULTS)
    assert {"pass": 2, "illegal-accepted": 1, "timeout": 1, "unsupported": 1} == {k: v for k, v in counts.items() if v}
    assert [o.value for o in Outcome] == list(counts)
    failed, green = 1, 0
    assert failed == exit_code(RESULTS)
    assert green == exit_code([RESULTS[0], RESULTS[3]])


PASSING = CheckResult("scenarios", "ACT-2-x", "markers", Outcome.PASS)
INCOMPLETE = CheckResult("invariants", "invariants/INV-AREA", "areas", Outcome.INCOMPLETE, message="0 decisions")
NOT_APPLICABLE = CheckResult("scenarios", "RUL-1-per-stone", "per stone", Outcome.NOT_APPLICABLE)
UNSUPPORTED = RESULTS[3]


def test_exit_codes_follow_their_precedence() -> None:
    stopped = RunInfo(engine="e", engine_version="1", impl="x", stopped="the time budget of 1 s ran out")
    signalled = RunInfo(engine="e", engine_version="1", impl="x", stopped="stopped by SIGTERM", signal="SIGTERM")
    assert [143, 5, 1, 3, 3, 4, 0] == [
        exit_code([FAILED, INCOMPLETE], signalled, report_failed=True),
        exit_code([FAILED, INCOMPLETE], RUN, report_failed=True),
        exit_code([FAILED, INCOMPLETE], stopped),
        exit_code([PASSING, INCOMPLETE], RUN),
        exit_code([UNSUPPORTED], stopped),
        exit_code([UNSUPPORTED, NOT_APPLICABLE], RUN),
        exit_code([PASSING, UNSUPPORTED, NOT_APPLICABLE], RUN),
    ]


def test_nothing_checked_exits_4_unless_allowed_and_keeps_its_verdict() -> None:
    from oracle.reports.common import summary_line, verdict

    skipped = [UNSUPPORTED, NOT_APPLICABLE, NOT_APPLICABLE]
    allowed = RunInfo(engine="e", engine_version="1", impl="x", allow_empty=True)
    assert (4, 0) == (exit_code(skipped, RUN), exit_code(skipped, allowed))
    assert ("NOTHING CHECKED", "NOTHING CHECKED") == (verdict(skipped, RUN), verdict(skipped, allowed))
    assert "NOTHING CHECKED: 3 checks (1 unsupported, 2 not applicable)" == summary_line(skipped, RUN)
    assert "INCOMPLETE: 2 checks, 2 ran, 0 unsupported, 0 not applicable" == summary_line([PASSING, INCOMPLETE], RUN)


def test_fail_on_unsupported_never_fails_a_not_applicable_check() -> None:
    strict = RunInfo(engine="e", engine_version="1", impl="x", fail_on_unsupported=True)
    assert (0, 1) == (exit_code([PASSING, NOT_APPLICABLE], strict), exit_code([PASSING, UNSUPPORTED], strict))


def test_json_report_validates_against_its_schema(tmp_path: Path) -> None:
    path = tmp_path / "out" / "report.json"
    write_json(path, RESULTS, RUN)
    report = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(report, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    expected_run = {
        "suite_version": oracle.SUITE_VERSION, "oracle_version": oracle.__version__,
        "protocol": oracle.PROTOCOL_VERSION,
        "engine": {"name": "test-engine", "version": "9.9", "impl": "tests.engine"},
        "date": "2024-05-01T12:00:00Z", "duration": 1.5, "python": RUN.python,
        "suites": ["scenarios", "random-play"], "options": {"seed": 1}, "complete": True, "stopped": "",
        "not_run": [],
    }
    assert expected_run == report["run"]
    assert [{**r.to_json(), "notes": [], "blamed_rule": ""} for r in RESULTS] == report["results"]
    expected_totals = {"checks": 5, "ran": 4, "unsupported": 1, "not_applicable": 0, "load_would_unlock": 0,
                       "not_run": 0,
                       "summary": "FAILED: 5 checks, 4 ran, 1 unsupported, 0 not applicable", "passed": False,
                       "verdict": "FAILED", "exit_code": 1, "by_outcome": totals(RESULTS), "causes": 2, "notes": 0}
    assert expected_totals == report["totals"]
    assert report == build_report(RESULTS, RUN)


def test_the_schema_rejects_a_report_without_totals() -> None:
    report = build_report(RESULTS, RUN)
    del report["totals"]
    try:
        jsonschema.validate(report, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    except jsonschema.ValidationError as err:
        assert "'totals' is a required property" == err.message
    else:
        raise AssertionError("the schema accepted a report without totals")


def test_junit_has_a_suite_per_suite_name_and_typed_elements(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    write_junit(path, RESULTS, RUN)
    root = ET.parse(path).getroot()
    expected_root = {"tests": "5", "failures": "1", "errors": "1", "skipped": "1"}
    assert expected_root == {k: root.attrib[k] for k in expected_root}
    assert ["scenarios", "random-play"] == [s.attrib["name"] for s in root.findall("testsuite")]
    cases = {c.attrib["name"]: c for c in root.iter("testcase")}
    assert [r.id for r in RESULTS] == list(cases)
    kinds = {name: [child.tag for child in case] for name, case in cases.items()}
    expected_kinds = {"ACT-2-x": [], "PAY-3-red-and-blue-for-cost-1": ["failure"], "HUNT-3-x": ["error"],
                      "EXP-1": ["skipped"], "random-play/2p/seed-1": []}
    assert expected_kinds == kinds
    failure = cases["PAY-3-red-and-blue-for-cost-1"].find("failure")
    assert failure is not None
    expected_attrs = {
        "type": "illegal-accepted",
        "message": "[PAY-3] step 2: illegal-accepted: x.toml:20: step 2: the engine accepted P0 summons Salamander "
                   "paying 1 red, 1 blue",
    }
    assert expected_attrs == dict(failure.attrib)
    expected_text = (
        "outcome: illegal-accepted\ncause: 2 of 2, The engine fails a scenarios check (PAY-3)\n"
        "rule: PAY-3\ncard: Salamander\nstep: 2\n"
        "expected: rejected with PAYMENT_SUPERFLUOUS_STONE (PAY-3)\nactual: accepted\n"
        f"detail: {FAILED.message}\nreproduce: {REPRO}\n"
    )
    assert expected_text == failure.text
    expected_location = {"file": "x.toml", "line": "20", "classname": "scenarios"}
    attrs = cases["PAY-3-red-and-blue-for-cost-1"].attrib
    assert expected_location == {k: attrs[k] for k in expected_location}


def test_markdown_lists_totals_groups_cards_and_each_failure(tmp_path: Path) -> None:
    path = tmp_path / "summary.md"
    write_markdown(path, RESULTS, RUN)
    text = path.read_text(encoding="utf-8")
    expected_lines = [
        "## Vale Oracle conformance: FAILED",
        "**FAILED: 5 checks, 4 ran, 1 unsupported, 0 not applicable**",
        "| illegal-accepted | 1 |",
        "| **total** | **5** |",
        "| payment | 1 | 0 | 0 | 0 | 1 | 0 |",
        "| hunting | 1 | 0 | 0 | 0 | 1 | 0 |",
        "| end | 1 | 1 | 0 | 0 | 0 | 0 |",
        "| rulings | 1 | 0 | 1 | 0 | 0 | 0 |",
        "| Salamander | 1 | 0 | 0 | 0 | 1 |",
        "| Kappa | 1 | 1 | 0 | 0 | 0 |",
        "#### illegal-accepted: `PAY-3-red-and-blue-for-cost-1`",
        "* rule: PAY-3",
        "* card: Salamander",
        "* step: 2",
        "* expected: `rejected with PAYMENT_SUPERFLUOUS_STONE (PAY-3)`",
        "* actual: `accepted`",
        REPRO,
        "#### timeout: `HUNT-3-x`",
    ]
    lines = text.splitlines()
    assert expected_lines == [line for line in expected_lines if line in lines]


def test_expected_failures_and_unexpected_passes() -> None:
    entry = ExpectedFailure("PAY-3-red-and-blue-for-cost-1", "gives change", "x.toml", 1)
    passing = CheckResult("scenarios", "PAY-3-red-and-blue-for-cost-1", "t", Outcome.PASS)
    unsupported = CheckResult("scenarios", "PAY-3-red-and-blue-for-cost-1", "t", Outcome.UNSUPPORTED)
    out = apply_expectations([FAILED, passing, unsupported, RESULTS[0]], {entry.id: entry})
    expected = [Outcome.EXPECTED_FAILURE, Outcome.UNEXPECTED_PASS, Outcome.UNSUPPORTED, Outcome.PASS]
    assert expected == [r.outcome for r in out]
    assert out[0].message.startswith("expected failure (gives change); it ended as illegal-accepted: x.toml:20")
    ok_then_not = [True, False, True, True]
    assert ok_then_not == [r.outcome.ok for r in out]
    assert {"reason": "gives change", "file": "x.toml", "line": 1, "outcome": "pass"} == (
        out[1].details["expected_failure"]
    )


def test_expectations_file_errors_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "expect.toml"
    path.write_text(
        '[[expected_failure]]\nid = "A"\nreason = "known"\n\n'
        '[[expected_failure]]\nid = "B"\n\n'
        '[[expected_failure]]\nid = "MISSING"\nreason = "typo"\n\n'
        '[[expected_failure]]\nid = "A"\nreason = "twice"\nwhy = 1\n',
        encoding="utf-8",
    )
    entries, errors = load_expectations(path, {"A", "B"})
    expected_errors = [
        f"{path}:5: expected_failure 'B' needs a reason (why the failure is expected)",
        f"{path}:9: no check of this engine has the id 'MISSING'",
        f"{path}:15: unknown key 'why' (known: id, reason)",
        f"{path}:13: 'A' is listed twice (also at line 1)",
    ]
    assert expected_errors == errors
    assert ["A", "B"] == sorted(entries)
    path.write_text("[[expected_failure]\n", encoding="utf-8")
    assert [f"{path}:1: not valid TOML: Expected ']]' at the end of an array declaration"] == (
        load_expectations(path, set())[1]
    )


def test_code_locations_are_shown_by_module_never_by_the_machines_paths(tmp_path: Path) -> None:
    import oracle.engines.harness
    from oracle.core.portable import shown_path, shown_traceback

    assert "oracle/engines/harness.py" == shown_path(oracle.engines.harness.__file__)
    assert "oracle/__init__.py" == shown_path(oracle.__file__)
    assert "…/lost.py" == shown_path("/nowhere/at/all/lost.py")
    assert "relative/as/given.py" == shown_path("relative/as/given.py")
    trace = f'Traceback (most recent call last):\n  File "{oracle.engines.harness.__file__}", line 12, in f\n    x()\n'
    assert 'Traceback (most recent call last):\n  File "oracle/engines/harness.py", line 12, in f\n    x()\n' == \
        shown_traceback(trace)


# ---------------------------------------------------------------------------------------------- blame (issue 24)


def _dec1_failure(check_id: str) -> CheckResult:
    """A check citing a setup, a hunting, a decision and a taming rule that fails on a bug blamed on DEC-1."""
    facts = CauseFacts(Verdict.REJECTS, "action", "NOT_YOUR_TURN", rule="DEC-1", step=3, cards=("base-fire-01",),
                       engine_message="not your turn, player 1", engine_does="plays the action as player 0",
                       reference_does="the reference plays it as player 1")
    return CheckResult("scenarios", check_id, check_id, Outcome.WRONGLY_REJECTED,
                       rules=("SETUP-1", "HUNT-1", "DEC-1", "TAME-1"), details={CAUSE_KEY: facts.to_json()})


BLAMED = [_dec1_failure("a"), _dec1_failure("b"), CheckResult("scenarios", "h", "", Outcome.PASS, rules=("HUNT-1",))]
DEC1_TITLE = "Hestia, step 3: the engine plays the action as player 0; the reference plays it as player 1 (DEC-1)"


def test_markdown_charges_the_blamed_rule_and_shows_the_others_not_reached(tmp_path: Path) -> None:
    from oracle.core.rules import rules

    path = tmp_path / "summary.md"
    write_markdown(path, BLAMED, RUN)
    lines = path.read_text(encoding="utf-8").splitlines()
    groups = {rules()[r].group for r in ("SETUP-1", "HUNT-1", "DEC-1", "TAME-1")}
    decision, hunting = rules()["DEC-1"].group, rules()["HUNT-1"].group
    assert 4 == len(groups)
    assert f"| {decision} | 2 | 0 | 0 | 0 | 2 | 0 |" in lines
    assert f"| {hunting} | 1 | 1 | 0 | 0 | 0 | 2 |" in lines
    assert "| SETUP-1 | 0 | 0 | 0 | 0 | 2 |" in lines and "| DEC-1 | 2 | 0 | 0 | 0 | 0 |" in lines
    assert f"1. **{DEC1_TITLE}**: 2 check(s) (rule DEC-1); smallest: `a`" in lines
    assert "   the engine says: `not your turn, player 1`" in lines
    assert "   kinds: action · cards: Hestia · steps: 3 · engine codes: NOT\\_YOUR\\_TURN" in lines


def test_the_console_names_the_cause_its_rule_and_the_engines_words() -> None:
    from oracle.cli.check import print_summary

    shown: list[str] = []
    print_summary(BLAMED, RUN, shown.append)
    assert f"  1. {DEC1_TITLE}: 2 check(s), rule DEC-1" in shown
    assert ["     kinds: action · cards: Hestia · steps: 3 · engine codes: NOT_YOUR_TURN",
            "     the engine says: not your turn, player 1", "     a, b", "     smallest: a"] == shown[2:6]
