"""The GitHub files are safe by construction: no expression in a script, least privilege,
secrets only where used, no pull_request_target, plan keys that exist, guarded matrices."""

from __future__ import annotations

import re

import pytest

from harness.authoring import home
from tests.support.yamlfiles import (
    ACTION,
    ALL_FILES,
    EXAMPLES,
    LEG_KEYS,
    PLAN_KEYS,
    WORKFLOWS,
    jobs,
    load,
    rel,
    steps,
    triggers,
    walk,
)

EXPRESSION = re.compile(r"\$\{\{.*?\}\}", re.S)
SECRET = re.compile(r"\bsecrets(\.|\[)")
GRADED = {"routing", "behavioral", "compare"}
ACTION_USES = f"{home.repository()}@"
files = pytest.mark.parametrize("path", ALL_FILES, ids=rel)
workflows = pytest.mark.parametrize("path", [*WORKFLOWS, *EXAMPLES], ids=rel)


@files
def test_no_expression_inside_a_run_script(path):
    spliced = [
        (job, step.get("name", "?"))
        for job, step in steps(path)
        if "run" in step and EXPRESSION.search(step["run"])
    ]
    assert spliced == [], "pass the value through env: and read the variable in the script"


@files
def test_every_run_step_declares_its_shell_or_inherits_bash(path):
    # A composite action's run steps must name a shell; workflow steps default to bash on Linux.
    if path == ACTION:
        assert all("shell" in step for _, step in steps(path) if "run" in step)


# The only writes any workflow holds, each to one job of the release: the identity token trusted
# publishing trades for an upload, and the release itself.
GRANTED = {
    ("release.yml", "publish"): {"id-token": "write"},
    ("release.yml", "github-release"): {"contents": "write"},
}


@workflows
def test_permissions_are_declared_and_read_only(path):
    doc = load(path)
    assert "permissions" in doc, "declare top-level permissions"
    scopes = [doc["permissions"]] + [
        job["permissions"]
        for job_id, job in jobs(doc).items()
        if "permissions" in job and (path.name, job_id) not in GRANTED
    ]
    for scope in scopes:
        if isinstance(scope, str):
            assert scope in ("read-all", "{}"), scope
        else:
            assert set((scope or {}).values()) <= {"read", "none"}, scope


def test_each_write_is_granted_to_one_job_and_nothing_more():
    for (name, job_id), granted in GRANTED.items():
        assert jobs(load(next(p for p in WORKFLOWS if p.name == name)))[job_id]["permissions"] == granted


@workflows
def test_checkouts_do_not_persist_the_token(path):
    for job, step in steps(path):
        if str(step.get("uses", "")).startswith("actions/checkout@"):
            assert (step.get("with") or {}).get("persist-credentials") is False, job


@workflows
def test_never_pull_request_target(path):
    assert "pull_request_target" not in triggers(load(path))
    assert "pull_request_target" not in path.read_text(encoding="utf-8")


@workflows
def test_secrets_only_in_the_steps_that_use_them(path):
    doc = load(path)
    for trail, value in walk(doc):
        if not any(SECRET.search(expr) for expr in EXPRESSION.findall(value)):
            continue
        where = "/".join(map(str, trail))
        caller = trail[0] == "jobs" and "uses" in doc["jobs"][trail[1]]
        if caller and len(trail) >= 4 and trail[2] == "secrets":
            continue  # a caller mapping one secret onto a reusable workflow's declared secret
        assert trail[0] == "jobs" and len(trail) >= 6 and trail[2] == "steps" and trail[4] == "env", (
            f"{where}: a secret outside a step's env"
        )
        step = doc["jobs"][trail[1]]["steps"][trail[3]]
        variable = trail[5]
        uses_it = ("run" in step and variable in step["run"]) or (
            str(step.get("uses", "")).startswith(ACTION_USES) and step["with"]["command"] in GRADED
        )
        assert uses_it, f"{where}: the step does not use {variable}"


@workflows
def test_a_missing_key_is_explained_before_any_graded_step(path):
    """A fork's pull request has no secrets: say so, rather than crash inside the harness."""
    for job_id, job in jobs(load(path)).items():
        job_steps = job.get("steps") or []
        graded = [
            i
            for i, step in enumerate(job_steps)
            if str(step.get("uses", "")).startswith(ACTION_USES)
            and step["with"]["command"] in GRADED
            and "--engine lexical" not in str(step["with"].get("args", ""))  # ranks offline, needs no key
        ]
        if not graded:
            continue
        checks = [
            i
            for i, step in enumerate(job_steps)
            if "run" in step and "API_KEY" in step["run"] and '-n "$API_KEY"' in step["run"]
        ]
        assert checks and checks[0] < graded[0], f"{job_id}: no key check before the graded step"
        message = job_steps[checks[0]]["run"]
        assert "fork" in message and "::error" in message


@workflows
def test_every_job_has_a_timeout(path):
    for job_id, job in jobs(load(path)).items():
        if "uses" not in job:
            assert "timeout-minutes" in job, job_id


