"""The HTML site's report page shows the engine's speed as the run measured it (issue 25, item 5): the budget
scale, the legal-set share, the cost per call by method, the advice, and the checks ``load`` would unlock."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from oracle.core.results import CheckResult, Outcome
from oracle.reports import RunInfo, build_report
from oracle.reports.html.load import parse_report
from oracle.reports.html.site import INDEX, render_site
from oracle.reports.html.speed import MethodCost

RUN = RunInfo(engine="slow-engine <b>", engine_version="1.0", impl="tests.slow", suites=("roundtrip",),
              started=datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC), duration=3.0)
MEASURED = {
    "budget_scale": {"factor": 4.2, "source": "measured", "engine_ms": 0.3, "reference_ms": 0.07, "samples": 12},
    "legal_share": 0.06,
    "legal_share_reason": "measured: a listing took 20.718 ms, a step 2.544 ms; --legal-share 0.06 reproduces it",
    "engine_costs": {"methods": [{"method": "legal_actions", "calls": 80, "median_ms": 20.7, "total_s": 1.66},
                                 {"method": "apply", "calls": 900, "median_ms": 2.5, "total_s": 2.25}],
                     "advice": ["declare try_actions <i>now</i>"]},
}


def _report(measured: dict[str, Any], unlock: int | None) -> dict[str, Any]:
    data: dict[str, Any] = build_report([CheckResult("roundtrip", "roundtrip/1", "a round trip", Outcome.PASS)], RUN)
    data["run"].update(measured)
    if unlock is not None:
        data["totals"]["load_would_unlock"] = unlock
    return data


def _speed_section(data: dict[str, Any]) -> str:
    page = render_site([parse_report(data, Path("slow.json"))])[INDEX]
    found = re.search(r'<section id="speed">.*?</section>', page, re.S)
    return found.group(0) if found else ""


def test_the_report_page_shows_the_measured_speed_and_what_would_make_it_faster() -> None:
    report = parse_report(_report(MEASURED, 19), Path("slow.json"))
    assert (MethodCost("legal_actions", 80, 20.7, 1.66), MethodCost("apply", 900, 2.5, 2.25)) == report.speed.methods
    section = _speed_section(_report(MEASURED, 19))
    assert "budget scale 4.2 (measured: the engine&#39;s calls took 0.300 ms, the reference&#39;s 0.070 ms)" in section
    assert "legal-set share 0.06 (measured: a listing took 20.718 ms" in section
    assert "<td><code>legal_actions</code></td><td class=\"num\">80</td><td class=\"num\">20.7</td>" in section
    assert "Faster: declare try_actions &lt;i&gt;now&lt;/i&gt;" in section
    assert "19 unsupported check(s) would run if the engine declared <code>load</code>." in section


def test_a_report_written_before_the_speed_was_recorded_shows_no_speed_section() -> None:
    old = _report({}, None)
    assert ("", False) == (_speed_section(old), parse_report(old, Path("old.json")).speed.shown)


def test_malformed_speed_fields_are_left_out_not_fatal() -> None:
    broken = {"budget_scale": "fast", "legal_share": "half", "engine_costs": {"methods": [{"method": 3}], "advice": 7}}
    assert "" == _speed_section(_report(broken, None))
