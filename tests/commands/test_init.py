"""`skillscope init`: a skills repo gets a caller workflow, the .gitignore line, settings, a first skill."""

from __future__ import annotations

import subprocess

import pytest
import yaml

from harness import home
from tests.support.helpers import run_cli, structural


def test_init_writes_the_workflow_gitignore_settings_and_a_first_skill(tmp_path):
    (tmp_path / ".gitignore").write_text("*.pyc")
    run = run_cli(["init", "--skill", "csv-tool"], cwd=tmp_path)
    assert run.code == 0, run.stderr
    workflow = yaml.safe_load((tmp_path / ".github" / "workflows" / "skills.yml").read_text())
    job = workflow["jobs"]["evals"]
    assert job["uses"] == f"{home.repository()}/.github/workflows/reusable.yml@{home.release_tag()}"
    assert job["with"]["skills"].strip() == "skills/*"
    assert workflow["permissions"] == {"contents": "read"}
    assert (tmp_path / ".gitignore").read_text() == "*.pyc\n.skillscope/*\n!.skillscope/baseline.json\n"
    assert 'skills-dir = ["skills/*"]' in (tmp_path / "skillscope.toml").read_text()
    assert (tmp_path / "skills" / "csv-tool" / "SKILL.md").is_file()
    _, report = structural(tmp_path)  # the settings just written find the new skill
    assert report["skills"] == ["csv-tool"]
    assert {f["rule"] for f in report["findings"]} == {"template-leftover"}  # until its text is written


def test_the_workflow_is_clean_under_actionlint(tmp_path):
    actionlint = pytest.importorskip("shutil").which("actionlint")
    assert actionlint, "actionlint is pinned in requirements-dev.txt"
    run_cli(["init", "--skills-dir", "catalog/*"], cwd=tmp_path)
    workflow = tmp_path / ".github" / "workflows" / "skills.yml"
    done = subprocess.run([actionlint, str(workflow)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"catalog/**"' in workflow.read_text()


def test_init_twice_keeps_what_exists_and_names_the_way_to_replace_it(tmp_path):
    assert run_cli(["init"], cwd=tmp_path).code == 0
    again = run_cli(["init"], cwd=tmp_path)
    assert again.code == 2
    assert "skills.yml already exists; delete it or pass --force" in again.stderr
    forced = run_cli(["init", "--force"], cwd=tmp_path)
    assert forced.code == 0
    assert (tmp_path / ".gitignore").read_text().count(".skillscope/*") == 1
    assert "skillscope.toml" not in forced.stdout  # the settings already there are kept


def test_init_leaves_settings_in_pyproject_alone(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.skillscope]\nskills-dir = "agents/*"\n')
    assert run_cli(["init"], cwd=tmp_path).code == 0
    assert not (tmp_path / "skillscope.toml").exists()


@pytest.mark.parametrize("before", ["", "*.pyc\n", ".skillscope/\n", "/.skillscope\n*.log\n"])
def test_after_init_the_baseline_is_committed_and_the_reports_are_not(tmp_path, before):
    """Checked with git itself: `git add -A` after init, a run and `skillscope baseline` takes the
    baseline (CI needs it) and none of the reports; an older init's `.skillscope/` line is mended."""
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text(before)
    assert run_cli(["init", "--skill", "csv-tool"], cwd=tmp_path).code == 0
    structural(tmp_path)
    assert run_cli(["baseline"], cwd=tmp_path).code == 0
    again = run_cli(["init", "--force"], cwd=tmp_path)
    assert again.code == 0 and ".gitignore" not in again.stdout  # a second init leaves it as it is
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    tracked = subprocess.run([*git, "ls-files"], cwd=tmp_path, capture_output=True, text=True).stdout.split()
    assert ".skillscope/baseline.json" in tracked
    assert not [
        path for path in tracked if path.startswith(".skillscope/") and path != ".skillscope/baseline.json"
    ]
    assert (tmp_path / ".gitignore").read_text().count(".skillscope/*") == 1
