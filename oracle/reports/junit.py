"""The JUnit XML report: one ``<testsuite>`` per suite, one ``<testcase>`` per result.

``fail``, ``wrongly-rejected``, ``illegal-accepted``, ``incomplete`` and ``unexpected-pass`` become
``<failure>``; ``error`` and ``timeout`` become ``<error>``; ``unsupported``, ``not-applicable`` and
``expected-failure`` become ``<skipped>`` (the message says the outcome, then the reason). Each carries its
cause in its text (``cause: 1 of 3, ...``; the root's name counts the causes),
the rule ids, card, step, expected/actual and the reproduce command; notes go in ``<system-out>``, never a
failure. A run that stopped early lists its checks that never ran as ``<error>`` "not run" in a ``not-run``
suite, so no CI view mistakes a partial run for a green one; a run in which nothing was checked adds a
``nothing-checked`` suite whose one case fails with ``NOTHING CHECKED: …`` (skipped with ``--allow-empty``), so
an all-skipped report is never read as a pass. The root's name ends with the run's summary line. All text is
passed through :func:`~oracle.reports.sanitize.clean_text`.
"""

from __future__ import annotations

import dataclasses
import io
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from oracle.core.results import CheckResult, Outcome
from oracle.reports.causes import causes_headline, group_causes, notes_of
from oracle.reports.common import RunInfo, card_name, failed_results, one_line, summary_line, verdict
from oracle.reports.fields import FieldKind, ResultField, result_fields
from oracle.reports.files import write_report_file
from oracle.reports.sanitize import clean_result, clean_text

FAILURE = frozenset({Outcome.FAIL, Outcome.WRONGLY_REJECTED, Outcome.ILLEGAL_ACCEPTED, Outcome.INCOMPLETE,
                     Outcome.UNEXPECTED_PASS})
ERROR = frozenset({Outcome.ERROR, Outcome.TIMEOUT})
SKIPPED = frozenset({Outcome.UNSUPPORTED, Outcome.NOT_APPLICABLE, Outcome.EXPECTED_FAILURE})
NOTHING_CHECKED_SUITE = "nothing-checked"


def detail_text(result: CheckResult, cause: str = "") -> str:
    """The text of a failing case: its outcome, its cause, then each of its fields as ``label: text`` (cards by
    name)."""
    lines = [f"outcome: {result.outcome.value}", *([f"cause: {cause}"] if cause else [])]
    lines += [f"{f.label}: {_field_text(f)}" for f in result_fields(result)]
    return "\n".join(lines) + "\n"


def _field_text(field: ResultField) -> str:
    return ", ".join(card_name(c) for c in field.values) if field.kind is FieldKind.CARDS else field.text


def _summary(result: CheckResult) -> str:
    head = f"[{', '.join(result.rules)}] " if result.rules else ""
    step = f"step {result.step}: " if result.step is not None else ""
    return f"{head}{step}{result.outcome.value}: {one_line(result)}"


UNPLANNED_CASE = "checks not yet planned"
"""The one ``not-run`` case of a run stopped before it knew its checks (a signal while the engine started): a CI
view never shows such a run as zero tests and no error."""


def speed_properties(run: RunInfo) -> list[tuple[str, str]]:
    """The engine's speed as properties: the budget scale, each method's cost (``engine_cost.apply``), the
    advice."""
    scale = [("budget_scale", run.budget_scale.text())] if run.budget_scale is not None else []
    methods = run.engine_costs.methods if run.engine_costs is not None else ()
    return [*scale, *((f"engine_cost.{cost.method}", cost.text()) for cost in methods),
            *((f"speed_advice.{number}", text) for number, text in enumerate(run.speed_advice, 1))]


