"""The suite digest (oracle/scenarios/suite_digest.py): it changes with any scenario file or rules data file, and
with nothing else (not line ends, not where the suite sits)."""

from __future__ import annotations

import shutil
from pathlib import Path

from oracle.scenarios.bundled import PREAMBLES_FILE
from oracle.scenarios.loader import default_dir
from oracle.scenarios.suite_digest import DATA_FILES, digest_of, suite_digest, suite_files

PAY3 = Path("payment") / "PAY-3-red-and-blue-for-cost-1.toml"
HUNT = Path("hunting") / "HUNT-1.toml"


def _suite(root: Path) -> tuple[Path, list[Path]]:
    """A small suite (two scenario files, a note that is not one) and copies of the data files, under ``root``."""
    scenarios = root / "scenarios"
    for name in (PAY3, HUNT):
        (scenarios / name).parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(default_dir() / PAY3, scenarios / PAY3)
    (scenarios / HUNT).write_text('id = "HUNT-1"\n', encoding="utf-8")
    (scenarios / "README.md").write_text("not a scenario\n", encoding="utf-8")
    data = root / "data"
    data.mkdir()
    return scenarios, [Path(shutil.copyfile(path, data / path.name)) for path in DATA_FILES]


def test_the_bundled_digest_is_twelve_hex_digits_of_every_scenario_preamble_and_data_file() -> None:
    files = suite_files(default_dir(), DATA_FILES)
    preambles = list(default_dir().rglob(PREAMBLES_FILE))
    assert (True, len(list(default_dir().rglob("*.toml"))) + len(preambles) + len(DATA_FILES)) == (
        bool(preambles), len(files))
    assert ["data/rules.toml", "data/options.toml", "data/cards.json"] == [name for name, _ in files[-3:]]
    assert digest_of(default_dir(), DATA_FILES) == suite_digest()
    assert 12 == len(suite_digest()) and set(suite_digest()) <= set("0123456789abcdef")


def test_a_changed_scenario_rules_file_or_card_changes_the_digest(tmp_path: Path) -> None:
    scenarios, data = _suite(tmp_path)
    before = digest_of(scenarios, data)
    seen = {before}
    edits = [(scenarios / HUNT, b'id = "HUNT-1"\n# a comment\n'), (data[0], data[0].read_bytes() + b"\n"),
             (data[2], data[2].read_bytes().replace(b'"cost": 1', b'"cost": 2', 1))]
    for path, text in edits:
        path.write_bytes(text)
        seen.add(digest_of(scenarios, data))
    (scenarios / HUNT).rename(scenarios / "hunting" / "HUNT-2.toml")
    seen.add(digest_of(scenarios, data))
    assert len(edits) + 2 == len(seen)


def test_line_ends_other_files_and_the_suites_place_leave_the_digest_alone(tmp_path: Path) -> None:
    scenarios, data = _suite(tmp_path / "one")
    before = digest_of(scenarios, data)
    (scenarios / "README.md").write_text("still not a scenario\n", encoding="utf-8")
    crlf = scenarios / PAY3
    crlf.write_bytes(crlf.read_bytes().replace(b"\n", b"\r\n"))
    moved, moved_data = _suite(tmp_path / "two")
    assert (before, before) == (digest_of(scenarios, data), digest_of(moved, moved_data))
