"""harness.model.repo: the repo root, default globs and skill discovery."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.errors import HarnessError, UsageError
from harness.model import repo
from tests.support.helpers import make_skill, run_cli


def test_explicit_repo_wins_over_the_environment_and_git(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    explicit, env = tmp_path / "explicit", tmp_path / "env"
    explicit.mkdir()
    env.mkdir()
    found = repo.find_root(str(explicit), {"SKILLSCOPE_REPO": str(env)}, tmp_path)
    assert found == explicit.resolve()


def test_skillscope_repo_is_used_when_no_flag_is_given(tmp_path: Path) -> None:
    (tmp_path / "env").mkdir()
    assert repo.find_root(None, {"SKILLSCOPE_REPO": "env"}, tmp_path) == (tmp_path / "env").resolve()


def test_an_invalid_skillscope_repo_is_a_usage_error_naming_the_variable(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="SKILLSCOPE_REPO") as caught:
        repo.find_root(None, {"SKILLSCOPE_REPO": "missing"}, tmp_path)
    assert caught.value.exit_code == 2


def test_the_nearest_ancestor_holding_git_is_the_root(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    deep = tmp_path / "skills" / "one"
    deep.mkdir(parents=True)
    assert repo.find_root(None, {}, deep) == tmp_path.resolve()


def test_without_git_the_current_directory_is_the_root(tmp_path: Path) -> None:
    # tmp_path sits outside any checkout, so no ancestor holds .git.
    assert not any((p / ".git").exists() for p in (tmp_path, *tmp_path.parents))
    assert repo.find_root(None, {}, tmp_path) == tmp_path.resolve()


def test_default_globs_are_every_directory_in_the_current_one_written_root_relative(tmp_path: Path) -> None:
    (tmp_path / "skills").mkdir()
    assert repo.default_globs(tmp_path.resolve(), tmp_path) == ["*"]
    assert repo.default_globs(tmp_path.resolve(), tmp_path / "skills") == ["skills/*"]


def test_default_globs_fall_back_to_the_root_when_cwd_is_outside_it(tmp_path: Path) -> None:
    (tmp_path / "root").mkdir()
    (tmp_path / "elsewhere").mkdir()
    assert repo.default_globs((tmp_path / "root").resolve(), tmp_path / "elsewhere") == ["*"]


def test_discover_keeps_directories_holding_skill_md_and_skips_hidden_ones(tmp_path: Path) -> None:
    make_skill(tmp_path / "skills", "alpha")
    make_skill(tmp_path / "skills", ".hidden")
    (tmp_path / "skills" / "notes").mkdir()
    (tmp_path / "skills" / "README.md").write_text("# skills\n")
    found = repo.discover(tmp_path, ["skills/*"])
    assert found.names == ["alpha"]
    assert found.problems == []


def test_discover_refuses_globs_leaving_the_root(tmp_path: Path) -> None:
    for pattern in ("../*", "/etc/*"):
        with pytest.raises(UsageError, match="--skills-dir"):
            repo.discover(tmp_path, [pattern])


def test_two_skill_folders_with_the_same_name_are_a_usage_error(tmp_path: Path) -> None:
    make_skill(tmp_path / "a", "same")
    make_skill(tmp_path / "b", "same")
    with pytest.raises(UsageError, match="same"):
        repo.discover(tmp_path, ["a/*", "b/*"])


def test_a_symlinked_skill_leading_outside_the_repo_is_a_finding(tmp_path: Path) -> None:
    outside = make_skill(tmp_path / "outside", "borrowed")
    root = tmp_path / "root"
    root.mkdir()
    (root / "borrowed").symlink_to(outside)
    found = repo.discover(root, ["*"])
    assert found.names == []
    assert [(p.rule, p.path) for p in found.problems] == [("skill-outside-repo", "borrowed")]


def test_with_dataset_lists_only_skills_that_have_evals_json(tmp_path: Path) -> None:
    make_skill(tmp_path, "with-data")
    make_skill(tmp_path, "without-data", evals=None)
    assert repo.discover(tmp_path, ["*"]).with_dataset() == ["with-data"]


@pytest.mark.parametrize("position", ["before", "after"])
def test_repo_is_accepted_before_and_after_the_command_name(tmp_path: Path, position: str) -> None:
    make_skill(tmp_path / "repo", "alpha")
    flag = ["--repo", str(tmp_path / "repo")]
    args = [*flag, "list-skills"] if position == "before" else ["list-skills", *flag]
    run = run_cli(args, cwd=tmp_path)
    assert (run.code, run.stdout.strip()) == (0, '["alpha"]')


def test_skillscope_skills_sets_the_globs_when_the_flag_is_absent(tmp_path: Path) -> None:
    make_skill(tmp_path / "skills", "alpha")
    make_skill(tmp_path / "other", "beta")
    run = run_cli(
        ["list-skills", "--repo", str(tmp_path)], cwd=tmp_path, environ={"SKILLSCOPE_SKILLS": "other/*"}
    )
    assert run.stdout.strip() == '["beta"]'


def test_skills_dir_defaults_to_the_directories_of_the_current_one(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    make_skill(tmp_path / "skills", "alpha")
    make_skill(tmp_path, "top-level")
    run = run_cli(["list-skills"], cwd=tmp_path / "skills")
    assert run.stdout.strip() == '["alpha"]'


@pytest.mark.parametrize("pattern", ["**", "skills/**", "**/x", "skills/**/*"])
def test_a_recursive_glob_is_a_usage_error_not_a_search_of_every_folder(tmp_path: Path, pattern: str) -> None:
    make_skill(tmp_path / "vendor" / "node_modules" / "deep", "x")
    with pytest.raises(UsageError, match="one level down") as caught:
        repo.discover(tmp_path, [pattern])
    assert caught.value.exit_code == 2


@pytest.mark.parametrize("pattern, locked", [("skills/*", "skills"), ("*", "."), ("skills/demo", "skills")])
def test_a_folder_the_glob_may_not_list_is_named_with_permission_denied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pattern: str, locked: str
) -> None:
    make_skill(tmp_path / "skills", "demo")
    real_listdir = os.listdir
    closed = os.path.normpath(tmp_path / locked)

    def listdir(path="."):  # root lists any folder: deny this one directly
        if os.path.normpath(path) == closed:
            raise PermissionError(13, "Permission denied", str(path))
        return real_listdir(path)

    monkeypatch.setattr(os, "listdir", listdir)
    with pytest.raises(HarnessError, match="cannot be listed \\(permission denied\\)") as caught:
        repo.discover(tmp_path, [pattern])
    assert caught.value.exit_code == 1


def test_skills_below_counts_the_folders_one_level_down_that_hold_skills(tmp_path: Path) -> None:
    for folder, name in [
        ("skills", "a"),
        ("skills", "b"),
        ("staging", "c"),
        ("node_modules", "vendored"),
        (".hidden", "d"),
    ]:
        make_skill(tmp_path / folder, name)
    make_skill(tmp_path, "top", files={"examples/inner/SKILL.md": "---\nname: inner\n---\n"})

    assert repo.skills_below(tmp_path, ["*"]) == {"skills/*": 2, "staging/*": 1}


def test_skills_below_a_subfolder_glob_are_written_root_relative(tmp_path: Path) -> None:
    make_skill(tmp_path / "packs" / "docs", "writer")
    assert repo.skills_below(tmp_path, ["packs/*"]) == {"packs/docs/*": 1}


def test_the_missed_note_is_only_for_a_default_that_found_some_but_not_all(tmp_path: Path) -> None:
    found = repo.discover(tmp_path, ["*"])
    found.elsewhere = {"skills/*": 4}
    assert found.missed_note() is None  # nothing found: the no-skill error says where instead
    assert "skills/* holds 4: pass --skills-dir 'skills/*'" in found.where_to_look()

    make_skill(tmp_path, "top")
    found = repo.discover(tmp_path, ["*"])
    assert found.missed_note() is None  # nothing further down
    found.elsewhere = {"skills/*": 4}
    assert "the 4 one level down are not graded" in (found.missed_note() or "")
