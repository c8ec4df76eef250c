"""The pipeline sessions install the harness at the pinned version, not whatever is checked out."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.tagged_clone import NO_BYTECODE, RELEASE_TAG, TAGGED_VERSION, make_tagged_clone

ROOT = Path(__file__).resolve().parent.parent

# Each test builds venvs through nox: the slow lane.
pytestmark = pytest.mark.venv


@pytest.fixture(scope="module")
def tagged_clone(tmp_path_factory) -> Path:
    return make_tagged_clone(tmp_path_factory.mktemp("source"))


def run_nox(noxfile: Path, session: str, cwd: Path, envdir: Path, *posargs: str, **env: str):
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLSCOPE_", "GITHUB_"))}
    environ.update(NO_BYTECODE, **env)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "nox",
            "-f",
            str(noxfile),
            "-s",
            session,
            "--envdir",
            str(envdir),
            "--",
            *posargs,
        ],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_structural_session_installs_the_tag_of_a_pep440_version_once(tmp_path, tagged_clone):
    """SKILLSCOPE_VERSION=9.9.1 is the tag v9.9.1 of the source; a second call reuses the install."""
    skills = tmp_path / "skills-repo"
    shutil.copytree(ROOT / "examples" / "skills", skills)
    env = {"SKILLSCOPE_VERSION": TAGGED_VERSION, "SKILLSCOPE_SOURCE": str(tagged_clone)}
    done = run_nox(tagged_clone / "noxfile.py", "structural", skills, tmp_path / "envs", **env)
    log = done.stdout + done.stderr
    assert done.returncode == 0, log[-3000:]
    assert f"git+{tagged_clone.as_uri()}@{RELEASE_TAG}" in log
    assert f"skillscope {TAGGED_VERSION}" in log  # `skillscope --version` inside the session's venv
    assert "3 skill(s)" in done.stdout  # ran against the directory nox was invoked from

    again = run_nox(tagged_clone / "noxfile.py", "structural", skills, tmp_path / "envs", **env)
    log = again.stdout + again.stderr
    assert again.returncode == 0, log[-3000:]
    assert "is already installed" in log and "pip install" not in log
    assert f"skillscope {TAGGED_VERSION}" in log
