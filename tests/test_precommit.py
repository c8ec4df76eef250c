"""The hooks of .pre-commit-hooks.yaml, run by pre-commit itself (`try-repo`) on a skills repo fixture."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import daemon as D
from tests.support.tagged_clone import GIT

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "precommit" / "skills-repo"


@pytest.fixture
def skills_repo(tmp_path) -> Path:
    repo = tmp_path / "skills-repo"
    shutil.copytree(FIXTURE, repo)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "skills"]):
        subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True)
    return repo


def try_repo(repo: Path, hook: str, home: Path, **extra: str) -> subprocess.CompletedProcess:
    """`pre-commit try-repo` of this checkout, offline: the hooks run the skillscope installed beside us.
    As in a CI job unless `extra` says otherwise: the hooks start no daemon there."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("SKILLSCOPE_", "GITHUB_"))}
    environ.update(CI="true")
    environ.update(
        PRE_COMMIT_HOME=str(home),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{environ.get('PATH', '')}",
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.invalid",
        **extra,
    )
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), hook, "--all-files", "--verbose"],
        cwd=repo,
        env=environ,
        capture_output=True,
        text=True,
        timeout=280,
    )


@pytest.mark.parametrize("hook", ["skillscope-structural", "skillscope-refs"])
def test_a_clean_repo_passes_each_hook(skills_repo, tmp_path, hook):
    done = try_repo(skills_repo, hook, tmp_path / "pre-commit-home")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout


@pytest.mark.parametrize("hook", ["skillscope-structural", "skillscope-refs"])
def test_a_broken_anchor_fails_each_hook_naming_the_file_and_line(skills_repo, tmp_path, hook):
    reference = skills_repo / "skills" / "csv-tool" / "reference.md"
    reference.write_text(reference.read_text().replace("## Column types", "## Column kinds"))
    subprocess.run([*GIT, "add", "-A"], cwd=skills_repo, check=True)
    done = try_repo(skills_repo, hook, tmp_path / "pre-commit-home")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout
    assert "skills/csv-tool/SKILL.md" in done.stdout and "column-types" in done.stdout


def test_outside_ci_the_first_hook_call_leaves_a_daemon_that_serves_the_next(skills_repo, tmp_path):
    with D.runtime_folder() as runtime:
        own = {"CI": "", "XDG_RUNTIME_DIR": str(runtime), "SKILLSCOPE_DAEMON_WAIT": str(D.WAIT_S)}
        status_env = {**D.environ(Path(os.environ["HOME"]), runtime), **own}
        try:
            first = try_repo(skills_repo, "skillscope-structural", tmp_path / "pre-commit-home", **own)
            assert first.returncode == 0 and "Passed" in first.stdout, first.stdout + first.stderr
            up = D.status_when_up(status_env, tmp_path)
            again = try_repo(skills_repo, "skillscope-structural", tmp_path / "pre-commit-home", **own)
            assert again.returncode == 0 and "Passed" in again.stdout, again.stdout + again.stderr
            after = D.skillscope(["daemon", "status"], env=status_env, cwd=tmp_path).stdout
            assert "1 run(s) served" in after and D.pid_in(after) == D.pid_in(up)
        finally:
            D.end_listed(status_env, tmp_path)
