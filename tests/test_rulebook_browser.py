"""The rulebook (``oracle rulebook``) in a real browser, as tests/test_html_browser.py drives it: a rule page, a card
page, and the index with its filter (JavaScript on) and as a plain list (JavaScript off)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oracle.reports.rulebook.site import build_rulebook
from oracle.scenarios.loader import default_dir, load_dir
from tests.test_html_browser import _driver, _errors

LOKI = "art-wind-05"


@pytest.fixture(scope="module")
def rulebook(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rulebook") / "site"
    build_rulebook(out)
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    driver = _driver(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield driver
    finally:
        driver.quit()


SHOWN = "return [...document.querySelectorAll(arguments[0])].filter(node => node.getClientRects().length > 0)"
"""The nodes a reader sees (laid out: not hidden, not inside a closed ``details``), asked of the page in one call
rather than one round trip per node."""


def _shown(driver: Any, selector: str) -> list[Any]:
    shown: list[Any] = driver.execute_script(SHOWN, selector)
    return shown


def test_a_rule_page_shows_the_rule_and_opens_its_scenarios_in_words(browser: Any, rulebook: Path) -> None:
    browser.get((rulebook / "rules-stones.html").as_uri() + "#rule-LIMIT-2")
    section = browser.find_element("id", "rule-LIMIT-2")
    assert section.is_displayed()
    assert "A player over the limit chooses which stones to keep" in section.text
    scenario = section.find_element("css selector", "details.scenario")
    assert not scenario.find_element("css selector", "pre").is_displayed()
    scenario.find_element("css selector", "summary").click()
    words = scenario.find_element("css selector", "pre")
    assert words.is_displayed() and "Steps:" in words.text
    assert [] == _errors(browser)


def test_a_card_page_links_the_rules_naming_it(browser: Any, rulebook: Path) -> None:
    browser.get((rulebook / f"card-{LOKI}.html").as_uri())
    assert "Loki" in browser.find_element("tag name", "h1").text
    assert _shown(browser, "details.scenario")
    browser.find_element("css selector", 'a[href="rules-artifacts.html#rule-ART-11"]').click()
    assert browser.current_url.endswith("rules-artifacts.html#rule-ART-11")
    assert "Loki" in browser.find_element("id", "rule-ART-11").text
    assert [] == _errors(browser)


def _search(driver: Any, text: str) -> None:
    """Type into the filter as a reader does (clear() sends no input event)."""
    from selenium.webdriver.common.keys import Keys

    box = driver.find_element("id", "rulebook-query")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE, *([text] if text else []))


def test_the_index_filters_by_card_name_rule_id_and_word(browser: Any, rulebook: Path) -> None:
    browser.get((rulebook / "index.html").as_uri())
    everything = len(_shown(browser, "li[data-search]"))
    assert everything == len(browser.find_elements("css selector", "li[data-search]"))
    _search(browser, "LIMIT-2")
    rules = [a.text for a in _shown(browser, "#rules li[data-search] a strong")]
    assert ["LIMIT-2"] == rules
    citing = {s.id for s in load_dir(default_dir()).scenarios if "LIMIT-2" in (*s.rules, *s.reject_rules)}
    assert citing <= {node.text for node in _shown(browser, "#scenarios li[data-search] code")}
    _search(browser, "RUL-1")
    shown = [a.text for a in _shown(browser, "#rules li[data-search] a strong")]
    assert "RUL-1" in shown and not {"RUL-10", "RUL-12"} & set(shown)
    _search(browser, "Loki")
    cards = [a.text for a in _shown(browser, "#cards li[data-search] a strong")]
    assert ["Loki"] == cards
    assert "ART-11" in [a.text for a in _shown(browser, "#rules li[data-search] a strong")]
    assert not browser.find_element("id", "tiles").is_displayed()
    _search(browser, "keep stones")
    shown = [a.text for a in _shown(browser, "#rules li[data-search] a strong")]
    assert {"LIMIT-2"} <= set(shown) and "LIMIT-1" not in shown
    _search(browser, "")
    assert everything == len(_shown(browser, "li[data-search]"))
    assert [] == _errors(browser)


def test_without_javascript_the_index_is_a_plain_list(rulebook: Path, tmp_path: Path) -> None:
    driver = _driver(tmp_path / "profile", javascript=False)
    try:
        driver.get((rulebook / "index.html").as_uri())
        assert not driver.find_element("id", "rulebook-filter").is_displayed()
        entries = driver.find_elements("css selector", "li[data-search]")
        assert entries and len(entries) == len(_shown(driver, "li[data-search]"))
    finally:
        driver.quit()
