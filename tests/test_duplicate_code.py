"""No block of six lines or more is written twice in ``oracle/`` (issue 23): pylint's duplicate-code check, run
as the issue words it, reports nothing; the same check run on a planted copy reports the copy."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYLINT = ("-m", "pylint", "--disable=all", "--enable=duplicate-code", "--min-similarity-lines=6",
          "--ignore-imports=y", "--ignore-signatures=y", "--score=n")


def _pylint(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *PYLINT, *map(str, paths)], capture_output=True, text=True,
                          cwd=ROOT, timeout=600, check=False)


def test_oracle_has_no_six_lines_written_twice() -> None:
    run = _pylint(ROOT / "oracle")
    assert (0, "") == (run.returncode, run.stdout.strip())


def test_a_planted_copy_is_reported(tmp_path: Path) -> None:
    source = ROOT / "oracle" / "core" / "faults.py"
    package = tmp_path / "planted"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    shutil.copy(source, package / "one.py")
    shutil.copy(source, package / "two.py")
    run = _pylint(package)
    assert (True, True) == (run.returncode != 0, "Similar lines in 2 files" in run.stdout)
