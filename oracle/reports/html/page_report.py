"""The page of one report: verdict and figure, totals by outcome, causes, the rule tree (group → rule →
checks), the card grid, the coverage of the rules catalogue, and every failure with expected/actual, its
scenario and its reproduce command."""

from __future__ import annotations

from collections.abc import Callable

from oracle.core.results import Outcome
from oracle.reports.common import card_name, one_line
from oracle.reports.fields import FieldKind, ResultField, result_fields
from oracle.reports.html.load import Coverage, Report, Result
from oracle.reports.html.markup import (
    anchor_id,
    copy_button,
    esc,
    href,
    outcome_badge,
    outcome_class,
    page,
    status_badge,
    tally_text,
    verdict_badge,
)
from oracle.reports.html.scenario_text import scenario_view
from oracle.reports.html.tally import (
    Column,
    Status,
    by_card,
    by_rule,
    card_rows,
    not_reached_by_rule,
    rule_rows,
    tally,
)

CARD_TILE_CHECKS = 5


def is_failure(result: Result) -> bool:
    """A check that ran and did not pass (unsupported and not-applicable checks did not run)."""
    return result.outcome is not Outcome.PASS and result.outcome.ran


def _check_item(result: Result) -> str:
    name = f"<code>{esc(result.id)}</code>"
    if is_failure(result):
        name = f'<a href="{href("", "check", result.id)}">{name}</a>'
    return f"<li>{outcome_badge(result.outcome)} {name} <span class=\"muted\">{esc(result.title)}</span></li>"


def _unreached_item(result: Result) -> str:
    """A failing check that did not reach this rule: its own symbol, and the rule its cause is blamed on."""
    return (f"<li>{status_badge(Status.NOT_REACHED)} <a href=\"{href('', 'check', result.id)}\"><code>"
            f"{esc(result.id)}</code></a> <span class=\"muted\">not reached: {esc(result.outcome.value)} at "
            f"{esc(result.blamed_rule)}</span></li>")


def _header(column: Column, matrix_page: str | None) -> str:
    report, score = column.report, column.score
    lines = [
        f"<header><h1>{esc(report.engine)} <small>{esc(report.version)}</small></h1>",
        f'<p class="verdict">{verdict_badge(report.verdict)} · <span class="figure">{esc(score.text)}</span></p>',
        f"<p class=\"meta\"><code>--impl {esc(report.impl)}</code> · suites {esc(', '.join(report.suites) or '-')} · "
        f"{len(report.results)} checks in {report.duration:.1f} s · {esc(report.date)} · suite version "
        f"{esc(report.suite_version)} · oracle {esc(report.oracle_version)} · "
        f"<span class=\"muted\">{esc(report.path.name)}</span></p>",
    ]
    if not report.complete:
        stopped = f": {esc(report.stopped)}" if report.stopped else ""
        lines.append(f'<p class="warning">⚠ This run is incomplete{stopped}. Checks it did not reach are not in '
                     "these figures.</p>")
    if report.not_run:
        items = "".join(f"<li><code>{esc(check_id)}</code></li>" for check_id in report.not_run)
        lines.append(f'<details id="not-run"><summary>{len(report.not_run)} check(s) never ran (the run stopped '
                     f'early)</summary><ul class="checks">{items}</ul></details>')
    if matrix_page:
        lines.append(f'<p><a href="{esc(matrix_page)}">← all implementations</a></p>')
    return "\n".join([*lines, "</header>"])


def _totals(report: Report) -> str:
    counts = {o: 0 for o in Outcome}
    for result in report.results:
        counts[result.outcome] += 1
    rows = "".join(
        f'<tr class="{"" if n else "zero"}"><td>{outcome_badge(o)} {esc(o.value)}</td><td class="num">{n}</td></tr>'
        for o, n in counts.items()
    )
    return (f'<section id="totals"><h2>Totals by outcome</h2><table class="totals"><thead><tr><th>outcome</th>'
            f'<th>checks</th></tr></thead><tbody>{rows}<tr class="total"><td>total</td>'
            f'<td class="num">{len(report.results)}</td></tr></tbody></table></section>')


