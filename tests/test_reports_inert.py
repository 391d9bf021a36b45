"""Every string from an engine is inert in every report (issue 21, deliverable 2): hostile engine names,
versions, rejection messages (notes), details and ids make no element, attribute, link, image or raw HTML in
the HTML pages (parsed by html5lib) or the Markdown summary (rendered by markdown-it with linkify, as a CI step
summary is), the pages' embedded JSON reads back the same strings, and the JSON and JUnit reports keep them as
text."""

from __future__ import annotations

import functools
import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import html5lib
import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from oracle.core.results import CheckResult, Outcome
from oracle.reports import RunInfo, build_report, junit_tree, markdown_report
from oracle.reports.html.load import parse_report
from oracle.reports.html.markup import script_json
from oracle.reports.html.site import render_site
from oracle.reports.sanitize import md_code, md_fence, md_text

HOSTILE = (
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<!--<script>",
    "</script>",
    "[x](javascript:alert(1))",
    "![i](https://evil.example/i.png)",
    "bare https://evil.example and www.evil.example and mail@evil.example",
    "</td></tr></table>",
    "``` `code` ``",
    "-->\u2028\u2029&amp;",
)
ALL_HOSTILE = " ".join(HOSTILE)
EACH = pytest.mark.parametrize("texts", [HOSTILE, *((text,) * 2 for text in HOSTILE)], ids=["all", *map(repr, HOSTILE)])
BENIGN = tuple(f"plain text {i}" for i in range(len(HOSTILE)))
MARKUP_TOKENS = ("link_open", "image", "html_inline", "html_block")


def _results(texts: tuple[str, ...], check_id: str) -> list[CheckResult]:
    message = " ".join(texts)
    return [
        CheckResult("scenarios", check_id, message, Outcome.FAIL, rules=("PAY-3",), cards=("Salamander",),
                    expected=message, actual=message, message=message, step=1,
                    details={"notes": list(texts), "detail": message, "rejection": {"rule": message}}),
        CheckResult("scenarios", "pay-ok", "a passing check", Outcome.PASS, rules=("PAY-3",),
                    details={"notes": [message]}),
        CheckResult("scenarios", "known", "an expected failure", Outcome.EXPECTED_FAILURE, message=message),
    ]


def _run(texts: tuple[str, ...], impl: str = "tests.engine") -> RunInfo:
    return RunInfo(engine=" ".join(texts), engine_version=texts[-1] + texts[0], impl=impl,
                   suites=("scenarios",), started=datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC), duration=1.0,
                   stopped=texts[0])


def _report(texts: tuple[str, ...], impl: str = "tests.engine") -> dict[str, Any]:
    return build_report(_results(texts, texts[0]), _run(texts, impl))


@functools.cache
def _pages(texts: tuple[str, ...]) -> dict[str, str]:
    """One report's page, the matrix of two engines, and the history section of one engine with two runs (the rest
    of its page is the report page)."""
    single = render_site([parse_report(_report(texts), Path("r.json"))])
    several = render_site([parse_report(_report(texts, f"tests.engine{i}"), Path(f"r{i}.json")) for i in range(2)])
    history = render_site([parse_report(_report(texts), Path(f"r{i}.json")) for i in range(2)])["index.html"]
    start = history.index('<section id="history">')
    end = history.index("</section>\n</section>", start) + len("</section>\n</section>")
    return {"report page": single["index.html"], "matrix page": several["index.html"],
            "history section": history[start:end]}


def _elements(page: str) -> list[Any]:
    document = html5lib.parse(page, treebuilder="etree", namespaceHTMLElements=False)
    return list(document.iter())


def _shape(page: str) -> Counter[str]:
    """Each element and attribute name of the page, counted: what the markup is, whatever its text."""
    shape: Counter[str] = Counter()
    for element in _elements(page):
        shape[str(element.tag)] += 1
        shape.update(f"{element.tag}@{name}" for name in element.attrib)
    return shape


