"""The pipeline and `skillscope select` agree: run the discover job's own argument-building script
with the example caller's settings, run `select` with what it built on the example skills repo,
and check that every key the workflow reads (fromJSON of the plan, matrix.* of its legs) is there."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.yamlfiles import EXAMPLES, ROOT, WORKFLOWS, load, triggers

PIPELINE = next(p for p in WORKFLOWS if p.name == "skill-evals.yml")
CALLER = next(p for p in EXAMPLES if p.name == "skill-evals.yml")
SKILLS = "examples/skills/*"  # the example caller's skills/*, where this repo keeps its sample


def caller_inputs() -> dict[str, str]:
    """The pipeline's defaults overlaid with the example's `with:`, as the strings a runner would see."""
    declared = triggers(load(PIPELINE))["workflow_call"]["inputs"]
    values = {name: spec.get("default", "") for name, spec in declared.items()}
    (job,) = load(CALLER)["jobs"].values()
    values.update(job["with"])
    # The example sets `${{ github.event_name == 'workflow_dispatch' }}`; these runs are dispatched.
    values["ignore_gates"] = True
    return {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in values.items()}


def run_step(job: str, step_id: str, tmp_path: Path, event: dict[str, str], **given: str) -> dict[str, str]:
    """Run one `shell: python` step of the pipeline with its env resolved (the caller's inputs, with
    `given` overriding some); return its GITHUB_OUTPUT."""
    step = next(s for s in load(PIPELINE)["jobs"][job]["steps"] if s.get("id") == step_id)
    inputs = caller_inputs() | given
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    for name, expression in step["env"].items():
        match = re.fullmatch(r"\$\{\{\s*inputs\.(\w+)\s*\}\}", expression)
        env[name] = inputs[match.group(1)] if match else event.get(name, "")
    output = tmp_path / f"{step_id}-output"
    env.update(
        GITHUB_OUTPUT=str(output), RUNNER_TEMP=str(tmp_path), GITHUB_STEP_SUMMARY=str(tmp_path / "summary")
    )
    done = subprocess.run(
        [sys.executable, "-c", step["run"]], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    blocks = re.findall(r"^(\w+)<<(\S+)\n(.*?)\n\2$", output.read_text(encoding="utf-8"), re.M | re.S)
    return {name: value for name, _, value in blocks}


def skillscope(
    *args: str, stdin: str | None = None, output: Path | None = None
) -> subprocess.CompletedProcess:
    """The harness on this checkout; a graded command's report goes to `output`, never into the
    checkout's own .skillscope/ (a parallel test may be writing there too)."""
    env = dict(os.environ, SKILLSCOPE_SKILLS=SKILLS, SKILLSCOPE_VERSION="v0.1.0")
    env.pop("GITHUB_STEP_SUMMARY", None)
    report = ["--output", str(output)] if output else []
    return subprocess.run(
        [sys.executable, "-m", "harness", *args, *report, "--repo", str(ROOT)],
        env=env,
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def keys_read() -> tuple[set[str], set[str]]:
    text = PIPELINE.read_text(encoding="utf-8")
    top = set(re.findall(r"fromJSON\(needs\.discover\.outputs\.plan\)\.(\w+)", text))
    jobs = load(PIPELINE)["jobs"]
    legs = set()
    for name in ("behavior", "behavior-scoped"):
        legs |= set(re.findall(r"\bmatrix\.(\w+)", json.dumps(jobs[name])))
    return top, legs


def check_plan(plan: dict, scoped_expected: bool) -> None:
    top, legs = keys_read()
    assert top <= set(plan), f"the workflow reads {sorted(top - set(plan))}, which the plan lacks"
    for leg in plan["default"]:
        assert legs - {"environment"} <= set(leg), leg
        assert isinstance(json.loads(leg["runner"]), list)
    for leg in plan["scoped"]:
        assert legs <= set(leg), leg
    if scoped_expected:
        assert plan["scoped"], plan


def test_a_dispatched_run_plans_every_example_skill(tmp_path):
    args = run_step("discover", "args", tmp_path, {"EVENT": "workflow_dispatch"})
    assert args["stdin"] == ""
    done = skillscope("select", *shlex.split(args["select"]))
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.strip().splitlines()) == 1, "select prints exactly one line"
    plan = json.loads(done.stdout)
    check_plan(plan, scoped_expected=True)
    assert plan["routing"] is True and plan["version"] == "v0.1.0"
    assert {leg["environment"] for leg in plan["scoped"]} == {"gpu-evals"}
    assert all(json.loads(leg["runner"])[:2] == ["self-hosted", "linux"] for leg in plan["scoped"])

    reader = run_step_plan(tmp_path, done.stdout.strip())
    assert reader == {"has_default": "true", "has_scoped": "true", "skipped": "0"}


def test_a_push_plans_every_example_skill_and_the_gpu_leg_waits_for_its_label(tmp_path):
    # On a push the example's ignore_gates expression is false: the scoped leg is skipped, not run.
    args = run_step("discover", "args", tmp_path, {"EVENT": "push"}, ignore_gates="false")
    select = shlex.split(args["select"])
    assert select[0] == "--all" and "--ignore-gates" not in select
    done = skillscope("select", *select)
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    check_plan(plan, scoped_expected=False)
    assert plan["gates"] == ["run-gpu-evals"] and plan["scoped"] == []
    assert {skip["skill"] for skip in plan["skipped"]} == {"gpu-kernel-profiling"}


