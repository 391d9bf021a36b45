"""The command line's manners: -h, help that leaves room for its descriptions, metavars that read as words, "did
you mean" for every option naming a choice, single-file lint, the renamed fuzz options, --jobs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.main
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.cli.check import default_jobs
from oracle.core.faults import ImplError
from oracle.core.impl_forms import IMPL_FORMS, IMPL_HELP
from oracle.engines.connect import import_factory
from oracle.run.request import CheckRequest, ReportTargets
from oracle.scenarios.loader import default_dir, display_path
from oracle.suites.registry import CheckOptions, Plan, PlannedCheck, Unit

runner = CliRunner()
PAY3_FILE = default_dir() / "payment" / "PAY-3-red-and-blue-for-cost-1.toml"


# ---------------------------------------------------------------------------------------------- help


@pytest.mark.parametrize("command", [[], ["check"], ["fuzz"], ["scenarios", "lint"], ["play"]])
def test_dash_h_is_help(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "-h"])
    assert (0, True) == (result.exit_code, "Usage:" in result.stdout)


def command_paths() -> list[list[str]]:
    """Every command and sub-command of ``oracle``, as the words that name it (the root first, as [])."""
    paths: list[list[str]] = []
    groups: list[tuple[list[str], Any]] = [([], typer.main.get_command(app))]
    while groups:
        path, command = groups.pop()
        paths.append(path)
        groups.extend(([*path, name], sub) for name, sub in getattr(command, "commands", {}).items())
    return paths


NARROW = 80
"""The terminal width the help is read at."""
DESCRIPTION_WIDTH = 40
"""The least room a description has beside its option, argument or command at that width."""
ROW = re.compile(r"  \S.*?  +(\S)")
"""A row of a help section: a term, two spaces or more, and its description."""


def description_columns(text: str) -> list[int]:
    """The column where each description starts in the sections (Options:, Arguments:, Commands:) of a help text:
    beside its term, below it when the term is too long, and on each continuation line."""
    columns: list[int] = []
    section = False
    for line in text.splitlines():
        if line.endswith(":") and not line.startswith(" "):
            section = True
        elif not line.strip():
            section = False
        elif section and (row := ROW.match(line)):
            columns.append(row.start(1))
        elif section and line.startswith(" " * 4):
            columns.append(len(line) - len(line.lstrip()))
    return columns


def test_at_80_columns_every_help_leaves_40_for_its_descriptions_and_cuts_no_short_help() -> None:
    seen = 0
    for path in command_paths():
        text = runner.invoke(app, [*path, "--help"], env={"COLUMNS": str(NARROW)}).stdout
        columns = description_columns(text)
        assert ([], [], [], True) == (
            [c for c in columns if NARROW - c < DESCRIPTION_WIDTH],
            [line for line in text.splitlines() if len(line) > NARROW],
            [line for line in text.splitlines() if line.endswith("...") and not line.startswith("Usage:")],
            bool(columns)), (path, text)
        seen += 1
    assert seen >= 20


@pytest.mark.parametrize("command", [["check"], ["fuzz"], ["scenarios", "lint"], ["scenarios", "show"]])
def test_option_metavars_read_as_words(command: list[str]) -> None:
    text = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"}).stdout
    typed = [line for line in text.splitlines() if " --" in line and "--help" not in line
             and any(f"<{t}" in line for t in ("str", "int", "float", "path", "list", "bool"))]
    assert [] == typed


def test_check_help_lists_the_suite_names() -> None:
    text = runner.invoke(app, ["check", "--help"], env={"COLUMNS": "200"}).stdout
    assert all(name in text for name in ("setup", "random-play", "roundtrip", "scenarios", "z3", "invariants"))


def impl_helps() -> dict[str, str]:
    """The help of ``--impl`` in every command that has the option, by the command's words."""
    helps: dict[str, str] = {}
    for path in command_paths():
        command = typer.main.get_command(app)
        for word in path:
            command = command.commands[word]  # type: ignore[attr-defined]
        for parameter in command.params:
            if "--impl" in getattr(parameter, "opts", ()):
                helps[" ".join(path)] = getattr(parameter, "help", "")
    return helps


