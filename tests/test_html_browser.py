"""The generated site in a real browser: headless Chromium driven by selenium through Debian's chromedriver.

Skipped locally when Chromium, its driver or selenium is missing (the message says how to install them);
under CI (``CI`` set) a missing browser fails instead.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oracle.core.rules import rules
from oracle.engines.connect import EngineUnderTest
from oracle.reports import RunInfo, write_json
from oracle.reports.html.site import build_site
from oracle.reports.html.tally import rule_rows
from oracle.suites.all import run_check
from oracle.suites.registry import CheckOptions
from tests.helpers import CALL_SECONDS

IMPLS = ("oracle.reference", "vale_fixtures.superfluous_payment", "vale_fixtures.minimal_adapter")
BAD_COLUMN = 1
PAY3_ID = "PAY-3-red-and-blue-for-cost-1"
PAY3_REPRO = f"oracle check --impl vale_fixtures.superfluous_payment --select {PAY3_ID}"
INSTALL = ("apt-get install -y --no-install-recommends chromium chromium-driver && "
           "python3 -m pip install -e '.[dev]' (for selenium)")
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1400,1000")


def _missing(what: str) -> None:
    message = f"{what}; install it with: {INSTALL}"
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser test: {message}")
    pytest.skip(message)


def _browser_paths() -> tuple[str, str]:
    browser = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
    driver = shutil.which("chromedriver") or next(
        (p for p in ("/usr/lib/chromium/chromedriver", "/usr/bin/chromedriver") if Path(p).is_file()), None)
    if browser is None:
        _missing("Chromium is not installed")
    if driver is None:
        _missing("chromedriver is not installed")
    assert browser is not None and driver is not None
    return browser, driver


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A matrix of three engines (the reference, one breaking PAY-3, the minimal adapter) over the scenarios."""
    root = tmp_path_factory.mktemp("site")
    paths = []
    for impl in IMPLS:
        eut = EngineUnderTest.load(impl, CALL_SECONDS)
        handshake = eut.fresh().handshake
        results = run_check(eut, CheckOptions(), ["setup", "scenarios"])
        path = root / f"{impl}.json"
        write_json(path, results, RunInfo(handshake.engine, handshake.version, impl, ("setup", "scenarios")))
        paths.append(path)
    build_site(paths, root / "site")
    return root / "site"


HISTORY_DATES = ("2026-11-28T10:00:00Z", "2026-11-29T10:00:00Z", "2026-11-30T10:00:00Z")


@pytest.fixture(scope="module")
def history_site(site: Path) -> Path:
    """A folder of runs: the reference's report on two dates, then the PAY-3 fixture's report given as the
    reference's on a third (a regression), and the minimal adapter's once; the site of that folder."""
    runs = site.parent / "runs"
    runs.mkdir()
    reference = json.loads((site.parent / f"{IMPLS[0]}.json").read_text(encoding="utf-8"))
    broken = json.loads((site.parent / f"{IMPLS[1]}.json").read_text(encoding="utf-8"))
    broken["run"]["engine"] = reference["run"]["engine"]
    for n, (date, data) in enumerate(zip(HISTORY_DATES, (reference, reference, broken), strict=True)):
        data["run"]["date"] = date
        (runs / f"reference-{n}.json").write_text(json.dumps(data), encoding="utf-8")
    shutil.copyfile(site.parent / f"{IMPLS[2]}.json", runs / "z-minimal.json")
    build_site([runs], site.parent / "history-site")
    return site.parent / "history-site"


def _driver(user_data: Path, javascript: bool = True) -> Any:
    browser, driver_path = _browser_paths()
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("selenium is not installed")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={user_data}"):
        options.add_argument(flag)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=driver_path), options=options)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    driver = _driver(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield driver
    finally:
        driver.quit()


def _visible_rows(driver: Any, table: str) -> list[Any]:
    """The rows a reader sees, asked of the page in one call rather than one round trip per row."""
    rows: list[Any] = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter(row => row.getClientRects().length > 0)",
        f"#{table} tbody tr")
    return rows


