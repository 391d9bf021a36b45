"""Test-run settings shared by every test file."""

from __future__ import annotations

import os
import shutil
import tempfile

# The dev dependencies bring trio (through selenium), which registers a Hypothesis plugin that imports trio and
# pytest into every process importing Hypothesis: about 0.4 s of CPU in each `oracle check` worker that fuzzes.
# Nothing here uses trio; the processes the tests start inherit this (HYPOTHESIS_NO_PLUGINS is Hypothesis's switch).
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")

# The tests start some 300 Python processes (`oracle check`, its workers, served engines). Where the environment
# forbids bytecode files (PYTHONDONTWRITEBYTECODE, as on some CI images), each of them compiles the oracle's
# sources again: about half the CPU of a small `oracle check`. The processes the tests start keep their bytecode
# in a cache of their own outside the checkout instead (PYTHONPYCACHEPREFIX); nothing is written to the tree.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
    os.environ.setdefault("PYTHONPYCACHEPREFIX",
                          os.path.join(tempfile.gettempdir(), f"vale-oracle-pycache-{os.getuid()}"))


def pytest_sessionfinish(session: object) -> None:
    """The controlling process removes the folder of the runs its workers shared (tests/shared_runs.py)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        from tests.shared_runs import session_folder

        shutil.rmtree(session_folder(os.getpid()), ignore_errors=True)