def test_every_impl_option_names_every_engine_form_from_one_declaration() -> None:
    helps = impl_helps()
    assert ({"check", "fuzz", "play", "z3 conform"}, {IMPL_HELP}) == (set(helps) - {"serve"},
                                                                      {helps[c] for c in helps if c != "serve"})
    text = runner.invoke(app, ["check", "--help"], env={"COLUMNS": "300"}).stdout
    assert [] == [form.written for form in IMPL_FORMS if form.written not in text]


# ---------------------------------------------------------------------------------------------- did you mean


@pytest.mark.parametrize("args, error", [
    (["--suite", "scenario"], "--suite 'scenario': no such suite; did you mean 'scenarios'?"),
    (["--suite", "setup,randomplay"], "--suite 'randomplay': no such suite; did you mean 'random-play'?"),
    (["--suite", "xyz"], "--suite 'xyz': no such suite; known suites are setup, random-play, roundtrip, scenarios, "
                         "z3, invariants"),
    (["--rule", "PAY3"], "--rule 'PAY3': no such rule id in the rules catalogue; did you mean 'PAY-3'?"),
    (["--rule", "hunt-4"], "--rule 'hunt-4': no such rule id in the rules catalogue; did you mean 'HUNT-4'?"),
    (["--set-aside", "PAY3"], "--set-aside 'PAY3': no such rule id in the rules catalogue; did you mean 'PAY-3'?"),
    (["--card", "Salamandr"], "--card 'Salamandr': no card has that name or id; did you mean 'Salamander' or "
                              "'Horned Salamander'?"),
    (["--variant", "RUL1=per_stone"], "--variant: unknown variant 'RUL1' (the rules catalogue has variants for "
                                      "ART-11, EFF-8, END-1, RUL-1); did you mean 'RUL-1'?"),
    (["--variant", "RUL-1=per_ston"], "--variant: variant RUL-1 has no value 'per_ston' (its values: per_summon, "
                                      "per_stone); did you mean 'per_stone' or 'per_summon'?"),
])
def test_a_mistyped_choice_is_bad_input_naming_the_nearest(args: list[str], error: str) -> None:
    result = runner.invoke(app, ["check", *args])
    assert (2, f"error: {error}\n") == (result.exit_code, result.stderr)


def test_nothing_near_is_suggested_when_nothing_is_near() -> None:
    result = runner.invoke(app, ["check", "--card", "Nobody"])
    assert (2, "error: --card 'Nobody': no card has that name or id\n") == (result.exit_code, result.stderr)


