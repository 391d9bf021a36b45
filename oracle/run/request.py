"""What ``oracle check`` was asked for, as one typed value: :class:`CheckRequest`, built and validated in one place.

Every refusal of bad input (exit 2) lives here: :meth:`CheckRequest.from_cli` makes those that need no engine,
:meth:`CheckRequest.refuse_empty` and :meth:`CheckRequest.expected_failures` those that need the plan. Each
prints ``error: …`` on standard error and raises the exit.
"""

from __future__ import annotations

import fnmatch
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import typer

from oracle.core.exits import bad_input
from oracle.core.json_types import JSON
from oracle.core.shards import Shard
from oracle.core.suggest import did_you_mean, near_globs, suggestion
from oracle.engines.connect import DEFAULT_IMPL
from oracle.engines.legal_share import given_problem as share_problem
from oracle.engines.speed import given_problem
from oracle.run.expectations import ExpectedFailure, load_expectations
from oracle.scenarios.reach.way import Way
from oracle.suites.all import BY_NAME
from oracle.suites.registry import AnyUnit, CheckOptions, FuzzOptions, Plan, ScenarioOptions, Z3Options


def default_jobs() -> int:
    """The workers a run uses unless told: one per core."""
    return os.cpu_count() or 1


def split_values(values: Iterable[str] | None) -> tuple[str, ...]:
    """Repeatable, comma-separated option values as one tuple."""
    return tuple(v.strip() for value in values or [] for v in value.split(",") if v.strip())


DEFAULT_MAX_CAUSES = FuzzOptions.causes
"""``--max-causes``: the causes the invariants suite's fuzz run looks for unless told."""

STDOUT = "-"
"""The path that names standard output (``--report-json -``)."""


@dataclass(frozen=True)
class ReportTargets:
    """Where the reports go; each path is tried for writing before the run starts."""

    json: Path | None = None
    junit: Path | None = None
    markdown: Path | None = None
    markdown_append: Path | None = None

    @property
    def json_to_stdout(self) -> bool:
        return self.json is not None and str(self.json) == STDOUT

    def files(self) -> list[tuple[str, Path]]:
        """Each report option given, with its path (standard output, ``-``, included)."""
        return [(option, path) for option, path in (
            ("--report-json", self.json), ("--junit-xml", self.junit), ("--markdown", self.markdown),
            ("--markdown-append", self.markdown_append)) if path is not None]

    def refuse_unwritable(self) -> None:
        """Bad input (exit 2) when a report cannot be written where it is asked for, or when two reports name the
        same file (one would overwrite the other)."""
        named: dict[str, tuple[str, Path]] = {}
        for option, path in self.files():
            if option == "--report-json" and str(path) == STDOUT:
                continue
            if str(path) == STDOUT:
                raise bad_input(f"{option} -: only --report-json can write to standard output")
            problem = unwritable(path)
            if problem:
                raise bad_input(f"{option} {path}: cannot write the report there ({problem})")
            first = named.setdefault(os.path.realpath(path), (option, path))
            if first[0] != option:
                raise bad_input(f"{first[0]} {first[1]} and {option} {path} name the same file: give each report "
                                "a file of its own")


def unwritable(path: Path) -> str:
    """Why ``path`` cannot be written ('' when it can), without leaving a file behind."""
    if path.is_dir():
        return "it is a directory"
    parent = path.parent if str(path.parent) else Path(".")
    existing = parent
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        return f"{existing} is not a directory"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{existing} is not writable"
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is not writable"
    return ""


def parse_shard(text: str | None) -> Shard | None:
    """``--shard K/N`` (None when not given); bad input for a malformed one (``0/3``, ``4/3``, ``x``)."""
    if text is None:
        return None
    try:
        return Shard.parse(text)
    except ValueError as exc:
        raise bad_input(f"--shard {exc}") from None


def refuse_unfinite(seconds: Iterable[tuple[str, float]]) -> None:
    """Bad input unless each option's seconds are more than 0 and finite."""
    for name, value in seconds:
        if not (math.isfinite(value) and value > 0):
            raise bad_input(f"{name} must be more than 0 seconds and finite, got {value:g}")


