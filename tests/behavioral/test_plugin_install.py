"""`skillscope behavioral --install plugin` with the real claude CLI against the scripted fake API: the
skills under test installed through `claude plugin` from the repo's marketplace, listed to the agent under
`<plugin>:<skill>` in every case and not copied into its workspace; a manifest leaving one out stops the
run before any case."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from harness import schemas
from harness.behavioral.judge import JUDGE_HEADER
from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R
from tests.support.plugins import claude_packaged

pytestmark = pytest.mark.usefixtures("private_temp")
BOTH = "alpha-pos-1,beta-pos-1"


def model(request):
    """The agent calls its case's skill by the plugin's name for it; the judge finds the behaviour."""
    if request.prompt.startswith(JUDGE_HEADER):
        return R.text(json.dumps({"verdicts": [{"id": "E1", "pass": True, "reason": "it did"}]}))
    skill = "alpha" if "the alpha job" in request.prompt else "beta"
    if any(m.get("role") == "user" and "Base directory" in json.dumps(m) for m in request.messages):
        return R.text("Done: the job is finished.")
    return R.skill(f"demo:{skill}")


def behave(repo: Path, env: dict, *args: str) -> tuple[int, str, dict | None]:
    output = repo.parent / "behavioral.json"
    ctx = Context(
        environ=dict(env), cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    argv = ["behavioral", "--repo", str(repo), "--skip-preflight", "--no-cache", "--model", "claude-fake-1"]
    code = main([*argv, "--output", str(output), "--install", "plugin", *args], ctx)
    report = json.loads(output.read_text()) if output.exists() else None
    if report is not None:
        assert [e.message for e in schemas.validator("behavioral-report").iter_errors(report)] == []
    return code, ctx.stderr.getvalue(), report


def case_turns(fake_api) -> list:
    return [r for r in fake_api.agent_turns() if not r.prompt.startswith(JUDGE_HEADER)]


def test_each_case_runs_with_its_skill_installed_as_the_plugin_lists_it(fake_api, tmp_path, env):
    repo = claude_packaged(tmp_path / "repo", "alpha", "beta")
    fake_api.script(model)
    code, stderr, report = behave(repo, env, "--only", BOTH)
    assert code == 0, stderr[-3000:]
    assert {c["id"]: c["status"] for c in report["cases"]} == {"alpha-pos-1": "pass", "beta-pos-1": "pass"}
    assert {c["id"]: c["activated"] for c in report["cases"]} == {
        "alpha-pos-1": ["alpha"],
        "beta-pos-1": ["beta"],
    }
    turns = case_turns(fake_api)
    assert turns, "no agent turn was recorded"
    for turn in turns:  # the plugin's names, and no copy of the skill beside them
        assert {"demo:alpha", "demo:beta"} <= set(turn.skill_listing), turn.skill_listing
        assert not {"alpha", "beta"} & set(turn.skill_listing)


def test_a_skill_the_marketplace_leaves_out_stops_the_run_before_any_case(fake_api, tmp_path, env):
    repo = claude_packaged(tmp_path / "repo", "alpha")
    fake_api.script(model)
    code, stderr, report = behave(repo, env, "--only", BOTH)
    assert code == 1
    assert "error: beta is not listed by claude after installing the plugins of" in stderr
    assert case_turns(fake_api) == []
    assert report is not None and report["cases"] == [] and report["meta"]["unfinished"] == 2
