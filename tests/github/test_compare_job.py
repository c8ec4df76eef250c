"""reusable.yml's `compare` job: on a pull request with `compare: true`, the skills the change touched
are compared with their version at the merge base, and the comparison reaches the run's summary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.helpers import make_skill
from tests.support.yamlfiles import WORKFLOWS, load, triggers

REUSABLE = next(p for p in WORKFLOWS if p.name == "reusable.yml")


def compare_job() -> dict:
    return load(REUSABLE)["jobs"]["compare"]


def step(name: str) -> dict:
    return next(s for s in compare_job()["steps"] if s.get("name") == name)


def git(repo: Path, *args: str) -> str:
    author = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    return subprocess.run(
        ["git", *author, *args], cwd=repo, capture_output=True, text=True, check=True
    ).stdout


def pull_request(tmp_path: Path) -> tuple[Path, str, str]:
    """A repo whose main holds alpha, beta and gamma (gamma without a dataset) and a branch that edits
    alpha and gamma: (repo, base sha, head sha); main moves on after the branch, editing beta."""
    repo = tmp_path / "repo"
    for name in ("alpha", "beta"):
        make_skill(repo, name)
    make_skill(repo, "gamma", evals=None)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "skills")
    git(repo, "checkout", "-qb", "change")
    for name in ("alpha", "gamma"):
        (repo / name / "SKILL.md").write_text((repo / name / "SKILL.md").read_text() + "\nMore.\n")
    git(repo, "commit", "-qam", "edit alpha and gamma")
    head = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "main")
    (repo / "beta" / "SKILL.md").write_text((repo / "beta" / "SKILL.md").read_text() + "\nMore.\n")
    git(repo, "commit", "-qam", "edit beta on main")
    base = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", head)
    return repo, base, head


def test_the_changed_skills_are_those_with_a_dataset_the_pull_request_touched(tmp_path):
    repo, base, head = pull_request(tmp_path)
    output, summary = tmp_path / "output", tmp_path / "summary"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env.update(
        SKILLS_JSON=json.dumps(["alpha", "beta"]),
        GLOBS="./*",
        BASE_SHA=base,
        HEAD_SHA=head,
        GITHUB_OUTPUT=str(output),
        GITHUB_STEP_SUMMARY=str(summary),
    )
    script = step("Find the changed skills")["run"]
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=repo, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    found = dict(line.split("=", 1) for line in output.read_text().splitlines())
    merge_base = git(repo, "merge-base", base, head).strip()
    # beta changed on main only; gamma has no dataset, so nothing of it is graded.
    assert found == {"merge_base": merge_base, "skills": "alpha"}
    assert "changed skills: `alpha`" in summary.read_text()


def test_the_job_runs_compare_on_pull_requests_only_against_the_merge_base():
    job = compare_job()
    assert "inputs.compare" in job["if"] and "github.event_name == 'pull_request'" in job["if"]
    checkout = job["steps"][0]
    assert checkout["with"]["fetch-depth"] == 0 and checkout["with"]["persist-credentials"] is False
    assert checkout["with"]["ref"] == "${{ github.event.pull_request.head.sha }}"
    graded = step("Compare")
    assert graded["with"]["command"] == "compare" and graded["if"] == "steps.key.outcome == 'success'"
    args = graded["with"]["args"]
    assert "--skill '${{ steps.changed.outputs.skills }}'" in args
    assert "--baseline '${{ steps.changed.outputs.merge_base }}'" in args
    assert step("Check the model key")["if"] == "steps.changed.outputs.skills != ''"
    assert triggers(load(REUSABLE))["workflow_call"]["inputs"]["compare"]["default"] is False
