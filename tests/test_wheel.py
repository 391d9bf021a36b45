"""The install ships its suite, and its reports are portable: a wheel installed in a fresh virtual environment, run
from another folder, runs the same checks as this editable checkout and writes the same reports, byte for byte
once times are removed; so does the checkout from two folders; no report or message carries an absolute path of
the machine; and the wheel installs no top-level ``fixtures`` or ``invariants`` module.

The environment is built from the real base interpreter (``sys._base_executable``, also when this one is a venv),
the wheel is installed into it alone by this interpreter's pip (``pip --python``, offline), and only then does a
``.pth`` file make this environment's site-packages (typer, hypothesis, z3-solver, jsonschema) importable there:
a ``.pth`` line adds the directory without running the ``.pth`` files in it, so the editable install of this
checkout stays out, and the wheel's own packages come first.
"""

from __future__ import annotations

import email.parser
import json
import os
import re
import site
import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest
import trove_classifiers

from oracle.scenarios.bundled import PREAMBLES_FILE

ROOT = Path(__file__).resolve().parent.parent
TIMES = (
    (re.compile(r'("(?:date|duration|seconds)": )(?:"[^"]*"|[0-9.e-]+)'), r"\g<1>0"),  # JSON
    (re.compile(r'( (?:time|timestamp)=)"[^"]*"'), r'\g<1>"0"'),  # JUnit
    (re.compile(r" in [0-9.]+ s \(\d{4}-\d\d-\d\dT[0-9:]+Z"), " in 0 s (date"),  # Markdown
    (re.compile(r',?\s*"engine_costs": \{.*?"advice": \[[^\]]*\]\s*\}', re.S), ""),  # JSON: the measured costs
    (re.compile(r'\s*<property name="(?:engine_cost|speed_advice)\.[^"]*" value="[^"]*"\s*/>'), ""),  # JUnit
    (re.compile(r"### Engine speed\n.*?(?=\n#|\Z)", re.S), ""),  # Markdown
)
SMALL_RUNS = {
    "caught": ("--impl", "vale_fixtures.superfluous_payment", "--suite", "scenarios", "--rule", "PAY-3"),
    "crashes": ("--impl", "vale_fixtures.crashes", "--suite", "setup"),
}
"""Runs whose reports hold failures, embedded scenario sources and where an engine raised."""


def _run(command: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def _without_times(text: str) -> str:
    for pattern, replacement in TIMES:
        text = pattern.sub(replacement, text)
    return text


def _this_environment() -> list[str]:
    """The site-packages directories this interpreter imports its dependencies from."""
    found = [sysconfig.get_path("purelib"), sysconfig.get_path("platlib"), *site.getsitepackages()]
    if site.ENABLE_USER_SITE:
        found.append(site.getusersitepackages())
    return [path for path in dict.fromkeys(found) if Path(path).is_dir()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out),
                  str(ROOT)], cwd=out)
    assert 0 == built.returncode, built.stdout + built.stderr
    (path,) = out.glob("vale_oracle-*.whl")
    return path


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel, and this environment's dependencies on its path."""
    environment = tmp_path_factory.mktemp("env") / "venv"
    venv.EnvBuilder(system_site_packages=False, with_pip=False).create(environment)
    python = environment / "bin" / "python"
    done = _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q",
                 str(wheel)], cwd=environment)
    assert 0 == done.returncode, done.stdout + done.stderr
    purelib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], cwd=environment)
    (Path(purelib.stdout.strip()) / "vale-test-dependencies.pth").write_text(
        "".join(f"{path}\n" for path in _this_environment()), encoding="utf-8")
    return environment


