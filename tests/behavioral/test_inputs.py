"""A case's input files (skill-creator's `files`) land at the workspace root, and nothing leaves the skill."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.behavioral.inputs import InputError, stage_inputs


def test_input_files_land_at_the_root_under_their_own_names_with_their_mode(tmp_path: Path) -> None:
    skill, ws = tmp_path / "skill", tmp_path / "ws"
    (skill / "evals" / "files").mkdir(parents=True)
    ws.mkdir()
    (skill / "evals" / "files" / "run.sh").write_bytes(b"#!/bin/sh\n")
    os.chmod(skill / "evals" / "files" / "run.sh", 0o755)
    stage_inputs(skill, ["evals/files/run.sh"], ws)
    assert (ws / "run.sh").read_bytes() == b"#!/bin/sh\n"
    assert (ws / "run.sh").stat().st_mode & 0o777 == 0o755


@pytest.mark.parametrize("entry", ["../secret.txt", "evals/link.txt", "evals/missing.txt"])
def test_a_file_outside_the_skill_or_missing_is_refused_with_its_name(tmp_path: Path, entry: str) -> None:
    skill, ws = tmp_path / "skill", tmp_path / "ws"
    (skill / "evals").mkdir(parents=True)
    ws.mkdir()
    (tmp_path / "secret.txt").write_text("key")
    (skill / "evals" / "link.txt").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(InputError, match=entry.replace(".", r"\.")):
        stage_inputs(skill, [entry], ws)
    assert list(ws.iterdir()) == []


def _folder_skill(tmp_path: Path) -> tuple[Path, Path]:
    skill, ws = tmp_path / "skill", tmp_path / "ws"
    pages = skill / "evals" / "files" / "pages"
    (pages / "sub").mkdir(parents=True)
    ws.mkdir()
    (pages / "one.txt").write_text("page one")
    (pages / "sub" / "two.sh").write_text("#!/bin/sh\n")
    os.chmod(pages / "sub" / "two.sh", 0o755)
    (skill / "evals" / "files" / "shared.txt").write_text("shared")
    return skill, ws


@pytest.mark.parametrize("entry", ["evals/files/pages", "evals/files/pages/", "evals/files/./pages"])
def test_a_folder_is_copied_whole_under_its_own_name(tmp_path: Path, entry: str) -> None:
    skill, ws = _folder_skill(tmp_path)
    pages = skill / "evals" / "files" / "pages"
    (pages / "inside.txt").symlink_to("one.txt")  # stays a link, into the copy
    (pages / "elsewhere.txt").symlink_to("../shared.txt")  # inside the skill: copied as the file
    (pages / "evals.json").write_text("{}")  # an answer key's name never reaches the agent
    stage_inputs(skill, [entry], ws)
    assert (ws / "pages" / "one.txt").read_text() == "page one"
    assert (ws / "pages" / "sub" / "two.sh").stat().st_mode & 0o777 == 0o755
    assert (ws / "pages" / "inside.txt").is_symlink()
    assert (ws / "pages" / "inside.txt").read_text() == "page one"
    assert not (ws / "pages" / "elsewhere.txt").is_symlink()
    assert (ws / "pages" / "elsewhere.txt").read_text() == "shared"
    assert not (ws / "pages" / "evals.json").exists()


@pytest.mark.parametrize("link", ["leak.txt", "sub/leak.txt", "leakdir"])
def test_a_folder_holding_a_link_out_of_the_skill_is_refused_as_a_file_is(tmp_path: Path, link: str) -> None:
    skill, ws = _folder_skill(tmp_path)
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "key.txt").write_text("key")
    target = tmp_path / "secret" if link == "leakdir" else tmp_path / "secret" / "key.txt"
    (skill / "evals" / "files" / "pages" / link).symlink_to(target)
    with pytest.raises(InputError, match=f"evals/files/pages/{link}.*leads outside skill/"):
        stage_inputs(skill, ["evals/files/pages"], ws)
    assert list(ws.iterdir()) == []


def test_a_folder_link_to_another_folder_of_the_skill_is_refused_not_left_out(tmp_path: Path) -> None:
    skill, ws = _folder_skill(tmp_path)
    (skill / "evals" / "files" / "pages" / "more").symlink_to("../../../evals")
    with pytest.raises(InputError, match="pages/more is a link leading out of pages/"):
        stage_inputs(skill, ["evals/files/pages"], ws)


def test_the_skill_folder_itself_is_refused_so_the_answer_key_stays_out(tmp_path: Path) -> None:
    skill, ws = _folder_skill(tmp_path)
    with pytest.raises(InputError, match="is skill/ itself"):
        stage_inputs(skill, ["."], ws)
