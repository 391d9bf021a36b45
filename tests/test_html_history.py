"""The site of many engines over time, without a browser: reports grouped by engine, each engine's runs by date,
kept apart by suite and compared with the run before on the same suite only; the matrix of the latest runs; a folder
of reports (``oracle report html DIR``)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.results import CheckResult, Outcome
from oracle.reports import RunInfo, build_report, write_json
from oracle.reports.html.history import Change, EngineKey, SuiteKey, histories
from oracle.reports.html.load import Report, parse_report
from oracle.reports.html.page_matrix import suite_groups
from oracle.reports.html.site import build_site, render_site
from oracle.reports.html.tally import columns, matrix
from oracle.scenarios.suite_digest import suite_digest

OTHER_DIGEST = "0123456789ab"


def _run(day: int, engine: str = "engine-a", digest: str = "") -> RunInfo:
    return RunInfo(engine=engine, engine_version=f"1.{day}", impl=f"tests.{engine}", suites=("scenarios",),
                   started=datetime(2026, 11, day, 12, 0, 0, tzinfo=UTC), duration=1.0,
                   suite_digest=digest or suite_digest())


def _checks(passes: int, failing_rules: tuple[str, ...] = ()) -> list[CheckResult]:
    """``passes`` passing checks, then one failing check per rule of ``failing_rules`` (a cause each)."""
    ok = [CheckResult("scenarios", f"ok-{i}", "a pass", Outcome.PASS, rules=("PAY-3",)) for i in range(passes)]
    bad = [CheckResult("scenarios", f"bad-{rule}", "a failure", Outcome.FAIL, rules=(rule,)) for rule in failing_rules]
    return ok + bad


def _report(day: int, results: list[CheckResult], engine: str = "engine-a", digest: str = "") -> Report:
    return parse_report(build_report(results, _run(day, engine, digest)), Path(f"{engine}-{day}.json"))


# Engine A: a clean run, one that passes more, one that breaks HUNT-1 (given out of date order), and one of an
# older suite.
RISE = _report(2, _checks(4))
FIRST = _report(1, _checks(3))
DROP = _report(3, _checks(4, ("HUNT-1",)))
OLD_SUITE = _report(4, _checks(1), digest=OTHER_DIGEST)


# ---------------------------------------------------------------------------------------------- one engine's runs


def test_an_engines_runs_are_in_date_order_each_compared_with_the_one_before() -> None:
    (history,) = histories([RISE, DROP, FIRST])
    (suite,) = history.suites
    assert [FIRST, RISE, DROP] == [run.report for run in suite.runs]
    assert [Change.FIRST, Change.RISE, Change.DROP] == [run.change for run in suite.runs]
    assert [None, 1, 0] == [run.passes_delta for run in suite.runs]
    assert [0, 0, 1] == [len(run.causes) for run in suite.runs]
    assert [(), (), DROP.causes] == [run.new_causes for run in suite.runs]
    assert DROP is history.latest


def test_a_cause_gone_is_a_rise_and_the_same_figures_are_the_same() -> None:
    fixed = _report(5, _checks(4))
    again = _report(6, _checks(4))
    (suite,) = histories([DROP, fixed, again])[0].suites
    assert [Change.FIRST, Change.RISE, Change.SAME] == [run.change for run in suite.runs]
    assert DROP.causes == suite.runs[1].gone_causes


def test_a_new_cause_is_a_drop_even_when_more_checks_pass() -> None:
    more_but_broken = _report(4, _checks(9, ("HUNT-1", "DEC-1")))
    (suite,) = histories([DROP, more_but_broken])[0].suites
    assert [Change.FIRST, Change.DROP] == [run.change for run in suite.runs]
    assert (1, ("DEC-1",)) == (len(suite.runs[1].new_causes), suite.runs[1].new_causes[0].rules)


def test_runs_of_another_suite_are_kept_apart_and_never_compared() -> None:
    (history,) = histories([FIRST, OLD_SUITE, RISE])
    assert [SuiteKey(OLD_SUITE.suite_version, OTHER_DIGEST), SuiteKey(FIRST.suite_version, suite_digest())] == [
        s.suite for s in history.suites]
    assert [[Change.FIRST], [Change.FIRST, Change.RISE]] == [[r.change for r in s.runs] for s in history.suites]
    assert OLD_SUITE is history.latest
    assert f"{FIRST.suite_version} · {OTHER_DIGEST}" == history.suites[0].suite.label


def test_a_report_without_a_digest_is_its_suite_version_alone() -> None:
    data = build_report(_checks(1), _run(1))
    data["run"].pop("suite_digest")
    report = parse_report(data, Path("old.json"))
    assert SuiteKey(report.suite_version, "") == SuiteKey.of(report)
    assert f"{report.suite_version} (no digest)" == SuiteKey.of(report).label


# ---------------------------------------------------------------------------------------------- the site


def test_the_matrix_shows_each_engines_latest_run_and_its_page_the_history() -> None:
    other = _report(2, _checks(2), engine="engine-b")
    engines = histories([FIRST, other, DROP, RISE])
    assert [EngineKey("engine-a", "tests.engine-a"), EngineKey("engine-b", "tests.engine-b")] == [
        h.engine for h in engines]
    pages = render_site([FIRST, other, DROP, RISE])
    assert ["index.html", "report-01.html", "report-02.html"] == list(pages)
    assert "engine-a 1.3" in pages["index.html"] and "engine-a 1.1" not in pages["index.html"]
    assert '<a href="report-01.html#history">3</a>' in pages["index.html"]
    assert ['data-change="first"', 'data-change="rise"', 'data-change="drop"'] == [
        f'data-change="{c}"' for c in _row_changes(pages["report-01.html"])]
    assert 'id="history"' not in pages["report-02.html"]


def _row_changes(page: str) -> list[str]:
    history = page[page.index('<section id="history">'):page.index('<section id="causes">')]
    return [part.split('"', 1)[0] for part in history.split('<tr class="run change-')[1:]]


def test_one_engine_with_several_runs_is_one_page_with_its_history() -> None:
    pages = render_site([FIRST, RISE, DROP, OLD_SUITE])
    assert ["index.html"] == list(pages)
    page = pages["index.html"]
    assert 2 == page.count('<section class="suite-runs"')
    assert "not compared with those above" in page
    assert page.index(OTHER_DIGEST) < page.index(suite_digest())


def test_the_matrix_groups_the_columns_by_suite_when_latest_runs_differ() -> None:
    other = _report(2, _checks(2), engine="engine-b")
    newest = _report(3, _checks(2), engine="engine-c")
    engines = histories([other, OLD_SUITE, newest])
    assert ["engine-a", "engine-b", "engine-c"] == [h.engine.name for h in engines]
    table = matrix(columns([h.latest for h in engines], ["1", "2", "3"]))
    assert [(OTHER_DIGEST, 1), (suite_digest(), 2)] == [(g.suite.digest, g.span) for g in suite_groups(table)]
    assert 'id="suites-apart"' in render_site([other, OLD_SUITE, newest])["index.html"]
    assert [] == suite_groups(matrix(columns([other, newest], ["1", "2"])))


def test_a_folder_of_reports_makes_the_site_and_an_empty_one_is_refused(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    for day, results in ((1, _checks(3)), (2, _checks(4))):
        (runs / f"2026-11-0{day}").mkdir(parents=True)
        write_json(runs / f"2026-11-0{day}" / "engine-a.json", results, _run(day))
    write_json(runs / "engine-b.json", _checks(1), _run(1, "engine-b"))
    site = build_site([runs, runs / "engine-b.json"], tmp_path / "site")
    assert ["index.html", "report-01.html", "report-02.html"] == [name for name, _ in site.pages]
    pages = {name: (tmp_path / "site" / name).read_text(encoding="utf-8") for name, _ in site.pages}
    assert (2, False) == (pages["report-01.html"].count('<tr class="run '), 'id="history"' in pages["report-02.html"])
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(app, ["report", "html", str(empty), "-o", str(tmp_path / "out")])
    assert (2, [f"error: {empty}: a folder without any JSON report (*.json)"]) == (
        result.exit_code, result.output.strip().splitlines())


def test_the_json_report_carries_the_suite_digest(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    write_json(path, _checks(1), RunInfo(engine="e", engine_version="1", impl="x"))
    run = json.loads(path.read_text(encoding="utf-8"))["run"]
    assert (suite_digest(), 12) == (run["suite_digest"], len(run["suite_digest"]))
