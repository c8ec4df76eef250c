"""harness.files: defensive reads and a realpath that resolves each directory once."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness import files
from harness.files import rel_to, within
from tests.support.examples import examples


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


@settings(max_examples=examples(300), derandomize=True)
@given(PARTS, PARTS)
def test_within_agrees_with_pathlib_on_normalised_paths(folder: list[str], path: list[str]):
    folder_path = os.path.normpath(os.path.join("/r", *folder))
    full = os.path.normpath(os.path.join("/r", *path))
    assert within(full, folder_path) == PurePosixPath(full).is_relative_to(folder_path)


@settings(max_examples=examples(300), derandomize=True)
@given(PARTS)
def test_rel_to_agrees_with_relpath(path: list[str]):
    root = "/repo/root"
    full = os.path.join(root, *path)
    assert rel_to(root, full) == PurePosixPath(os.path.relpath(full, root)).as_posix()


def frames() -> int:
    """How deep the stack is here."""
    frame, count = inspect.currentframe(), 0
    while frame is not None:
        frame, count = frame.f_back, count + 1
    return count


@pytest.mark.parametrize("depth", [500, 1000, 5000])
def test_a_path_of_thousands_of_components_resolves_without_recursion(tmp_path: Path, depth: int) -> None:
    deep = os.path.join(str(tmp_path), *["a"] * depth, "b.md")
    expected = os.path.join(os.path.realpath(tmp_path), *["a"] * depth, "b.md")
    resolve = files.RealPaths()
    # Far fewer frames than components: a call per component fails here, at any depth above the
    # margin, without a path long enough to reach the default limit (its cost grows with its square).
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(frames() + 100)
    try:
        got = resolve(deep)
    finally:
        sys.setrecursionlimit(limit)
    assert got == expected


def test_git_listed_says_what_git_lists_and_none_where_git_cannot_say(tmp_path):
    repo = tmp_path / "repo"
    (repo / "a").mkdir(parents=True)
    (repo / "a" / "kept.py").write_text("x = 1\n", encoding="utf-8")
    (repo / "a" / "odd [1].txt").write_text("", encoding="utf-8")
    (repo / ".gitignore").write_text("*.log\n", encoding="utf-8")
    (repo / "a" / "run.log").write_text("", encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "a/kept.py", ".gitignore"], check=True)
    assert files.git_listed(repo / "a", "--", ".") == ["kept.py"]
    ignored = ["--others", "--ignored", "--exclude-standard", "--"]
    assert files.git_listed(repo / "a", *ignored, "run.log", "kept.py", literal=True) == ["run.log"]
    # pathspecs are patterns unless `literal`
    assert files.git_listed(repo / "a", "--others", "--", "*.txt") == ["odd [1].txt"]
    assert files.git_listed(repo / "a", "--others", "--", "*.txt", literal=True) == []
    outside = tmp_path / "outside"
    outside.mkdir()
    assert (
        files.git_listed(outside, "--", ".", environ={**os.environ, "GIT_CEILING_DIRECTORIES": str(tmp_path)})
        is None
    )
    assert files.git_listed(repo / "a", "--", ".", environ={"PATH": str(tmp_path / "no-bin")}) is None
