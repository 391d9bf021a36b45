"""The validated bundled scenario suite, kept on disk between runs and reused while neither its files nor the
oracle's own files change.

Validating the 429 bundled files takes most of a second of CPU, before any engine starts, in every ``oracle
check``; reading the validated suite back takes a tenth of that. The key is a digest of every scenario file's path
and bytes, every file of the oracle package (path, size and modification time: the code and data that validate),
and the Python version; a suite with any error or skipped entry is never kept, so bad input is always validated
again and reported with its lines. One file holds the last suite kept, in ``$VALE_ORACLE_CACHE_DIR`` (empty: no
cache), else ``$XDG_CACHE_HOME/vale-oracle`` or ``~/.cache/vale-oracle``; it is read only when it belongs to the
user running the oracle and no one else can write it, and anything unreadable in it counts as absent.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from oracle.scenarios.model import Scenario

CACHE_DIR_VARIABLE = "VALE_ORACLE_CACHE_DIR"
CACHE_FILE = "bundled-scenarios.pickle"
PACKAGE = Path(__file__).resolve().parents[1]
UNCODED = frozenset({"__pycache__", "_suite"})
"""Folders of the package that hold no code or data the validation reads (the wheel's suite is keyed by bytes)."""


@dataclass(frozen=True)
class KeptSuite:
    """What the cache file holds: the key it was validated under, and the suite's scenarios in file order."""

    key: str
    scenarios: tuple[Scenario, ...]


def cache_file() -> Path | None:
    """Where the suite is kept, or None when ``$VALE_ORACLE_CACHE_DIR`` is set empty (no cache) or no absolute
    cache folder is known (no home directory, a relative ``$XDG_CACHE_HOME``)."""
    given = os.environ.get(CACHE_DIR_VARIABLE)
    if given is not None:
        return Path(given) / CACHE_FILE if given else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        return None
    return Path(base) / "vale-oracle" / CACHE_FILE


def _code_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*")
                  if not UNCODED.intersection(p.relative_to(PACKAGE).parts[:-1]) and p.is_file())


def suite_key(directory: Path, files: Sequence[Path]) -> str:
    """The digest the suite of ``files`` (below ``directory``) is kept under."""
    digest = hashlib.sha256(sys.version.encode())
    for code in _code_files():
        facts = code.stat()
        digest.update(f"{code.relative_to(PACKAGE)}\0{facts.st_size}\0{facts.st_mtime_ns}\0".encode())
    digest.update(str(directory).encode())
    for path in files:
        content = path.read_bytes()
        digest.update(f"\0{path.relative_to(directory)}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()


def _readable_by_us_only(opened: int) -> bool:
    facts = os.fstat(opened)
    return stat.S_ISREG(facts.st_mode) and facts.st_uid == os.getuid() and not facts.st_mode & 0o022


def kept_suite(key: str) -> tuple[Scenario, ...] | None:
    """The scenarios kept under ``key``, or None (no cache, another key, or a file not safe or not readable)."""
    where = cache_file()
    if where is None:
        return None
    try:
        with where.open("rb") as stream:
            if not _readable_by_us_only(stream.fileno()):
                return None
            kept = pickle.load(stream)
    except Exception:  # a truncated or stale file fails to unpickle in many ways: it counts as absent
        return None
    if not isinstance(kept, KeptSuite) or kept.key != key:
        return None
    return kept.scenarios


def keep_suite(key: str, scenarios: Sequence[Scenario]) -> None:
    """Write the suite under ``key`` for the next run (atomically; a cache that cannot be written is skipped)."""
    where = cache_file()
    if where is None:
        return
    try:
        where.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temporary = tempfile.mkstemp(dir=where.parent, prefix=".scenarios-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                pickle.dump(KeptSuite(key, tuple(scenarios)), stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, where)
        except BaseException:
            os.unlink(temporary)
            raise
    except (OSError, pickle.PickleError):
        return