def _causes(report: Report) -> str:
    if not report.causes:
        return ""
    items = []
    for cause in report.causes:
        checks = ", ".join(f'<a href="{href("", "check", c)}"><code>{esc(c)}</code></a>' for c in cause.checks)
        rule_links = ", ".join(f'<a href="{href("", "rule", r)}">{esc(r)}</a>' for r in cause.rules)
        blame = (f" · rule {rule_links}" if cause.rule else
                 f" · rules {rule_links} (blame not known)" if rule_links else "")
        smallest = f"<br>smallest: <code>{esc(cause.smallest)}</code>" if cause.smallest else ""
        kind = f' <span class="tag">{esc(cause.kind)}</span>' if cause.kind else ""
        facets = " · ".join(f"{esc(name.replace('_', ' '))}: {esc(', '.join(_facet_value(name, v) for v in values))}"
                            for name, values in cause.facets if values and name != "engine_messages")
        says = f"<br>the engine says: <code>{esc(cause.engine_message)}</code>" if cause.engine_message else ""
        items.append(f"<li><strong>{esc(cause.title or cause.signature)}</strong>{kind} · {cause.count} check(s)"
                     f"{blame}{'<br>' + facets if facets else ''}{says}<br>{checks}{smallest}</li>")
    return f'<section id="causes"><h2>Causes</h2><ol class="causes">{"".join(items)}</ol></section>'


def _facet_value(name: str, value: str) -> str:
    return card_name(value) if name == "cards" else value


def _rule_tree(report: Report) -> str:
    grouped = by_rule(report)
    unreached = not_reached_by_rule(report)
    rows = rule_rows([report])
    groups: dict[str, list[str]] = {}
    for row in rows:
        groups.setdefault(row.group, []).append(row.id)
    texts = {row.id: row.text for row in rows}
    parts = ['<section id="rules"><h2>Rules</h2><div class="tree">']
    for group, rule_ids in groups.items():
        members = {r.index: r for rule_id in rule_ids for r in grouped.get(rule_id, [])}
        missed = {r.index: r for rule_id in rule_ids for r in unreached.get(rule_id, []) if r.index not in members}
        group_tally = tally(members.values(), missed.values())
        opened = " open" if group_tally.status is Status.FAIL else ""
        parts.append(f'<details class="group" id="{esc(anchor_id("group", group))}"{opened}><summary>'
                     f"{tally_text(group_tally)} <strong>{esc(group)}</strong> "
                     f'<span class="muted">{len(rule_ids)} rule(s)</span></summary><ul class="rules">')
        for rule_id in rule_ids:
            results, missed_here = grouped.get(rule_id, []), unreached.get(rule_id, [])
            rule_tally = tally(results, missed_here)
            opened = " open" if rule_tally.status is Status.FAIL else ""
            checks = ("".join(_check_item(r) for r in results) + "".join(_unreached_item(r) for r in missed_here)
                      or '<li class="muted">no check cites this rule</li>')
            parts.append(f'<li><details class="rule" id="{esc(anchor_id("rule", rule_id))}"{opened}><summary>'
                         f"{tally_text(rule_tally)} <strong>{esc(rule_id)}</strong> {esc(texts[rule_id])}"
                         f'</summary><ul class="checks">{checks}</ul></details></li>')
        parts.append("</ul></details>")
    parts.append("</div></section>")
    return "\n".join(parts)