def _select(driver: Any, element_id: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", element_id)).select_by_value(value)


def _errors(driver: Any) -> list[Any]:
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def _png_distinct_bytes(png: bytes) -> int:
    """How many distinct byte values the decompressed image data holds (a blank page has a handful)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    data, at = b"", 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind = png[at + 4:at + 8]
        if kind == b"IDAT":
            data += png[at + 8:at + 8 + length]
        at += 12 + length
    return len(set(zlib.decompress(data)))


def test_the_matrix_shows_every_implementation_and_rule(browser: Any, site: Path) -> None:
    browser.get((site / "index.html").as_uri())
    headers = [th.text for th in browser.find_elements("css selector", "#rule-matrix thead th.impl span")]
    assert len(IMPLS) == len(headers)
    assert any("superfluous_payment" in h for h in headers)
    assert len(rule_rows([])) <= len(_visible_rows(browser, "rule-matrix"))
    assert [] == _errors(browser)


def test_filters_hide_what_they_should(browser: Any, site: Path) -> None:
    browser.get((site / "index.html").as_uri())
    total = len(_visible_rows(browser, "rule-matrix"))
    _select(browser, "filter-group", "payment")
    shown = _visible_rows(browser, "rule-matrix")
    assert 0 < len(shown) < total
    assert {"payment"} == {row.get_attribute("data-group") for row in shown}
    _select(browser, "filter-group", "")
    _select(browser, "filter-outcome", "illegal-accepted")
    shown = _visible_rows(browser, "rule-matrix")
    assert shown and all("illegal-accepted" in row.get_attribute("data-outcomes").split() for row in shown)
    assert any(row.find_element("css selector", "th strong").text == "PAY-3" for row in shown)
    _select(browser, "filter-outcome", "")
    _select(browser, "filter-family", "dragon")
    cards = _visible_rows(browser, "card-matrix")
    assert cards and {"dragon"} == {row.get_attribute("data-family") for row in cards}
    assert [] == _errors(browser)


def test_a_column_sorts_by_its_pass_rate(browser: Any, site: Path) -> None:
    browser.get((site / "index.html").as_uri())
    browser.find_element("css selector", f'#rule-matrix button.sort[data-sort-col="{BAD_COLUMN + 2}"]').click()
    ratios = [float(row.find_elements("css selector", "td")[BAD_COLUMN + 1].get_attribute("data-sort"))
              for row in _visible_rows(browser, "rule-matrix")]
    assert sorted(ratios) == ratios
    assert ratios[0] < ratios[-1]
    assert [] == _errors(browser)


def test_a_cell_opens_its_failures_with_a_copy_button(browser: Any, site: Path) -> None:
    browser.get((site / "index.html").as_uri())
    cell = browser.find_element("css selector", f'a[data-key="rule|PAY-3"][data-col="{BAD_COLUMN}"]')
    assert "✗" in cell.text
    cell.click()
    panel = browser.find_element("id", "panel")
    assert panel.is_displayed()
    checks = [li.get_attribute("data-check") for li in panel.find_elements("css selector", "li")]
    assert PAY3_ID in checks
    button = panel.find_element("css selector", f'li[data-check="{PAY3_ID}"] button.copy')
    assert PAY3_REPRO == button.get_attribute("data-copy")
    button.click()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 5).until(lambda _: button.get_attribute("data-copied") in ("yes", "no"))
    assert [] == _errors(browser)


def test_the_report_page_shows_the_failure_and_its_reproduce_command(browser: Any, site: Path) -> None:
    browser.get((site / f"report-0{BAD_COLUMN + 1}.html").as_uri() + f"#check-{PAY3_ID}")
    article = browser.find_element("id", f"check-{PAY3_ID}")
    assert "illegal-accepted" in article.text and "The scenario in words" in article.text
    button = article.find_element("css selector", "button.copy")
    assert button.is_displayed()
    assert PAY3_REPRO == button.get_attribute("data-copy")
    assert browser.find_element("id", "rule-PAY-3").get_attribute("open") is not None
    assert [] == _errors(browser)


def test_a_screenshot_of_the_matrix_is_not_blank(browser: Any, site: Path, tmp_path: Path) -> None:
    browser.get((site / "index.html").as_uri())
    shot = tmp_path / "matrix.png"
    assert browser.save_screenshot(str(shot))
    assert _png_distinct_bytes(shot.read_bytes()) > 64


def test_the_pages_read_without_javascript(site: Path, tmp_path: Path) -> None:
    driver = _driver(tmp_path / "profile", javascript=False)
    try:
        driver.get((site / "index.html").as_uri())
        assert not driver.find_element("id", "filters").is_displayed()
        cell = driver.find_element("css selector", f'a[data-key="rule|PAY-3"][data-col="{BAD_COLUMN}"]')
        cell.click()
        assert driver.current_url.endswith(f"report-0{BAD_COLUMN + 1}.html#rule-PAY-3")
        rule = driver.find_element("id", "rule-PAY-3")
        assert PAY3_ID in rule.text
    finally:
        driver.quit()


def test_the_matrix_of_many_runs_shows_each_engines_latest(browser: Any, history_site: Path) -> None:
    browser.get((history_site / "index.html").as_uri())
    headers = [th.text for th in browser.find_elements("css selector", "#rule-matrix thead th.impl span")]
    assert 2 == len(headers)
    assert "✗" in browser.find_element("css selector", 'a[data-key="rule|PAY-3"][data-col="0"]').text
    runs = browser.find_element("css selector", '#implementations a[href="report-01.html#history"]')
    assert "3" == runs.text
    assert [] == _errors(browser)


def test_an_engines_page_shows_its_history_and_the_drop(browser: Any, history_site: Path) -> None:
    browser.get((history_site / "report-01.html").as_uri())
    history = browser.find_element("id", "history")
    assert history.is_displayed()
    rows = history.find_elements("css selector", "table.history tr.run")
    assert list(HISTORY_DATES) == [row.get_attribute("data-date") for row in rows]
    assert ["first", "same", "drop"] == [row.get_attribute("data-change") for row in rows]
    passes = [int(row.find_elements("css selector", "td")[4].text.split()[0]) for row in rows]
    assert passes[0] == passes[1] > passes[2]
    assert "▼ drop" in rows[2].text and "this page" in rows[2].text
    bars = history.find_elements("css selector", "svg.history-chart g.bar")
    assert ["first", "same", "drop"] == [bar.get_attribute("data-change") for bar in bars]
    heights = [float(bar.find_element("css selector", "rect.passes").get_attribute("height")) for bar in bars]
    assert heights[0] == heights[1] > heights[2]
    rows[2].find_element("css selector", "details summary").click()
    assert "PAY-3" in rows[2].find_element("css selector", "details").text
    assert [] == _errors(browser)


FIVE_ENGINES = ("Alpha rules engine", "Beta engine of the vale", "Gamma", "Delta, the fourth engine", "Epsilon")
LONG_IMPL = "cmd:node /home/someone/projects/vale-of-eternity-engine/adapters/oracle-adapter.mjs --state-store memory"


@pytest.fixture(scope="module")
def five_site(site: Path) -> Path:
    """A site of five engines: the three reports of :func:`site` and two more, each under its own engine name and
    a long ``cmd:`` --impl, as a CI matrix of real engines gives; the last has a check that cites no rule."""
    runs = site.parent / "five"
    runs.mkdir()
    reports = [json.loads((site.parent / f"{impl}.json").read_text(encoding="utf-8")) for impl in IMPLS]
    for n, (name, data) in enumerate(zip(FIVE_ENGINES, [*reports, reports[1], reports[2]], strict=True)):
        data = json.loads(json.dumps(data))
        data["run"]["engine"].update(name=name, impl=f"{LONG_IMPL} --seat {n}")
        if n == len(FIVE_ENGINES) - 1:
            data["results"][0]["rules"] = []
            data["results"][0].pop("blamed_rule", None)
        (runs / f"engine-{n}.json").write_text(json.dumps(data), encoding="utf-8")
    build_site([runs], site.parent / "five-site")
    return site.parent / "five-site"


def test_the_matrix_header_counts_the_catalogue_s_rules(browser: Any, five_site: Path) -> None:
    browser.get((five_site / "index.html").as_uri())
    meta = browser.find_element("css selector", "header p.meta").text
    exercised = browser.find_element("css selector", "#implementations tbody tr td:nth-child(6)").text
    assert (f"{len(rules())} rules", f"of {len(rules())}") == (
        next(part.strip() for part in meta.split("·") if part.strip().endswith(" rules")),
        exercised[exercised.index("of"):].split(" (")[0].strip())


def test_at_1400_pixels_every_engine_and_column_of_five_fits_the_window(browser: Any, five_site: Path) -> None:
    browser.set_window_size(1400, 1000)
    browser.get((five_site / "index.html").as_uri())
    beyond: list[str] = browser.execute_script(
        "const width = document.documentElement.clientWidth;"
        "return [...document.querySelectorAll('#implementations th, #implementations td, #rule-matrix thead th')]"
        ".filter(cell => cell.getBoundingClientRect().right > width + 1).map(cell => cell.textContent.slice(0, 40))")
    rows = _visible_rows(browser, "implementations")
    assert ([], len(FIVE_ENGINES)) == (beyond, len(rows))
