"""harness.files: defensive reads, a realpath that resolves each directory once, and whole-file writes."""

from __future__ import annotations

import errno
import os
import stat
import threading
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness import files
from harness.files import rel_to, within
from tests.support.nodes import kind_of, make_node


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """Plain folders, a symlinked folder inside and one outside, a file link, a dangling link and a loop."""
    root = tmp_path / "repo"
    (root / "skills" / "a" / "references").mkdir(parents=True)
    (root / "skills" / "a" / "SKILL.md").write_text("x")
    (tmp_path / "elsewhere" / "deep").mkdir(parents=True)
    (root / "skills" / "inside-link").symlink_to(root / "skills" / "a")
    (root / "skills" / "outside-link").symlink_to(tmp_path / "elsewhere" / "deep")
    (root / "skills" / "a" / "file-link.md").symlink_to(root / "skills" / "a" / "SKILL.md")
    (root / "skills" / "dangling").symlink_to(root / "nowhere")
    (root / "loop1").symlink_to(root / "loop2")
    (root / "loop2").symlink_to(root / "loop1")
    return root


def test_real_paths_agree_with_realpath(tree: Path):
    realpath = files.RealPaths()
    asked = [
        "skills/a/references",
        "skills/a/SKILL.md",
        "skills/inside-link/references",
        "skills/inside-link",
        "skills/outside-link",
        "skills/outside-link/..",
        "skills/outside-link/../deep/x.md",
        "skills/a/file-link.md",
        "skills/dangling",
        "skills/dangling/more",
        "missing/deeper/file.md",
        "loop1",
        "loop1/x",
        "skills/./a",
        "skills/a/",
        "skills//a",
    ]
    for rel in asked * 2:  # the second round answers from what the first one learned
        path = os.path.join(os.fspath(tree), rel)
        assert realpath(path) == os.path.realpath(path), rel


def test_relative_paths_fall_back_to_realpath(tree: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tree)
    assert files.RealPaths()("skills/inside-link") == os.path.realpath("skills/inside-link")


def test_is_inside_sees_through_symlinks(tree: Path):
    realpath = files.RealPaths()
    assert files.is_inside(tree / "skills" / "inside-link", tree, realpath)
    assert not files.is_inside(tree / "skills" / "outside-link", tree, realpath)


@pytest.mark.parametrize("size", [0, 1, 4095, 4096, 70_000])
def test_read_text_reads_whole_files_of_any_size(tmp_path: Path, size: int):
    path = tmp_path / "f.md"
    path.write_text("a" * size, encoding="utf-8")
    assert files.read_text(path) == "a" * size


def test_read_text_refuses_a_file_past_the_limit(tmp_path: Path):
    path = tmp_path / "big.md"
    path.write_text("a" * 101, encoding="utf-8")
    assert files.read_text(path, limit=101) == "a" * 101
    with pytest.raises(files.UnreadableFile, match="larger than"):
        files.read_text(path, limit=100)


def test_read_text_reads_past_a_size_that_says_zero(tmp_path: Path):
    """Files under /proc report size 0 and still have content."""
    proc = Path("/proc/self/status")
    if not proc.exists():
        pytest.fail("this test needs Linux /proc")
    assert "Name:" in files.read_text(proc)


def test_a_size_that_says_zero_still_meets_the_limit():
    with pytest.raises(files.UnreadableFile, match="larger than"):
        files.read_text(Path("/proc/self/status"), limit=10)


PARTS = st.lists(st.sampled_from(["a", "ab", "b", "..", "."]), min_size=0, max_size=5)


@settings(max_examples=300, derandomize=True)
@given(PARTS, PARTS)
def test_within_agrees_with_pathlib_on_normalised_paths(folder: list[str], path: list[str]):
    folder_path = os.path.normpath(os.path.join("/r", *folder))
    full = os.path.normpath(os.path.join("/r", *path))
    assert within(full, folder_path) == PurePosixPath(full).is_relative_to(folder_path)


@settings(max_examples=300, derandomize=True)
@given(PARTS)
def test_rel_to_agrees_with_relpath(path: list[str]):
    root = "/repo/root"
    full = os.path.join(root, *path)
    assert rel_to(root, full) == PurePosixPath(os.path.relpath(full, root)).as_posix()


def test_write_atomic_replaces_the_whole_file_and_leaves_no_temporary(tmp_path: Path):
    path = tmp_path / "deep" / "report.json"
    files.write_atomic(path, "first, and longer than the second\n")
    files.write_atomic(path, "second\n")
    assert path.read_text() == "second\n"
    assert sorted(p.name for p in path.parent.iterdir()) == ["report.json"]


