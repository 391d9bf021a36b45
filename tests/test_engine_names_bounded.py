"""Names from engines are bounded (issue 36, item 7): a file name built from engine text fits a file system (255
bytes), stays in its folder, and two long names never share one; ``oracle fuzz --save-failures`` then reports and saves
the real failures of an engine whose action type is 400 characters long, or a path with NUL inside."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.core.path_names import NAME_CHARS, bounded_name, path_component

ORACLE = str(Path(sys.executable).with_name("oracle"))
FILE_NAME_BYTES = 255


# ---------------------------------------------------------------------------------------------- the bound


@pytest.mark.parametrize("name", ["DEC-2-accepts-end_turn", "x" * NAME_CHARS, ""])
def test_a_name_within_the_bound_is_kept_as_it_is(name: str) -> None:
    assert name == bounded_name(name)


def test_a_long_name_is_cut_to_the_bound_and_ends_with_a_digest_of_the_whole() -> None:
    first, second = bounded_name("x" * 400 + "a"), bounded_name("x" * 400 + "b")
    assert (NAME_CHARS, NAME_CHARS) == (len(first), len(second))
    assert first != second
    assert first == bounded_name("x" * 400 + "a")


@pytest.mark.parametrize("name", ["x" * 400, "../../" + "/..\x00" * 60 + "/etc/passwd", ".." * 200])
def test_a_path_component_is_bounded_and_one_component(name: str) -> None:
    component = path_component(name)
    assert len(component.encode("utf-8")) <= NAME_CHARS
    assert (False, False, True) == ("/" in component, "\x00" in component, bool(component.strip(".")))


# ---------------------------------------------------------------------------------------------- oracle fuzz


@pytest.mark.parametrize("factory", ["lists_an_action_of_its_own", "lists_a_path_of_its_own"])
def test_fuzz_saves_and_reports_the_failures_of_an_engine_with_a_long_action_type(tmp_path: Path,
                                                                                   factory: str) -> None:
    saved, report = tmp_path / "saved", tmp_path / "report.json"
    done = subprocess.run([ORACLE, "fuzz", "--impl", f"vale_fixtures.hostile_text:{factory}", "--games", "1",
                           "--players", "2", "--game-modes", "base", "--budget-scale", "1", "--no-progress",
                           "--save-failures", str(saved), "--report-json", str(report)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert 1 == done.returncode, done.stdout + done.stderr
    results = {r["id"]: r for r in json.loads(report.read_text(encoding="utf-8"))["results"]}
    assert ("fail", "fail") == (results["invariants/INV-LEGAL-APPLIES"]["outcome"],
                                results["invariants/LOCKSTEP"]["outcome"])
    assert [] == [r["id"] for r in results.values() if r["outcome"] == "error"]
    assert "File name too long" not in done.stdout + done.stderr
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file() and p != report)
    assert [] != files
    assert [] == [p.name for p in files if len(p.name.encode("utf-8")) > FILE_NAME_BYTES or p.parent != saved]