def declared_variants(pairs: Sequence[str], impl: str) -> dict[str, str]:
    """``--variant RUL-1=per_stone``: variants of the rules catalogue, for the reference only (another engine
    declares its variants in its handshake)."""
    from oracle.reference.declared import parse_declared

    if not pairs:
        return {}
    if impl != DEFAULT_IMPL:
        raise bad_input(f"--variant checks the reference ({DEFAULT_IMPL}) playing a variant; {impl} declares its "
                        "variants in its handshake")
    try:
        return parse_declared(",".join(pairs))
    except ValueError as exc:
        raise bad_input(f"--variant: {exc}") from None


def refuse_unknown_rules(option: str, rule_ids: Sequence[str]) -> tuple[str, ...]:
    """The rule ids an option names; bad input for one that is not in the rules catalogue."""
    from oracle.core.rules import rules as rules_catalogue

    known = rules_catalogue()
    unknown = [r for r in rule_ids if r not in known]
    if unknown:
        raise bad_input(f"{option} {unknown[0]!r}: no such rule id in the rules catalogue"
                        f"{did_you_mean(unknown[0], known)}")
    return tuple(rule_ids)


def refuse_unknown_filters(rule_ids: Sequence[str], cards: Sequence[str]) -> tuple[str, ...]:
    """The card ids ``--card`` names; bad input for a rule id or a card that does not exist."""
    from oracle.scenarios.loader import resolve_card_names

    refuse_unknown_rules("--rule", rule_ids)
    card_ids, unknown_cards = resolve_card_names(cards)
    if unknown_cards:
        raise bad_input(f"--card {unknown_cards[0]!r}: no card has that name or id"
                        f"{did_you_mean(unknown_cards[0], card_names_and_ids())}")
    return tuple(card_ids)


def card_names_and_ids() -> list[str]:
    """Every card's name and id, base and expansion: what ``--card`` accepts."""
    from oracle.core.cards import catalogue

    return [text for card in catalogue().cards.values() for text in (card.name, card.id)]


def refuse_unknown_suites(asked: Sequence[str]) -> None:
    """Bad input for a ``--suite`` that names no suite: the nearest suite when one is near, else every suite."""
    unknown = [s for s in asked if s not in BY_NAME]
    if unknown:
        near = did_you_mean(unknown[0], BY_NAME)
        raise bad_input(f"--suite {unknown[0]!r}: no such suite" + (near or f"; known suites are {', '.join(BY_NAME)}"))


def refuse_invalid_scenarios(scenarios: Path | None, suites: Sequence[str]) -> None:
    """Bad input, with the scenarios suite to run, when a scenario file is invalid (each error is printed)."""
    from oracle.scenarios.loader import default_dir, load_dir

    scenario_dir = scenarios if scenarios is not None else default_dir()
    if "scenarios" in suites and scenario_dir.is_dir():
        loaded = load_dir(scenario_dir)
        if loaded.errors:
            for error in loaded.errors:
                typer.echo(f"error: {error}", err=True)
            raise bad_input(f"{len(loaded.errors)} invalid scenario file(s); see `oracle scenarios lint`")