@pytest.fixture
def toy_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A package ``toy_vale`` with a module ``engine`` whose factory is ``create``, importable from ``tmp_path``
    (and forgotten after the test)."""
    package = tmp_path / "toy_vale"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "engine.py").write_text("def create() -> None:\n    pass\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    for name in [n for n in sys.modules if n == "toy_vale" or n.startswith("toy_vale.")]:
        del sys.modules[name]


@pytest.mark.parametrize("impl, error", [
    ("toy_vale.engin", "--impl 'toy_vale.engin': cannot import module 'toy_vale.engin' (is it installed or on "
                       "PYTHONPATH?); did you mean 'toy_vale.engine'?"),
    ("toy_vale.engin:make", "--impl 'toy_vale.engin:make': cannot import module 'toy_vale.engin' (is it installed "
                            "or on PYTHONPATH?); did you mean 'toy_vale.engine:make'?"),
    ("toy_vael.engine", "--impl 'toy_vael.engine': cannot import module 'toy_vael' (is it installed or on "
                        "PYTHONPATH?); did you mean 'toy_vale.engine'?"),
    ("toy_vale.engine:creat", "--impl 'toy_vale.engine:creat': module toy_vale.engine has no factory 'creat'; "
                              "did you mean 'toy_vale.engine:create'?"),
    ("toy_vale.engine.create", "--impl 'toy_vale.engine.create': cannot import module 'toy_vale.engine.create' (is "
                               "it installed or on PYTHONPATH?); did you mean 'toy_vale.engine:create'?"),
    ("oracle.referenc", "--impl 'oracle.referenc': cannot import module 'oracle.referenc' (is it installed or on "
                        "PYTHONPATH?); did you mean 'oracle.reference'?"),
])
def test_a_mistyped_impl_names_the_modules_and_factories_near_it(toy_engine: None, impl: str, error: str) -> None:
    with pytest.raises(ImplError) as raised:
        import_factory(impl)
    assert error == str(raised.value)


def test_a_module_missing_inside_the_engine_is_not_matched_against_the_engine_s_name(tmp_path: Path,
                                                                                      toy_engine: None) -> None:
    (tmp_path / "toy_vale" / "needs.py").write_text("import toy_vale.engin\n", encoding="utf-8")
    with pytest.raises(ImplError) as raised:
        import_factory("toy_vale.needs")
    assert ("--impl 'toy_vale.needs': cannot import module 'toy_vale.engin' (is it installed or on PYTHONPATH?)"
            == str(raised.value))


def _request(*select: str) -> CheckRequest:
    return CheckRequest(impl="oracle.reference", asked=("scenarios",), options=CheckOptions(select=select),
                        card_names=(), jobs=1, time_budget=None, max_failures=None, fail_on_unsupported=False,
                        allow_empty=False, expectations=None, reports=ReportTargets(), validate_protocol=False)


PLAN = Plan({
    "scenarios": (Unit("scenarios", "one", (PlannedCheck("PAY-3-red-and-blue-for-cost-1", "pays"),
                                            PlannedCheck("CARD-Salamander-red-stones", "gains"),
                                            PlannedCheck("CARD-Horned-Salamander-red", "gains")), None),),
    "setup": (Unit("setup", "two", (PlannedCheck("setup/2p/seed-1", "deals"),), None),),
})
"""Two suites' checks: --select globs are matched against the chosen suites' only (here the scenarios)."""


@pytest.mark.parametrize("select, error", [
    ("PAY3*", "--select 'PAY3*': no check id matches it; did you mean 'PAY-3*'?"),
    ("CARD-Salamandr*", "--select 'CARD-Salamandr*': no check id matches it; did you mean 'CARD-Salamander*', "
                        "'CARD-Salamander-red*' or 'CARD-Horned-Salamander*'?"),
    ("pay-3-red-and-blue-for-cost1", "--select 'pay-3-red-and-blue-for-cost1': no check id matches it; did you mean "
                                     "'PAY-3-red-and-blue-for-cost-1'?"),
    ("setup/*", "--select 'setup/*': no check id matches it"),
])
def test_a_select_glob_matching_no_check_of_the_chosen_suites_names_the_globs_near_it(
        capsys: pytest.CaptureFixture[str], select: str, error: str) -> None:
    with pytest.raises(typer.Exit) as stopped:
        _request("PAY-*", select).refuse_unmatched_selects(PLAN)
    assert (2, f"error: {error}\n") == (stopped.value.exit_code, capsys.readouterr().err)


def test_select_globs_that_each_match_a_check_pass(capsys: pytest.CaptureFixture[str]) -> None:
    _request("PAY-*", "CARD-*-red*").refuse_unmatched_selects(PLAN)
    assert "" == capsys.readouterr().err


# ---------------------------------------------------------------------------------------------- lint


def test_scenarios_lint_accepts_a_single_file() -> None:
    result = runner.invoke(app, ["scenarios", "lint", str(PAY3_FILE)])
    assert (0, f"1 scenario(s) valid in {display_path(PAY3_FILE)}\n") == (result.exit_code, result.stdout)


def test_scenarios_lint_of_a_broken_file_names_its_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('id = "broken"\ntitle = \n', encoding="utf-8")
    result = runner.invoke(app, ["scenarios", "lint", str(broken), str(PAY3_FILE)])
    assert (2, [f"{broken}:2: not valid TOML: Invalid value"], "1 error(s) in 2 file(s)\n") == \
        (result.exit_code, [line.split(" (at")[0] for line in result.stdout.splitlines()], result.stderr)


def test_scenarios_lint_of_a_missing_path_is_bad_input(tmp_path: Path) -> None:
    result = runner.invoke(app, ["scenarios", "lint", str(tmp_path / "nope.toml")])
    assert (2, f"error: {tmp_path / 'nope.toml'}: no such scenario file or directory\n") == \
        (result.exit_code, result.stderr)


# ---------------------------------------------------------------------------------------------- fuzz options


def test_fuzz_check_and_game_modes_replace_mode_and_modes() -> None:
    result = runner.invoke(app, ["fuzz", "--games", "1", "--check", "invariants", "--game-modes", "base"])
    assert (0, "", True) == (result.exit_code, result.stderr, "mode invariants" in result.stdout)


def test_fuzz_old_spellings_still_work_with_a_deprecation_note() -> None:
    result = runner.invoke(app, ["fuzz", "--games", "1", "--mode", "invariants", "--modes", "base"])
    assert (0, ["note: --mode is deprecated, use --check", "note: --modes is deprecated, use --game-modes"]) == \
        (result.exit_code, [line.split(" (")[0] for line in result.stderr.splitlines()])


def test_fuzz_shrink_time_still_works_as_a_count_with_a_deprecation_note() -> None:
    result = runner.invoke(app, ["fuzz", "--games", "1", "--check", "invariants", "--game-modes", "base",
                                 "--shrink-time", "0", "--report-json", "-"])
    assert (0, True) == (result.exit_code,
                         result.stderr.startswith("note: --shrink-time is deprecated, use --shrink-examples N"))
    assert '"shrink_examples": 0' in result.stdout
    both = runner.invoke(app, ["fuzz", "--games", "1", "--shrink-time", "3", "--shrink-examples", "9"])
    assert (2, "error: --shrink-time is the old form of --shrink-examples: give only --shrink-examples\n") == \
        (both.exit_code, both.stderr)


def test_fuzz_old_and_new_spelling_together_is_bad_input() -> None:
    result = runner.invoke(app, ["fuzz", "--games", "1", "--mode", "invariants", "--check", "both"])
    assert (2, "error: --mode is the old spelling of --check: give only --check\n") == \
        (result.exit_code, result.stderr)


# ---------------------------------------------------------------------------------------------- --jobs


def test_jobs_default_is_the_number_of_cores() -> None:
    assert (os.cpu_count() or 1) == default_jobs()


def _check_report(tmp_path: Path, jobs: str) -> list[tuple[str, str, str]]:
    report = tmp_path / f"jobs-{jobs}.json"
    # Every suite but z3 (whose rows are the slowest units and add nothing the others do not: units of unequal
    # length finishing out of order), with one random game per player count: still over 400 units.
    # --budget-scale 1: the two runs compare outcomes, so neither measures its own budget scale.
    subprocess.run([sys.executable, "-P", "-m", "oracle.cli.app", "check", "--jobs", jobs, "--report-json", str(report),
                    "--suite", "setup,random-play,roundtrip,scenarios,invariants", "--games", "1",
                    "--budget-scale", "1"],
                   check=True, capture_output=True)
    results = json.loads(report.read_text(encoding="utf-8"))["results"]
    return [(r["suite"], r["id"], r["outcome"]) for r in results]


def test_jobs_2_reports_the_same_ids_outcomes_and_order_as_jobs_1(tmp_path: Path) -> None:
    serial = _check_report(tmp_path, "1")
    assert serial == _check_report(tmp_path, "2")
    assert len(serial) > 400
