"""The Markdown report, for a CI step summary: totals, per rule group, per card, then every failure."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from oracle.reports.common import RunInfo, card_name, rule_group, totals, verdict
from oracle.reports.sanitize import clean_result, clean_text
from oracle.results import CheckResult, Outcome


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    """Inline code that survives backticks in ``text``."""
    text = " ".join(text.split())
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _tally_table(title: str, label: str, groups: dict[str, list[CheckResult]]) -> list[str]:
    if not groups:
        return []
    lines = [f"### {title}", "", f"| {label} | checks | ok | unsupported | not ok |", "|---|---:|---:|---:|---:|"]
    for key in sorted(groups):
        group = groups[key]
        unsupported = sum(r.outcome is Outcome.UNSUPPORTED for r in group)
        ok = sum(r.outcome.ok for r in group) - unsupported
        lines.append(f"| {_cell(key)} | {len(group)} | {ok} | {unsupported} | {len(group) - ok - unsupported} |")
    return [*lines, ""]


def _grouped(results: Iterable[CheckResult], keys: Callable[[CheckResult], list[str]]) -> dict[str, list[CheckResult]]:
    out: dict[str, list[CheckResult]] = {}
    for result in results:
        for key in dict.fromkeys(keys(result)):
            out.setdefault(key, []).append(result)
    return out


def _failure(result: CheckResult) -> list[str]:
    lines = [f"#### {result.outcome.value}: `{result.id}`", "", f"{_cell(result.title)}", ""]
    if result.rules:
        lines.append(f"* rule: {', '.join(result.rules)}")
    if result.cards:
        lines.append(f"* card: {', '.join(card_name(c) for c in result.cards)}")
    if result.step is not None:
        lines.append(f"* step: {result.step}")
    for label, text in (("expected", result.expected), ("actual", result.actual), ("detail", result.message)):
        if text:
            lines.append(f"* {label}: {_code(text)}")
    if result.reproduce:
        lines += ["", "```sh", result.reproduce, "```"]
    return [*lines, ""]


def markdown_report(results: Sequence[CheckResult], run: RunInfo) -> str:
    results = [clean_result(r) for r in results]
    unsupported = sum(r.outcome is Outcome.UNSUPPORTED for r in results)
    lines = [
        f"## Vale Oracle conformance: {verdict(results, run)}",
        "",
        f"Engine **{_cell(clean_text(run.engine))} {_cell(clean_text(run.engine_version))}** (`{run.impl}`), "
        f"suite version {run.suite_version}, suites {', '.join(run.suites) or '-'}: {len(results)} checks "
        f"({len(results) - unsupported} ran, {unsupported} unsupported) in {run.duration:.1f} s "
        f"({run.date}, Python {run.python}).",
        "",
    ]
    if run.stopped:
        lines += [f"**Incomplete**: the run stopped early ({_cell(run.stopped)}); {len(run.not_run)} check(s) "
                  "never ran.", ""]
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
    lines += _tally_table("By rule group", "rule group",
                          _grouped(results, lambda r: [rule_group(x) for x in r.rules] or ["(no rule)"]))
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
        lines += [f"* `{r.id}`: {_cell(r.message)}" for r in expected]
        lines.append("")
    return "\n".join(lines)


def write_markdown(path: Path, results: Sequence[CheckResult], run: RunInfo, append: bool = False) -> None:
    """Write the summary to ``path``; with ``append``, add it after what is there (``$GITHUB_STEP_SUMMARY``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a" if append else "w", encoding="utf-8") as out:
        if append and path.stat().st_size:
            out.write("\n")
        out.write(markdown_report(results, run))
