"""The bundled suite's cache: a data-only file that says a suite validated under its key, reused under the same key,
validated again when a file or the code changes, and never read from a link, a file someone else could have written
or a file too large; nothing planted in the cache folder runs code or changes a verdict."""

from __future__ import annotations

import json
import os
import pickle
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oracle.cli.app import app
from oracle.core.json_types import JSON
from oracle.scenarios import loader, suite_cache
from oracle.scenarios.loader import default_dir, load_dir, scenario_files
from oracle.scenarios.model import Scenario
from oracle.scenarios.suite_cache import (
    CACHE_DIR_VARIABLE,
    CACHE_FILE,
    MAX_CACHE_BYTES,
    cache_file,
    mark_validated,
    payload_digest,
    suite_key,
    suite_validated,
)
from vale_fixtures.no_holding_limit import NoHoldingLimit

OLD_CACHE_FILE = "bundled-scenarios.pickle"
"""Where the cache was a pickle, unpickled before its key was compared (spelled out: main's tests run this file)."""


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_DIR_VARIABLE, str(folder))
    return folder


def small_suite(folder: Path) -> list[Path]:
    folder.mkdir()
    files = [folder / "a.toml", folder / "b.toml"]
    for number, file in enumerate(files):
        file.write_text(f"id = 'X-{number}'\n", encoding="utf-8")
    return files


# ---------------------------------------------------------------------- the key


def test_the_key_changes_with_a_files_bytes(tmp_path: Path) -> None:
    files = small_suite(tmp_path / "suite")
    before = suite_key(tmp_path / "suite", files)
    files[1].write_text("id = 'X-9'\n", encoding="utf-8")
    assert before != suite_key(tmp_path / "suite", files)


def test_the_key_changes_with_the_set_of_files(tmp_path: Path) -> None:
    files = small_suite(tmp_path / "suite")
    assert suite_key(tmp_path / "suite", files) != suite_key(tmp_path / "suite", files[:1])


def test_the_key_changes_with_the_oracles_own_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = small_suite(tmp_path / "suite")
    package = tmp_path / "package"
    package.mkdir()
    (package / "loader.py").write_text("A = 1\n", encoding="utf-8")
    monkeypatch.setattr(suite_cache, "PACKAGE", package)
    before = suite_key(tmp_path / "suite", files)
    (package / "loader.py").write_text("A = 22\n", encoding="utf-8")
    assert before != suite_key(tmp_path / "suite", files)


def test_the_key_is_the_same_for_the_same_files(tmp_path: Path) -> None:
    files = small_suite(tmp_path / "suite")
    assert suite_key(tmp_path / "suite", files) == suite_key(tmp_path / "suite", files)


# ---------------------------------------------------------------------- what the file holds, and when it is a miss


def test_a_validated_suite_is_read_back_under_its_key_and_its_number_of_files(cache_dir: Path) -> None:
    mark_validated("key-1", 3)
    assert (True, False, False) == (suite_validated("key-1", 3), suite_validated("key-2", 3),
                                    suite_validated("key-1", 4))


def test_the_cache_file_holds_only_the_format_the_key_the_digest_and_the_fact(cache_dir: Path) -> None:
    mark_validated("key-1", 3)
    kept = json.loads((cache_dir / CACHE_FILE).read_text(encoding="utf-8"))
    expected = {"format": 1, "key": "key-1", "digest": payload_digest("key-1", {"validated": 3}),
                "payload": {"validated": 3}}
    assert expected == kept


def test_the_cache_file_and_its_folder_are_the_users_alone(cache_dir: Path) -> None:
    mark_validated("key-1", 3)
    assert (0o700, 0o600) == (cache_dir.stat().st_mode & 0o777, (cache_dir / CACHE_FILE).stat().st_mode & 0o777)


def rewrite(cache_dir: Path, change: dict[str, object]) -> None:
    kept = json.loads((cache_dir / CACHE_FILE).read_text(encoding="utf-8"))
    (cache_dir / CACHE_FILE).write_text(json.dumps({**kept, **change}), encoding="utf-8")


