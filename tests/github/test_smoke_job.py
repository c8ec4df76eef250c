"""ci.yml's smoke job runs the example skills repo through the action from this checkout, every step
that needs no key: each of its `uses: ./` steps is run here with the step's own inputs (command,
skills, args, split as the launcher splits them) and must pass, so the job is green as shipped."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.support.helpers import run_cli
from tests.support.yamlfiles import ROOT, WORKFLOWS, load

CI = next(p for p in WORKFLOWS if p.name == "ci.yml")
FREE = {"structural", "refs", "routing", "select"}  # every command that runs without a key or agent


def action_steps() -> list[dict]:
    return [step for step in load(CI)["jobs"]["action"]["steps"] if step.get("uses") == "./"]


def run_step(step: dict, tmp_path: Path):
    """The step as the launcher runs it: the skills input as SKILLSCOPE_SKILLS, the args shell-split,
    from the checkout's root; a graded command's report goes to the test's temp, not the checkout."""
    given = step["with"]
    skills = ",".join(part.strip() for part in given.get("skills", "").replace("\n", ",").split(",") if part)
    args = [given["command"], *shlex.split(given.get("args", "")), "--repo", str(ROOT)]
    if given["command"] != "select":
        args += ["--output", str(tmp_path / "report.json")]
    return run_cli(args, cwd=ROOT, environ={"SKILLSCOPE_SKILLS": skills} if skills else {})


def test_the_smoke_job_runs_every_free_command_from_this_checkout():
    steps = action_steps()
    assert {step["with"]["command"] for step in steps} == FREE
    assert all("${{" not in json.dumps(step["with"]) for step in steps), "inputs a test can run as they are"
    routing = next(step for step in steps if step["with"]["command"] == "routing")
    assert "--engine lexical" in routing["with"]["args"]  # the free engine: no key, no agent


@pytest.mark.parametrize("step", action_steps(), ids=lambda step: step["with"]["command"])
def test_each_smoke_step_passes_as_shipped(step: dict, tmp_path: Path):
    run = run_step(step, tmp_path)
    assert run.code == 0, f"{step['name']}: exit {run.code}\n{run.stderr}{run.stdout}"
    if step["with"]["command"] == "select":
        plan = json.loads(run.stdout)
        assert plan["routing"] is True and plan["gates"] == ["run-gpu-evals"]
        assert {skip["skill"] for skip in plan["skipped"]} == {"gpu-kernel-profiling"}


def test_a_hosted_runner_given_hardware_labels_is_a_usage_error_in_one_sentence(tmp_path: Path):
    # What the smoke job ran before it passed --scoped-runner: the GPU skill's [gpu] on ubuntu-latest.
    step = next(step for step in action_steps() if step["with"]["command"] == "select")
    bare = {**step, "with": {**step["with"], "args": "--all --routing-room all --scoped-gate run-gpu-evals"}}
    run = run_step(bare, tmp_path)
    assert run.code == 2 and run.stdout == ""
    [line] = run.stderr.splitlines()
    assert line.startswith(
        "error: examples/skills/gpu-kernel-profiling/evals/machine.yml: a leg asks for the GitHub-hosted "
        "image ubuntu-latest together with gpu"
    )
    assert "--scoped-runner" in line and line.endswith(".")
