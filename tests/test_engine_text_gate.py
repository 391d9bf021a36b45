"""One gate for engine text, on every route (issue 36, item 4): the same hostile text, said by an engine in every place
it can speak (the handshake, answers, rejections, decisions, exceptions and their type names, the speed measure,
stdout and stderr, in-process and over the wire), reaches no output raw. Each route is one ``oracle check`` run, as a
user runs it (colour off), whose every output is checked: the JSON report parses and holds no control character,
the JUnit file is valid XML, the Markdown summary rendered as CommonMark with raw HTML on makes no image, no
``</details>`` of its own and no remote request, the HTML site has no script, no ``on*`` attribute and no remote
address of the engine's, and the terminal shows no control character at all."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import html5lib
import pytest
from markdown_it import MarkdownIt

from oracle.core.engine_text import CUT, MESSAGE_CHARS, clean_data, clean_snapshot, clean_text
from oracle.core.faults import EngineFault, ImplError
from oracle.core.json_types import JSON
from oracle.engines.harness import Subject
from oracle.reference import ReferenceEngine
from oracle.reports.html.site import build_site

FIXTURE = "vale_fixtures.hostile_text"
WIRE_FIXTURE = "vale_fixtures.wire.hostile_text"
ORACLE = str(Path(sys.executable).with_name("oracle"))
SCENARIO = ("--suite", "scenarios", "--select", "PAY-1*", "--budget-scale", "1")
GAME_2P = ("--suite", "random-play", "--games", "1", "--select", "random-play/2p/*", "--budget-scale", "1")
GAME_4P = ("--suite", "random-play", "--games", "1", "--select", "random-play/4p/*", "--budget-scale", "1")
MEASURED = ("--suite", "scenarios", "--select", "PAY-1*")
FUZZ = ("--games", "1", "--players", "2", "--game-modes", "base", "--budget-scale", "1", "--no-progress")
"""No ``--budget-scale``: the engine's speed is measured, and the measure meets the engine's exception."""


@dataclass(frozen=True)
class Route:
    """A place an engine speaks: the fixture that speaks there, in-process or over the wire, and the checks run."""

    factory: str
    args: tuple[str, ...]
    wire: bool = False
    code: int = 1
    command: str = "check"
    """The run's exit code: 0 where the hostile text is all the engine does wrong (its name), else FAILED."""

    @property
    def impl(self) -> str:
        return f"cmd:{sys.executable} -P -m {WIRE_FIXTURE} {self.factory}" if self.wire else f"{FIXTURE}:{self.factory}"


ROUTES = {
    "handshake": Route("speaks_in_handshake", SCENARIO, code=0),
    "rejections": Route("rejects_in_hostile_words", SCENARIO),
    "answers and events": Route("speaks_in_answers", GAME_2P),
    "decisions": Route("decides_in_hostile_words", SCENARIO),
    "exceptions and the speed measure": Route("raises_hostile", MEASURED),
    "stdout and stderr": Route("prints_then_dies", GAME_4P),
    "wire handshake": Route("speaks_in_handshake", SCENARIO, wire=True, code=0),
    "wire answers and events": Route("speaks_in_answers", GAME_2P, wire=True),
    "wire errors and the speed measure": Route("raises_hostile", MEASURED, wire=True),
    "wire stderr": Route("prints_then_dies", GAME_4P, wire=True),
    "fuzz answers and events": Route("speaks_in_answers", FUZZ, command="fuzz"),
    "fuzz exceptions and the speed measure": Route("raises_hostile", FUZZ[:-3] + FUZZ[-1:], command="fuzz"),
}

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
"""What no output may hold from an engine (newline and tab are the oracle's own)."""
SHOWN = "\\x1b[2J"
"""How the gate shows the hostile text's escape sequence: proof that the text reached the output, made visible."""


@dataclass(frozen=True)
class Outputs:
    code: int
    terminal: str
    report: Path
    junit: Path
    markdown: Path
    site: Path


@pytest.fixture(scope="module", params=list(ROUTES), ids=list(ROUTES))
def outputs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Outputs:
    """One ``oracle check`` (or ``oracle fuzz``) run of the route, colour off, with every report written and the HTML
    site built."""
    route = ROUTES[request.param]
    folder = tmp_path_factory.mktemp(route.factory)
    report, junit, markdown, site = (folder / "report.json", folder / "junit.xml", folder / "summary.md",
                                     folder / "site")
    done = subprocess.run([ORACLE, route.command, "--impl", route.impl, *route.args, "--timeout", "5",
                           "--report-json", str(report), "--junit-xml", str(junit), "--markdown", str(markdown)],
                          capture_output=True, timeout=300, check=False, env={**os.environ, "NO_COLOR": "1"})
    terminal = (done.stdout + done.stderr).decode("utf-8", "surrogateescape")
    assert route.code == done.returncode, terminal
    build_site([report], site)
    return Outputs(done.returncode, terminal, report, junit, markdown, site)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _elements(page: str) -> list[Any]:
    return list(html5lib.parse(page, treebuilder="etree", namespaceHTMLElements=False).iter())