def _tokens(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        yield from _tokens(token.children or [])


def _markup(markdown: str) -> Counter[str]:
    renderer = MarkdownIt("gfm-like")
    assert renderer.options["linkify"] and renderer.options["html"]
    return Counter(t.type for t in _tokens(renderer.parse(markdown)) if t.type in MARKUP_TOKENS)


# ---------------------------------------------------------------------------------------------- HTML


@EACH
@pytest.mark.parametrize("name", ["report page", "matrix page", "history section"])
def test_engine_text_makes_no_element_or_attribute_in_the_html(name: str, texts: tuple[str, ...]) -> None:
    hostile, benign = _pages(texts)[name], _pages(BENIGN[:len(texts)])[name]
    assert _shape(benign) == _shape(hostile)
    links = [e.get("href", "") for e in _elements(hostile) if e.get("href") is not None]
    assert [] == [link for link in links if not re.match(r"(index|report-\d\d)\.html(#|$)|#", link)]
    assert [] == [e.tag for e in _elements(hostile) if "src" in e.attrib or any(a.startswith("on") for a in e.attrib)]


@EACH
def test_the_matrix_page_data_reads_back_the_engine_text(texts: tuple[str, ...]) -> None:
    page = _pages(texts)["matrix page"]
    scripts = [e for e in _elements(page) if e.tag == "script"]
    data_blocks = [e for e in scripts if e.get("type") == "application/json"]
    assert 1 == len(data_blocks)
    data = json.loads(data_blocks[0].text or "")
    assert [True, True] == [column["label"].startswith(f"{' '.join(texts)} {texts[-1]}{texts[0]}")
                            for column in data["columns"]]
    assert " ".join(texts) in json.dumps(data, ensure_ascii=False)


@pytest.mark.parametrize("text", [*HOSTILE, "\u2028", "a</script><script>b", "<!--<script></script>-->"])
def test_script_json_has_no_angle_bracket_ampersand_or_line_separator_and_reads_back(text: str) -> None:
    embedded = script_json({"s": text})
    assert (set(), {"s": text}) == ({c for c in embedded if c in "<>&\u2028\u2029"}, json.loads(embedded))


# ---------------------------------------------------------------------------------------------- Markdown


@EACH
def test_engine_text_makes_no_link_image_or_html_in_the_markdown(texts: tuple[str, ...]) -> None:
    hostile = markdown_report(_results(texts, texts[0]), _run(texts))
    benign = markdown_report(_results(BENIGN[:len(texts)], BENIGN[0]), _run(BENIGN[:len(texts)]))
    assert _markup(benign) == _markup(hostile)
    rendered = MarkdownIt("gfm-like").render(hostile)
    assert [] == [bad for bad in ("<script", "<img", "evil.example\"", "javascript:alert(1)\"", "<!--")
                  if bad in rendered]


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_prose_and_code_spans_are_inert_alone(text: str) -> None:
    for markdown in (md_text(text), md_code(text), "\n".join(md_fence(text, "sh")), f"| {md_text(text)} |"):
        assert Counter() == _markup(markdown), markdown


@pytest.mark.parametrize("text", ["PAY-3", "Salamander", "a `b` c", "``x", "x``", ""])
def test_a_code_span_reads_back_its_text(text: str) -> None:
    tokens = [t for t in _tokens(MarkdownIt("gfm-like").parse(md_code(text))) if t.type == "code_inline"]
    assert [text or " "] == [t.content for t in tokens]


# ---------------------------------------------------------------------------------------------- JSON and JUnit


def test_the_json_report_keeps_engine_text_as_it_came() -> None:
    data = json.loads(json.dumps(_report(HOSTILE)))
    assert (" ".join(HOSTILE), HOSTILE[-1] + HOSTILE[0]) == (data["run"]["engine"]["name"],
                                                             data["run"]["engine"]["version"])
    assert list(HOSTILE) == data["results"][0]["notes"]


def test_the_junit_report_keeps_engine_text_as_text() -> None:
    tree = junit_tree(_results(HOSTILE, "PAY-x"), _run(HOSTILE)).getroot()
    assert tree is not None
    text = ET.tostring(tree, encoding="unicode")
    root = ET.fromstring(text)
    assert {"testsuites", "testsuite", "testcase", "failure", "system-out", "properties", "property", "skipped",
            "error"} >= {e.tag for e in root.iter()}
    assert ALL_HOSTILE in "".join(root.itertext()) + "".join(v for e in root.iter() for v in e.attrib.values())
