"""``oracle check`` runs that several test files read, made once per test session (a default run takes seconds).

The two pytest-xdist workers share them: the first to ask makes the run under a file lock, the other reads its
result, from a folder named after the session's controlling process (removed by ``tests/conftest.py``)."""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.json_types import JSON


def session_folder(pid: int) -> Path:
    """The folder of the shared runs of the test session whose controlling process is ``pid``."""
    return Path(tempfile.gettempdir()) / f"vale-shared-runs-{os.getuid()}-{pid}"


def _this_session() -> Path:
    controller = os.getppid() if os.environ.get("PYTEST_XDIST_WORKER") else os.getpid()
    folder = session_folder(controller)
    folder.mkdir(exist_ok=True)
    return folder


@functools.cache
def checked(*args: str) -> tuple[int, str, JSON]:
    """Exit code, console output and JSON report of ``oracle check ARGS`` (the same run for every caller)."""
    stored = _this_session() / f"{hashlib.sha256(json.dumps(args).encode()).hexdigest()[:16]}.json"
    with (stored.parent / f"{stored.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stored.exists():
            code, out, data = json.loads(stored.read_text(encoding="utf-8"))
            return int(code), str(out), dict(data)
        made = _check(args)
        stored.write_text(json.dumps(made), encoding="utf-8")
        return made


def _check(args: tuple[str, ...]) -> tuple[int, str, JSON]:
    report = Path(tempfile.mkdtemp(prefix="vale-shared-run-")) / "report.json"
    result = CliRunner().invoke(app, ["check", "--report-json", str(report), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    data: JSON = json.loads(report.read_text(encoding="utf-8"))
    return result.exit_code, result.stdout, data
