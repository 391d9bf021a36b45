"""The GitHub Action (action.yml) and the copy-paste workflows of docs/ci.md: valid, documented, and working; the
action's cache, its ``args`` (one per line, or one line split with quotes honoured) and a first run without the
expectations file."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.results import CheckResult, Outcome
from oracle.reports import RunInfo
from oracle.reports.json_report import write_json

REPOSITORY = Path(__file__).resolve().parent.parent
ACTION = REPOSITORY / "action.yml"
GITHUB_WORKFLOW = REPOSITORY / "docs" / "ci" / "github-workflow.yml"
GITHUB_SITE = REPOSITORY / "docs" / "ci" / "github-site-and-badge.yml"
GITLAB_CI = REPOSITORY / "docs" / "ci" / "gitlab-ci.yml"
GITHUB_SHARDS = REPOSITORY / "docs" / "ci" / "github-shards.yml"
GITLAB_SHARDS = REPOSITORY / "docs" / "ci" / "gitlab-shards.yml"
DOC = REPOSITORY / "docs" / "ci.md"
PUBLISHED_ACTION = "vale-oracle/vale-oracle@v0.1.0"
FIXTURE_PATH = [REPOSITORY, REPOSITORY / "fixtures", REPOSITORY / "invariants"]


def tool(name: str) -> str:
    """The command installed by a dev dependency, beside this Python first, else on the PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.exists() else shutil.which(name)
    assert found is not None, f"{name} is not installed (python3 -m pip install -e '.[dev]')"
    return found


def run(*command: str, cwd: Path = REPOSITORY, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300, check=False, env=env)


def load_yaml(path: Path) -> Any:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def check_schema(schema: str, *paths: Path) -> subprocess.CompletedProcess[str]:
    return run(tool("check-jsonschema"), "--builtin-schema", schema, *(str(path) for path in paths))


def lint_with_the_local_action(tmp_path: Path, workflow: str) -> subprocess.CompletedProcess[str]:
    """actionlint on ``workflow`` in a repository whose root holds this action.yml, used as ``./``."""
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    shutil.copy(ACTION, tmp_path / "action.yml")
    (tmp_path / ".github" / "workflows" / "vale-oracle.yml").write_text(
        workflow.replace(PUBLISHED_ACTION, "./"), encoding="utf-8")
    run("git", "init", "-q", ".", cwd=tmp_path)
    return run(tool("actionlint"), "-no-color", cwd=tmp_path)


# --- the documentation carries the workflows verbatim ---------------------------------------------------------

@pytest.mark.parametrize("workflow", [GITHUB_WORKFLOW, GITHUB_SITE, GITLAB_CI, GITHUB_SHARDS, GITLAB_SHARDS],
                         ids=["github", "site", "gitlab", "github-shards", "gitlab-shards"])
def test_docs_ci_md_contains_the_workflow_verbatim(workflow: Path) -> None:
    text = workflow.read_text(encoding="utf-8")
    assert f"```yaml\n{text}```\n" in DOC.read_text(encoding="utf-8")


def test_docs_ci_md_lists_every_input_of_the_action() -> None:
    documented = DOC.read_text(encoding="utf-8")
    missing = [name for name in load_yaml(ACTION)["inputs"] if f"| `{name}` |" not in documented]
    assert [] == missing


# --- schemas (check-jsonschema's vendored schemas, offline) -----------------------------------------------------

@pytest.mark.parametrize(("schema", "paths"), [
    ("vendor.github-actions", [ACTION]),
    ("vendor.github-workflows", [GITHUB_WORKFLOW, GITHUB_SITE, GITHUB_SHARDS]),
    ("vendor.gitlab-ci", [GITLAB_CI, GITLAB_SHARDS]),
], ids=["action", "github-workflows", "gitlab-ci"])
def test_file_is_valid_against_its_schema(schema: str, paths: list[Path]) -> None:
    checked = check_schema(schema, *paths)
    assert 0 == checked.returncode, checked.stdout + checked.stderr


def test_the_schema_check_rejects_an_action_without_runs(tmp_path: Path) -> None:
    broken = tmp_path / "action.yml"
    text = ACTION.read_text(encoding="utf-8")
    broken.write_text(text[: text.index("\nruns:")] + "\n", encoding="utf-8")
    assert 1 == check_schema("vendor.github-actions", broken).returncode