def _card_grid(report: Report) -> str:
    grouped = by_card(report)
    tiles = []
    for row in card_rows([report]):
        results = grouped.get(row.id, [])
        card_tally = tally(results)
        failing = [r for r in results if is_failure(r)]
        links = "".join(f'<li>{outcome_badge(r.outcome)} <a href="{href("", "check", r.id)}">{esc(r.id)}</a></li>'
                        for r in failing[:CARD_TILE_CHECKS])
        if len(failing) > CARD_TILE_CHECKS:
            links += f'<li class="muted">{len(failing) - CARD_TILE_CHECKS} more under Failures</li>'
        cost = f" · cost {row.cost}" if row.cost is not None else ""
        tiles.append(
            f'<div class="card s-{card_tally.status.value}" id="{esc(anchor_id("card", row.id))}" '
            f'data-family="{esc(row.family)}"><div class="name">{esc(row.name)}</div>'
            f'<div class="muted">{esc(row.family)}{cost}{" · " + esc(row.set) if row.set != "base" else ""}</div>'
            f'<div>{tally_text(card_tally)}</div>{f"<ul>{links}</ul>" if links else ""}</div>')
    return f'<section id="cards"><h2>Cards</h2><div class="grid">{"".join(tiles)}</div></section>'


def _coverage_rows(tallies: dict[str, Coverage], name: Callable[[str], str], reached: bool) -> str:
    return "".join(f'<tr class="{"" if t.ran else "zero"}"><td>{esc(name(key))}</td><td class="num">{t.ran}</td>'
                   f'<td class="num">{t.passed}</td><td class="num">{t.unsupported}</td>'
                   f'<td class="num">{t.not_applicable}</td>'
                   + (f'<td class="num">{t.not_reached}</td>' if reached else "") + "</tr>"
                   for key, t in tallies.items())


def _coverage_table(label: str, tallies: dict[str, Coverage], name: Callable[[str], str], reached: bool = False) -> str:
    """The coverage of each rule or card; ``reached`` adds the not-reached column (rules only)."""
    exercised = sum(t.ran > 0 for t in tallies.values())
    return (f"<details><summary>{exercised} of {len(tallies)} {label}s exercised by a check that ran</summary>"
            f'<table class="totals coverage"><thead><tr><th>{esc(label)}</th><th>ran</th><th>passed</th>'
            f"<th>unsupported</th><th>not applicable</th>{'<th>not reached</th>' if reached else ''}</tr></thead>"
            f"<tbody>{_coverage_rows(tallies, name, reached)}</tbody></table></details>")


def _coverage(report: Report) -> str:
    return ('<section id="coverage"><h2>Coverage of the rules catalogue</h2><p class="muted">How many checks '
            "citing each rule id and card ran and passed; unsupported and not-applicable checks are shown apart, never "
            "as run, and so is a failing check for the rules it did not reach (its cause is blamed on another rule)."
            f"</p>{_coverage_table('rule', report.rule_coverage, str, reached=True)}"
            f"{_coverage_table('card', report.card_coverage, card_name)}</section>")


def _field(label: str, value: str) -> str:
    return f"<dt>{esc(label)}</dt><dd>{value}</dd>" if value else ""


FIELD_HTML: dict[FieldKind, tuple[str, Callable[[ResultField], str]]] = {
    FieldKind.RULES: ("rules", lambda f: ", ".join(f'<a href="{href("", "rule", r)}">{esc(r)}</a>' for r in f.values)),
    FieldKind.CARDS: ("cards", lambda f: ", ".join(f'<a href="{href("", "card", c)}">{esc(card_name(c))}</a>'
                                                   for c in f.values)),
    FieldKind.STEP: ("step", lambda f: f.text),
    FieldKind.EXPECTED: ("expected", lambda f: f"<code>{esc(f.text)}</code>"),
    FieldKind.ACTUAL: ("actual", lambda f: f"<code>{esc(f.text)}</code>"),
    FieldKind.DETAIL: ("detail", lambda f: esc(f.text)),
}
"""The label and the markup of each field a failure's list shows (its reproduce command comes after the scenario)."""


