"""The ``oracle`` command line.

Exit codes: 0 everything passed (or failed as expected); 1 a check failed; 2 bad input (options,
files, an engine that cannot be loaded).
"""

from __future__ import annotations

import fnmatch
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from oracle.cards import CardDataError, catalogue
from oracle.check import CheckOptions, EngineUnderTest, run_check
from oracle.exits import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, bad_input
from oracle.harness import DEFAULT_IMPL, EngineFault, ImplError, Subject, describe_fault
from oracle.model import Family
from oracle.narrate import action_text, event_text
from oracle.play import GameStuck, choose_action, new_setup
from oracle.report_cli import report_app, selftest_command
from oracle.results import CheckResult, Outcome
from oracle.scenarios.cli import app as scenarios_app
from oracle.z3check.cli import z3_app
from vale_invariants.cli import fuzz_command

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Vale Oracle: check any implementation of The Vale of Eternity against the rules.",
)

app.add_typer(scenarios_app, name="scenarios")
app.add_typer(z3_app, name="z3")
app.command("fuzz")(fuzz_command)
app.add_typer(report_app, name="report")
app.command("selftest")(selftest_command)

fail = bad_input


@app.command("cards")
def cards_command(
    family: Annotated[str | None, typer.Option(help="fire, water, earth, wind or dragon")] = None,
    cost: Annotated[int | None, typer.Option(help="only cards of this printed cost")] = None,
    effect: Annotated[str | None, typer.Option(help="instant, permanent or active")] = None,
    name: Annotated[str | None, typer.Option(help="name contains this text")] = None,
    expansion: Annotated[bool, typer.Option(help="include the Artifacts expansion cards")] = False,
) -> None:
    """List cards, optionally filtered."""
    if family is not None and family not in {f.value for f in Family}:
        raise fail(f"--family {family!r}: expected one of fire, water, earth, wind, dragon")
    if effect is not None and effect not in ("instant", "permanent", "active"):
        raise fail(f"--effect {effect!r}: expected instant, permanent or active")
    shown = 0
    for card in catalogue().in_sets(["base", "artifacts"] if expansion else ["base"]):
        if family and card.family.value != family:
            continue
        if cost is not None and card.cost != cost:
            continue
        if effect and effect not in {t.value for t in card.effect_types}:
            continue
        if name and name.casefold() not in card.name.casefold():
            continue
        kinds = "/".join(sorted(t.value for t in card.effect_types))
        typer.echo(f"{card.id:16} {card.name:20} {card.family.value:7} cost {card.cost:>2}  {kinds}")
        for text in card.effects:
            typer.echo(f"{'':18}{text.type.value}: {text.text}")
        shown += 1
    typer.echo(f"{shown} card(s)")


def _load_subject(impl: str, timeout: float) -> Subject:
    try:
        return Subject.load(impl, timeout)
    except ImplError as exc:
        raise fail(str(exc)) from None
    except EngineFault as fault:
        raise fail(f"--impl {impl}: {describe_fault(fault)}") from None


@app.command("play")
def play_command(
    players: Annotated[int, typer.Option(help="number of players, 2 to 4")] = 2,
    seed: Annotated[int, typer.Option(help="seed for the deck, the shuffles and every choice")] = 1,
    impl: Annotated[str, typer.Option(help="engine: package.module or package.module:factory")] = DEFAULT_IMPL,
    timeout: Annotated[float, typer.Option(help="seconds allowed for each engine call")] = 5.0,
    quiet: Annotated[bool, typer.Option(help="print only the result")] = False,
    expansion: Annotated[bool, typer.Option(help="shuffle the 28 Artifacts cards into the deck")] = False,
    artifacts: Annotated[bool, typer.Option(help="play with the expansion cards and the artifact tiles")] = False,
) -> None:
    """Play a full game with random legal choices and print it step by step."""
    if not 2 <= players <= 4:
        raise fail(f"--players {players}: the game is for 2 to 4 players")
    subject = _load_subject(impl, timeout)
    import random

    setup = new_setup(players, seed, expansion=expansion, artifacts=artifacts)
    rng = random.Random(f"play-{seed}")
    step = 0
    try:
        for event in subject.new_game(setup):
            _echo_event(event, quiet)
        while (pending := subject.decision()) is not None:
            step += 1
            action = choose_action(subject, pending, rng)
            result = subject.apply(action)
            if not quiet:
                typer.echo(f"  [{step}] {action_text(action)}")
            if not result["accepted"]:
                typer.echo(f"error: step {step}: the engine refused its own legal action: {result['rejection']}",
                           err=True)
                raise typer.Exit(EXIT_FAILED)
            for event in result["events"]:
                _echo_event(event, quiet)
    except EngineFault as fault:
        typer.echo(f"error: step {step}: {describe_fault(fault)}", err=True)
        raise typer.Exit(EXIT_FAILED) from None
    except GameStuck as stuck:
        typer.echo(f"error: step {step}: {stuck}", err=True)
        raise typer.Exit(EXIT_FAILED) from None


