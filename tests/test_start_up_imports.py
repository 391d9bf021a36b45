"""Each command imports only what it uses (issue 40, item 4).

``oracle --version`` is answered by the entry point with the versions and the suite digest; ``oracle check --help``
reads check's options without the run; neither imports typer's pydantic, the reports, the suites, z3 or
hypothesis, and ``--version`` not even typer. Each is run in a new interpreter through ``oracle.cli.main``, as the
installed entry point runs it, and the modules it imported are listed at its exit.
"""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("typer", "pydantic", "rich", "jsonschema", "z3", "hypothesis", "oracle.suites", "oracle.reports",
         "oracle.run.supervisor", "oracle.scenarios.loader", "oracle.cli.check")
"""Modules (with their sub-modules) that a start-up must not need."""

LIST_IMPORTED = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["oracle", *sys.argv[1:]]
from oracle.cli import main
main()
"""


def imported_by(*args: str) -> list[str]:
    """The modules ``oracle ARGS`` had imported when it ended (it must end with exit 0)."""
    done = subprocess.run([sys.executable, "-P", "-c", LIST_IMPORTED, *args], capture_output=True, text=True,
                          timeout=120, check=False)
    assert 0 == done.returncode, done.stderr
    modules: list[str] = json.loads(done.stderr.splitlines()[-1])
    return modules


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if any(m == h or m.startswith(f"{h}.") for h in HEAVY)]


def test_version_imports_neither_typer_nor_the_suites_nor_the_reports() -> None:
    assert [] == heavy(imported_by("--version"))


def test_check_help_imports_typer_and_checks_options_but_not_the_run() -> None:
    modules = imported_by("check", "--help")
    beyond_typer = [m for m in heavy(modules) if m.split(".")[0] != "typer"]
    assert (True, []) == ("oracle.cli.check_options" in modules, beyond_typer)