@dataclass(frozen=True)
class CheckRequest:
    """Everything ``oracle check`` was asked for, validated: the engine, the suites, the options the suites read,
    the run's limits, the expectations and the reports."""

    impl: str
    """``--impl``, or the declared reference's when ``--variant`` is given."""
    asked: tuple[str, ...]
    """``--suite``, as given (empty: every suite)."""
    options: CheckOptions
    card_names: tuple[str, ...]
    """``--card`` as given (the options hold the card ids)."""
    jobs: int
    time_budget: float | None
    max_failures: int | None
    fail_on_unsupported: bool
    allow_empty: bool
    expectations: Path | None
    reports: ReportTargets
    validate_protocol: bool
    budget_scale: float | None = None
    """``--budget-scale``: the factor of every fixed budget (None: measured at the start of the run)."""
    legal_share: float | None = None
    """``--legal-share``: the share of decisions compared with the complete legal set (None: set from the measure)."""
    shard: Shard | None = None
    """``--shard K/N``: the part of the plan this run runs (None: all of it, and no shard record in the report;
    1/1 is all of it, with the record ``oracle report merge`` reads)."""

    @classmethod
    def from_cli(cls, *, impl: str, games: int, seed: int, timeout: float, start_timeout: float,
                 suite: list[str] | None, select: list[str] | None, rule: list[str] | None, card: list[str] | None,
                 expectations: Path | None, report_json: Path | None, junit_xml: Path | None,
                 markdown: Path | None, markdown_append: Path | None, scenarios: Path | None,
                 scenario_timeout: float, z3_budget: float, fuzz_budget: float, unit_timeout: float,
                 time_budget: float | None, max_failures: int | None, max_causes: int, set_aside: list[str] | None,
                 fail_on_unsupported: bool, allow_empty: bool, jobs: int | None, save_failures: Path | None,
                 z3_full: bool, validate_protocol: bool, variant: list[str] | None,
                 budget_scale: float | None = None, legal_share: float | None = None,
                 shard: str | None = None, reach: str = "auto") -> CheckRequest:
        """The request of ``oracle check``'s options, or bad input (exit 2) naming the first option at fault."""
        refuse_unfinite((("--timeout", timeout), ("--start-timeout", start_timeout),
                         ("--scenario-timeout", scenario_timeout), ("--z3-budget", z3_budget),
                         ("--fuzz-budget", fuzz_budget), ("--unit-timeout", unit_timeout)))
        if games < 0:
            raise bad_input("--games must be 0 or more")
        jobs = default_jobs() if jobs is None else jobs
        if jobs < 1:
            raise bad_input("--jobs must be 1 or more")
        if time_budget is not None and not (math.isfinite(time_budget) and time_budget > 0):
            raise bad_input(f"--time-budget must be more than 0 seconds and finite, got {time_budget:g}")
        if max_failures is not None and max_failures < 1:
            raise bad_input("--max-failures must be 1 or more")
        if budget_scale is not None and given_problem(budget_scale):
            raise bad_input(given_problem(budget_scale))
        if legal_share is not None and share_problem(legal_share):
            raise bad_input(share_problem(legal_share))
        if max_causes < 1:
            raise bad_input("--max-causes must be 1 or more")
        dealt = parse_shard(shard)
        ways = [w.value for w in Way if w is not Way.NEW_GAME]
        if reach not in ways:
            raise bad_input(f"--reach must be one of {', '.join(ways)}, got {reach!r}")
        known_causes = refuse_unknown_rules("--set-aside", split_values(set_aside))
        declared = declared_variants(split_values(variant), impl)
        if declared:
            from oracle.reference.declared import impl_for

            impl = impl_for(declared)
        reports = ReportTargets(report_json, junit_xml, markdown, markdown_append)
        reports.refuse_unwritable()
        selects, rule_ids, card_names = split_values(select), split_values(rule), split_values(card)
        card_ids = refuse_unknown_filters(rule_ids, card_names)
        if scenarios is not None and not scenarios.is_dir():
            raise bad_input(f"--scenarios {scenarios}: no such directory")
        asked = split_values(suite)
        refuse_unknown_suites(asked)
        refuse_invalid_scenarios(scenarios, asked or tuple(BY_NAME))
        options = CheckOptions(
            games=games, seed=seed, timeout=timeout, start_timeout=start_timeout, select=selects, rules=rule_ids,
            cards=card_ids, unit_timeout=unit_timeout,
            scenarios=ScenarioOptions(scenarios, scenario_timeout, Way(reach)),
            z3=Z3Options(full=z3_full, budget=z3_budget), fuzz=FuzzOptions(seconds=fuzz_budget, causes=max_causes),
            save_failures=save_failures, variants=tuple(sorted(declared.items())), set_aside=known_causes)
        return cls(impl, asked, options, card_names, jobs, time_budget, max_failures, fail_on_unsupported,
                   allow_empty, expectations, reports, validate_protocol, budget_scale, legal_share, dealt)

    @property
    def chosen(self) -> tuple[str, ...]:
        """The suites to run: those asked for, else every suite in order."""
        return self.asked or tuple(BY_NAME)

    @property
    def to_plan(self) -> tuple[str, ...]:
        """The suites to plan: those chosen, and every one when expectations must know every check id."""
        return self.chosen if self.expectations is None else tuple(dict.fromkeys((*self.chosen, *BY_NAME)))

    @property
    def filtering(self) -> bool:
        """``--select``, ``--rule`` or ``--card`` is given."""
        options = self.options
        return bool(options.select or options.rules or options.cards)

    def scenario_dir(self) -> Path:
        """The directory of the scenarios suite."""
        from oracle.scenarios.loader import default_dir

        given = self.options.scenarios.directory
        return given if given is not None else default_dir()

    def refuse_empty(self, planned: Mapping[str, list[AnyUnit]]) -> None:
        """Bad input when the filters select nothing, when a suite asked for has nothing to run, or when the
        scenarios suite of a whole run finds no scenario file."""
        from oracle.scenarios.loader import display_path

        empty = [name for name, units in planned.items() if not units]
        if self.filtering and not any(planned.values()):
            raise bad_input("no check matches --select/--rule/--card")
        if self.asked and empty:
            why = "its filters leave nothing" if self.filtering else "it has no checks"
            where = f" (no scenario files in {display_path(self.scenario_dir())})" \
                if "scenarios" in empty and not self.filtering else ""
            raise bad_input(f"--suite {empty[0]}: {why} to run{where}")
        if not self.asked and "scenarios" in empty and not self.filtering:
            raise bad_input(f"the scenarios suite found no scenario files in {display_path(self.scenario_dir())} "
                            "(pass --scenarios DIR, or --suite to run other suites)")

    def refuse_unmatched_selects(self, plan: Plan) -> None:
        """Bad input for a ``--select`` glob that matches no check id of the chosen suites, with the globs near
        it."""
        ids = sorted(c.id for name in self.chosen for unit in plan.units[name] for c in unit.checks)
        for pattern in self.options.select:
            if not any(fnmatch.fnmatchcase(check_id, pattern) for check_id in ids):
                raise bad_input(f"--select {pattern!r}: no check id matches it{suggestion(near_globs(pattern, ids))}")

    def expected_failures(self, plan: Plan) -> dict[str, ExpectedFailure]:
        """The known failures ``--expectations`` lists (none without it); bad input for a file with problems."""
        if self.expectations is None:
            return {}
        expected, problems = load_expectations(self.expectations, plan.known())
        if problems:
            for problem in problems:
                typer.echo(f"error: {problem}", err=True)
            raise bad_input(f"--expectations {self.expectations}: {len(problems)} problem(s)")
        return expected

    def report_options(self) -> JSON:
        """The options a report lists under ``run.options``."""
        o = self.options
        return {"games": o.games, "seed": o.seed, "timeout": o.timeout, "start_timeout": o.start_timeout,
                "scenario_timeout": o.scenarios.timeout, "z3_budget": o.z3.budget, "fuzz_budget": o.fuzz.seconds,
                "unit_timeout": o.unit_timeout, "budget_scale": self.budget_scale, "legal_share": self.legal_share,
                "time_budget": self.time_budget,
                "max_failures": self.max_failures, "max_causes": o.fuzz.causes, "set_aside": list(o.set_aside),
                "jobs": self.jobs, "fail_on_unsupported": self.fail_on_unsupported, "allow_empty": self.allow_empty,
                "select": list(o.select), "rules": list(o.rules), "cards": list(self.card_names),
                "scenarios": str(o.scenarios.directory) if o.scenarios.directory is not None else None,
                "expectations": str(self.expectations) if self.expectations else None,
                "shard": None if self.shard is None else self.shard.text}
