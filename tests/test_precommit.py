"""The hooks of .pre-commit-hooks.yaml, run by pre-commit itself (`try-repo`) on a skills repo fixture."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.tagged_clone import GIT

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "precommit" / "skills-repo"

# pre-commit installs the harness into one hook environment for the module, in one worker.
pytestmark = [pytest.mark.venv, pytest.mark.xdist_group("precommit")]


@pytest.fixture
def skills_repo(tmp_path) -> Path:
    repo = tmp_path / "skills-repo"
    shutil.copytree(FIXTURE, repo)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "skills"]):
        subprocess.run([*GIT, *args], cwd=repo, check=True, capture_output=True)
    return repo


def try_repo(repo: Path, hook: str, home: Path, **extra: str) -> subprocess.CompletedProcess:
    """`pre-commit try-repo` of this checkout, with no `skillscope` on PATH: pre-commit installs the
    harness into an environment of its own (from the package index, as for a user) and runs it there."""
    stray = ("SKILLSCOPE_", "GITHUB_", "VIRTUAL_ENV")
    environ = {k: v for k, v in os.environ.items() if not k.startswith(stray)}
    environ.update(CI="true")
    environ.update(
        PRE_COMMIT_HOME=str(home),
        PATH=path_without_skillscope(),
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


def path_without_skillscope() -> str:
    """PATH less every folder that holds a `skillscope` (this venv's bin among them)."""
    folders = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(f for f in folders if f and not shutil.which("skillscope", path=f))


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    """One pre-commit home for the module: the hook environment is built once, as for a user."""
    return tmp_path_factory.mktemp("pre-commit-home")


def test_the_hooks_install_the_harness_themselves():
    assert shutil.which("skillscope", path=path_without_skillscope()) is None


@pytest.mark.parametrize("hook", ["skillscope-structural", "skillscope-refs"])
def test_a_clean_repo_passes_each_hook(skills_repo, home, hook):
    done = try_repo(skills_repo, hook, home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout


@pytest.mark.parametrize("hook", ["skillscope-structural", "skillscope-refs"])
def test_a_broken_anchor_fails_each_hook_naming_the_file_and_line(skills_repo, home, hook):
    reference = skills_repo / "skills" / "csv-tool" / "reference.md"
    reference.write_text(reference.read_text().replace("## Column types", "## Column kinds"))
    subprocess.run([*GIT, "add", "-A"], cwd=skills_repo, check=True)
    done = try_repo(skills_repo, hook, home)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout
    assert "skills/csv-tool/SKILL.md" in done.stdout and "column-types" in done.stdout
