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