def test_the_schema_check_rejects_a_junit_report_given_as_a_list(tmp_path: Path) -> None:
    broken = tmp_path / "gitlab-ci.yml"
    broken.write_text(GITLAB_CI.read_text(encoding="utf-8").replace(
        "junit: vale-oracle-reports/junit.xml", "junit: {path: vale-oracle-reports/junit.xml}"), encoding="utf-8")
    assert 1 == check_schema("vendor.gitlab-ci", broken).returncode


# --- actionlint on the GitHub workflow, with the action's inputs checked ----------------------------------------

@pytest.mark.parametrize("workflow", [GITHUB_WORKFLOW, GITHUB_SITE, GITHUB_SHARDS],
                         ids=["github", "site", "github-shards"])
def test_actionlint_passes_the_github_workflow_using_this_action(tmp_path: Path, workflow: Path) -> None:
    linted = lint_with_the_local_action(tmp_path, workflow.read_text(encoding="utf-8"))
    assert 0 == linted.returncode, linted.stdout + linted.stderr


def test_actionlint_catches_an_input_the_action_does_not_have(tmp_path: Path) -> None:
    workflow = GITHUB_WORKFLOW.read_text(encoding="utf-8").replace("impl:", "implementation:")
    linted = lint_with_the_local_action(tmp_path, workflow)
    assert 1 == linted.returncode
    assert 'input "implementation" is not defined in action "Vale Oracle check"' in linted.stdout


# --- the action's steps -----------------------------------------------------------------------------------------

def steps() -> dict[str, Any]:
    return {step["name"]: step for step in load_yaml(ACTION)["runs"]["steps"]}


def test_the_summary_and_the_upload_run_even_when_the_check_fails() -> None:
    by_name = steps()
    assert by_name["Add the summary to the job summary"]["if"].startswith("always()")
    assert by_name["Upload the reports"]["if"].startswith("always()")
    assert "actions/upload-artifact@b7c566a772e6b6bfb58ed0dc250532a479d7789f" == by_name["Upload the reports"]["uses"]


def run_step(name: str, env: dict[str, str], workdir: Path) -> subprocess.CompletedProcess[str]:
    """One ``run:`` step of the action, as the runner runs it (``bash --noprofile --norc -eo pipefail``)."""
    script = workdir / f"{name}.sh"
    script.write_text(steps()[name]["run"], encoding="utf-8")
    return run("bash", "--noprofile", "--norc", "-eo", "pipefail", str(script), cwd=workdir, env=env)


