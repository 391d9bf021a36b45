"""The bundled suite kept on disk: reused under the same key, validated again when a file or the code changes, and
never read from a file someone else could have written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from oracle.scenarios import loader, suite_cache
from oracle.scenarios.loader import default_dir, load_file, scenario_files
from oracle.scenarios.model import Scenario
from oracle.scenarios.suite_cache import CACHE_DIR_VARIABLE, CACHE_FILE, cache_file, keep_suite, kept_suite, suite_key


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_DIR_VARIABLE, str(folder))
    return folder


@pytest.fixture
def one_scenario() -> Scenario:
    return load_file(scenario_files(default_dir())[0])


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


# ---------------------------------------------------------------------- keeping and reading


def test_a_kept_suite_is_read_back_under_its_key(cache_dir: Path, one_scenario: Scenario) -> None:
    keep_suite("key-1", [one_scenario])
    assert (one_scenario,) == kept_suite("key-1")


def test_a_kept_suite_is_not_read_under_another_key(cache_dir: Path, one_scenario: Scenario) -> None:
    keep_suite("key-1", [one_scenario])
    assert kept_suite("key-2") is None


def test_a_cache_file_others_can_write_is_not_read(cache_dir: Path, one_scenario: Scenario) -> None:
    keep_suite("key-1", [one_scenario])
    os.chmod(cache_dir / CACHE_FILE, 0o666)
    assert kept_suite("key-1") is None


def test_a_truncated_cache_file_counts_as_absent(cache_dir: Path, one_scenario: Scenario) -> None:
    keep_suite("key-1", [one_scenario])
    whole = (cache_dir / CACHE_FILE).read_bytes()
    (cache_dir / CACHE_FILE).write_bytes(whole[: len(whole) // 2])
    assert kept_suite("key-1") is None


def test_an_empty_cache_variable_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               one_scenario: Scenario) -> None:
    monkeypatch.setenv(CACHE_DIR_VARIABLE, "")
    keep_suite("key-1", [one_scenario])
    assert (None, []) == (kept_suite("key-1"), list(tmp_path.iterdir()))


# ---------------------------------------------------------------------- the bundled suite


def test_the_bundled_suite_is_read_from_the_cache_under_its_key(cache_dir: Path, one_scenario: Scenario,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "_BUNDLED", {})
    files = scenario_files(default_dir())
    keep_suite(suite_key(default_dir(), files), [one_scenario])
    loaded = loader.load_dir(default_dir())
    assert ([one_scenario], [], len(files)) == (loaded.scenarios, loaded.errors, loaded.files)


def test_without_a_home_or_an_absolute_cache_folder_nothing_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CACHE_DIR_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert cache_file() is None


def test_a_bundled_suite_with_an_error_is_not_kept(tmp_path: Path, cache_dir: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    suite = tmp_path / "suite"
    small_suite(suite)
    monkeypatch.setattr(loader, "default_dir", lambda: suite)
    monkeypatch.setattr(loader, "_BUNDLED", {})
    loaded = loader.load_dir(suite)
    assert (True, False) == (bool(loaded.errors), (cache_dir / CACHE_FILE).exists())
