"""The GitHub Action (action.yml) and the copy-paste workflows of docs/ci.md: valid, documented, and working."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

REPOSITORY = Path(__file__).resolve().parent.parent
ACTION = REPOSITORY / "action.yml"
GITHUB_WORKFLOW = REPOSITORY / "docs" / "ci" / "github-workflow.yml"
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


def check_schema(schema: str, path: Path) -> subprocess.CompletedProcess[str]:
    return run(tool("check-jsonschema"), "--builtin-schema", schema, str(path))


def lint_with_the_local_action(tmp_path: Path, workflow: str) -> subprocess.CompletedProcess[str]:
    """actionlint on ``workflow`` in a repository whose root holds this action.yml, used as ``./``."""
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    shutil.copy(ACTION, tmp_path / "action.yml")
    (tmp_path / ".github" / "workflows" / "vale-oracle.yml").write_text(
        workflow.replace(PUBLISHED_ACTION, "./"), encoding="utf-8")
    run("git", "init", "-q", ".", cwd=tmp_path)
    return run(tool("actionlint"), "-no-color", cwd=tmp_path)


# --- the documentation carries the workflows verbatim ---------------------------------------------------------

@pytest.mark.parametrize("workflow", [GITHUB_WORKFLOW, GITLAB_CI, GITHUB_SHARDS, GITLAB_SHARDS],
                         ids=["github", "gitlab", "github-shards", "gitlab-shards"])
def test_docs_ci_md_contains_the_workflow_verbatim(workflow: Path) -> None:
    text = workflow.read_text(encoding="utf-8")
    assert f"```yaml\n{text}```\n" in DOC.read_text(encoding="utf-8")


def test_docs_ci_md_lists_every_input_of_the_action() -> None:
    documented = DOC.read_text(encoding="utf-8")
    missing = [name for name in load_yaml(ACTION)["inputs"] if f"| `{name}` |" not in documented]
    assert [] == missing


# --- schemas (check-jsonschema's vendored schemas, offline) -----------------------------------------------------

@pytest.mark.parametrize(("schema", "path"), [
    ("vendor.github-actions", ACTION),
    ("vendor.github-workflows", GITHUB_WORKFLOW),
    ("vendor.gitlab-ci", GITLAB_CI),
    ("vendor.github-workflows", GITHUB_SHARDS),
    ("vendor.gitlab-ci", GITLAB_SHARDS),
], ids=["action", "github-workflow", "gitlab-ci", "github-shards", "gitlab-shards"])
def test_file_is_valid_against_its_schema(schema: str, path: Path) -> None:
    checked = check_schema(schema, path)
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

@pytest.mark.parametrize("workflow", [GITHUB_WORKFLOW, GITHUB_SHARDS], ids=["github", "github-shards"])
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
    assert "actions/upload-artifact@v6" == by_name["Upload the reports"]["uses"]


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
    oracle.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m oracle.cli.app "$@"\n', encoding="utf-8")
    oracle.chmod(oracle.stat().st_mode | stat.S_IXUSR)
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
