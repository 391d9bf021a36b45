"""The Markdown report, for a CI step summary: the causes, totals, per rule group, per card, every failure, the
notes, and the coverage of the rules catalogue.

It is built from strings, where the HTML site uses Jinja2 templates: the Markdown libraries of the field
(markdown-it-py, mistune) read Markdown, none writes it, and what a summary needs beyond plain lines is escaping
for GitHub's tables, code spans and autolinks, which :mod:`oracle.reports.sanitize` does for every engine string."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from oracle.core.results import CheckResult, Outcome
from oracle.reports.causes import Cause, causes_headline, charge_of, group_causes, notes_of
from oracle.reports.common import (
    RunInfo,
    card_name,
    failed_results,
    load_line,
    rule_group,
    summary_line,
    totals,
    verdict,
)
from oracle.reports.coverage import Tally, card_coverage, rule_coverage
from oracle.reports.fields import FieldKind, ResultField, result_fields
from oracle.reports.files import append_report_file, write_report_file
from oracle.reports.sanitize import clean_result, clean_text, md_code, md_fence, md_text


def _tally_table(title: str, label: str, groups: dict[str, list[CheckResult]],
                 unreached: dict[str, list[CheckResult]] | None = None) -> list[str]:
    """One row per group: its checks, ok, unsupported, not applicable and not ok; with ``unreached`` (rule groups),
    a column of the failing checks charged elsewhere that did not reach the group (counted nowhere else)."""
    if not groups and not unreached:
        return []
    extra = ("", "") if unreached is None else (" not reached |", "---:|")
    lines = [f"### {title}", "", f"| {label} | checks | ok | unsupported | not applicable | not ok |{extra[0]}",
             f"|---|---:|---:|---:|---:|---:|{extra[1]}"]
    for key in sorted({*groups, *(unreached or {})}):
        group = groups.get(key, [])
        unsupported = sum(r.outcome is Outcome.UNSUPPORTED for r in group)
        not_applicable = sum(r.outcome is Outcome.NOT_APPLICABLE for r in group)
        ok = sum(r.outcome.ok and r.outcome.ran for r in group)
        cell = "" if unreached is None else f" {len(unreached.get(key, []))} |"
        lines.append(f"| {md_text(key)} | {len(group)} | {ok} | {unsupported} | {not_applicable} | "
                     f"{len(group) - ok - unsupported - not_applicable} |{cell}")
    return [*lines, ""]


def _grouped(results: Iterable[CheckResult], keys: Callable[[CheckResult], list[str]]) -> dict[str, list[CheckResult]]:
    out: dict[str, list[CheckResult]] = {}
    for result in results:
        for key in dict.fromkeys(keys(result)):
            out.setdefault(key, []).append(result)
    return out


def _charged_groups(result: CheckResult) -> list[str]:
    return [rule_group(r) for r in charge_of(result).charged] or ["(no rule)"]


def _unreached_groups(result: CheckResult) -> list[str]:
    charged = set(_charged_groups(result))
    return [g for g in (rule_group(r) for r in charge_of(result).not_reached) if g not in charged]


FIELD_LINES: dict[FieldKind, Callable[[ResultField], list[str]]] = {
    FieldKind.RULES: lambda f: [f"* {f.label}: {', '.join(md_text(r) for r in f.values)}"],
    FieldKind.CARDS: lambda f: [f"* {f.label}: {', '.join(md_text(card_name(c)) for c in f.values)}"],
    FieldKind.STEP: lambda f: [f"* {f.label}: {f.text}"],
    FieldKind.EXPECTED: lambda f: [f"* {f.label}: {md_code(f.text)}"],
    FieldKind.ACTUAL: lambda f: [f"* {f.label}: {md_code(f.text)}"],
    FieldKind.DETAIL: lambda f: [f"* {f.label}: {md_code(f.text)}"],
    FieldKind.REPRODUCE: lambda f: ["", *md_fence(f.text, "sh")],
}
"""How the Markdown report lists each field of a failing result."""


def _failure(result: CheckResult) -> list[str]:
    lines = [f"#### {result.outcome.value}: {md_code(result.id)}", "", md_text(result.title), ""]
    lines += [line for f in result_fields(result) for line in FIELD_LINES[f.kind](f)]
    return [*lines, ""]


def _causes(causes: Sequence[Cause]) -> list[str]:
    if not causes:
        return []
    lines = [f"### Causes: {causes_headline(causes)}", ""]
    for number, cause in enumerate(causes, 1):
        lines.append(f"{number}. **{md_text(cause.title)}**: {len(cause.members)} check(s){_blame(cause)}; "
                     f"smallest: {md_code(cause.smallest_text)}")
        if cause.facets.text:
            lines.append(f"   {md_text(cause.facets.text)}")
        if cause.engine_message:
            lines.append(f"   the engine says: {md_code(cause.engine_message)}")
        lines.append(f"   members: {', '.join(md_code(m.id) for m in cause.members)}")
        text = cause.smallest.details.get("scenario_text")
        if isinstance(text, str) and text and not cause.smallest.details.get("scenario"):
            lines += ["", *(f"   {line}" for line in md_fence(text, "toml"))]
    return [*lines, ""]


def _blame(cause: Cause) -> str:
    return f" ({md_text(cause.blame_text)})" if cause.blame_text else ""


def _notes(results: Sequence[CheckResult]) -> list[str]:
    noted = [(r, n) for r in results for n in notes_of(r)]
    if not noted:
        return []
    return ["### Notes (never failures)", "", *(f"* {md_code(r.id)}: {md_code(n)}" for r, n in noted), ""]


def _coverage_table(label: str, tallies: dict[str, Tally], name: Callable[[str], str],
                    reached: bool = False) -> list[str]:
    """The coverage of each rule or card; ``reached`` adds the not-reached column (rules only)."""
    head, rule = ("| not reached |", "---:|") if reached else ("|", "")
    lines = [f"<details><summary>Coverage by {label}</summary>", "",
             f"| {label} | ran | passed | unsupported | not applicable {head}", f"|---|---:|---:|---:|---:|{rule}"]
    lines += [f"| {md_text(name(key))} | {t.ran} | {t.passed} | {t.unsupported} | {t.not_applicable} |"
              + (f" {t.not_reached} |" if reached else "") for key, t in tallies.items()]
    return [*lines, "", "</details>", ""]


def _coverage(results: Sequence[CheckResult]) -> list[str]:
    rules, cards = rule_coverage(results), card_coverage(results)
    ran_rules = sum(t.ran > 0 for t in rules.values())
    ran_cards = sum(t.ran > 0 for t in cards.values())
    return ["### Coverage of the rules catalogue", "",
            f"{ran_rules} of {len(rules)} rule ids and {ran_cards} of {len(cards)} cards were checked by at least "
            "one check that ran.", "",
            *_coverage_table("rule", rules, lambda key: key, reached=True), *_coverage_table("card", cards, card_name)]


def _speed(run: RunInfo) -> list[str]:
    """The engine's cost per call by method, how the run's budgets followed its speed, and what would make the
    oracle faster on it."""
    if run.engine_costs is None or not run.engine_costs.methods:
        return []
    lines = ["### Engine speed", ""]
    if run.budget_scale is not None:
        lines += [f"The run's {md_text(run.budget_scale.text())}.", ""]
    lines += ["| method | calls | median ms | total s |", "|---|---:|---:|---:|"]
    lines += [f"| `{cost.method}` | {cost.calls} | {cost.median * 1e3:.3g} | {cost.seconds:.2f} |"
              for cost in run.engine_costs.methods]
    lines.append("")
    if run.speed_advice:
        lines += [f"* Faster: {text}." for text in run.speed_advice] + [""]
    return lines


def markdown_report(results: Sequence[CheckResult], run: RunInfo) -> str:
    results = [clean_result(r) for r in results]
    lines = [
        f"## Vale Oracle conformance: {verdict(results, run)}",
        "",
        f"**{md_text(summary_line(results, run))}**",
        "",
        f"Engine {md_code(clean_text(run.engine))} {md_code(clean_text(run.engine_version))} "
        f"({md_code(clean_text(run.impl))}), "
        f"suite version {run.suite_version}{f' (digest {run.suite_digest})' if run.suite_digest else ''}, "
        f"suites {', '.join(run.suites) or '-'}, in {run.duration:.1f} s "
        f"({run.date}, Python {run.python}).",
        "",
    ]
    if verdict(results, run) == "NOTHING CHECKED":
        lines += ["No check ran: every one is unsupported or not applicable for this engine"
                  + (" (allowed by `--allow-empty`)." if run.allow_empty else "; `oracle check` exits 4."), ""]
    if load_line(results):
        lines += [f"{md_text(load_line(results))}.", ""]
    if run.stopped:
        lines += [f"**Incomplete**: the run stopped early ({md_text(run.stopped)}); {len(run.not_run)} check(s) "
                  "never ran.", ""]
    lines += _causes(group_causes(failed_results(results, run)))
    lines += [
        "### Totals",
        "",
        "| outcome | checks |",
        "|---|---:|",
    ]
    for outcome, count in totals(results).items():
        if count:
            lines.append(f"| {outcome} | {count} |")
    lines += [f"| **total** | **{len(results)}** |", ""]
    lines += _tally_table("By rule group", "rule group", _grouped(results, _charged_groups),
                          _grouped(results, _unreached_groups))
    lines += _tally_table("By card", "card", _grouped(results, lambda r: [card_name(c) for c in r.cards]))
    failures = [r for r in results if not r.outcome.ok]
    lines += ["### Failures", ""]
    if not failures:
        lines += ["None.", ""]
    for result in failures:
        lines += _failure(result)
    expected = [r for r in results if r.outcome is Outcome.EXPECTED_FAILURE]
    if expected:
        lines += ["### Expected failures", ""]
        lines += [f"* {md_code(r.id)}: {md_code(r.message)}" for r in expected]
        lines.append("")
    lines += _notes(results)
    lines += _speed(run)
    lines += _coverage(results)
    return "\n".join(lines)


def write_markdown(path: Path, results: Sequence[CheckResult], run: RunInfo, append: bool = False) -> None:
    """Write the summary to ``path``; with ``append``, add it after what is there (``$GITHUB_STEP_SUMMARY``)."""
    text = markdown_report(results, run)
    if append:
        append_report_file(path, text)
    else:
        write_report_file(path, text)
