"""Files written into one folder and nowhere else: a new file by exclusive creation, a regular file replaced by a
rename, and never anything written through a symbolic link (``oracle/core/folder_files.py``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from oracle.core.folder_files import Kind, Refused, entry_kind, open_folder, put, write_new


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "victim.txt"
    path.write_text("mine\n", encoding="utf-8")
    return path


def test_a_new_file_is_created_and_an_existing_name_refused(tmp_path: Path) -> None:
    with open_folder(tmp_path / "out", create=True) as folder:
        write_new(folder, "a.txt", b"one")
        with pytest.raises(FileExistsError):
            write_new(folder, "a.txt", b"two")
    assert "one" == (tmp_path / "out" / "a.txt").read_text(encoding="utf-8")


def test_a_new_file_is_never_created_through_a_dangling_link(tmp_path: Path) -> None:
    (tmp_path / "a.txt").symlink_to(tmp_path / "planted.txt")
    with open_folder(tmp_path) as folder, pytest.raises(FileExistsError):
        write_new(folder, "a.txt", b"one")
    assert not (tmp_path / "planted.txt").exists()


def test_put_replaces_a_regular_file_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("old", encoding="utf-8")
    with open_folder(tmp_path) as folder:
        put(folder, "a.txt", b"new", tmp_path / "a.txt")
    assert (["a.txt"], "new") == (os.listdir(tmp_path), (tmp_path / "a.txt").read_text(encoding="utf-8"))


def test_put_refuses_a_link_a_folder_and_a_fifo_by_the_name(tmp_path: Path, victim: Path) -> None:
    (tmp_path / "link").symlink_to(victim)
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "fifo")
    refused = []
    with open_folder(tmp_path) as folder:
        for name in ("link", "folder", "fifo"):
            with pytest.raises(Refused) as caught:
                put(folder, name, b"new", tmp_path / name)
            refused.append(caught.value.kind)
    assert ([Kind.LINK, Kind.FOLDER, Kind.OTHER], "mine\n") == (refused, victim.read_text(encoding="utf-8"))


def test_a_folder_link_is_refused_when_links_are_not_followed(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    with pytest.raises(Refused), open_folder(tmp_path / "link", follow=False):
        pass
    with open_folder(tmp_path / "link") as folder:
        assert Kind.ABSENT == entry_kind(folder, "anything")
