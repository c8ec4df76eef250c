"""Staging skills into a throwaway workspace."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.agent import WorkspaceError, installed_skills, stage_workspace
from harness.agent.workspace import clean_temp_parent, skills_ancestor


def test_skills_are_installed_without_their_answer_key(skill_sources, temp_root):
    with stage_workspace(skill_sources, temp_root) as workspace:
        installed = installed_skills(workspace)
        assert sorted(installed) == ["dirname", "pdf", "pdf-tools"]
        assert (installed["pdf"] / "SKILL.md").read_text().startswith("---\nname: pdf")
        assert not (installed["pdf"] / "evals").exists()
        assert workspace.parent == temp_root.resolve()
    assert not workspace.exists()
    assert list(temp_root.iterdir()) == []


def test_workspace_is_removed_even_when_the_body_fails(skill_sources, temp_root):
    with pytest.raises(RuntimeError), stage_workspace(skill_sources, temp_root):
        raise RuntimeError("grader crashed")
    assert list(temp_root.iterdir()) == []


def test_symlinks_never_lead_out_of_the_skill(tmp_path, temp_root):
    skill = tmp_path / "repo" / "linky"
    (skill / "evals").mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: linky\ndescription: d\n---\n")
    (skill / "notes.md").write_text("inside")
    (skill / "evals" / "evals.json").write_text("{}")
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    (skill / "inside-link.md").symlink_to("notes.md")
    (skill / "absolute-inside.md").symlink_to(skill / "notes.md")
    (skill / "outside-link.txt").symlink_to(outside)
    (skill / "outside-dir").symlink_to(tmp_path)
    (skill / "answers.json").symlink_to(skill / "evals" / "evals.json")
    with stage_workspace({"linky": skill}, temp_root) as workspace:
        copy = workspace / ".claude" / "skills" / "linky"
        assert (copy / "inside-link.md").read_text() == "inside"
        assert os.readlink(copy / "absolute-inside.md") == "notes.md"  # points into the copy
        for gone in ("outside-link.txt", "outside-dir", "answers.json", "evals"):
            assert not os.path.lexists(copy / gone), gone


def test_fixture_contents_land_in_the_workspace_root(skill_sources, tmp_path, temp_root):
    fixture = tmp_path / "fixture"
    (fixture / "data").mkdir(parents=True)
    (fixture / "data" / "table.csv").write_text("a,b\n")
    with stage_workspace({"pdf": skill_sources["pdf"]}, temp_root, fixture=fixture) as workspace:
        assert (workspace / "data" / "table.csv").read_text() == "a,b\n"


def test_missing_skill_or_fixture_is_a_clear_error(tmp_path, temp_root):
    ghost = stage_workspace({"ghost": tmp_path / "ghost"}, temp_root)
    with pytest.raises(WorkspaceError, match="SKILL.md not found"), ghost:
        pass
    no_fixture = stage_workspace({}, temp_root, fixture=tmp_path / "nope")
    with pytest.raises(WorkspaceError, match="fixture directory not found"), no_fixture:
        pass
    assert list(temp_root.iterdir()) == []


def test_a_named_pipe_in_a_fixture_is_a_workspace_error_naming_it(tmp_path, temp_root):
    fixture = tmp_path / "fixture"
    fixture.mkdir()
    os.mkfifo(fixture / "feed")
    staged = stage_workspace({}, temp_root, fixture=fixture)
    refused = r"feed cannot be copied into the workspace: it is a named pipe \(FIFO\), not a regular file"
    with pytest.raises(WorkspaceError, match=refused), staged:
        pass
    assert list(temp_root.iterdir()) == []


def test_a_parent_with_skills_above_it_is_refused(tmp_path):
    dirty = tmp_path / "dirty"
    (dirty / ".claude" / "skills").mkdir(parents=True)
    nested = dirty / "deep" / "er"
    nested.mkdir(parents=True)
    assert skills_ancestor(nested) == dirty
    with pytest.raises(WorkspaceError, match="leak skills"):
        clean_temp_parent(nested)
    with pytest.raises(WorkspaceError), stage_workspace({}, nested):
        pass


def test_the_default_temp_parent_is_clean(monkeypatch, tmp_path):
    dirty = tmp_path / "dirty"
    (dirty / ".claude" / "skills").mkdir(parents=True)
    monkeypatch.setenv("TMPDIR", str(dirty))
    monkeypatch.setattr("tempfile.tempdir", None)  # re-read TMPDIR
    chosen = clean_temp_parent()
    assert skills_ancestor(chosen) is None
    assert Path(chosen) != dirty


def test_a_fixture_never_brings_a_dataset_into_the_workspace(tmp_path, temp_root):
    fixture = tmp_path / "fixture"
    (fixture / "deep").mkdir(parents=True)
    (fixture / "input.csv").write_text("a,b\n")
    (fixture / "evals.json").write_text("{}")
    (fixture / "deep" / "extended_evals.json").write_text("{}")
    with stage_workspace({}, temp_root, fixture=fixture) as workspace:
        names = sorted(p.relative_to(workspace).as_posix() for p in workspace.rglob("*") if p.is_file())
    assert names == ["input.csv"]
