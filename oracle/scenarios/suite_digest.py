"""The suite digest: a short SHA-256 of every bundled scenario file and of the rules data, the suite version that
says which checks a report ran (docs/reports.md, The suite version).

It is computed when first asked, from the files themselves (about 25 ms for 430 files): no stored number can be
forgotten, and an installed wheel (``oracle/_suite``) and a clone (``scenarios/``) give the same digest, since the
wheel carries the same ``*.toml`` and ``preambles.json`` files under the same relative names. A folder's
``preambles.json`` (how an engine without ``load`` reaches each position) is covered: it decides how those checks run.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from oracle.core.data_files import CARDS_FILE, OPTIONS_FILE, RULES_FILE
from oracle.scenarios.bundled import BUNDLED_NAME, PREAMBLES_FILE, default_dir

DIGEST_LENGTH = 12
"""Hex digits of the SHA-256 kept: 48 bits, as many as a short git commit id."""
DATA_NAME = "data"
DATA_FILES = (RULES_FILE, OPTIONS_FILE, CARDS_FILE)
"""The rules data a check's verdict rests on, beside the scenarios: the rules catalogue and its variants, the option
vocabulary, the cards."""


def canonical_bytes(path: Path) -> bytes:
    """A file's contents with CRLF line ends read as LF, so a checkout that converts line ends gives the same
    digest."""
    return path.read_bytes().replace(b"\r\n", b"\n")


def suite_files(scenario_dir: Path, data_files: Iterable[Path]) -> list[tuple[str, Path]]:
    """Every file the digest covers, by the name it is hashed under: ``scenarios/<path>`` for each ``*.toml`` and
    ``preambles.json`` of the suite (sorted), then ``data/<name>`` for each data file."""
    scenarios = sorted((f"{BUNDLED_NAME}/{path.relative_to(scenario_dir).as_posix()}", path)
                       for path in scenario_dir.rglob("*") if path.is_file()
                       and (path.suffix == ".toml" or path.name == PREAMBLES_FILE))
    return [*scenarios, *((f"{DATA_NAME}/{path.name}", path) for path in data_files)]


def digest_of(scenario_dir: Path, data_files: Iterable[Path]) -> str:
    """The first :data:`DIGEST_LENGTH` hex digits of the SHA-256 over each covered file's name and canonical
    contents, each preceded by its length, so that no two different suites share a byte stream."""
    sha = hashlib.sha256()
    for name, path in suite_files(scenario_dir, data_files):
        for part in (name.encode("utf-8"), canonical_bytes(path)):
            sha.update(len(part).to_bytes(8, "big"))
            sha.update(part)
    return sha.hexdigest()[:DIGEST_LENGTH]


@cache
def suite_digest() -> str:
    """This oracle's suite digest: the bundled scenarios and :data:`DATA_FILES`."""
    return digest_of(default_dir(), DATA_FILES)
