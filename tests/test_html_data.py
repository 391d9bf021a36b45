"""The HTML site without a browser: what the reports are read as, the cells and counts of the matrix, the
embedded scenario sources, and what the pages contain (``oracle report html``)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.causes import CAUSE_KEY, CauseFacts
from oracle.core.causes import Verdict as CauseVerdict
from oracle.core.results import CheckResult, Outcome
from oracle.core.rules import rules
from oracle.reports import RunInfo, build_report, write_json
from oracle.reports.badge import report_score
from oracle.reports.html.load import ReportError, Verdict, load_report, parse_report
from oracle.reports.html.markup import outcome_symbol
from oracle.reports.html.page_matrix import panel_data
from oracle.reports.html.site import build_site, render_site
from oracle.reports.html.tally import NO_RULE, Status, by_rule, columns, matrix, rule_rows, tally
from oracle.reports.json_report import SCHEMA_FILE
from oracle.scenarios.loader import default_dir

PAY3_FILE = default_dir() / "payment" / "PAY-3-red-and-blue-for-cost-1.toml"
PAY3_ID = "PAY-3-red-and-blue-for-cost-1"
REPRO = f"oracle check --impl tests.engine --select {PAY3_ID}"


def _run(engine: str = "test-engine", impl: str = "tests.engine") -> RunInfo:
    return RunInfo(engine=engine, engine_version="1.0", impl=impl, suites=("scenarios",),
                   started=datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC), duration=1.0)


def _result(check_id: str, outcome: Outcome, rules: tuple[str, ...] = ("PAY-3",), cards: tuple[str, ...] = (),
            **kw: Any) -> CheckResult:
    return CheckResult("scenarios", check_id, f"title of {check_id}", outcome, rules=rules, cards=cards, **kw)


def _report(results: list[CheckResult], engine: str = "test-engine", impl: str = "tests.engine",
            name: str = "r.json") -> Any:
    return parse_report(build_report(results, _run(engine, impl)), Path(name))


MIXED = [
    _result("pay-ok", Outcome.PASS, cards=("base-fire-05",)),
    _result(PAY3_ID, Outcome.ILLEGAL_ACCEPTED, cards=("Salamander",), reproduce=REPRO, step=2,
            expected="rejected", actual="accepted", details={"file": str(PAY3_FILE), "line": 20}),
    _result("pay-unsupported", Outcome.UNSUPPORTED),
    _result("hunt-ok", Outcome.PASS, rules=("HUNT-1",)),
    _result("no-rule", Outcome.ERROR, rules=()),
]


# ---------------------------------------------------------------------------------------------- cells and counts


def test_cell_is_passes_over_checks_run_with_unsupported_apart() -> None:
    cell = tally(by_rule(_report(MIXED))["PAY-3"])
    assert (3, 1, 2, 1) == (cell.checks, cell.passes, cell.run, cell.unsupported)
    assert Status.FAIL == cell.status
    assert "1/2 +1 unsupported" == cell.figure


def test_unsupported_is_never_shown_as_a_pass() -> None:
    cell = tally(by_rule(_report([_result("x", Outcome.UNSUPPORTED)]))["PAY-3"])
    assert (Status.UNSUPPORTED, "unsupported", 0) == (cell.status, cell.figure, cell.passes)
    assert Status.NOT_RUN == tally([]).status


def test_expected_failures_alone_are_known_not_passing() -> None:
    cell = tally(by_rule(_report([_result("x", Outcome.EXPECTED_FAILURE), _result("y", Outcome.PASS)]))["PAY-3"])
    assert (Status.KNOWN, "1/2") == (cell.status, cell.figure)


def test_card_names_and_ids_count_as_the_same_card() -> None:
    report = _report(MIXED)
    assert ("base-fire-05",) == report.results[1].cards
    cells = matrix(columns([report], ["index.html"])).card_cells["base-fire-05"]
    assert 2 == cells[0].checks


def test_rows_are_the_catalogue_then_unknown_rules_then_checks_citing_none() -> None:
    report = _report([*MIXED, _result("future", Outcome.PASS, rules=("NEW-99",))])
    ids = [row.id for row in rule_rows([report])]
    assert list(rules()) == ids[:len(rules())]
    assert ["NEW-99", NO_RULE] == ids[len(rules()):]


def test_matrix_has_a_column_per_report_and_a_cell_per_rule_and_column() -> None:
    good = _report([_result("pay-ok", Outcome.PASS)], engine="good")
    bad = _report(MIXED, engine="bad")
    m = matrix(columns([good, bad], ["report-01.html", "report-02.html"]))
    assert ["good 1.0", "bad 1.0"] == [c.label for c in m.columns]
    assert len(m.rules) == len(m.rule_cells)
    assert all(len(cells) == 2 for cells in m.rule_cells.values())
    assert [Status.PASS, Status.FAIL] == [t.status for t in m.rule_cells["PAY-3"]]
    assert [Status.NOT_RUN, Status.PASS] == [t.status for t in m.rule_cells["HUNT-1"]]


def test_two_reports_of_one_engine_get_distinct_labels() -> None:
    a = _report(MIXED, impl="a.engine")
    b = _report(MIXED, impl="b.engine")
    c = _report(MIXED, impl="b.engine")
    assert ["test-engine 1.0 (a.engine)", "test-engine 1.0 (b.engine) #1", "test-engine 1.0 (b.engine) #2"] == [
        col.label for col in columns([a, b, c], ["1", "2", "3"])]


def test_a_cell_opens_the_failing_checks_of_its_column_and_row() -> None:
    good = _report([_result("pay-ok", Outcome.PASS)], engine="good")
    bad = _report(MIXED, engine="bad")
    data = panel_data(matrix(columns([good, bad], ["report-01.html", "report-02.html"])))
    cells: dict[str, dict[str, list[int]]] = data["cells"]  # type: ignore[assignment]
    checks: list[list[list[str]]] = data["checks"]  # type: ignore[assignment]
    assert {"1": [0]} == cells["rule|PAY-3"]
    assert "rule|HUNT-1" not in cells
    entry = checks[1][0]
    assert [PAY3_ID, "illegal-accepted", REPRO] == [entry[0], entry[1], entry[5]]
    assert f"report-02.html#check-{PAY3_ID}" == entry[6]


def test_every_outcome_has_its_own_symbol() -> None:
    assert len(Outcome) == len({outcome_symbol(o) for o in Outcome})
    assert len(Status) == len({s.symbol for s in Status})


# ---------------------------------------------------------------------------------------------- reading reports


@pytest.mark.parametrize(("text", "message"), [
    ("{", "r.json:1: not valid JSON"),
    ('{"format": "other"}', "r.json: format: expected vale-oracle/report/1"),
    ('{"format": "vale-oracle/report/1", "run": {"engine": {"name": "e"}}, "results": [{"id": "x", '
     '"outcome": "great"}]}', "r.json: results[0].outcome: 'great' is not an outcome this oracle knows"),
    ('{"format": "vale-oracle/report/1", "run": {"engine": {"name": "e"}}, "results": [{"id": 3, '
     '"outcome": "pass"}]}', "r.json: results[0].id: must be a string"),
])
def test_a_bad_report_is_one_line_naming_the_file_and_field(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ReportError) as caught:
        load_report(path)
    assert str(caught.value).startswith(f"{tmp_path}/{message}")
    result = CliRunner().invoke(app, ["report", "html", str(path), "-o", str(tmp_path / "site")])
    assert 2 == result.exit_code
    assert 1 == len(result.output.strip().splitlines())
    assert "Traceback" not in result.output


def test_a_report_of_format_1_and_one_of_format_2_make_one_matrix(tmp_path: Path) -> None:
    old = Path(__file__).parent / "data" / "report-format-1.json"
    new = tmp_path / "new.json"
    write_json(new, [_result("RUL-1-per-stone", Outcome.NOT_APPLICABLE), _result("pay-ok", Outcome.PASS)], _run())
    assert "vale-oracle/report/1" == json.loads(old.read_text(encoding="utf-8"))["format"]
    result = CliRunner().invoke(app, ["report", "html", str(old), str(new), "-o", str(tmp_path / "site")])
    assert 0 == result.exit_code, result.output
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "fixture vale_fixtures.superfluous_payment" in index and "test-engine" in index
    assert f"{Status.UNSUPPORTED.symbol}" in index and f"{Status.NOT_APPLICABLE.symbol}" in index
    assert Verdict.FAILED == load_report(old).verdict


def test_the_legend_names_each_kind_of_not_run_with_its_own_symbol() -> None:
    results = [_result("a", Outcome.UNSUPPORTED, rules=("PAY-1",)), _result("b", Outcome.NOT_APPLICABLE,
                                                                           rules=("RUL-1",))]
    cols = columns([_report(results), _report(results, engine="other")], ["1.html", "2.html"])
    page = render_site([c.report for c in cols])["index.html"]
    for status in (Status.UNSUPPORTED, Status.NOT_APPLICABLE, Status.NOT_RUN):
        assert f'title="{status.label}">{status.symbol}</span> {status.label}</li>' in page
    cells = matrix(cols).rule_cells
    assert (Status.UNSUPPORTED, Status.NOT_APPLICABLE) == (cells["PAY-1"][0].status, cells["RUL-1"][0].status)
    assert ("unsupported", "not applicable") == (cells["PAY-1"][0].figure, cells["RUL-1"][0].figure)


def test_later_fields_are_read_when_present_and_not_needed() -> None:
    data = build_report(MIXED, _run())
    data["run"].update(complete=False, stopped="the engine stopped answering")
    data["results"][1]["notes"] = ["a plain note", {"text": "a structured note"}]
    data["causes"] = [{"signature": "sig-1", "title": "superfluous stone accepted", "kind": "payment",
                       "checks": [PAY3_ID], "count": 1, "rules": ["PAY-3"], "smallest": PAY3_ID}]
    report = parse_report(data, Path("r.json"))
    assert (False, "the engine stopped answering") == (report.complete, report.stopped)
    assert ("a plain note", "a structured note") == report.results[1].notes
    assert ("superfluous stone accepted", (PAY3_ID,)) == (report.causes[0].title, report.causes[0].checks)
    page = render_site([report])["index.html"]
    for text in ("superfluous stone accepted", "a structured note", "the engine stopped answering", "incomplete"):
        assert text in page
    older = {k: v for k, v in build_report(MIXED, _run()).items() if k != "causes"}
    bare = parse_report(older, Path("older.json"))
    assert (True, (), ()) == (bare.complete, bare.causes, bare.results[1].notes)


def test_a_run_stopped_early_is_incomplete_and_lists_what_never_ran() -> None:
    data = build_report([_result("pay-ok", Outcome.PASS), _result("slow", Outcome.INCOMPLETE)], _run())
    data["run"].update(complete=False, stopped="time budget", not_run=["never-1", "never-2"])
    data["totals"].pop("verdict", None)
    report = parse_report(data, Path("r.json"))
    assert (Verdict.INCOMPLETE, ("never-1", "never-2")) == (report.verdict, report.not_run)
    page = render_site([report])["index.html"]
    assert "INCOMPLETE" in page and "2 check(s) never ran" in page and "<code>never-2</code>" in page
    data["results"].append({**_result("bad", Outcome.FAIL).to_json(), "notes": []})
    failed = parse_report(data, Path("r.json"))
    assert Verdict.FAILED == failed.verdict
    assert "FAILED" in render_site([failed])["index.html"]


# ---------------------------------------------------------------------------------------------- embedded sources


def test_the_json_report_embeds_each_failing_scenario_source(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    write_json(path, MIXED, _run())
    data = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    assert [PAY3_ID] == list(data["sources"])
    source = data["sources"][PAY3_ID]
    assert PAY3_FILE.read_text(encoding="utf-8") == source["text"]
    assert re.fullmatch(r"[0-9a-f]{64}", source["sha256"])


def test_a_report_from_another_machine_shows_its_scenario(tmp_path: Path) -> None:
    data = build_report(MIXED, _run())
    data["run"]["suite_version"] = "9.9-elsewhere"
    data["results"][1]["details"]["file"] = "/elsewhere/PAY-3.toml"
    data["sources"] = {PAY3_ID: {"file": "/elsewhere/PAY-3.toml", "sha256": "0" * 64,
                                 "text": PAY3_FILE.read_text(encoding="utf-8")}}
    page = render_site([parse_report(data, Path("r.json"))])["index.html"]
    assert "The scenario in words" in page
    assert "must be rejected: PAYMENT_SUPERFLUOUS_STONE" in page
    data.pop("sources")
    assert "The scenario in words" not in render_site([parse_report(data, Path("r.json"))])["index.html"]


def test_a_report_without_sources_of_this_suite_version_shows_the_bundled_scenario() -> None:
    data = build_report(MIXED, _run())
    data.pop("sources")
    page = render_site([parse_report(data, Path("r.json"))])["index.html"]
    assert "this oracle&#39;s suite" in page
    assert "must be rejected: PAYMENT_SUPERFLUOUS_STONE" in page


# ---------------------------------------------------------------------------------------------- the pages


def test_one_report_is_one_page_and_several_are_a_matrix_and_a_page_each(tmp_path: Path) -> None:
    paths = []
    for i, results in enumerate((MIXED, MIXED[:1])):
        paths.append(tmp_path / f"r{i}.json")
        write_json(paths[-1], results, _run(engine=f"engine-{i}"))
    single = build_site(paths[:1], tmp_path / "one")
    assert ["index.html"] == [name for name, _ in single.pages]
    several = build_site(paths, tmp_path / "two")
    assert ["index.html", "report-01.html", "report-02.html"] == [name for name, _ in several.pages]
    index = (tmp_path / "two" / "index.html").read_text(encoding="utf-8")
    assert 'href="report-01.html#rule-HUNT-1"' in index
    assert 'href="report-02.html#rule-HUNT-1"' not in index


def test_pages_fetch_nothing_and_carry_a_symbol_per_status() -> None:
    pages = render_site([_report(MIXED, engine="a"), _report(MIXED[:1], engine="b")])
    for text in pages.values():
        assert not re.search(r"<link\b|\bsrc=|@import|url\(|https?://", text)
        assert "<style>" in text and "<script>" in text
    assert f'title="{Status.FAIL.label}">{Status.FAIL.symbol}</span>' in pages["index.html"]


def test_the_report_page_lists_each_failure_with_its_reproduce_command() -> None:
    page = render_site([_report(MIXED)])["index.html"]
    article = page[page.index(f'id="check-{PAY3_ID}"'):]
    article = article[:article.index("</article>")]
    assert f'data-copy="{REPRO}"' in article
    assert "<code>rejected</code>" in article and "<code>accepted</code>" in article
    assert 'id="rule-PAY-3" open' in page
    assert 'id="card-base-fire-05"' in page


def test_the_site_shows_the_badge_figure() -> None:
    report = _report(MIXED)
    assert "4/5 checked · 2 pass · 2 fail" == report_score(report).text
    assert "4/5 checked · 2 pass · 2 fail" in render_site([report])["index.html"]
    assert "4/5 checked · 2 pass · 2 fail" in render_site([report, _report(MIXED[:1], engine="b")])["index.html"]


# ---------------------------------------------------------------------------------------------- rules charged by blame


WIDE = ("SETUP-1", "HUNT-1", "DEC-1", "TAME-1")


def _blamed(check_id: str, blame: str, rules: tuple[str, ...] = WIDE) -> CheckResult:
    facts = CauseFacts(CauseVerdict.REJECTS, "action", "NOT_YOUR_TURN", rule=blame,
                       step=3, cards=("base-fire-01",), engine_message="not your turn, player 1")
    return _result(check_id, Outcome.WRONGLY_REJECTED, rules=rules, details={CAUSE_KEY: facts.to_json()})


def _dec1(blame: str = "DEC-1") -> list[CheckResult]:
    """Three checks that fail on one bug blamed on ``blame``, each citing four rules, and one that passes HUNT-1."""
    return [*(_blamed(f"s{i}", blame) for i in range(3)), _result("hunt-ok", Outcome.PASS, rules=("HUNT-1",))]


def _red(results: list[CheckResult]) -> list[str]:
    m = matrix(columns([_report(results)], ["index.html"]))
    return [row.id for row in m.rules if m.rule_cells[row.id][0].status is Status.FAIL]


def test_a_rule_row_is_red_only_when_a_cause_is_blamed_on_it() -> None:
    cells = matrix(columns([_report(_dec1())], ["index.html"])).rule_cells
    assert ["DEC-1"] == _red(_dec1())
    assert (Status.FAIL, "0/3") == (cells["DEC-1"][0].status, cells["DEC-1"][0].figure)
    assert (Status.NOT_REACHED, "not reached") == (cells["SETUP-1"][0].status, cells["SETUP-1"][0].figure)
    assert (Status.PASS, "1/1 +3 not reached") == (cells["HUNT-1"][0].status, cells["HUNT-1"][0].figure)


def test_a_failure_blamed_on_a_rule_it_does_not_cite_turns_that_rule_red() -> None:
    assert ["PAY-3"] == _red([_blamed("s", "PAY-3", ("SETUP-1",))])


def test_without_a_blame_every_cited_rule_is_red_as_before() -> None:
    assert set(WIDE) == set(_red(_dec1(blame="")))


def test_not_reached_has_its_own_symbol_in_the_legend_and_the_cells() -> None:
    pages = render_site([_report(_dec1()), _report(MIXED, engine="other")])
    status = Status.NOT_REACHED
    assert f'title="{status.label}">{status.symbol}</span> {status.label}</li>' in pages["index.html"]
    assert 'class="cell s-not-reached"' in pages["index.html"]
    assert len({s.symbol for s in Status}) == len(Status)


def test_the_panel_of_a_cell_lists_only_the_checks_charged_to_its_rule() -> None:
    data = panel_data(matrix(columns([_report(_dec1())], ["index.html"])))
    cells: dict[str, dict[str, list[int]]] = data["cells"]  # type: ignore[assignment]
    assert ({"0": [0, 1, 2]}, False, False) == (cells["rule|DEC-1"], "rule|SETUP-1" in cells, "rule|HUNT-1" in cells)


def test_the_report_page_shows_the_cause_in_words_and_the_checks_not_reached() -> None:
    page = render_site([_report(_dec1())])["index.html"]
    causes = page[page.index('<section id="causes">'):page.index("</section>")]
    assert "Hestia, step 3: the engine rejects an answer to the action decision with NOT_YOUR_TURN" in causes
    assert "the engine says: <code>not your turn, player 1</code>" in causes
    assert 'rule <a href="#rule-DEC-1">DEC-1</a>' in causes
    assert 'id="rule-DEC-1" open' in page and 'id="rule-SETUP-1" open' not in page
    setup = page[page.index('id="rule-SETUP-1"'):]
    assert "not reached: wrongly-rejected at DEC-1" in setup[:setup.index("</details>")]
    assert ('<td>SETUP-1</td><td class="num">0</td><td class="num">0</td><td class="num">0</td>'
            '<td class="num">0</td><td class="num">3</td>') in page


def test_a_report_written_before_the_blame_loads_and_charges_every_cited_rule() -> None:
    data = build_report(_dec1(), _run())
    for result in data["results"]:
        result.pop("blamed_rule")
    for cause in data["causes"]:
        cause.pop("facets")
        cause.pop("engine_message")
    for tally_json in data["coverage"]["rules"].values():
        tally_json.pop("not_reached")
    jsonschema.validate(data, json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    report = parse_report(data, Path("older.json"))
    m = matrix(columns([report], ["index.html"]))
    assert set(WIDE) == {row.id for row in m.rules if m.rule_cells[row.id][0].status is Status.FAIL}
    assert ("", "") == (report.causes[0].engine_message, report.results[0].blamed_rule)