def runner_env(tmp_path: Path, **inputs: str) -> dict[str, str]:
    """The environment of a step: an ``oracle`` command running this worktree, the runner's files, the inputs."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    oracle = bin_dir / "oracle"
    oracle.write_text(f'#!/bin/sh\nexec "{sys.executable}" -P -m oracle.cli.app "$@"\n', encoding="utf-8")
    oracle.chmod(oracle.stat().st_mode | stat.S_IXUSR)
    python = bin_dir / "python"
    if not python.exists():
        python.symlink_to(sys.executable)
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": os.pathsep.join(str(p) for p in FIXTURE_PATH),
        "GITHUB_OUTPUT": str(tmp_path / "github_output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "step_summary.md"),
        "VALE_REPORTS": str(tmp_path / "reports"),
        **inputs,
    }


def outputs(env: dict[str, str]) -> dict[str, str]:
    lines = Path(env["GITHUB_OUTPUT"]).read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines)


def test_every_run_script_of_the_action_is_valid_bash(tmp_path: Path) -> None:
    scripts = {name: step["run"] for name, step in steps().items() if "run" in step}
    assert scripts, "the action has no run step"
    for name, text in scripts.items():
        script = tmp_path / "step.sh"
        script.write_text(text, encoding="utf-8")
        checked = run("bash", "-n", str(script))
        assert 0 == checked.returncode, f"{name}: {checked.stderr}"


def test_the_check_step_writes_the_three_reports_and_the_summary_step_appends_the_markdown(tmp_path: Path) -> None:
    located = run_step("Locate the reports", runner_env(tmp_path, VALE_REPORT_DIR="reports"), tmp_path)
    assert 0 == located.returncode, located.stderr
    assert {"report-dir": str(tmp_path.resolve() / "reports")} == outputs(runner_env(tmp_path))
    (tmp_path / "github_output").unlink()
    env = runner_env(tmp_path, VALE_IMPL="oracle.reference", VALE_SUITES="scenarios", VALE_EXPECTATIONS="",
                     VALE_ARGS="--select PAY-*")
    Path(env["GITHUB_STEP_SUMMARY"]).write_text("## an earlier step\n", encoding="utf-8")

    checked = run_step("Run oracle check", env, tmp_path)
    assert 0 == checked.returncode, checked.stdout + checked.stderr
    assert {"exit-code": "0"} == outputs(env)
    report = json.loads((tmp_path / "reports" / "report.json").read_text(encoding="utf-8"))
    assert (["scenarios"], True) == (report["run"]["suites"], report["totals"]["passed"])
    assert all(r["id"].startswith("PAY-") for r in report["results"])
    assert (tmp_path / "reports" / "junit.xml").is_file()

    summarized = run_step("Add the summary to the job summary", env, tmp_path)
    assert 0 == summarized.returncode, summarized.stderr
    markdown = (tmp_path / "reports" / "summary.md").read_text(encoding="utf-8")
    assert "## an earlier step\n" + markdown == Path(env["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8")


def test_the_check_step_fails_with_the_exit_code_of_a_failing_check_and_keeps_its_reports(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    env = runner_env(tmp_path, VALE_IMPL="vale_fixtures.superfluous_payment", VALE_SUITES="scenarios",
                     VALE_EXPECTATIONS="", VALE_ARGS="--select PAY-3-*")
    checked = run_step("Run oracle check", env, tmp_path)
    assert 1 == checked.returncode
    assert {"exit-code": "1"} == outputs(env)
    report = json.loads((tmp_path / "reports" / "report.json").read_text(encoding="utf-8"))
    assert 1 == report["totals"]["exit_code"]


def test_the_check_step_passes_the_expectations_file(tmp_path: Path) -> None:
    (tmp_path / "reports").mkdir()
    known = tmp_path / "known-failures.toml"
    known.write_text('[[expected_failure]]\nid = "PAY-3-red-and-blue-for-cost-1"\nreason = "gives change"\n',
                     encoding="utf-8")
    env = runner_env(tmp_path, VALE_IMPL="vale_fixtures.superfluous_payment", VALE_SUITES="scenarios",
                     VALE_EXPECTATIONS=str(known), VALE_ARGS="--select PAY-3-red-and-blue-for-cost-1")
    checked = run_step("Run oracle check", env, tmp_path)
    assert 0 == checked.returncode, checked.stdout + checked.stderr
    report = json.loads((tmp_path / "reports" / "report.json").read_text(encoding="utf-8"))
    assert ["expected-failure"] == [r["outcome"] for r in report["results"]]


# --- the action's inputs, with a stand-in oracle recording what it is given ---------------------------------------

def stand_in_env(tmp_path: Path, **inputs: str) -> dict[str, str]:
    """The environment of the check step with an ``oracle`` that only records its arguments (NUL-separated)."""
    env = runner_env(tmp_path, **{"VALE_IMPL": "mypackage.vale_adapter", "VALE_SUITES": "", "VALE_EXPECTATIONS": "",
                                  "VALE_ARGS": "", **inputs})
    oracle = tmp_path / "bin" / "oracle"
    oracle.write_text(f"#!/bin/sh\nprintf '%s\\0' \"$@\" > '{tmp_path / 'argv'}'\n", encoding="utf-8")
    return env


def arguments_given(tmp_path: Path, **inputs: str) -> list[str]:
    """The arguments the check step gives ``oracle`` after its report options, for these inputs."""
    checked = run_step("Run oracle check", stand_in_env(tmp_path, **inputs), tmp_path)
    assert 0 == checked.returncode, checked.stdout + checked.stderr
    argv = (tmp_path / "argv").read_text(encoding="utf-8").split("\0")[:-1]
    return argv[argv.index("--markdown") + 2:]


def test_the_impl_input_says_an_engine_may_be_a_command() -> None:
    assert "cmd:COMMAND" in load_yaml(ACTION)["inputs"]["impl"]["description"]


@pytest.mark.parametrize(("args", "expected"), [
    ("--games 4 --seed 7", ["--games", "4", "--seed", "7"]),
    ("--select 'PAY-* and more' --card \"Horned Salamander\"", ["--select", "PAY-* and more", "--card",
                                                              "Horned Salamander"]),
    ("--games 4\n", ["--games", "4"]),
    ("--select\nPAY-* and more\n--card\n  Horned Salamander  \n\n", ["--select", "PAY-* and more", "--card",
                                                                  "Horned Salamander"]),
    ("--select\n'quoted' $HOME", ["--select", "'quoted' $HOME"]),
], ids=["one-line", "one-line-quoted", "one-line-block", "one-per-line", "lines-taken-as-they-are"])
def test_args_are_one_per_line_or_one_line_split_with_quotes_honoured(tmp_path: Path, args: str,
                                                                       expected: list[str]) -> None:
    assert expected == arguments_given(tmp_path, VALE_ARGS=args)


def test_args_with_an_unclosed_quote_stop_the_step_with_exit_2_and_one_line(tmp_path: Path) -> None:
    env = stand_in_env(tmp_path, VALE_ARGS="--select 'PAY-*")
    checked = run_step("Run oracle check", env, tmp_path)
    error = "::error title=Vale Oracle::args: No closing quotation: \"--select 'PAY-*\""
    assert (2, {"exit-code": "2"}, False, [error]) == \
        (checked.returncode, outputs(env), (tmp_path / "argv").exists(), checked.stderr.splitlines())


def test_a_missing_expectations_file_counts_as_none_with_a_notice_saying_how_to_write_it(tmp_path: Path) -> None:
    env = stand_in_env(tmp_path, VALE_EXPECTATIONS="known-failures.toml")
    checked = run_step("Run oracle check", env, tmp_path)
    argv = (tmp_path / "argv").read_text(encoding="utf-8").split("\0")
    assert (0, False) == (checked.returncode, "--expectations" in argv)
    assert (f"::notice title=Vale Oracle::known-failures.toml does not exist yet, so no failure is expected; write it "
            f"from this run's report: oracle expectations update {env['VALE_REPORTS']}/report.json --file "
            "known-failures.toml\n") == checked.stdout


def test_an_existing_expectations_file_is_passed(tmp_path: Path) -> None:
    (tmp_path / "known-failures.toml").write_text("", encoding="utf-8")
    assert ["--expectations", "known-failures.toml", "--games", "1"] == \
        arguments_given(tmp_path, VALE_EXPECTATIONS="known-failures.toml", VALE_ARGS="--games 1")


# --- the cache, the install, the annotations, the pins ---------------------------------------------------------------

def test_python_is_set_up_with_its_own_pip_cache_keyed_by_the_engine_s_manifests() -> None:
    step = steps()["Set up Python"]
    inputs = load_yaml(ACTION)["inputs"]
    assert ("${{ inputs.cache == 'true' && 'pip' || '' }}", "${{ inputs.cache-dependency-path }}") == (
        step["with"]["cache"], step["with"]["cache-dependency-path"])
    assert {"**/pyproject.toml", "**/requirements*.txt", "**/package.json", "**/*.csproj"} <= set(
        inputs["cache-dependency-path"]["default"].split())
    assert not any("actions/cache" in str(s.get("uses", "")) for s in steps().values())


def test_the_install_step_installs_the_oracle_then_the_engine(tmp_path: Path) -> None:
    log = tmp_path / "pip.log"
    env = runner_env(tmp_path, VALE_ORACLE_SOURCE=str(REPOSITORY), VALE_INSTALL="-e . --quiet")
    python = tmp_path / "bin" / "python"
    python.unlink()
    python.write_text(f"#!/bin/sh\necho \"$*\" >> '{log}'\n", encoding="utf-8")
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    installed = run_step("Install the oracle and the engine", env, tmp_path)
    assert 0 == installed.returncode, installed.stderr
    assert [f"-m pip install {REPOSITORY}", "-m pip install -e . --quiet"] == \
        log.read_text(encoding="utf-8").splitlines()


def test_the_annotate_step_writes_one_error_per_failing_cause_and_runs_even_when_the_check_fails(
        tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    reports.mkdir()
    failing = [CheckResult("scenarios", f"PAY-{n}", "t", Outcome.FAIL, rules=(f"PAY-{n}",), expected=f"e{n}",
                           actual=f"a{n}") for n in range(2)]
    write_json(reports / "report.json", failing, RunInfo(engine="e", engine_version="1", impl="e.mod",
                                                         started=datetime(2024, 5, 1, tzinfo=UTC)))
    step = steps()["Annotate the failing causes"]
    annotated = run_step("Annotate the failing causes", runner_env(tmp_path), tmp_path)
    errors = [line for line in annotated.stdout.splitlines() if line.startswith("::error title=PAY-")]
    assert (True, 0, 2) == (step["if"].startswith("always()"), annotated.returncode, len(errors))


PINNED = r"[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40} # v\d+(\.\d+)*"
"""An action pinned by its full commit SHA, its version in a comment beside it."""


@pytest.mark.parametrize("path", [ACTION, GITHUB_WORKFLOW, GITHUB_SITE, GITHUB_SHARDS],
                         ids=["action", "github", "site", "github-shards"])
def test_every_action_is_pinned_by_commit_with_its_version_beside_it(path: Path) -> None:
    uses = [line.split("uses:", 1)[1].strip() for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip().startswith(("uses:", "- uses:"))]
    assert uses
    assert [] == [u for u in uses if not re.fullmatch(PINNED, u) and not u.startswith(PUBLISHED_ACTION + " # ")]


def test_the_docs_say_what_to_put_in_place_of_the_oracle_s_own_action() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "`OWNER/REPO@<40 hex digits> # v0.1.0`" in text
    assert all(f"uses: {PUBLISHED_ACTION} # OWNER/REPO@COMMIT-SHA" in path.read_text(encoding="utf-8")
               for path in (GITHUB_WORKFLOW, GITHUB_SITE))


# --- the site and badge example -----------------------------------------------------------------------------------

def test_the_site_example_builds_the_html_report_and_the_badge_from_the_action_s_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reports = tmp_path / "reports"
    reports.mkdir()
    run_info = RunInfo(engine="e", engine_version="1", impl="mypackage.vale_adapter", suites=("scenarios",),
                       started=datetime(2026, 5, 1, 12, 0, 0, tzinfo=UTC), duration=1.0)
    write_json(reports / "report.json", [CheckResult("scenarios", "PAY-3-x", "pays", Outcome.PASS)], run_info)
    [build] = [step for step in load_yaml(GITHUB_SITE)["jobs"]["conformance"]["steps"]
               if step.get("name") == "Build the HTML report and the badge"]
    (tmp_path / "build.sh").write_text(build["run"], encoding="utf-8")
    env = runner_env(tmp_path, REPORTS=str(reports))
    (tmp_path / "bin" / "oracle").write_text(f"#!/bin/sh\nprintf '%s\\0' \"$@\" >> '{tmp_path / 'calls'}'\n"
                                             f"echo >> '{tmp_path / 'calls'}'\n", encoding="utf-8")
    built = run("bash", "--noprofile", "--norc", "-eo", "pipefail", "build.sh", cwd=tmp_path, env=env)
    assert 0 == built.returncode, built.stdout + built.stderr
    calls = [line.split("\0")[:-1] for line in (tmp_path / "calls").read_text(encoding="utf-8").splitlines()]
    assert 2 == len(calls)
    monkeypatch.chdir(tmp_path)  # the step runs each oracle command in the job's directory; here in this process
    for call in calls:
        ran = CliRunner().invoke(app, call)
        assert 0 == ran.exit_code, ran.output
    badge = json.loads((tmp_path / "vale-oracle-site" / "badge.json").read_text(encoding="utf-8"))
    site = tmp_path / "vale-oracle-site"
    assert (True, "1/1 pass") == ((site / "index.html").is_file(), badge["message"])
