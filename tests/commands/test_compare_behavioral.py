"""`skillscope compare --mode behavioral`, whose agent only finishes the job when the skill is installed:
end to end on the real claude CLI against the scripted API, the lift and the turns the CLI counts
(test_baseline_none_shows_the_lift_and_the_cases_that_need_no_skill). Which modes run by default and
the matrix of two models are the harness's, on the scripted stand-in (tests/support/scripted.py),
whose agent reads the installed description from its workspace as the fake API's reads it from the
request."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from harness import schemas
from harness.cli import main
from harness.context import Context
from tests.support import scripted as S
from tests.support.helpers import evals_for, make_skill

DATASET = {
    "evaluations": evals_for("alpha")["evaluations"]
    + [
        {
            "id": "lift",
            "skill_should_trigger": True,
            "prompt": "Do the alpha job.",
            "logs_contain": ["ALPHA-DONE"],
        },
        {"id": "plain", "skill_should_trigger": True, "prompt": "Say hello.", "logs_contain": ["hello"]},
    ]
}


pytestmark = pytest.mark.usefixtures("clean_runs")


def agent(request):
    """Knows the alpha job only from the installed skill's description; says hello either way."""
    if "Say hello" in request.prompt:
        return "hello there"
    return "ALPHA-DONE" if "Does the alpha job" in json.dumps(request.body) else "I do not know that job."


def scripted_agent(ran: S.Ran) -> S.Answer:
    """`agent` on the scripted runtimes."""
    if "Say hello" in ran.prompt:
        return S.says("hello there")
    knows = "Does the alpha job" in ran.listing.get("alpha", "")
    return S.says("ALPHA-DONE" if knows else "I do not know that job.")


@pytest.fixture
def repo(tmp_path) -> Path:
    root = tmp_path / "repo"
    make_skill(root, "alpha", evals=DATASET)
    return root


def compare(repo: Path, environ: dict, *args: str) -> tuple[int, dict, str, str]:
    """Run `skillscope compare` on `repo` with alpha's baseline not installed; (code, report, out, err)."""
    output = repo.parent / "compare.json"
    ctx = Context(environ=environ, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    argv = ["compare", "--repo", str(repo), "--skill", "alpha", "--baseline", "none", "--repeat", "1"]
    # The markdown report on stdout, which these tests read.
    code = main([*argv, "--skip-preflight", "--output", str(output), "--format", "markdown", *args], ctx)
    report = json.loads(output.read_text("utf-8")) if output.exists() else {}
    return code, report, ctx.stdout.getvalue(), ctx.stderr.getvalue()


@pytest.fixture
def environ(fake_env, claude_bin) -> dict:
    return {**fake_env, "SKILLSCOPE_CLAUDE": claude_bin}


def test_baseline_none_shows_the_lift_and_the_cases_that_need_no_skill(repo, environ, fake_api):
    fake_api.script(agent)
    code, report, out, err = compare(repo, environ, "--mode", "behavioral", "--only", "lift,plain")
    assert code == 0, err
    assert {c["id"]: c["label"] for c in report["cases"]} == {"lift": "improvement", "plain": "same-pass"}
    assert report["lift"] == {"no_lift": ["plain"], "needs_skill": ["lift"], "taken_by": {}}
    assert schemas.errors("compare", report) == []
    # Turns as the real CLI counts them, per side and as a delta.
    assert all(c[side]["turns"] >= 1 for c in report["cases"] for side in ("baseline", "candidate"))
    assert report["totals"]["delta"]["turns"] is not None
    assert "no lift" in out and "`plain`" in out and "1 improvements" in out
    assert (repo / "alpha" / "SKILL.md").exists()  # the candidate is untouched


def test_the_default_mode_is_both_when_a_case_carries_an_expectation(repo, scripted, tmp_path):
    scripted.script(scripted_agent)
    junit = tmp_path / "compare.xml"
    code, report, out, err = compare(
        repo, scripted.env, "--only", "lift", "--no-cache", "--junit", str(junit)
    )
    assert code == 0, err
    assert report["meta"]["mode"] == "both" and schemas.errors("compare", report) == []
    # The agent never calls the skill: routing fails on both sides; the job needs the skill.
    assert [(c["mode"], c["label"]) for c in report["cases"]] == [
        ("routing", "same-fail"),
        ("behavioral", "improvement"),
    ]
    assert sorted(report["by_mode"]) == ["behavioral", "routing"]
    assert report["by_mode"]["behavioral"]["candidate"]["pass_rate"] == 1.0
    assert report["lift"]["needs_skill"] == ["lift (behavioral)"]
    assert "### Totals: routing" in out and "### Totals: behavioral" in out
    assert 'name="lift (routing)"' in junit.read_text("utf-8")


def test_two_models_each_compare_both_versions_run_to_completion(repo, scripted):
    """Model b never learns the alpha job: the lift shows on model a only, each leg in the matrix."""

    def by_model(ran: S.Ran) -> S.Answer:
        return scripted_agent(ran) if ran.model == "claude-fake-a" else S.says("I do not know that job.")

    scripted.script(by_model)
    code, report, out, err = compare(
        repo,
        scripted.env,
        "--mode",
        "behavioral",
        "--only",
        "lift",
        "--no-cache",
        "--model",
        "claude-fake-a,claude-fake-b",
    )
    assert code == 0, err
    assert report["command"] == "compare-matrix" and schemas.errors("compare-matrix-report", report) == []
    labels = {leg["leg"]: leg["labels"] for leg in report["legs"]}
    assert labels["claude@claude-fake-a"]["improvement"] == 1
    assert labels["claude@claude-fake-b"]["same-fail"] == 1
    sides = report["legs"][0]["by_mode"]["behavioral"]
    assert (sides["baseline_rate"], sides["candidate_rate"]) == (0.0, 1.0)
    assert report["cases"][0]["by_leg"] == {
        "claude@claude-fake-a": "improvement",
        "claude@claude-fake-b": "same-fail",
    }
    assert {ran.model for ran in scripted.case_runs()} == {"claude-fake-a", "claude-fake-b"}
    assert re.search(r"\| claude@claude-fake-a +\| claude-fake-a +\| behavioral +\|", out), out