def junit_tree(results: Sequence[CheckResult], run: RunInfo) -> ET.ElementTree:
    results = [clean_result(r) for r in results]
    run = dataclasses.replace(run, engine=clean_text(run.engine), engine_version=clean_text(run.engine_version))
    causes = group_causes(failed_results(results, run))
    cause_of = {m.id: f"{n} of {len(causes)}, {c.title}"
                for n, c in enumerate(causes, 1) for m in c.members}
    headline = f" ({causes_headline(causes)})" if causes else ""
    empty = verdict(results, run) == "NOTHING CHECKED"
    unplanned = bool(run.stopped and not results and not run.not_run)
    root = ET.Element("testsuites", {
        "name": f"vale-oracle {run.suite_version}: {run.engine} {run.engine_version}{headline}: "
                f"{summary_line(results, run)}",
        "tests": str(len(results) + len(run.not_run) + empty + unplanned),
        "failures": str(sum(r.outcome in FAILURE for r in results) + (empty and not run.allow_empty)),
        "errors": str(sum(r.outcome in ERROR for r in results) + len(run.not_run) + unplanned),
        "skipped": str(sum(r.outcome in SKIPPED for r in results) + (empty and run.allow_empty)),
        "time": f"{run.duration:.3f}",
        "timestamp": run.date,
    })
    by_suite: dict[str, list[CheckResult]] = {}
    for result in results:
        by_suite.setdefault(result.suite, []).append(result)
    for name, group in by_suite.items():
        suite = ET.SubElement(root, "testsuite", {
            "name": name,
            "tests": str(len(group)),
            "failures": str(sum(r.outcome in FAILURE for r in group)),
            "errors": str(sum(r.outcome in ERROR for r in group)),
            "skipped": str(sum(r.outcome in SKIPPED for r in group)),
            "time": f"{sum(r.duration for r in group):.3f}",
            "timestamp": run.date,
        })
        properties = ET.SubElement(suite, "properties")
        for key, value in (("engine", run.engine), ("engine_version", run.engine_version), ("impl", run.impl),
                           ("suite_version", run.suite_version), ("suite_digest", run.suite_digest),
                           ("python", run.python)):
            ET.SubElement(properties, "property", {"name": key, "value": value})
        for key, value in speed_properties(run):
            ET.SubElement(properties, "property", {"name": key, "value": value})
        for result in group:
            attrs = {"classname": f"{name}", "name": result.id, "time": f"{result.duration:.6f}"}
            file = result.details.get("file")
            if isinstance(file, str):
                attrs["file"] = file
                line = result.details.get("line")
                if isinstance(line, int):
                    attrs["line"] = str(line)
            case = ET.SubElement(suite, "testcase", attrs)
            notes = notes_of(result)
            if notes:
                ET.SubElement(case, "system-out").text = "".join(f"note: {n}\n" for n in notes)
            if result.outcome in FAILURE:
                tag = "failure"
            elif result.outcome in ERROR:
                tag = "error"
            elif result.outcome in SKIPPED:
                tag = "skipped"
            else:
                continue
            cause = cause_of.get(result.id, "")
            element = ET.SubElement(case, tag, {"message": _summary(result), "type": result.outcome.value})
            element.text = detail_text(result, cause)
    if empty:
        _nothing_checked(root, results, run)
    not_run = run.not_run or ((UNPLANNED_CASE,) if unplanned else ())
    if not_run:
        suite = ET.SubElement(root, "testsuite", {"name": "not-run", "tests": str(len(not_run)), "failures": "0",
                                                  "errors": str(len(not_run)), "skipped": "0", "time": "0",
                                                  "timestamp": run.date})
        for check_id in not_run:
            case = ET.SubElement(suite, "testcase", {"classname": "not-run", "name": check_id, "time": "0"})
            ET.SubElement(case, "error", {"message": f"not run: {run.stopped}", "type": "not-run"})
    ET.indent(root)
    return ET.ElementTree(root)


def _nothing_checked(root: ET.Element, results: Sequence[CheckResult], run: RunInfo) -> None:
    """The case that keeps a run in which no check ran from looking green: a failure (skipped with --allow-empty)."""
    allowed = run.allow_empty
    suite = ET.SubElement(root, "testsuite", {"name": NOTHING_CHECKED_SUITE, "tests": "1",
                                              "failures": "0" if allowed else "1", "errors": "0",
                                              "skipped": "1" if allowed else "0", "time": "0", "timestamp": run.date})
    case = ET.SubElement(suite, "testcase", {"classname": NOTHING_CHECKED_SUITE, "name": "checks run", "time": "0"})
    line = summary_line(results, run)
    element = ET.SubElement(case, "skipped" if allowed else "failure", {"message": line, "type": "nothing-checked"})
    element.text = (f"{line}\nno check ran: every one is unsupported or not applicable for this engine"
                    + (" (allowed by --allow-empty)\n" if allowed else "; oracle check exits 4 (--allow-empty: 0)\n"))


def write_junit(path: Path, results: Sequence[CheckResult], run: RunInfo) -> None:
    out = io.BytesIO()
    junit_tree(results, run).write(out, encoding="utf-8", xml_declaration=True)
    write_report_file(path, out.getvalue())
