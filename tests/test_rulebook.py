"""The rulebook (``oracle rulebook``) without a browser: every rule, card, tile and scenario has its place, the
project's rulings carry their reasoning, a report's outcomes stand beside the scenarios, hostile report strings stay
text, and the command's exit codes. The expectations come from the catalogues and the loader, not from counts."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.cards import catalogue
from oracle.core.results import CheckResult, Outcome
from oracle.core.rules import rules, variants
from oracle.reports import RunInfo, build_report
from oracle.scenarios.loader import default_dir, load_dir
from oracle.scenarios.model import Scenario

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"})
PAY3_ID = "PAY-3-red-and-blue-for-cost-1"
HOSTILE = {
    "engine": "<script>alert('engine')</script>",
    "expected": "<!--<script>",
    "actual": "</script><script>alert('actual')</script>",
    "message": "<img src=x onerror=alert('message')>",
    "reproduce": "oracle check --select x'\"><script>alert('repro')</script>",
    "note": "\u2028</script><!--",
}


class Page(HTMLParser):
    """One page read: each element id with the ids around it and its text, the scripts, comments and tags seen."""

    def __init__(self, path: Path) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, str | None]] = []
        self.ancestors: dict[str, tuple[str, ...]] = {}
        self.texts: dict[str, list[str]] = {}
        self.classes: dict[str, str] = {}
        self.scripts: list[dict[str, str | None]] = []
        self.tags: set[str] = set()
        self.attributes: set[str] = set()
        self.comments: list[str] = []
        self.feed(path.read_text(encoding="utf-8"))
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        self.tags.add(tag)
        self.attributes.update(found)
        if tag == "script":
            self.scripts.append(found)
        element_id = found.get("id")
        if element_id is not None:
            self.ancestors[element_id] = tuple(i for _, i in self.open if i is not None)
            self.texts[element_id] = []
            self.classes[element_id] = found.get("class") or ""
        if tag not in VOID:
            self.open.append((tag, element_id))
        elif tag == "br":
            self.handle_data(" ")

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        for _, element_id in self.open:
            if element_id is not None:
                self.texts[element_id].append(data)

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)

    def text(self, element_id: str) -> str:
        return " ".join("".join(self.texts[element_id]).split())


@cache
def _scenarios() -> list[Scenario]:
    return load_dir(default_dir()).scenarios


def _rule_page(rule_id: str) -> str:
    return f"rules-{rules()[rule_id].group}.html"


@cache
def _pages(site: Path) -> dict[str, Page]:
    """Every page of a site, read once."""
    return {path.name: Page(path) for path in sorted(site.glob("*.html"))}


def _result(check_id: str, outcome: Outcome, rule_ids: tuple[str, ...], suite: str = "scenarios",
            **kw: Any) -> CheckResult:
    return CheckResult(suite, check_id, f"title of {check_id}", outcome, rules=rule_ids, **kw)


def _write_report(path: Path, engine: str = "test-engine") -> None:
    scenarios = {s.id: s for s in _scenarios()}
    passing = next(s for s in scenarios.values() if "HUNT-1" in s.rules)
    unsupported = next(s for s in scenarios.values() if "ART-11" in s.rules)
    results = [
        _result(PAY3_ID, Outcome.ILLEGAL_ACCEPTED, scenarios[PAY3_ID].rules, step=2, expected=HOSTILE["expected"],
                actual=HOSTILE["actual"], message=HOSTILE["message"], reproduce=HOSTILE["reproduce"]),
        _result(passing.id, Outcome.PASS, passing.rules),
        _result(unsupported.id, Outcome.UNSUPPORTED, unsupported.rules, message="needs the expansion"),
        _result("no-such-scenario", Outcome.PASS, ("PAY-1",)),
        _result("setup-starting-scores", Outcome.FAIL, ("SETUP-2",), suite="setup", message="scores 0, 0"),
    ]
    run = RunInfo(engine=engine, engine_version="1.0", impl="tests.engine", suites=("scenarios", "setup"),
                  started=datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC), duration=1.0)
    data = build_report(results, run)
    data["results"][0]["notes"] = [HOSTILE["note"]]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rulebook alone, written by the command."""
    out = tmp_path_factory.mktemp("rulebook") / "site"
    result = CliRunner().invoke(app, ["rulebook", "-o", str(out)])
    assert 0 == result.exit_code, result.output
    assert "wrote" in result.output and "index.html" in result.output
    return out


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rulebook beside a small report whose strings are hostile."""
    root = tmp_path_factory.mktemp("reported")
    _write_report(root / "report.json", HOSTILE["engine"])
    result = CliRunner().invoke(app, ["rulebook", "-o", str(root / "site"), "--report", str(root / "report.json")])
    assert 0 == result.exit_code, result.output
    return root / "site"


# ---------------------------------------------------------------------------------------------- everything on it


def test_every_rule_has_its_section_on_its_groups_page(site: Path) -> None:
    pages = _pages(site)
    missing = [r for r in rules() if f"rule-{r}" not in pages.get(_rule_page(r), Page(site / "index.html")).ancestors]
    assert [] == missing


def test_every_card_and_tile_has_its_page_with_its_text(site: Path) -> None:
    printed = {c.id: (f"card-{c.id}.html", [c.name, *(e.text for e in c.effects)]) for c in catalogue().cards.values()}
    printed |= {t.id: (f"{t.id}.html", [t.name, t.text]) for t in catalogue().tiles.values()}
    missing = [card_id for card_id, (name, texts) in printed.items() if not (site / name).is_file()
               or not all(" ".join(t.split()) in _pages(site)[name].text("content") for t in texts)]
    assert [] == missing


def test_every_scenario_appears_under_each_rule_it_cites(site: Path) -> None:
    pages = _pages(site)
    missing = []
    for scenario in _scenarios():
        for rule_id in dict.fromkeys((*scenario.rules, *scenario.reject_rules)):
            around = pages[_rule_page(rule_id)].ancestors.get(f"{rule_id}--{scenario.id}")
            if around is None or f"rule-{rule_id}" not in around:
                missing.append((rule_id, scenario.id))
    assert [] == missing


def test_every_scenario_appears_on_the_page_of_each_card_it_names(site: Path) -> None:
    pages = _pages(site)
    missing = [(card_id, s.id) for s in _scenarios() for card_id in s.cards
               if f"scenario-{s.id}" not in pages[f"card-{card_id}.html"].ancestors]
    assert [] == missing


def test_the_index_links_every_rule_card_tile_and_scenario(site: Path) -> None:
    text = (site / "index.html").read_text(encoding="utf-8")
    expected = ([f'href="{_rule_page(r)}#rule-{r}"' for r in rules()]
                + [f'href="card-{c}.html"' for c in catalogue().cards] + [f'href="{t}.html"' for t in catalogue().tiles]
                + [f'href="{_rule_page(s.rules[0])}#{s.rules[0]}--{s.id}"' for s in _scenarios()])
    assert [] == [link for link in expected if link not in text]


def test_a_scenario_is_shown_in_the_words_of_scenarios_show(site: Path) -> None:
    from oracle.scenarios.describe import scenario_lines

    scenario = next(s for s in _scenarios() if s.id == PAY3_ID)
    page = Page(site / "rules-payment.html")
    assert " ".join(" ".join(scenario_lines(scenario)).split()) in page.text(f"PAY-3--{PAY3_ID}")


def test_positive_and_negative_scenarios_are_marked(site: Path) -> None:
    page = Page(site / "rules-payment.html")
    summary = page.text(f"PAY-3--{PAY3_ID}").split(PAY3_ID)[0]
    assert "positive" in summary and "negative" in summary
    only_positive = next(s for s in _scenarios() if "PAY-2" in s.rules and all(st.reject is None for st in s.steps))
    assert "negative" not in page.text(f"PAY-2--{only_positive.id}").split(only_positive.id)[0]


def test_a_cards_scenario_count_says_how_many_are_both_positive_and_negative(site: Path) -> None:
    from oracle.reports.rulebook.gather import is_negative, is_positive

    naming = [s for s in _scenarios() if "art-wind-05" in s.cards]
    positive, negative = sum(map(is_positive, naming)), sum(map(is_negative, naming))
    both = positive + negative - len(naming)
    expected = f"Scenarios naming Loki ({len(naming)}: {positive} positive, {negative} negative" + (
        f", {both} of them both)" if both else ")")
    assert expected in (site / "card-art-wind-05.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------- the project's rulings


def test_the_projects_own_rulings_are_marked_with_their_reasoning(site: Path) -> None:
    pages = _pages(site)
    wrong = []
    for rule in rules().values():
        element = f"rule-{rule.id}"
        page = pages[_rule_page(rule.id)]
        text, marked = page.text(element), "project" in page.classes[element].split()
        label = "project ruling" if rule.kind == "ruling" else "project reading" if rule.reason else "printed rule"
        if label not in text or marked != rule.is_project_reading or " ".join(rule.reason.split()) not in text:
            wrong.append(rule.id)
    assert [] == wrong


def test_each_variant_shows_its_values_with_their_meanings_the_projects_first(site: Path) -> None:
    pages = _pages(site)
    assert variants(), "no rule variant declared"
    for rule_id, variant in variants().items():
        text = pages[_rule_page(rule_id)].text(f"rule-{rule_id}")
        assert f"{variant.values[0]} the project's ruling" in text
        assert all(" ".join(m.split()) in text for m in variant.meanings)


def test_a_quoted_line_of_a_source_is_shown_as_a_quotation(site: Path) -> None:
    text = (site / "rules-artifacts.html").read_text(encoding="utf-8")
    assert "<q>It is never every family at once</q>" in text


# ---------------------------------------------------------------------------------------------- beside a report


def test_each_scenario_shows_how_the_engine_fared(reported: Path) -> None:
    payment = Page(reported / "rules-payment.html")
    failure = payment.text(f"PAY-3--{PAY3_ID}")
    assert "illegal-accepted" in failure
    for key in ("expected", "actual", "message", "reproduce", "note"):
        assert " ".join(HOSTILE[key].split()) in failure
    assert "open" in (reported / "rules-payment.html").read_text(encoding="utf-8").split(
        f'id="PAY-3--{PAY3_ID}"')[1].split(">")[0]
    index = Page(reported / "index.html")
    assert "no-such-scenario" in index.text("content")
    setup = Page(reported / "rules-setup.html").text("rule-SETUP-2")
    assert "setup-starting-scores" in setup and "scores 0, 0" in setup
    hunting = Page(reported / "rules-hunting.html").text("rule-HUNT-1")
    assert "not in the report" in hunting


def test_hostile_report_strings_stay_text(reported: Path) -> None:
    salamander = next(c.id for c in catalogue().cards.values() if c.name == "Salamander")
    for name in ("index.html", "rules-payment.html", f"card-{salamander}.html"):
        page = Page(reported / name)
        assert [] == page.comments, name
        assert [{"src": "assets/site.js"}, {"src": "assets/rulebook.js"}] == page.scripts, name
        assert "img" not in page.tags and not any(a.startswith("on") for a in page.attributes), name
        assert HOSTILE["engine"] in page.text("content"), name


# ---------------------------------------------------------------------------------------------- the command


@pytest.mark.parametrize(("text", "message"), [
    ("{", "report.json:1: not valid JSON"),
    ('{"format": "vale-oracle/report/1", "run": {"engine": {"name": "e"}}, "results": [{"id": "x", '
     '"outcome": "great"}]}', "report.json: results[0].outcome: 'great' is not an outcome this oracle knows"),
])
def test_a_bad_report_exits_2_naming_the_file_and_field(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "report.json"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["rulebook", "-o", str(tmp_path / "out"), "--report", str(path)])
    assert 2 == result.exit_code
    assert f"error: {tmp_path}/{message}" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_an_output_that_cannot_be_written_exits_2(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    result = CliRunner().invoke(app, ["rulebook", "-o", str(blocked)])
    assert 2 == result.exit_code
    assert result.output.startswith(f"error: cannot write {blocked}")


def test_a_check_of_another_suite_is_not_reached_under_the_rules_its_blamed_failure_stopped_before(
        tmp_path: Path) -> None:
    from oracle.core.causes import CAUSE_KEY, CauseFacts, Verdict

    facts = CauseFacts(Verdict.DIFFERS, "summon", field="players[*].score", rule="EFF-3")
    game = _result("random-play/2p/seed-1", Outcome.FAIL, ("SETUP-2", "EFF-3"), suite="random-play",
                   message="score differs", details={CAUSE_KEY: facts.to_json()})
    run = RunInfo(engine="e", engine_version="1.0", impl="tests.engine", suites=("random-play",),
                  started=datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC))
    (tmp_path / "report.json").write_text(json.dumps(build_report([game], run)), encoding="utf-8")
    result = CliRunner().invoke(app, ["rulebook", "-o", str(tmp_path / "site"), "--report",
                                      str(tmp_path / "report.json")])
    assert 0 == result.exit_code, result.output
    setup = Page(tmp_path / "site" / _rule_page("SETUP-2")).text("rule-SETUP-2")
    effect = Page(tmp_path / "site" / _rule_page("EFF-3")).text("rule-EFF-3")
    assert (True, False) == ("not reached: fail at EFF-3" in setup, "score differs" in setup)
    assert (False, True) == ("not reached" in effect, "score differs" in effect)
