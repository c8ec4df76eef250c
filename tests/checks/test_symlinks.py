"""Windows checkouts: a symbolic link in a skill folder (or the skill folder itself), and a one-line file
that is what such a link becomes where links are off, are warnings naming the fix. The fixtures are made
here, not committed: this repo's own checkout must work on Windows too."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.checks import CheckOptions, symlinks
from harness.model import catalog, repo
from tests.support.examples import examples
from tests.support.helpers import make_skill, structural


def found(root: Path) -> list[tuple[str, str]]:
    loaded = catalog.load(repo.discover(root, ["*"]))
    return sorted((f.rule, f.path) for f in symlinks.check(loaded, CheckOptions()))


@pytest.mark.parametrize("kind", ["file", "folder"])
def test_a_link_inside_a_skill_is_a_warning_naming_the_fix(tmp_path: Path, kind: str):
    make_skill(tmp_path, "alpha")
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "guide.md").write_text("# Guide\n")
    target = shared / "guide.md" if kind == "file" else shared
    (tmp_path / "alpha" / "guide").symlink_to(os.path.relpath(target, tmp_path / "alpha"))
    run, report = structural(tmp_path, "--skills-dir", "alpha")
    [finding] = [f for f in report["findings"] if f["rule"] == "symlink-in-skill"]
    assert finding["path"] == "alpha/guide" and finding["severity"] == "warning"
    assert "core.symlinks" in finding["message"] and "copy the file" in finding["message"]


def test_a_linked_skill_folder_is_a_warning(tmp_path: Path):
    make_skill(tmp_path / "real", "alpha")
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "alpha").symlink_to("../real/alpha")
    assert ("symlink-in-skill", "skills/alpha") in found_in(tmp_path, "skills/*")


def found_in(root: Path, glob: str) -> list[tuple[str, str]]:
    loaded = catalog.load(repo.discover(root, [glob]))
    return sorted((f.rule, f.path) for f in symlinks.check(loaded, CheckOptions()))


@pytest.mark.parametrize("text", ["../shared/guide.md", "../shared", "scripts/run.sh", "SKILL.md"])
def test_a_file_that_is_a_flattened_link_is_a_warning(tmp_path: Path, text: str):
    make_skill(tmp_path, "alpha")
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "guide.md").write_text("# Guide\n")
    (tmp_path / "alpha" / "scripts").mkdir()
    (tmp_path / "alpha" / "scripts" / "run.sh").write_text("echo\n")
    (tmp_path / "alpha" / "notes.md").write_bytes(text.encode())
    assert found(tmp_path) == [("symlink-as-text", "alpha/notes.md")]


@pytest.mark.parametrize(
    "text",
    [
        "../shared/guide.md\n",  # a newline: a file someone wrote, not git's flattened link
        "../shared/missing.md",  # names nothing that exists
        "see ../shared/guide.md",  # prose
        "notes.md",  # itself
        "",
    ],
)
def test_a_file_that_only_resembles_one_is_not_flagged(tmp_path: Path, text: str):
    make_skill(tmp_path, "alpha")
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "guide.md").write_text("# Guide\n")
    (tmp_path / "alpha" / "notes.md").write_bytes(text.encode())
    assert found(tmp_path) == []


@settings(max_examples=examples(60), deadline=None)
@given(st.text(max_size=40))
def test_no_one_line_text_naming_nothing_is_flagged(tmp_path_factory, text: str):
    root = tmp_path_factory.mktemp("prop")
    make_skill(root, "alpha")
    (root / "alpha" / "notes.txt").write_text(text, encoding="utf-8", errors="surrogatepass")
    flagged = found(root)
    target = root / "alpha" / text
    if flagged:  # only ever a path to something that exists
        assert text and not text.startswith("/") and target.exists()


def test_only_a_file_small_enough_to_be_a_flattened_link_is_read(tmp_path: Path, monkeypatch):
    """A large catalog has thousands of files; a flattened link is one short line, so a file longer
    than the longest target is never opened by this check."""
    make_skill(tmp_path, "alpha")
    (tmp_path / "alpha" / "guide.md").write_text("# Guide\n" + "text\n" * 400)
    (tmp_path / "alpha" / "empty.md").write_text("")
    (tmp_path / "alpha" / "shared").write_text("guide.md")
    opened = []
    real = symlinks.read_bytes
    monkeypatch.setattr(
        symlinks, "read_bytes", lambda path, *rest: opened.append(path.name) or real(path, *rest)
    )
    assert ("symlink-as-text", "alpha/shared") in found(tmp_path)
    assert "guide.md" not in opened and "empty.md" not in opened and "shared" in opened