def _handlers_and_engine_addresses(elements: list[Any]) -> list[tuple[str, str]]:
    """Every ``on*`` attribute, and every attribute holding an address the engine wrote (``example.com``)."""
    return [(e.tag, name) for e in elements for name, value in e.attrib.items()
            if name.lower().startswith("on") or "example.com" in value]


def test_the_engine_text_reached_the_reports_made_visible(outputs: Outputs) -> None:
    assert (True, True) == (SHOWN in outputs.report.read_text(encoding="utf-8").replace("\\\\", "\\"),
                            SHOWN in outputs.terminal)


def test_the_json_report_parses_and_holds_no_control_character(outputs: Outputs) -> None:
    data = json.loads(outputs.report.read_text(encoding="utf-8"))
    assert [] == [text for text in _strings(data) if CONTROL.search(text)]


def test_the_junit_file_is_valid_xml(outputs: Outputs) -> None:
    root = ET.parse(outputs.junit).getroot()
    assert "testsuites" == root.tag
    assert not CONTROL.search(outputs.junit.read_text(encoding="utf-8"))


def test_the_markdown_summary_makes_no_image_no_fold_and_no_remote_request(outputs: Outputs) -> None:
    text = outputs.markdown.read_text(encoding="utf-8")
    rendered = MarkdownIt("commonmark", {"html": True}).render(text)
    elements = _elements(rendered)
    assert not CONTROL.search(text)
    assert [] == [e.tag for e in elements if e.tag in ("img", "script", "iframe")]
    assert [] == _handlers_and_engine_addresses(elements)
    assert text.count("<details>") == rendered.count("<details>") == rendered.count("</details>")


def test_the_html_site_has_no_script_handler_or_remote_address_of_the_engine(outputs: Outputs) -> None:
    pages = sorted(outputs.site.glob("*.html"))
    assert pages
    for page in pages:
        elements = _elements(page.read_text(encoding="utf-8"))
        assert [] == [e.tag for e in elements if e.tag == "script" and (e.get("src") or "onerror" in (e.text or ""))]
        assert [] == [e.tag for e in elements if e.tag in ("img", "iframe")]
        assert [] == _handlers_and_engine_addresses(elements)


def test_the_terminal_shows_no_control_character(outputs: Outputs) -> None:
    assert [] == sorted({hex(ord(c)) for c in CONTROL.findall(outputs.terminal)})


# ---------------------------------------------------------------------------------------------- the gate itself


@pytest.mark.parametrize(("text", "shown"), [
    ("\x1b[2J", "\\x1b[2J"), ("a\x00b\x07", "a\\x00b\\x07"), ("\x7f\x85", "\\x7f\\x85"), ("\ud800", "\ufffd"),
    ("\uffff", "\ufffd"), ("line\nnext\ttab", "line\nnext\ttab"), ("é ✓", "é ✓"),
])
def test_the_gate_shows_control_characters_as_escapes_and_keeps_newline_and_tab(text: str, shown: str) -> None:
    assert (shown, shown) == (clean_text(text), clean_data({text: [text]})[shown][0])


def test_a_message_is_cut_at_its_bound() -> None:
    cut = clean_text("x" * (MESSAGE_CHARS + 1))
    assert (MESSAGE_CHARS, True) == (len(cut), cut.endswith(CUT))


def test_clean_data_is_the_same_object_when_nothing_needs_it_and_walks_what_is_not_json() -> None:
    clean: JSON = {"type": "pick", "cards": ["a", "b"], "count": 2}
    assert clean is clean_data(clean)
    assert {"odd": ["\\x00"]} == clean_data({"odd": ("\x00",)})
    assert {1.5, "\x00"} == clean_data({1.5, "\x00"})  # not JSON: the shape check refuses it before it is used


def test_a_snapshots_private_state_passes_as_the_engine_wrote_it() -> None:
    assert {"note": "\\x1b", "private": {"rng": "\x1b"}} == clean_snapshot({"note": "\x1b", "private": {"rng": "\x1b"}})


def test_an_engine_fault_and_an_import_error_carry_the_message_through_the_gate() -> None:
    assert ("apply: \\x1b[2J", "\\x00") == (str(EngineFault("error", "apply", "\x1b[2J")), str(ImplError("\x00")))


def test_an_exception_whose_own_str_raises_is_named_by_its_type() -> None:
    class Broken(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no")

    def call() -> None:
        raise Broken()

    subject = Subject(ReferenceEngine, "oracle.reference")
    with pytest.raises(EngineFault) as caught:
        subject._call("decision", call)
    assert caught.value.message.startswith("raised Broken: (its message could not be read)")
