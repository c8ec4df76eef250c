"""The shared listing of a skill folder: what it replays is the walk each check made of the folder on its
own (hidden files, links to files and folders, broken links, folders that cannot be listed), and a
structural run lists each folder once for the symlink, name and security checks together."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.checks import CheckOptions, portable_names, security_memo, symlinks
from harness.checks.security import content
from harness.model import catalog, repo
from harness.model.skill_tree import Folder, SkillTree
from tests.support.examples import examples
from tests.support.helpers import make_skill

NAMES = st.sampled_from(["a", "b", ".hidden", "evals", "Z", "refs", "x.md", ".git", "é"])
# A tree: each entry a file, a folder (its own tree), a link to a file or folder, or a broken link.
TREES = st.recursive(
    st.sampled_from(["file", "link-file", "link-folder", "broken-link"]),
    lambda inner: st.dictionaries(NAMES, inner, max_size=4),
    max_leaves=12,
)


def build(folder: Path, tree: object) -> list[Path]:
    """Makes `tree` under `folder`; the folders made, for some to be refused a listing."""
    folder.mkdir(parents=True, exist_ok=True)
    made = [folder]
    for name, entry in tree.items() if isinstance(tree, dict) else []:
        path = folder / name
        if isinstance(entry, dict):
            made += build(path, entry)
        elif entry == "file":
            path.write_text(f"{name}\n", encoding="utf-8")
        elif entry == "link-file":
            path.symlink_to("../outside.txt" if folder.name != "top" else "outside.txt")
        elif entry == "link-folder":
            path.symlink_to(".", target_is_directory=True)
        else:
            path.symlink_to("nowhere")
    return made


def refusing(monkeypatch, refused: set[str]) -> None:
    """Listing any of `refused` fails as a folder without read permission does (tests run as root)."""
    real = os.scandir

    def scandir(path="."):
        if os.fspath(path) in refused:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def own_walk(top: Path, skip: frozenset[str] = frozenset()) -> list[object]:
    """The walk the checks made before the listing was shared (the security reader's when `skip`)."""
    out: list[object] = []
    for current, dirs, files in os.walk(top, onerror=out.append):
        if Path(current) == top:
            dirs[:] = [name for name in dirs if name not in skip]
        dirs.sort()
        out.append(Folder(current, tuple(dirs), tuple(sorted(files))))
    return out


@settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(tree=st.dictionaries(NAMES, TREES, max_size=5), refuse=st.sets(st.integers(0, 8), max_size=2))
def test_the_listing_replays_each_checks_own_walk(tmp_path_factory, monkeypatch, tree, refuse):
    root = tmp_path_factory.mktemp("tree")
    (root / "outside.txt").write_text("out\n", encoding="utf-8")
    made = build(root / "top", tree)
    refused = {os.fspath(made[i]) for i in refuse if i < len(made)}
    with monkeypatch.context() as patch:
        refusing(patch, refused)
        listing = SkillTree(root / "top")
        for skip in (frozenset(), content.LEFT_OUT):
            replayed = list(listing.walk(skip))
            walked = own_walk(root / "top", skip)
            assert [shown(step) for step in replayed] == [shown(step) for step in walked]


def shown(step: object) -> object:
    return (type(step).__name__, step.filename, step.errno) if isinstance(step, OSError) else step


def test_a_folder_that_cannot_be_listed_is_unread_for_the_security_reader_but_not_under_evals(
    tmp_path, monkeypatch
):
    make_skill(tmp_path, "alpha")
    skill_dir = tmp_path / "alpha"
    for sub in ("refs", "evals/fixtures"):
        (skill_dir / sub).mkdir(parents=True, exist_ok=True)
        (skill_dir / sub / "note.md").write_text("# Note\n", encoding="utf-8")
    refusing(monkeypatch, {os.fspath(skill_dir / "refs"), os.fspath(skill_dir / "evals" / "fixtures")})
    loaded = catalog.load(repo.discover(tmp_path, ["*"]))
    read = content.load(loaded.skills["alpha"], loaded.repo.rel, tree=loaded.tree("alpha"))
    assert list(read.unread) == ["alpha/refs"] and "permission" in read.unread["alpha/refs"].lower()
    assert symlinks.check(loaded, CheckOptions()) == []
    assert portable_names.check(loaded, CheckOptions()) == []


@pytest.mark.parametrize("size", [1, 3])
def test_the_symlink_name_and_security_checks_list_each_folder_once(tmp_path, monkeypatch, size):
    for index in range(size):
        make_skill(tmp_path, f"skill-{index}")
        (tmp_path / f"skill-{index}" / "references").mkdir()
        (tmp_path / f"skill-{index}" / "references" / "guide.md").write_text("# Guide\n", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    loaded = catalog.load(repo.discover(tmp_path, ["skill-*"]))
    listed: list[str] = []
    real = os.scandir

    def counting(path="."):
        listed.append(os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", counting)
    for check in (symlinks.check, portable_names.check, security_memo.check):
        check(loaded, CheckOptions())
    folders = [path for path in listed if "/skill-" in path]
    assert sorted(folders) == sorted(set(folders)) and len(folders) == 3 * size  # top, evals, references