def _echo_event(event: dict[str, object], quiet: bool) -> None:
    text = event_text(event)
    if text is None:
        return
    if quiet and event.get("type") != "game_over":
        return
    typer.echo(text if text.startswith(("==", "--")) else f"      {text}")


def _split(values: list[str] | None) -> tuple[str, ...]:
    out: list[str] = []
    for value in values or []:
        out.extend(v.strip() for v in value.split(",") if v.strip())
    return tuple(out)


@app.command("check")
def check_command(
    impl: Annotated[str, typer.Option(help="engine: package.module or package.module:factory")] = DEFAULT_IMPL,
    games: Annotated[int, typer.Option(help="random games per player count")] = 2,
    seed: Annotated[int, typer.Option(help="first seed")] = 1,
    timeout: Annotated[float, typer.Option(help="seconds allowed for each engine call")] = 5.0,
    suite: Annotated[list[str] | None, typer.Option(help="run only these suites (repeatable)")] = None,
    select: Annotated[list[str] | None, typer.Option(
        help="run only checks whose id matches (a glob such as 'PAY-*'; repeatable)")] = None,
    rule: Annotated[list[str] | None, typer.Option(help="run only checks of this rule id (repeatable)")] = None,
    card: Annotated[list[str] | None, typer.Option(
        help="run only scenarios pinning this card, by name or id (repeatable)")] = None,
    expectations: Annotated[Path | None, typer.Option(
        help="TOML file of known failures: expected_failure tables with an id and a reason")] = None,
    report_json: Annotated[Path | None, typer.Option(help="write the JSON report here")] = None,
    junit_xml: Annotated[Path | None, typer.Option(help="write a JUnit XML report here")] = None,
    markdown: Annotated[Path | None, typer.Option(help="write a Markdown summary here")] = None,
    scenarios: Annotated[Path | None, typer.Option(
        help="scenarios directory (default: the repository's scenarios/)")] = None,
    scenario_timeout: Annotated[float, typer.Option(help="wall-clock seconds allowed for each scenario")] = 10.0,
    save_failures: Annotated[Path | None, typer.Option(
        help="write each counterexample found by the z3 and invariants suites as a scenario file here")] = None,
    z3_full: Annotated[bool, typer.Option(help="check the whole bounded Z3 domain instead of a sample")] = False,
) -> None:
    """Check an engine against the rules and print a pass/fail summary.

    Exit codes: 0 every check passed (or failed as expected, or is unsupported); 1 a check failed; 2 bad input
    (options, an invalid scenario or expectations file, an engine that cannot be loaded).
    """
    from oracle.check import SUITES, load_suites
    from oracle.reports import RunInfo, write_json, write_junit, write_markdown
    from oracle.rules import rules as rules_catalogue
    from oracle.scenarios.expectations import ExpectedFailure, apply_expectations, load_expectations
    from oracle.scenarios.loader import default_dir, load_dir, resolve_card_names

    if games < 0:
        raise fail("--games must be 0 or more")
    if scenario_timeout <= 0:
        raise fail("--scenario-timeout must be more than 0 seconds")
    started = time.perf_counter()
    started_at = datetime.now(UTC)
    load_suites()
    selects, rule_ids, cards = _split(select), _split(rule), _split(card)
    unknown_rules = [r for r in rule_ids if r not in rules_catalogue()]
    if unknown_rules:
        raise fail(f"--rule {unknown_rules[0]!r}: no such rule id in the rules catalogue")
    card_ids, unknown_cards = resolve_card_names(cards)
    if unknown_cards:
        raise fail(f"--card {unknown_cards[0]!r}: no card has that name or id")
    if scenarios is not None and not scenarios.is_dir():
        raise fail(f"--scenarios {scenarios}: no such directory")
    try:
        eut = EngineUnderTest.load(impl, timeout)
        handshake = eut.fresh().handshake
    except ImplError as exc:
        raise fail(str(exc)) from None
    except EngineFault as fault:
        raise fail(f"--impl {impl}: {describe_fault(fault)}") from None

    chosen = list(_split(suite)) or list(SUITES)
    unknown = [s for s in chosen if s not in SUITES]
    if unknown:
        raise fail(f"--suite {unknown[0]!r}: known suites are {', '.join(SUITES)}")
    filtering = bool(selects or rule_ids or cards)
    if filtering and not suite:
        chosen = [s for s in chosen if _may_match(s, selects, bool(cards))]

    scenario_dir = scenarios if scenarios is not None else default_dir()
    scenario_ids: set[str] = set()
    if ("scenarios" in chosen or expectations is not None) and scenario_dir.is_dir():
        loaded = load_dir(scenario_dir)
        if loaded.errors and "scenarios" in chosen:
            for error in loaded.errors:
                typer.echo(f"error: {error}", err=True)
            raise fail(f"{len(loaded.errors)} invalid scenario file(s); see `oracle scenarios lint`")
        scenario_ids = {s.id for s in loaded.scenarios}
    expected: dict[str, ExpectedFailure] = {}
    if expectations is not None:
        expected, problems = load_expectations(expectations, scenario_ids)
        if problems:
            for problem in problems:
                typer.echo(f"error: {problem}", err=True)
            raise fail(f"--expectations {expectations}: {len(problems)} problem(s)")

    extra: dict[str, object] = {"scenario_timeout": scenario_timeout}
    if scenarios is not None:
        extra["scenarios_dir"] = str(scenarios)
    if save_failures is not None:
        extra["save_failures"] = str(save_failures)
    if z3_full:
        extra["z3_full"] = True
    options = CheckOptions(games=games, seed=seed, timeout=timeout, select=selects, rules=rule_ids,
                           cards=tuple(card_ids), extra=extra)
    typer.echo(f"oracle check: {handshake.engine} {handshake.version} ({impl}), suites: {', '.join(chosen)}")
    results = run_check(eut, options, chosen)
    if filtering:
        results = [r for r in results if _selected(r, selects, rule_ids, card_ids)]
        if not results:
            raise fail("no check matches --select/--rule/--card")
    results = apply_expectations(results, expected)
    seconds = time.perf_counter() - started
    _print_summary(results, seconds)
    run = RunInfo(
        engine=handshake.engine, engine_version=handshake.version, impl=impl, suites=tuple(chosen),
        started=started_at, duration=seconds,
        options={"games": games, "seed": seed, "timeout": timeout, "scenario_timeout": scenario_timeout,
                 "select": list(selects), "rules": list(rule_ids), "cards": list(cards),
                 "scenarios": str(scenario_dir), "expectations": str(expectations) if expectations else None},
    )
    for path, writer in ((report_json, write_json), (junit_xml, write_junit), (markdown, write_markdown)):
        if path is not None:
            try:
                writer(path, results, run)
            except OSError as exc:
                raise fail(f"cannot write {path}: {exc.strerror}") from None
            typer.echo(f"wrote {path}")
    raise typer.Exit(EXIT_OK if all(r.outcome.ok for r in results) else EXIT_FAILED)


