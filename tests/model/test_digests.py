"""The digests that key the result cache and the ledger: what is no regular file is recorded by what it
is, never read (a pipe waits for a writer forever, a device reads without end)."""

from __future__ import annotations

import os
from pathlib import Path

from harness.model import digests


def test_a_pipe_in_a_folder_is_recorded_by_its_kind_not_read(tmp_path: Path) -> None:
    (tmp_path / "SKILL.md").write_text("# skill\n")
    before = digests.file_digests(tmp_path)
    os.mkfifo(tmp_path / "feed")
    after = digests.file_digests(tmp_path)
    assert set(after) == {"SKILL.md", "feed"} and after["SKILL.md"] == before["SKILL.md"]
    assert digests.tree_digest(tmp_path) != "missing"
    assert digests.file_digest(tmp_path / "feed").startswith("unreadable: it is a named pipe (FIFO)")


def test_the_kind_of_a_special_file_changes_the_digest(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "feed")
    as_pipe = digests.tree_digest(tmp_path)
    (tmp_path / "feed").unlink()
    (tmp_path / "feed").write_text("")
    assert digests.tree_digest(tmp_path) != as_pipe


def test_a_missing_file_is_missing_and_a_device_is_refused(tmp_path: Path) -> None:
    assert digests.file_digest(tmp_path / "nothing") == "missing"
    assert digests.file_digest(Path("/dev/zero")).startswith("unreadable: it is a character device")
