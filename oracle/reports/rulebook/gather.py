"""What the rulebook shows, gathered from the catalogues: the rule groups and their rules (sources, variants, the
project's reasoning, the scenarios citing each), the cards and tiles with the rules and scenarios naming them, each
scenario in words, and, given a report, how the engine fared on each scenario."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from oracle.core.bounded_input import Input, InputError, read_text
from oracle.core.cards import ArtifactTile, Card, catalogue
from oracle.core.rules import Rule, Variant, rules, variants
from oracle.reports.html.load import Report, Result
from oracle.scenarios.describe import scenario_lines
from oracle.scenarios.loader import default_dir, load_dir
from oracle.scenarios.model import Scenario

SCENARIO_SUITE = "scenarios"
CARD_ID = re.compile(r"\b(?:base|art)-(?:fire|water|earth|wind|dragon)-\d\d\b")
RULE_ID = re.compile(r"\b[A-Z]+-\d+\b")
# A quoted line in a citation: 'text' between quotes that are not apostrophes (Pied Piper's, the manual's).
QUOTED = re.compile(r"(?<![\w'])'([^']+?)'(?![\w'])")


class RulebookError(ValueError):
    """The rulebook cannot be built (an invalid bundled scenario); the message names the file and line."""


@dataclass(frozen=True)
class Citation:
    """One source of a rule (``rulebook §Magic Stones (important)``) in parts, each quoted or not, with the rule
    ids and card ids it cites."""

    parts: tuple[tuple[str, bool], ...]
    rules: tuple[str, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True)
class ScenarioEntry:
    """A scenario as the rulebook shows it: in words (``oracle scenarios show``), whether it is positive (the engine
    must accept or do something) and negative (it must reject something), and the tiles it uses."""

    scenario: Scenario
    lines: tuple[str, ...]
    positive: bool
    negative: bool
    cited_rules: tuple[str, ...]
    tiles: tuple[str, ...]


@dataclass(frozen=True)
class RuleEntry:
    """A rule as its group's page shows it: its citations, its variant, what it names and the scenarios citing it
    (in ``rules`` or in a ``reject`` step)."""

    rule: Rule
    page: str
    citations: tuple[Citation, ...]
    variant: Variant | None
    variant_citations: tuple[Citation, ...]
    names: tuple[str, ...]
    """The card and tile ids the rule names (its text, sources, reasoning and variant)."""
    scenarios: tuple[str, ...]


@dataclass(frozen=True)
class GroupEntry:
    """A rule group (the catalogue's ``group``): one page, its rules in catalogue order."""

    name: str
    page: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class CardEntry:
    """A card or an artifact tile, with the rules and the scenarios naming it."""

    id: str
    name: str
    page: str
    card: Card | None
    tile: ArtifactTile | None
    rules: tuple[str, ...]
    scenarios: tuple[str, ...]


@dataclass(frozen=True)
class ScenarioOutcome:
    """How the report's engine fared on one scenario; ``other_text`` when the report ran another text of it."""

    result: Result
    other_text: bool


@dataclass(frozen=True)
class ReportEntry:
    """The report beside the rulebook: the engine's outcome by scenario id, and the results that are no scenario of
    this suite, by the rule ids they are charged to or did not reach (``Result.charge``)."""

    report: Report
    outcomes: dict[str, ScenarioOutcome]
    unknown: tuple[str, ...]
    """Scenario results of the report whose id is no scenario of this suite."""
    other_checks: dict[str, tuple[Result, ...]]


@dataclass(frozen=True)
class Rulebook:
    """Everything the pages show, cross-referenced by id."""

    groups: tuple[GroupEntry, ...]
    rules: dict[str, RuleEntry]
    cards: dict[str, CardEntry]
    """Cards, then artifact tiles, in catalogue order."""
    scenarios: dict[str, ScenarioEntry]
    report: ReportEntry | None


def page_name(kind: str, name: str) -> str:
    """A page's file name: ``rules-payment.html``, ``card-base-fire-01.html``, ``tile-book-of-thoth.html``."""
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", name)
    return f"{slug}.html" if kind == "tile" else f"{kind}-{slug}.html"


def split_sources(source: str) -> list[str]:
    """``a (b; c); d`` -> ``["a (b; c)", "d"]``: a catalogue source lists its citations separated by ``;``."""
    out, depth, start = [], 0, 0
    for i, char in enumerate(source):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == ";" and depth == 0:
            out.append(source[start:i].strip())
            start = i + 1
    out.append(source[start:].strip())
    return [part for part in out if part]


def citation(text: str) -> Citation:
    parts: list[tuple[str, bool]] = []
    at = 0
    for match in QUOTED.finditer(text):
        parts += [(text[at:match.start()], False), (match.group(1), True)]
        at = match.end()
    parts.append((text[at:], False))
    known_rules, known_cards = rules(), catalogue().cards
    return Citation(
        tuple(p for p in parts if p[0]),
        tuple(dict.fromkeys(r for r in RULE_ID.findall(text) if r in known_rules)),
        tuple(dict.fromkeys(c for c in CARD_ID.findall(text) if c in known_cards)),
    )


def citations(source: str) -> tuple[Citation, ...]:
    return tuple(citation(part) for part in split_sources(source))


def _name_pattern(names: dict[str, str]) -> re.Pattern[str]:
    """Any card or tile name as a whole word, the longest first (``Genie Exalted`` is not ``Genie``)."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def named_in(texts: Iterable[str], names: dict[str, str], pattern: re.Pattern[str]) -> tuple[str, ...]:
    """The ids of the cards and tiles named in ``texts`` (by name, or a card by its id), in order of appearance."""
    found: list[str] = []
    for text in texts:
        found += [names[m.group(0)] for m in pattern.finditer(text)]
        found += [c for c in CARD_ID.findall(text) if c in catalogue().cards]
    return tuple(dict.fromkeys(found))


def is_positive(scenario: Scenario) -> bool:
    """docs/scenarios.md §Coverage: a step without ``reject`` that makes the engine act (a ``do`` it must accept)
    or states what it must do (``legal``, ``expect``, ``decision``), or an ``expect_end``."""
    return scenario.expect_end is not None or any(
        step.reject is None
        and (step.do is not None or bool(step.legal) or step.legal_exactly is not None
             or step.expect is not None or bool(step.decision))
        for step in scenario.steps
    )


def is_negative(scenario: Scenario) -> bool:
    """A ``reject`` step: an action the engine must refuse (docs/scenarios.md §Coverage)."""
    return any(step.reject is not None for step in scenario.steps)


def tiles_used(scenario: Scenario) -> tuple[str, ...]:
    """The artifact tiles a scenario is about: named by one of its actions (taken, used, legal or not) or held by a
    player in its position or an expected state. A tile merely on display does not count: a game with tiles lists
    the whole display in its set-up and expectations."""
    actions = [a for step in scenario.steps for a in ([step.do] if step.do else []) + step.legal + step.not_legal
               + (step.legal_exactly or [])]
    states = [scenario.given, scenario.expect_end or {}, *(step.expect for step in scenario.steps if step.expect)]
    held = {p.get("artifact") for state in states for p in state.get("players", []) if isinstance(p, dict)}
    text = json.dumps(actions, ensure_ascii=False)
    return tuple(t for t in catalogue().tiles if f'"{t}"' in text or t in held)


def scenario_entry(scenario: Scenario) -> ScenarioEntry:
    return ScenarioEntry(scenario, tuple(scenario_lines(scenario)), is_positive(scenario), is_negative(scenario),
                         tuple(dict.fromkeys((*scenario.rules, *scenario.reject_rules))), tiles_used(scenario))


def load_scenarios(directory: Path | None = None) -> list[Scenario]:
    """The bundled suite (or ``directory``); an invalid file raises :class:`RulebookError` naming it."""
    loaded = load_dir(directory if directory is not None else default_dir())
    if loaded.errors:
        shown = "; ".join(str(e) for e in loaded.errors[:3])
        more = f" (and {len(loaded.errors) - 3} more)" if len(loaded.errors) > 3 else ""
        raise RulebookError(f"the scenarios cannot be read: {shown}{more}")
    return loaded.scenarios


def _sha256(path: Path) -> str:
    try:
        return hashlib.sha256(read_text(path, Input.SCENARIO).encode("utf-8")).hexdigest()
    except InputError:
        return ""


def report_entry(report: Report, scenarios: dict[str, ScenarioEntry]) -> ReportEntry:
    outcomes: dict[str, ScenarioOutcome] = {}
    unknown: list[str] = []
    other: dict[str, list[Result]] = {}
    for result in report.results:
        if result.suite != SCENARIO_SUITE:
            for rule_id in (*result.charge.charged, *result.charge.not_reached):
                other.setdefault(rule_id, []).append(result)
            continue
        entry = scenarios.get(result.id)
        if entry is None:
            unknown.append(result.id)
            continue
        source = report.sources.get(result.id)
        other_text = source is not None and bool(source.sha256) and source.sha256 != _sha256(entry.scenario.path)
        outcomes.setdefault(result.id, ScenarioOutcome(result, other_text))
    return ReportEntry(report, outcomes, tuple(dict.fromkeys(unknown)),
                       {k: tuple(v) for k, v in other.items()})


def gather(scenario_list: Iterable[Scenario], report: Report | None = None) -> Rulebook:
    """Every rule, card, tile and scenario, cross-referenced."""
    cards, tiles = catalogue().cards, catalogue().tiles
    names = {c.name: c.id for c in cards.values()} | {t.name: t.id for t in tiles.values()}
    pattern = _name_pattern(names)
    scenarios = {s.id: scenario_entry(s) for s in scenario_list}
    by_rule: dict[str, list[str]] = {}
    by_card: dict[str, list[str]] = {}
    for entry in scenarios.values():
        for rule_id in entry.cited_rules:
            by_rule.setdefault(rule_id, []).append(entry.scenario.id)
        for card_id in (*entry.scenario.cards, *entry.tiles):
            by_card.setdefault(card_id, []).append(entry.scenario.id)
    groups: dict[str, list[str]] = {}
    rule_entries: dict[str, RuleEntry] = {}
    for rule in rules().values():
        groups.setdefault(rule.group, []).append(rule.id)
        variant = variants().get(rule.id)
        texts = [rule.text, rule.source, rule.reason]
        if variant is not None:
            texts += [*variant.meanings, variant.source]
        rule_entries[rule.id] = RuleEntry(
            rule, page_name("rules", rule.group), citations(rule.source), variant,
            citations(variant.source) if variant is not None else (), named_in(texts, names, pattern),
            tuple(by_rule.get(rule.id, ())))
    naming: dict[str, list[str]] = {}
    for rule_entry in rule_entries.values():
        for card_id in rule_entry.names:
            naming.setdefault(card_id, []).append(rule_entry.rule.id)
    card_entries = {
        c.id: CardEntry(c.id, c.name, page_name("card", c.id), c, None, tuple(naming.get(c.id, ())),
                        tuple(by_card.get(c.id, ())))
        for c in cards.values()
    } | {
        t.id: CardEntry(t.id, t.name, page_name("tile", t.id), None, t, tuple(naming.get(t.id, ())),
                        tuple(by_card.get(t.id, ())))
        for t in tiles.values()
    }
    return Rulebook(
        groups=tuple(GroupEntry(g, page_name("rules", g), tuple(ids)) for g, ids in groups.items()),
        rules=rule_entries,
        cards=card_entries,
        scenarios=scenarios,
        report=report_entry(report, scenarios) if report is not None else None,
    )
