"""The bundled scenario suite's cache: one small JSON file that says "the suite under this key validated cleanly",
so that the next run parses the same files without validating them again.

Validating the 429 bundled files takes about a second of CPU, before any engine starts, in every ``oracle check``.
The key is a digest of every scenario file's path and bytes, every file of the oracle package (path, size and
modification time: the code and data that validate), and the Python version; a suite with any error or skipped
entry is never marked, so bad input is always validated again and reported with its lines.

The file holds data only, no scenario and nothing executable: ``{"format", "key", "digest", "payload"}``, where the
payload is ``{"validated": <number of files>}`` and the digest is that of the key and the payload. The scenarios
are always read from the suite's own files, whose bytes are part of the key, so a file planted in the cache folder
(by an engine during its run, say) can at most say that those very files are valid, and cannot change a verdict.

The file is in ``$VALE_ORACLE_CACHE_DIR`` (empty: no cache), else ``$XDG_CACHE_HOME/vale-oracle`` or
``~/.cache/vale-oracle``. It is a miss, and validation runs, whenever anything is in doubt: the folder or the file
is a symbolic link, the folder or the file is not the user's own or others can write it, the file is not a regular
file or is larger than :data:`MAX_CACHE_BYTES`, it is not JSON of this format, or its key or digest differ. It is
written as a new file (exclusive creation, never through a link) renamed into place.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

from oracle.core.folder_files import open_folder, put

CACHE_DIR_VARIABLE = "VALE_ORACLE_CACHE_DIR"
CACHE_FILE = "bundled-scenarios.json"
OLD_CACHE_FILE = "bundled-scenarios.pickle"
"""Where earlier versions kept a pickle: never read, removed (the name, never what a link there points to) when the
cache is written."""
FORMAT = 1
MAX_CACHE_BYTES = 4096
"""The largest cache file read: the real one is about 200 bytes; a larger file is a miss, never read whole."""
PACKAGE = Path(__file__).resolve().parents[1]
UNCODED = frozenset({"__pycache__", "_suite"})
"""Folders of the package that hold no code or data the validation reads (the wheel's suite is keyed by bytes)."""
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def cache_folder() -> Path | None:
    """Where the cache file is kept, or None when ``$VALE_ORACLE_CACHE_DIR`` is set empty (no cache) or no absolute
    cache folder is known (no home directory, a relative ``$XDG_CACHE_HOME``)."""
    given = os.environ.get(CACHE_DIR_VARIABLE)
    if given is not None:
        return Path(given) if given else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        return None
    return Path(base) / "vale-oracle"


def cache_file() -> Path | None:
    """The cache file's path (see :func:`cache_folder`)."""
    folder = cache_folder()
    return None if folder is None else folder / CACHE_FILE


def _code_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*")
                  if not UNCODED.intersection(p.relative_to(PACKAGE).parts[:-1]) and p.is_file())


def suite_key(directory: Path, files: Sequence[Path], contents: Sequence[bytes] | None = None) -> str:
    """The digest the suite of ``files`` (below ``directory``) is kept under; ``contents`` are their bytes, when
    already read (the bytes a hit then builds the scenarios from, so a file changed in between cannot slip in)."""
    digest = hashlib.sha256(sys.version.encode())
    for code in _code_files():
        facts = code.stat()
        digest.update(f"{code.relative_to(PACKAGE)}\0{facts.st_size}\0{facts.st_mtime_ns}\0".encode())
    digest.update(str(directory).encode())
    for path, content in zip(files, contents if contents is not None else [p.read_bytes() for p in files],
                             strict=True):
        digest.update(f"\0{path.relative_to(directory)}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()


def payload_digest(key: str, payload: object) -> str:
    """The digest of a cache file's key and payload (the payload in canonical JSON)."""
    return hashlib.sha256(f"{key}\0{json.dumps(payload, sort_keys=True)}".encode()).hexdigest()


def _ours_alone(facts: os.stat_result) -> bool:
    """The user's own entry, that no one else can write."""
    return facts.st_uid == os.getuid() and not facts.st_mode & 0o022


def _cache_text(folder: Path) -> bytes | None:
    """The cache file's bytes when the folder and the file are the user's own, not links, and the file is a regular
    file of at most :data:`MAX_CACHE_BYTES`; else None."""
    with open_folder(folder, follow=False) as opened:
        if not _ours_alone(os.fstat(opened)):
            return None
        handle = os.open(CACHE_FILE, _READ, dir_fd=opened)
        try:
            facts = os.fstat(handle)
            if not (stat.S_ISREG(facts.st_mode) and _ours_alone(facts) and facts.st_size <= MAX_CACHE_BYTES):
                return None
            return os.read(handle, MAX_CACHE_BYTES + 1)
        finally:
            os.close(handle)


def suite_validated(key: str, files: int) -> bool:
    """Whether the cache says the suite of ``files`` files under ``key`` validated cleanly (any doubt: False)."""
    folder = cache_folder()
    if folder is None:
        return False
    try:
        text = _cache_text(folder)
    except OSError:  # no folder, no file, a link (ELOOP), a folder swapped for something else: a miss
        return False
    if text is None or len(text) > MAX_CACHE_BYTES:
        return False
    try:
        kept = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
        return False
    if not isinstance(kept, dict) or kept.get("format") != FORMAT or kept.get("key") != key:
        return False
    payload = kept.get("payload")
    return kept.get("digest") == payload_digest(key, payload) and payload == {"validated": files}


def mark_validated(key: str, files: int) -> None:
    """Say for the next run that the suite of ``files`` files under ``key`` validated cleanly (a new file renamed
    into place; a cache that cannot be written safely is skipped)."""
    folder = cache_folder()
    if folder is None:
        return
    payload = {"validated": files}
    text = json.dumps({"format": FORMAT, "key": key, "digest": payload_digest(key, payload), "payload": payload})
    try:
        with open_folder(folder, create=True, follow=False, mode=0o700) as opened:
            if _ours_alone(os.fstat(opened)):
                put(opened, CACHE_FILE, text.encode(), folder / CACHE_FILE, mode=0o600)
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(OLD_CACHE_FILE, dir_fd=opened)
    except OSError:
        return
