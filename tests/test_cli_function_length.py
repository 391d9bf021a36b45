"""No function of ``oracle/cli`` is longer than 60 lines (issue 23): a command parses its options and hands them to
the floors below, so its body stays small; the length is ``end_lineno - lineno + 1`` of the ``def``."""

from __future__ import annotations

import ast
from pathlib import Path

CLI = Path(__file__).resolve().parents[1] / "oracle" / "cli"
MOST_LINES = 60


def too_long(source: str, where: str) -> list[str]:
    """Each function of ``source`` longer than :data:`MOST_LINES`, as ``where:name (N lines)``."""
    return [f"{where}:{node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > MOST_LINES]


def test_no_cli_function_is_longer_than_60_lines() -> None:
    files = sorted(CLI.glob("*.py"))
    assert len(files) > 10
    assert [] == [found for path in files for found in too_long(path.read_text(encoding="utf-8"), path.name)]


def test_a_planted_long_function_is_found_and_one_of_60_lines_is_not() -> None:
    def source(name: str, lines: int) -> str:
        return f"def {name}() -> None:\n" + "    pass\n" * (lines - 1)

    nested = "\n".join("    " + line for line in source("long", 61).splitlines())
    planted = source("fits", 60) + "\n\nclass C:\n" + nested
    assert ["planted.py:long (61 lines)"] == too_long(planted, "planted.py")


def test_check_command_is_under_40_lines_signature_and_docstring_included() -> None:
    tree = ast.parse((CLI / "check_command.py").read_text(encoding="utf-8"))
    command = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "check_command")
    lines = (command.end_lineno or command.lineno) - command.lineno + 1
    assert lines < 40, f"check_command is {lines} lines"