def failure_article(report: Report, result: Result) -> str:
    where = f"{result.file}:{result.line}" if result.file and result.line else result.file or ""
    notes = "".join(f"<li>{esc(n)}</li>" for n in result.notes)
    every = result_fields(result)
    shown = [(FIELD_HTML[f.kind], f) for f in every if f.kind in FIELD_HTML]
    fields = "".join([
        *(_field(label, markup(f)) for (label, markup), f in shown),
        _field("notes", f"<ul>{notes}</ul>" if notes else ""),
        _field("file", f"<code>{esc(where)}</code>" if where else ""),
    ])
    parts = [
        f'<article class="failure {outcome_class(result.outcome)}" id="{esc(anchor_id("check", result.id))}">',
        f"<h3>{outcome_badge(result.outcome)} {esc(result.outcome.value)}: <code>{esc(result.id)}</code></h3>",
        f"<p>{esc(result.title)}</p><dl>{fields}</dl>",
    ]
    view = scenario_view(report, result)
    if view is not None:
        if view.lines:
            parts.append('<details class="scenario" open><summary>The scenario in words</summary>'
                         f'<pre>{esc(chr(10).join(view.lines))}</pre></details>')
        else:
            parts.append(f'<p class="warning">This oracle cannot read the scenario: {esc(view.problem)}</p>')
        parts.append(f"<details><summary>Source <code>{esc(view.source.file)}</code> "
                     f'<span class="muted">({esc(view.origin)}; sha256 {esc(view.source.sha256[:12])})</span>'
                     f"</summary><pre>{esc(view.source.text)}</pre></details>")
    parts += [f"<p>Reproduce: {copy_button(f.text)}</p>" for f in every if f.kind is FieldKind.REPRODUCE]
    parts.append("</article>")
    return "\n".join(parts)


def _failures(report: Report) -> str:
    failing = [r for r in report.results if not r.outcome.ok]
    known = [r for r in report.results if r.outcome.ok and is_failure(r)]
    skipped = [(Outcome.UNSUPPORTED, "Unsupported", "Checks the engine cannot run (it lacks a capability, the "
                "expansion or a player count): not counted as run, never as passed"),
               (Outcome.NOT_APPLICABLE, "Not applicable", "Checks of another reading of a rule variant than the "
                "engine declares: not counted as run, never as passed")]
    parts = [f'<section id="failures"><h2>Failures ({len(failing)})</h2>']
    parts += [failure_article(report, r) for r in failing] or ['<p class="muted">None.</p>']
    parts.append("</section>")
    if known:
        parts.append(f'<section id="known"><h2>Known failures ({len(known)})</h2>')
        parts += [failure_article(report, r) for r in known]
        parts.append("</section>")
    for outcome, heading, summary in skipped:
        listed = [r for r in report.results if r.outcome is outcome]
        if not listed:
            continue
        items = "".join(f"<li>{outcome_badge(r.outcome)} <code>{esc(r.id)}</code> "
                        f'<span class="muted">{esc(one_line(r))}</span></li>' for r in listed)
        parts.append(f'<section id="{esc(outcome.value)}"><h2>{heading} ({len(listed)})</h2><details><summary>'
                     f'{summary}</summary><ul class="checks">{items}</ul></details></section>')
    return "\n".join(parts)


def report_page(column: Column, matrix_page: str | None) -> str:
    """The whole page of one report; ``matrix_page`` links back to the matrix when there is one."""
    report = column.report
    nav = "".join(f'<a href="#{part}">{part}</a>' for part in ("totals", "rules", "cards", "coverage", "failures"))
    if report.causes:
        nav = f'<a href="#causes">causes</a>{nav}'
    if matrix_page:
        nav = f'<a href="{esc(matrix_page)}">matrix</a>{nav}'
    body = "\n".join([_header(column, matrix_page), _causes(report), _totals(report), _rule_tree(report),
                      _card_grid(report), _coverage(report), _failures(report)])
    return page(f"{report.engine} {report.version}: Vale Oracle report", body, nav)
