"""changed_since against real git repositories: merge base, unrelated histories, missing commits."""

from __future__ import annotations

import pytest

from harness.errors import HarnessError
from harness.select import gitdiff
from tests.support.select import commit, git, init_repo


@pytest.fixture
def forked(tmp_path):
    """main advanced past the point `feature` branched from; each side touched its own files."""
    root = init_repo(tmp_path / "repo")
    commit(root, "start", {"skills/a/SKILL.md": "a\n", "skills/b/SKILL.md": "b\n", "ci.yml": "v1\n"})
    git(root, "checkout", "-q", "-b", "feature")
    commit(root, "feature work", {"skills/a/references/guide.md": "new\n"})
    git(root, "checkout", "-q", "main")
    commit(root, "main moved on", {"skills/b/SKILL.md": "b2\n", "ci.yml": "v2\n"})
    return root


def test_a_branch_behind_an_advanced_base_sees_only_its_own_changes(forked):
    diff = gitdiff.changed_since(forked, "main", "feature")
    assert diff.paths == ["skills/a/references/guide.md"]
    assert diff.merge_base and diff.base == git(forked, "merge-base", "main", "feature")


def test_an_infra_path_changed_only_on_the_base_is_not_the_branchs_change(forked):
    assert "ci.yml" not in gitdiff.changed_since(forked, "main", "feature").paths


def test_unrelated_histories_fall_back_to_the_two_commit_diff(tmp_path):
    root = init_repo(tmp_path / "repo")
    first = commit(root, "one", {"skills/a/SKILL.md": "a\n", "shared.md": "x\n"})
    git(root, "checkout", "-q", "--orphan", "other")
    git(root, "rm", "-q", "-rf", "--cached", ".")
    (root / "skills" / "a" / "SKILL.md").unlink()
    commit(root, "two", {"shared.md": "x\n", "skills/b/SKILL.md": "b\n"})
    diff = gitdiff.changed_since(root, first, "other")
    assert not diff.merge_base and diff.base == first
    assert diff.paths == ["skills/a/SKILL.md", "skills/b/SKILL.md"]


def test_a_shallow_clone_without_the_fork_point_is_an_error_not_unrelated_histories(forked, tmp_path):
    # CI's default checkout: one commit of the branch, and the base fetched one commit deep
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--depth", "1", "--branch", "feature", forked.as_uri(), str(clone))
    git(clone, "fetch", "-q", "--depth", "1", "origin", "main:main")
    with pytest.raises(HarnessError) as caught:
        gitdiff.changed_since(clone, "main", "feature")
    message = str(caught.value)
    assert "shallow clone" in message and "fetch-depth: 0" in message and "--unshallow" in message
    assert "unrelated" not in message


def test_a_rename_lists_both_the_old_and_the_new_path(tmp_path):
    root = init_repo(tmp_path / "repo")
    commit(root, "one", {"skills/a/references/guide.md": "a long enough body to be detected as a rename\n"})
    base = git(root, "rev-parse", "HEAD")
    (root / "skills" / "b").mkdir()
    git(root, "mv", "skills/a/references/guide.md", "skills/b/guide.md")
    commit(root, "move")
    assert gitdiff.changed_since(root, base, "HEAD").paths == [
        "skills/a/references/guide.md",
        "skills/b/guide.md",
    ]


def test_paths_are_relative_to_a_repo_root_below_the_git_root(tmp_path):
    root = init_repo(tmp_path / "repo")
    base = commit(root, "one", {"catalog/skills/a/SKILL.md": "a\n", "outside.md": "x\n"})
    commit(root, "two", {"catalog/skills/a/SKILL.md": "a2\n", "outside.md": "y\n"})
    assert gitdiff.changed_since(root / "catalog", base, "HEAD").paths == ["skills/a/SKILL.md"]


def test_odd_file_names_come_through_unquoted(tmp_path):
    root = init_repo(tmp_path / "repo")
    base = commit(root, "one")
    commit(root, "two", {"skills/a/notes é.md": "x\n"})
    assert gitdiff.changed_since(root, base, "HEAD").paths == ["skills/a/notes é.md"]


def test_a_missing_commit_is_a_clear_error(forked):
    with pytest.raises(HarnessError) as caught:
        gitdiff.changed_since(forked, "origin/nowhere", "feature")
    message = str(caught.value)
    assert message.startswith("--since: 'origin/nowhere' is not a commit")
    assert "fetch-depth: 0" in message


def test_outside_a_git_repository_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))  # even inside a clone
    with pytest.raises(HarnessError, match="is not inside a git repository"):
        gitdiff.changed_since(tmp_path, "main", "HEAD")


def test_gits_safe_directory_refusal_is_passed_through_with_its_fix(forked, monkeypatch):
    # git's own test switch for a repository owned by another user, as in a CI container
    monkeypatch.setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1")
    with pytest.raises(HarnessError, match="dubious ownership") as caught:
        gitdiff.changed_since(forked, "main", "feature")
    assert "safe.directory" in str(caught.value) and "not inside a git repository" not in str(caught.value)


def test_text_at_reads_a_file_as_the_commit_had_it(forked):
    base = git(forked, "merge-base", "main", "feature")
    assert gitdiff.text_at(forked, base, "ci.yml") == "v1\n"
    assert gitdiff.text_at(forked, base, "pyproject.toml") is None