def run_step_plan(tmp_path: Path, plan: str) -> dict[str, str]:
    """The discover job's plan reader, fed the real plan; it writes plain name=value outputs."""
    step = next(s for s in load(PIPELINE)["jobs"]["discover"]["steps"] if s.get("id") == "read")
    output = tmp_path / "read-output"
    env = dict(
        os.environ, PLAN=plan, GITHUB_OUTPUT=str(output), GITHUB_STEP_SUMMARY=str(tmp_path / "summary")
    )
    done = subprocess.run([sys.executable, "-c", step["run"]], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return dict(line.split("=", 1) for line in output.read_text().splitlines())


def test_a_pull_request_plans_from_its_diff(tmp_path):
    def rev(spec):
        found = subprocess.run(["git", "rev-parse", spec], cwd=ROOT, capture_output=True, text=True)
        return found.stdout.strip() if found.returncode == 0 else None

    head = rev("HEAD")
    if head is None:
        pytest.fail("the tests need this repository's git history")
    event = {"EVENT": "pull_request", "BASE_SHA": rev("HEAD~1") or head, "HEAD_SHA": head, "PR_LABELS": ""}
    args = run_step("discover", "args", tmp_path, event)
    assert Path(args["stdin"]).is_file()
    select = shlex.split(args["select"])
    assert select[:3] == ["--changed", "--labels", ""]
    done = skillscope("select", *select, stdin=Path(args["stdin"]).read_text())
    assert done.returncode == 0, done.stderr
    check_plan(json.loads(done.stdout), scoped_expected=False)


def test_the_structural_and_routing_arguments_are_flags_the_harness_takes(tmp_path):
    args = run_step("discover", "args", tmp_path, {"EVENT": "workflow_dispatch"})
    done = skillscope("structural", *shlex.split(args["structural"]), output=tmp_path / "structural.json")
    assert done.returncode != 2, done.stderr
    assert shlex.split(args["routing"])[:2] == ["--min-accuracy", "1"]
    assert args["behavior"] == "--extended"


def test_the_negatives_input_reaches_structural_and_agent_routing_only(tmp_path):
    shared = "tests/acceptance/structural/negatives-not-false/shared/negatives.json"
    args = run_step("discover", "args", tmp_path, {"EVENT": "workflow_dispatch"}, negatives=shared)
    agent_routing = next(
        step for step in load(PIPELINE)["jobs"]["routing"]["steps"] if step.get("with", {}).get("command")
    )
    assert "format('--negatives ''{0}''', inputs.negatives)" in agent_routing["with"]["args"]
    # The lexical job takes discover's routing arguments as they are; its engine refuses --negatives.
    lexical = skillscope(
        "routing",
        "--engine",
        "lexical",
        *shlex.split(args["routing"]),
        "--min-accuracy",
        "0",
        output=tmp_path / "routing.json",
    )
    assert lexical.returncode == 0, lexical.stderr
    done = skillscope("structural", *shlex.split(args["structural"]), output=tmp_path / "structural.json")
    # That file holds a case that is not false: structural validates it, so the run fails on it.
    assert done.returncode == 1, done.stderr
    assert "negatives-not-false" in done.stdout


def test_the_reader_refuses_something_that_is_not_a_plan(tmp_path):
    step = next(s for s in load(PIPELINE)["jobs"]["discover"]["steps"] if s.get("id") == "read")
    env = dict(
        os.environ,
        PLAN='{"routing": true}',
        GITHUB_OUTPUT=str(tmp_path / "o"),
        GITHUB_STEP_SUMMARY=str(tmp_path / "s"),
    )
    done = subprocess.run([sys.executable, "-c", step["run"]], env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "::error title=Unexpected plan::" in done.stderr


def test_the_agents_input_plans_routing_and_a_behavioral_leg_per_agent(tmp_path):
    args = run_step("discover", "args", tmp_path, {"EVENT": "workflow_dispatch"}, agents="claude,codex")
    select = shlex.split(args["select"])
    assert select[select.index("--agents") + 1] == "claude,codex"
    done = skillscope("select", *select)
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    check_plan(plan, scoped_expected=True)
    assert plan["agents"] == ["claude", "codex"]  # the routing job's matrix
    routing = load(PIPELINE)["jobs"]["routing"]
    assert routing["strategy"]["matrix"]["agent"] == "${{ fromJSON(needs.discover.outputs.plan).agents }}"
    skills = {leg["skill"] for leg in plan["default"]}
    for skill in skills:  # a skill's machine.yml may narrow its agents; none of the examples does
        assert sorted(leg["agent"] for leg in plan["default"] if leg["skill"] == skill) == ["claude", "codex"]
    reader = run_step_plan(tmp_path, done.stdout.strip())
    assert "in claude, codex" in (tmp_path / "summary").read_text()
    assert reader["has_default"] == "true"
