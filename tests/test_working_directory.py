"""No code runs from the working directory by accident (issue 21, deliverable 1): a ``ctypes.py`` or ``json.py``
in the folder where ``oracle check`` runs is never imported by the oracle's processes, with the reference
in-process or a ``cmd:`` engine, while ``--impl myadapter`` from the adapter's own folder keeps working."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.core.exits import EXIT_OK

HOSTILE_MODULES = ("ctypes", "json")
MARKER = "imported-from-the-working-directory"
# The engine command itself runs with -P: its own process is the user's to start safely (docs/wire.md).
SERVE = f"cmd:{sys.executable} -P -m oracle.cli.app serve"


def _hostile_folder(folder: Path) -> Path:
    """Shadowing modules that leave a marker file when imported; returns the marker's path."""
    marker = folder / MARKER
    for name in HOSTILE_MODULES:
        (folder / f"{name}.py").write_text(
            f"with open({str(marker)!r}, 'a') as out:\n    out.write({name!r} + '\\n')\n", encoding="utf-8")
    return marker


def _check(folder: Path, impl: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-P", "-m", "oracle.cli.app", "check", "--impl", impl, "--suite", "setup", "--jobs", "1",
               "--budget-scale", "1"]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("impl", ["oracle.reference", SERVE], ids=["in-process", "cmd"])
def test_a_shadowing_module_in_the_working_directory_is_never_imported(tmp_path: Path, impl: str) -> None:
    marker = _hostile_folder(tmp_path)
    run = _check(tmp_path, impl)
    assert (EXIT_OK, False) == (run.returncode, marker.exists()), run.stdout + run.stderr
    assert "PASSED: 9 checks" in run.stdout


def test_an_adapter_in_the_working_directory_is_still_found_by_its_module_name(tmp_path: Path) -> None:
    marker = _hostile_folder(tmp_path)
    (tmp_path / "myadapter.py").write_text('"""An adapter re-exporting the reference."""\n\n'
                                           "from oracle.reference import create\n\n__all__ = ['create']\n",
                                           encoding="utf-8")
    run = _check(tmp_path, "myadapter")
    assert (EXIT_OK, False) == (run.returncode, marker.exists()), run.stdout + run.stderr
    assert "(myadapter)" in run.stdout


def test_a_cmd_engine_inherits_the_environment_without_pythonsafepath(tmp_path: Path) -> None:
    refuses_safe_path = ("import os, sys; 'PYTHONSAFEPATH' in os.environ and sys.exit(3); "
                         "from oracle.reference import create; from oracle.engines.wire.server import serve_stdio; "
                         "sys.exit(serve_stdio(create))")
    run = _check(tmp_path, f"cmd:{sys.executable} -P -c {shlex.quote(refuses_safe_path)}")
    assert EXIT_OK == run.returncode, run.stdout + run.stderr


# ---------------------------------------------------------------------------------------------- the commands we offer

REPOSITORY = Path(__file__).resolve().parents[1]
OFFERED = ("README.md", "action.yml", "docs", "oracle/kits", "adapters", "ci", "tests")
"""Where the project offers a command that starts the oracle: the docs, the kits, the adapters, CI and the tests."""
BARE_M = re.compile(r"""(?:python3?|executable)\}?["']?,?\s*["']?-m["']?,?\s*["']?oracle""")
"""``python3 -m oracle.cli``, ``[sys.executable, "-m", "oracle…"]``, ``["python3", "-m", "oracle…"]``: an interpreter
started on an oracle module with nothing (``-P`` or ``-I``) keeping the working directory off the module path."""


def _offered_files() -> list[Path]:
    found: list[Path] = []
    for name in OFFERED:
        where = REPOSITORY / name
        files = [where] if where.is_file() else sorted(p for p in where.rglob("*") if p.is_file())
        found += [p for p in files if "node_modules" not in p.parts and p.suffix in TEXT_SUFFIXES]
    return found


TEXT_SUFFIXES = frozenset({".md", ".yml", ".yaml", ".py", ".mjs", ".cjs", ".js", ".json", ".toml", ".sh", ""})


def test_no_doc_kit_or_test_starts_the_oracle_with_a_bare_dash_m() -> None:
    """Issue 36, item 9: ``python3 -m oracle.cli`` imports from the working directory first, so every command the
    project offers starts the oracle by its entry point (``oracle``) or with ``-P`` / ``-I``."""
    bare = [f"{path.relative_to(REPOSITORY)}:{n}: {line.strip()}" for path in _offered_files()
            for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            if BARE_M.search(line) and path.name != Path(__file__).name]
    assert [] == bare