def test_the_wheel_carries_the_scenarios_and_only_namespaced_packages(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
    assert {"oracle", "vale_fixtures", "vale_invariants"} == top
    bundled = {n.removeprefix("oracle/_suite/") for n in names if n.startswith("oracle/_suite/")}
    in_repo = {str(p.relative_to(ROOT / "scenarios")) for p in (ROOT / "scenarios").rglob("*")
               if p.suffix == ".toml" or p.name == PREAMBLES_FILE}
    assert in_repo == bundled
    reports = ROOT / "oracle" / "reports"
    shipped = {f"oracle/reports/{p.relative_to(reports)}" for site in ("rulebook", "html")
               for folder in ("templates", "assets") for p in (reports / site / folder).iterdir()}
    assert {"oracle/reports/html/templates/base.html", "oracle/reports/rulebook/templates/base.html"} <= shipped
    assert shipped <= set(names)
    kit = ROOT / "oracle" / "kits" / "node"
    assert {f"oracle/kits/node/{p.name}" for p in kit.iterdir()} == {n for n in names if n.startswith("oracle/kits/")}
    assert {"oracle/schemas/cards.schema.json", "oracle/schemas/rules.schema.json"} <= set(names)


HOME = "https://github.com/vale-oracle/vale-oracle"


def test_the_wheel_says_its_licence_its_places_and_what_it_is(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    [metadata_name] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
    metadata = email.parser.HeaderParser().parsestr(archive.read(metadata_name).decode("utf-8"))
    licence = archive.read(metadata_name.replace("METADATA", "licenses/LICENSE")).decode("utf-8")
    assert (["MIT"], ["LICENSE"]) == (metadata.get_all("License-Expression"), metadata.get_all("License-File"))
    assert (True, True) == (licence.startswith("MIT License\n"),
                            "Copyright (c) 2026 The Vale Oracle authors" in licence)
    assert [f"Homepage, {HOME}", f"Documentation, {HOME}/tree/main/docs", f"Issues, {HOME}/issues",
            f"Changelog, {HOME}/blob/main/CHANGELOG.md"] == metadata.get_all("Project-URL")
    classifiers = metadata.get_all("Classifier") or []
    assert ([], True) == ([c for c in classifiers if c not in trove_classifiers.classifiers],
                          {"Framework :: Pytest", "Topic :: Software Development :: Testing"} <= set(classifiers))
    assert {"vale of eternity", "test oracle"} <= set(metadata["Keywords"].split(","))


def test_the_readme_runs_the_oracle_without_installing_it_by_its_distribution_and_command_names() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    [command] = project["scripts"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    runs = [f"pipx run --spec {project['name']} {command} check ", f"uvx --from {project['name']} {command} check "]
    assert [] == [run for run in runs if run not in readme]


def _check(command: list[str], cwd: Path, out: Path, args: tuple[str, ...]) -> tuple[int, str, dict[str, str]]:
    """``oracle check ARGS`` with every report written to ``out``: its exit code, console and reports' text; with
    ``--budget-scale 1``, since the runs' outcomes and reports are compared (a measured scale is the machine's)."""
    out.mkdir(parents=True, exist_ok=True)
    files = {"json": out / "r.json", "junit": out / "j.xml", "markdown": out / "m.md"}
    done = _run([*command, "check", *args, "--budget-scale", "1", "--report-json", str(files["json"]),
                 "--junit-xml", str(files["junit"]),
                 "--markdown", str(files["markdown"])], cwd=cwd)
    console = "".join(line for line in (done.stdout + done.stderr).splitlines(keepends=True)
                      if not line.startswith("wrote "))
    return done.returncode, console, {kind: path.read_text(encoding="utf-8") for kind, path in files.items()}


def test_an_installed_wheel_runs_the_same_checks_from_another_folder_and_every_report_is_portable(
        installed: Path, tmp_path: Path) -> None:
    python = installed / "bin" / "python"
    where = _run([str(python), "-c", "import json, oracle, sys, vale_fixtures, vale_invariants; "
                  "print(oracle.__file__, vale_fixtures.__file__, vale_invariants.__file__); "
                  "print(json.dumps(sys.path))"],
                 cwd=tmp_path)
    files, search_path = where.stdout.splitlines()
    assert all(Path(f).is_relative_to(installed) for f in files.split()), where.stdout + where.stderr
    assert [] == [entry for entry in json.loads(search_path) if entry and Path(entry).is_relative_to(ROOT)], \
        "the checkout must not be on the wheel's sys.path"
    elsewhere, other = tmp_path / "elsewhere", tmp_path / "other"
    elsewhere.mkdir()
    other.mkdir()
    wheel_oracle, editable = [str(installed / "bin" / "oracle")], [sys.executable, "-P", "-m", "oracle.cli.app"]
    machine = [place for place in (str(ROOT), str(installed), str(tmp_path), sys.prefix, sys.base_prefix,
                                   str(Path.home())) if len(Path(place).parts) > 1]

    places = {"wheel": (wheel_oracle, elsewhere), "checkout": (editable, ROOT)}
    full = {label: _check(command, cwd, tmp_path / label / "full", ()) for label, (command, cwd) in places.items()}
    assert {0} == {code for code, _, _ in full.values()}, {k: v[1] for k, v in full.items()}
    data = {label: json.loads(reports["json"]) for label, (_, _, reports) in full.items()}
    assert sorted(r["id"] for r in data["wheel"]["results"]) == sorted(r["id"] for r in data["checkout"]["results"])
    assert data["wheel"]["totals"]["checks"] > 400
    files_named = {r["details"]["file"] for r in data["wheel"]["results"] if "file" in r["details"]}
    assert files_named and all(f.startswith("scenarios/") and (ROOT / f).is_file() for f in files_named)

    places["checkout elsewhere"] = (editable, other)
    small = {(label, run): _check(command, cwd, tmp_path / label / run, args)
             for label, (command, cwd) in places.items() for run, args in SMALL_RUNS.items()
             if run == "caught" or label != "checkout"}
    assert {1} == {code for code, _, _ in small.values()}
    assert "(at vale_fixtures/crashes.py:" in small[("wheel", "crashes")][1]
    assert json.loads(small[("wheel", "caught")][2]["json"])["sources"], "failing scenarios embed their source"
    for (label, run), (_, _, reports) in small.items():
        assert small[("wheel", run)][2].keys() == reports.keys()
        for kind, text in reports.items():
            assert _without_times(small[("wheel", run)][2][kind]) == _without_times(text), (label, run, kind)
    for kind in ("json", "junit", "markdown"):
        assert _without_times(full["wheel"][2][kind]) == _without_times(full["checkout"][2][kind]), kind
    everything = [text for _, console, reports in [*full.values(), *small.values()]
                  for text in (console, *reports.values())]
    leaks = {place for place in machine for text in everything if place in text}
    assert set() == leaks