def test_write_new_never_replaces_what_is_there(tmp_path: Path):
    path = tmp_path / "report.json"
    files.write_new(path, "mine\n")
    with pytest.raises(FileExistsError):
        files.write_new(path, "theirs\n")
    assert path.read_text() == "mine\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_write_new_refuses_a_dangling_symlink_rather_than_write_through_it(tmp_path: Path):
    (tmp_path / "report.json").symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(FileExistsError):
        files.write_new(tmp_path / "report.json", "x")
    assert not (tmp_path / "elsewhere.json").exists()


def test_one_of_many_racing_writers_takes_a_name_and_its_file_is_whole(tmp_path: Path):
    path, writers = tmp_path / "report.json", 8
    start, won, lost = threading.Barrier(writers), [], []

    def write(index: int) -> None:
        start.wait()
        try:
            files.write_new(path, f"writer {index}\n" * 1000)
            won.append(index)
        except FileExistsError:
            lost.append(index)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1 and len(lost) == writers - 1
    assert path.read_text() == f"writer {won[0]}\n" * 1000
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_without_hard_links_write_new_still_creates_exclusively(tmp_path: Path, monkeypatch):
    def no_links(source, target):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(files.os, "link", no_links)
    files.write_new(tmp_path / "report.json", "mine\n")
    with pytest.raises(FileExistsError):
        files.write_new(tmp_path / "report.json", "theirs\n")
    assert (tmp_path / "report.json").read_text() == "mine\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_new_files_get_the_modes_a_plain_write_would(tmp_path: Path):
    plain = tmp_path / "plain"
    plain.write_text("x")
    files.write_new(tmp_path / "new", "x")
    files.write_atomic(tmp_path / "replaced", "x")
    mode = plain.stat().st_mode
    assert (tmp_path / "new").stat().st_mode == mode == (tmp_path / "replaced").stat().st_mode


@pytest.mark.parametrize("depth", [500, 1000, 40000])
def test_a_path_of_thousands_of_components_resolves_without_recursion(tmp_path: Path, depth: int) -> None:
    deep = os.path.join(str(tmp_path), *["a"] * depth, "b.md")
    assert files.RealPaths()(deep) == os.path.join(os.path.realpath(tmp_path), *["a"] * depth, "b.md")


@pytest.mark.parametrize("writer", [files.write_atomic, files.append_text])
def test_a_character_device_is_written_into_never_replaced(tmp_path: Path, monkeypatch, writer):
    device = make_node(tmp_path, "char-device", monkeypatch)
    before = kind_of(device)
    writer(device, "report\n")
    assert kind_of(device) == before  # still the node it was: nothing renamed over it
    assert [p.name for p in tmp_path.iterdir()] == ["char-device"]  # no temporary left beside it


@pytest.mark.parametrize("writer", [files.write_atomic, files.append_text])
def test_a_fifo_is_written_into_for_its_reader(tmp_path: Path, monkeypatch, writer):
    fifo = make_node(tmp_path, "fifo", monkeypatch)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    writer(fifo, "report\n")
    reader.join(timeout=60)
    assert got == ["report\n"] and stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("kind", ["block-device", "socket"])
@pytest.mark.parametrize("writer", [files.write_atomic, files.append_text])
def test_what_is_no_file_at_all_is_refused_and_left_as_it_was(tmp_path: Path, monkeypatch, kind, writer):
    node = make_node(tmp_path, kind, monkeypatch)
    before = kind_of(node)
    with pytest.raises(OSError, match=r"not a file; name a file, or - for stdout"):
        writer(node, "report\n")
    assert kind_of(node) == before


@pytest.mark.parametrize("writer", [files.write_atomic, files.append_text])
def test_a_symlink_is_replaced_and_its_target_left_alone(tmp_path: Path, writer):
    outside = tmp_path / "outside.txt"
    outside.write_text("theirs\n")
    link = tmp_path / "report.md"
    link.symlink_to(outside)
    writer(link, "ours\n")
    assert outside.read_text() == "theirs\n"
    assert not link.is_symlink() and link.read_text() == "ours\n"


def test_a_symlink_to_a_character_device_writes_into_the_device(tmp_path: Path, monkeypatch):
    device = make_node(tmp_path, "char-device", monkeypatch)
    link = tmp_path / "stdout"
    link.symlink_to(device)
    files.write_atomic(link, "report\n")
    assert link.is_symlink() and stat.S_ISCHR(os.stat(device).st_mode)


def test_append_text_appends_to_a_regular_file(tmp_path: Path):
    path = tmp_path / "deep" / "summary.md"
    files.append_text(path, "one\n")
    files.append_text(path, "two\n")
    assert path.read_text() == "one\ntwo\n"