# Suites that ignore --select/--rule/--card (their results are filtered afterwards). With a filter and
# no --suite they are skipped when none of their results could match: with --card (they name no card)
# or with --select patterns that cannot name their checks ("random-play/*" can).
_UNFILTERED_SUITES = ("random-play", "roundtrip")


def _may_match(suite_name: str, selects: tuple[str, ...], by_card: bool) -> bool:
    if suite_name not in _UNFILTERED_SUITES:
        return True
    if by_card:
        return False
    return not selects or any(fnmatch.fnmatchcase(suite_name, p.split("/", 1)[0]) for p in selects)


def _selected(result: CheckResult, selects: tuple[str, ...], rule_ids: tuple[str, ...],
              card_ids: list[str]) -> bool:
    return (
        (not selects or any(fnmatch.fnmatchcase(result.id, p) for p in selects))
        and (not rule_ids or bool(set(rule_ids) & set(result.rules)))
        and (not card_ids or bool(set(card_ids) & set(result.cards)))
    )


def _print_summary(results: list[CheckResult], seconds: float) -> None:
    for result in results:
        if result.outcome.ok:
            continue
        typer.echo(f"{result.outcome.value.upper():16} {result.id}: {result.title}")
        if result.rules:
            typer.echo(f"{'':17}rule {', '.join(result.rules)}" + (f", step {result.step}" if result.step else ""))
        for label, text in (("expected", result.expected), ("actual", result.actual), ("detail", result.message)):
            if text:
                typer.echo(f"{'':17}{label}: {text}")
        if result.reproduce:
            typer.echo(f"{'':17}reproduce: {result.reproduce}")
    counts: dict[Outcome, int] = {}
    for result in results:
        counts[result.outcome] = counts.get(result.outcome, 0) + 1
    summary = ", ".join(f"{n} {o.value}" for o, n in counts.items()) or "no checks run"
    verdict = "PASSED" if all(r.outcome.ok for r in results) else "FAILED"
    typer.echo(f"{verdict}: {len(results)} checks ({summary}) in {seconds:.1f} s")


def main() -> None:
    try:
        app()
    except CardDataError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)


if __name__ == "__main__":
    main()


_ = Path
