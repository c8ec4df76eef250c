"""`skillscope compare --baseline-model`: the same skill on two models, labelled case by case with the
interval of the difference, as the other compare modes are."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from harness import schemas
from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R
from tests.support.routing import CaseRouter, routing_env, skills_repo

A, B = "claude-fake-a", "claude-fake-b"


def run(repo: Path, env: dict, *argv: str) -> tuple[int, dict, str, str]:
    output = repo.parent / "report.json"
    output.unlink(missing_ok=True)
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    code = main([*argv, "--repo", str(repo), "--output", str(output), "--format", "markdown"], ctx)
    report = json.loads(output.read_text("utf-8")) if output.exists() else {}
    return code, report, ctx.stdout.getvalue(), ctx.stderr.getvalue()


@pytest.mark.usefixtures("private_temp")
def test_the_same_skill_on_two_models_is_labelled_case_by_case(fake_api, claude_bin, tmp_path):
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home")
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    # Model a (the baseline) misses alpha-pos-2; model b (the candidate) fires alpha on both.
    misses = R.by_model({A: R.text("I will answer myself."), B: R.skill("alpha")})
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha"), "alpha-pos-2": misses}))
    code, report, out, err = run(
        repo,
        env,
        *("compare", "--skill", "alpha", "--mode", "routing", "--routing-room", "alpha,beta"),
        *("--only", "alpha-pos-1,alpha-pos-2", "--repeat", "1", "--skip-preflight", "--no-cache"),
        *("--baseline", "alpha", "--model", B, "--baseline-model", A),  # the same folder: only the model
    )
    assert code == 0, err[-3000:]
    assert schemas.errors("compare", report) == []
    assert {c["id"]: c["label"] for c in report["cases"]} == {
        "alpha-pos-1": "same-pass",
        "alpha-pos-2": "improvement",
    }
    agent = report["meta"]["agent"]
    assert (agent["model"], agent["baseline"]["model"]) == (B, A)
    assert {r.model for r in fake_api.agent_turns()} == {A, B}
    assert f"Sides: baseline claude on {A}, candidate claude on {B}." in out
    assert "1 improvements" in out and re.search(r"95% interval|interval", out)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("routing", "--model", "a,,b"), "--model: every entry must be a non-empty string."),
        (("routing", "--model", "claude="), "--model: 'claude=' names no model id"),
        (("routing", "--model", "cursor=flash"), "is for agent 'cursor', which skillscope does not know"),
        (("routing", "--model", "two words"), "'two words' is not a model id"),
        (("cost", "hello", "--model", "a,-b"), "'-b' is not a model id"),
        (("compare", "--skill", "alpha", "--model", "a,b"), "give the baseline side's as --baseline-model"),
    ],
)
def test_a_bad_model_list_is_a_usage_error_in_one_sentence(tmp_path, argv, said):
    """Refused before any agent starts: no CLI is even looked for."""
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    env = {"PATH": "", "HOME": str(tmp_path / "home")}
    code, _report, _out, err = run(repo, env, *argv, "--dry-run")
    assert code == 2, err
    (line,) = [line for line in err.splitlines() if line.strip()]
    assert said in line and line.count(". ") == 0, line
