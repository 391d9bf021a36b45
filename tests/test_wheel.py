"""The install ships its suite: a wheel installed in a fresh virtual environment, run from another folder, runs
the same checks as this editable checkout, and installs no top-level ``fixtures`` or ``invariants`` module."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(command: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
                  str(ROOT)], cwd=out)
    assert 0 == built.returncode, built.stdout + built.stderr
    (path,) = out.glob("vale_oracle-*.whl")
    return path


def test_the_wheel_carries_the_scenarios_and_only_namespaced_packages(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
    assert {"oracle", "vale_fixtures", "vale_invariants"} == top
    bundled = {n.removeprefix("oracle/_suite/") for n in names if n.startswith("oracle/_suite/")}
    in_repo = {str(p.relative_to(ROOT / "scenarios")) for p in (ROOT / "scenarios").rglob("*.toml")}
    assert in_repo == bundled
    rulebook = ROOT / "oracle" / "reports" / "rulebook"
    shipped = {f"oracle/reports/rulebook/{p.relative_to(rulebook)}" for folder in ("templates", "assets")
               for p in (rulebook / folder).iterdir()}
    assert shipped <= set(names)


def test_an_installed_wheel_runs_the_same_checks_from_another_folder(wheel: Path, tmp_path: Path) -> None:
    environment = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(environment)
    python = environment / "bin" / "python"
    installed = _run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], cwd=tmp_path)
    assert 0 == installed.returncode, installed.stdout + installed.stderr
    where = _run([str(python), "-c", "import oracle, vale_fixtures; print(oracle.__file__, vale_fixtures.__file__)"],
                 cwd=tmp_path)
    assert str(environment) in where.stdout and str(ROOT) not in where.stdout, where.stdout + where.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    counts = {}
    for label, oracle_command, cwd in (("wheel", [str(environment / "bin" / "oracle")], elsewhere),
                                       ("editable", [sys.executable, "-m", "oracle.cli"], ROOT)):
        report = tmp_path / f"{label}.json"
        done = _run([*oracle_command, "check", "--report-json", str(report)], cwd=cwd)
        assert 0 == done.returncode, f"{label}: {done.stdout}{done.stderr}"
        data = json.loads(report.read_text(encoding="utf-8"))
        counts[label] = (data["totals"]["checks"], sorted(r["id"] for r in data["results"]))
    assert counts["editable"] == counts["wheel"]
    assert counts["wheel"][0] > 400
    fixture = _run([str(environment / "bin" / "oracle"), "check", "--impl", "vale_fixtures.kappa_own_summon",
                    "--suite", "scenarios", "--rule", "EFF-3"], cwd=elsewhere)
    assert 1 == fixture.returncode, fixture.stdout + fixture.stderr