@files
def test_actions_are_used_at_a_ref(path):
    for _, step in steps(path):
        uses = step.get("uses")
        if uses and not uses.startswith("./"):
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@[\w.-]+", uses), uses


def plan_reads(path):
    """(job, key) for every key the workflow reads from the plan, and leg keys read through matrix."""
    doc = load(path)
    text = path.read_text(encoding="utf-8")
    top = set(re.findall(r"fromJSON\(needs\.discover\.outputs\.plan\)\.(\w+)", text))
    legs = set()
    for job in jobs(doc).values():
        include = str(((job.get("strategy") or {}).get("matrix") or {}).get("include", ""))
        if "outputs.plan" in include:
            legs |= set(re.findall(r"\bmatrix\.(\w+)", str(job)))
    return top, legs


def test_the_pipeline_reads_only_keys_the_plan_has():
    top, legs = plan_reads(WORKFLOWS[[p.name for p in WORKFLOWS].index("skill-evals.yml")])
    assert {"routing", "version", "default", "scoped"} <= top
    assert top <= PLAN_KEYS
    assert {"skill", "os", "runner", "version", "environment"} <= legs
    assert legs <= LEG_KEYS


def test_the_plan_reader_step_reads_only_plan_keys():
    doc = load(next(p for p in WORKFLOWS if p.name == "skill-evals.yml"))
    script = next(s["run"] for s in doc["jobs"]["discover"]["steps"] if s.get("id") == "read")
    assert set(re.findall(r"plan\[['\"](\w+)['\"]\]", script)) <= PLAN_KEYS
    assert set(re.findall(r"leg\[['\"](\w+)['\"]\]", script)) <= LEG_KEYS | {"gate"}


@workflows
def test_a_matrix_fed_from_job_outputs_is_guarded(path):
    """An empty or missing list must never reach a matrix: the job carries an `if:`."""
    for job_id, job in jobs(load(path)).items():
        matrix = str((job.get("strategy") or {}).get("matrix", ""))
        if "fromJSON(needs." in matrix:
            assert "if" in job, f"{job_id} expands a matrix from another job's output without an if:"


def test_scoped_legs_run_in_their_environment():
    doc = load(next(p for p in WORKFLOWS if p.name == "skill-evals.yml"))
    assert doc["jobs"]["behavior-scoped"]["environment"] == "${{ matrix.environment }}"
    assert "environment" not in doc["jobs"]["behavior"]


def test_external_references_stay_out_of_the_aggregate():
    for name in ("skill-evals.yml",):
        doc = load(next(p for p in WORKFLOWS if p.name == name))
        assert "external-references" not in doc["jobs"]["results"]["needs"]
        assert doc["jobs"]["results"]["if"] == "always()"


def test_discover_holds_no_secret():
    doc = load(next(p for p in WORKFLOWS if p.name == "skill-evals.yml"))
    assert not SECRET.search(str(doc["jobs"]["discover"]))


@files
def test_python_scripts_compile(path):
    for job, step in steps(path):
        if step.get("shell") == "python":
            compile(step["run"], f"{rel(path)}:{job}:{step.get('name', step.get('id'))}", "exec")


def test_the_ci_exercises_this_checkouts_action():
    doc = load(next(p for p in WORKFLOWS if p.name == "ci.yml"))
    assert any(step.get("uses") == "./" for job in doc["jobs"].values() for step in job.get("steps", []))
    assert doc["jobs"]["tests"]["strategy"]["matrix"]["python"] == ["3.10", "3.12"]


def test_examples_call_the_published_workflows():
    callers = {p.name: load(p) for p in EXAMPLES}
    uses = {job.get("uses", "") for doc in callers.values() for job in jobs(doc).values()}
    for workflow in ("reusable.yml", "skill-evals.yml"):
        assert f"{home.repository()}/.github/workflows/{workflow}@{home.release_tag()}" in uses
    weekly = [doc for doc in callers.values() if "schedule" in triggers(doc)]
    assert weekly, "a scheduled external references run"
    refs = [
        step
        for doc in weekly
        for job in jobs(doc).values()
        for step in job.get("steps", [])
        if (step.get("with") or {}).get("command") == "refs"
    ]
    assert refs and "--external" in refs[0]["with"]["args"]


LABEL_OF_THE_EVENT = "${{ github.event.action == 'labeled' && github.event.label.name || '' }}"


@files
def test_a_gate_label_counts_only_on_the_run_its_adding_started(path):
    """A label read from the pull request's labels stays on for every later push, so code pushed after
    the approval would run on the gated runners unseen: the plan may read only the `labeled` event's."""
    for job, step in steps(path):
        for name, value in (step.get("env") or {}).items():
            if "labels" in str(value) and "pull_request" in str(value):
                raise AssertionError(f"{rel(path)} {job}: {name} reads the pull request's labels")
            if name == "PR_LABELS":
                assert str(value) == LABEL_OF_THE_EVENT
