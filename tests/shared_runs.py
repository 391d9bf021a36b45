"""``oracle check`` runs that several test files read, made once per test session (a default run takes seconds)."""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path

from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.json_types import JSON


@functools.cache
def checked(*args: str) -> tuple[int, str, JSON]:
    """Exit code, console output and JSON report of ``oracle check ARGS`` (the same run for every caller)."""
    report = Path(tempfile.mkdtemp(prefix="vale-shared-run-")) / "report.json"
    result = CliRunner().invoke(app, ["check", "--report-json", str(report), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    data: JSON = json.loads(report.read_text(encoding="utf-8"))
    return result.exit_code, result.stdout, data