@pytest.mark.parametrize("change", [
    {"payload": {"validated": 3, "scenarios": []}},
    {"digest": "0" * 64},
    {"format": 2},
    {"key": "key-2"},
], ids=["edited-payload", "edited-digest", "another-format", "another-key"])
def test_an_edited_cache_file_is_a_miss(cache_dir: Path, change: dict[str, object]) -> None:
    mark_validated("key-1", 3)
    rewrite(cache_dir, change)
    assert suite_validated("key-1", 3) is False


def test_an_edited_payload_with_its_digest_recomputed_is_still_a_miss(cache_dir: Path) -> None:
    mark_validated("key-1", 3)
    payload = {"validated": 3, "scenarios": [{"id": "X-1", "steps": []}]}
    rewrite(cache_dir, {"payload": payload, "digest": payload_digest("key-1", payload)})
    assert suite_validated("key-1", 3) is False


def test_a_cache_file_others_can_write_is_a_miss(cache_dir: Path) -> None:
    mark_validated("key-1", 3)
    os.chmod(cache_dir / CACHE_FILE, 0o666)
    assert suite_validated("key-1", 3) is False


def test_a_cache_folder_others_can_write_is_a_miss(cache_dir: Path) -> None:
    mark_validated("key-1", 3)
    os.chmod(cache_dir, 0o777)
    assert suite_validated("key-1", 3) is False


def test_a_cache_file_larger_than_the_bound_is_a_miss_and_never_read_whole(cache_dir: Path) -> None:
    mark_validated("key-1", 3)
    text = (cache_dir / CACHE_FILE).read_text(encoding="utf-8")
    (cache_dir / CACHE_FILE).write_text(text + " " * MAX_CACHE_BYTES, encoding="utf-8")
    assert suite_validated("key-1", 3) is False


def test_a_cache_file_nested_deeper_than_the_json_parser_goes_is_a_miss(cache_dir: Path) -> None:
    mark_validated("key-1", 3)
    (cache_dir / CACHE_FILE).write_text("[" * (MAX_CACHE_BYTES - 1), encoding="utf-8")
    assert suite_validated("key-1", 3) is False


def test_writing_the_cache_removes_the_old_pickle_but_not_what_a_link_there_points_to(tmp_path: Path,
                                                                                      cache_dir: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n", encoding="utf-8")
    cache_dir.mkdir(mode=0o700)
    (cache_dir / OLD_CACHE_FILE).symlink_to(victim)
    mark_validated("key-1", 3)
    assert ([CACHE_FILE], "mine\n") == (os.listdir(cache_dir), victim.read_text(encoding="utf-8"))


def test_a_truncated_cache_file_is_a_miss(cache_dir: Path) -> None:
    mark_validated("key-1", 3)
    whole = (cache_dir / CACHE_FILE).read_bytes()
    (cache_dir / CACHE_FILE).write_bytes(whole[: len(whole) // 2])
    assert suite_validated("key-1", 3) is False


def test_a_fifo_as_the_cache_file_is_a_miss_without_waiting(cache_dir: Path) -> None:
    cache_dir.mkdir(mode=0o700)
    os.mkfifo(cache_dir / CACHE_FILE, 0o600)
    assert suite_validated("key-1", 3) is False


def test_a_symbolic_link_as_the_cache_file_is_a_miss(tmp_path: Path, cache_dir: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    os.environ[CACHE_DIR_VARIABLE] = str(elsewhere)
    mark_validated("key-1", 3)
    os.environ[CACHE_DIR_VARIABLE] = str(cache_dir)
    cache_dir.mkdir(mode=0o700)
    (cache_dir / CACHE_FILE).symlink_to(elsewhere / CACHE_FILE)
    assert suite_validated("key-1", 3) is False


def test_a_symbolic_link_as_the_cache_folder_is_a_miss_and_is_not_written_through(tmp_path: Path,
                                                                                   cache_dir: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    cache_dir.symlink_to(elsewhere)
    mark_validated("key-1", 3)
    assert (False, []) == (suite_validated("key-1", 3), list(elsewhere.iterdir()))


def test_a_symbolic_link_as_the_cache_file_is_not_written_through(tmp_path: Path, cache_dir: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n", encoding="utf-8")
    cache_dir.mkdir(mode=0o700)
    (cache_dir / CACHE_FILE).symlink_to(victim)
    mark_validated("key-1", 3)
    assert ("mine\n", False) == (victim.read_text(encoding="utf-8"), suite_validated("key-1", 3))


def test_an_empty_cache_variable_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_DIR_VARIABLE, "")
    mark_validated("key-1", 3)
    assert (False, []) == (suite_validated("key-1", 3), list(tmp_path.iterdir()))


def test_without_a_home_or_an_absolute_cache_folder_nothing_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CACHE_DIR_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert cache_file() is None


# ---------------------------------------------------------------------- the bundled suite


def test_the_bundled_suite_read_under_a_cache_hit_is_the_validated_suite(cache_dir: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "_BUNDLED", {})
    validated = load_dir(default_dir())
    monkeypatch.setattr(loader, "_BUNDLED", {})
    monkeypatch.setattr(loader, "quickly_valid", lambda data: pytest.fail("validated again under a hit"))
    read = load_dir(default_dir())
    assert ([(s, s.raw) for s in validated.scenarios], validated.files) == (
        [(s, s.raw) for s in read.scenarios], read.files)


def test_a_bundled_suite_with_an_error_is_not_kept(tmp_path: Path, cache_dir: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    suite = tmp_path / "suite"
    small_suite(suite)
    monkeypatch.setattr(loader, "default_dir", lambda: suite)
    monkeypatch.setattr(loader, "_BUNDLED", {})
    loaded = load_dir(suite)
    assert (True, False) == (bool(loaded.errors), (cache_dir / CACHE_FILE).exists())


def test_files_the_cache_vouches_for_that_do_not_build_are_validated_and_reported(
        tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    suite = tmp_path / "suite"
    files = small_suite(suite)
    monkeypatch.setattr(loader, "default_dir", lambda: suite)
    monkeypatch.setattr(loader, "_BUNDLED", {})
    mark_validated(suite_key(suite, files), len(files))
    loaded = load_dir(suite)
    assert ([], True) == (loaded.scenarios, bool(loaded.errors))


# ---------------------------------------------------------------------- planted files change no verdict

BROKEN = ["--impl", "vale_fixtures.no_holding_limit", "--suite", "scenarios", "--rule", "LIMIT-1"]
FORGER = ["--impl", "tests.test_scenarios_suite_cache:CacheForger", "--suite", "scenarios", "--rule", "LIMIT-1"]


def verdict(*args: str) -> tuple[int, str]:
    """The exit code and the verdict line of one ``oracle check`` run, as a new process would start it."""
    loader._BUNDLED.clear()
    result = CliRunner().invoke(app, ["check", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, (result.stdout.splitlines() or [""])[-1].split(" in ")[0]


@pytest.fixture(scope="module")
def uncached() -> tuple[int, str]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_DIR_VARIABLE, "")
        return verdict(*BROKEN)


@dataclass(frozen=True)
class KeptSuite:
    """The record the pickled cache held (the key, then the scenarios), as a planted file would hold it."""

    key: str
    scenarios: tuple[Scenario, ...]


KeptSuite.__module__ = suite_cache.__name__


def forged_pickle() -> bytes:
    """The pickled cache, under the bundled suite's right key, without the scenarios of LIMIT-1."""
    key = suite_key(default_dir(), scenario_files(default_dir()))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_DIR_VARIABLE, "")
        patch.setattr(loader, "_BUNDLED", {})
        kept = [s for s in load_dir(default_dir()).scenarios if "LIMIT-1" not in s.rules]
        patch.setattr(suite_cache, "KeptSuite", getattr(suite_cache, "KeptSuite", KeptSuite), raising=False)
        return pickle.dumps(suite_cache.KeptSuite(key, tuple(kept)))  # type: ignore[attr-defined]


def forged_json() -> bytes:
    """A cache file in today's format under the right key, its digest recomputed, saying what a forger would."""
    files = scenario_files(default_dir())
    key = suite_key(default_dir(), files)
    payload: JSON = {"validated": len(files), "scenarios": []}
    return json.dumps({"format": 1, "key": key, "digest": payload_digest(key, payload), "payload": payload}).encode()


class Planted:
    """A pickle that, when loaded, makes a folder: proof that the cache ran code."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.mkdir, (str(self.marker),)


def plant(folder: Path, name: str, data: bytes) -> None:
    folder.mkdir(mode=0o700, exist_ok=True)
    (folder / name).write_bytes(data)
    os.chmod(folder / name, 0o600)


@pytest.mark.parametrize("name", [OLD_CACHE_FILE, CACHE_FILE])
def test_a_planted_pickle_runs_no_code_and_changes_no_verdict(tmp_path: Path, cache_dir: Path, name: str,
                                                              uncached: tuple[int, str]) -> None:
    marker = tmp_path / "the-pickle-ran"
    plant(cache_dir, name, pickle.dumps(Planted(marker)))
    assert (uncached, False) == (verdict(*BROKEN), marker.exists())


@pytest.mark.parametrize("name", [OLD_CACHE_FILE, CACHE_FILE])
def test_a_planted_pickle_of_an_edited_suite_under_the_right_key_changes_no_verdict(
        cache_dir: Path, name: str, uncached: tuple[int, str]) -> None:
    plant(cache_dir, name, forged_pickle())
    assert uncached == verdict(*BROKEN)


def test_a_planted_json_file_under_the_right_key_with_edited_scenarios_changes_no_verdict(
        cache_dir: Path, uncached: tuple[int, str]) -> None:
    plant(cache_dir, CACHE_FILE, forged_json())
    assert uncached == verdict(*BROKEN)


def test_a_symbolic_link_to_a_planted_file_changes_no_verdict(tmp_path: Path, cache_dir: Path,
                                                              uncached: tuple[int, str]) -> None:
    plant(tmp_path / "elsewhere", "forged", forged_pickle())
    cache_dir.mkdir(mode=0o700)
    for name in {OLD_CACHE_FILE, CACHE_FILE}:
        (cache_dir / name).symlink_to(tmp_path / "elsewhere" / "forged")
    assert uncached == verdict(*BROKEN)


def test_a_symbolic_link_to_a_planted_folder_changes_no_verdict(tmp_path: Path, cache_dir: Path,
                                                                uncached: tuple[int, str]) -> None:
    plant(tmp_path / "elsewhere", OLD_CACHE_FILE, forged_pickle())
    plant(tmp_path / "elsewhere", CACHE_FILE, forged_pickle())
    cache_dir.symlink_to(tmp_path / "elsewhere")
    assert uncached == verdict(*BROKEN)


class CacheForger(NoHoldingLimit):
    """A broken engine (LIMIT-1) that, while it runs, plants the strongest cache files it can make: the pickled
    cache of an edited suite and a JSON file, each under the suite's right key."""

    def load(self, snapshot: JSON) -> None:
        folder = suite_cache.cache_folder()
        if folder is not None:
            plant(folder, CACHE_FILE, forged_json())
            plant(folder, OLD_CACHE_FILE, forged_pickle())
        super().load(snapshot)


def test_an_engine_that_writes_into_the_cache_folder_changes_no_later_verdict(
        cache_dir: Path, uncached: tuple[int, str]) -> None:
    forging = verdict(*FORGER)
    assert (uncached, uncached) == (forging, verdict(*BROKEN))


def test_scenarios_lint_reads_no_planted_file(tmp_path: Path, cache_dir: Path) -> None:
    marker = tmp_path / "the-pickle-ran"
    plant(cache_dir, OLD_CACHE_FILE, pickle.dumps(Planted(marker)))
    loader._BUNDLED.clear()
    result = CliRunner().invoke(app, ["scenarios", "lint"])
    assert (0, False) == (result.exit_code, marker.exists())
