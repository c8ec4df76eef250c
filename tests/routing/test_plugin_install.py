"""`skillscope routing --install plugin` with the real claude CLI against the scripted fake API: the room
installed through `claude plugin` from the repo's marketplace, its skills called `<plugin>:<skill>` and
credited to the room skill, and a manifest that leaves a room skill out stopping the run before any case."""

from __future__ import annotations

import json

import pytest

from tests.fakeapi import replies as R
from tests.support.plugins import claude_packaged
from tests.support.routing import CaseRouter, prompt_of, route, routing_env, skills_repo, valid

pytestmark = pytest.mark.usefixtures("private_temp")
MISSING = (
    "beta is not listed by claude after installing the plugins of .claude-plugin/marketplace.json: add it "
    "to a plugin's skills there, or leave them out of the run (--routing-room, --skill); no case was run"
)


@pytest.fixture
def env(fake_api, claude_bin, tmp_path):
    return routing_env(
        fake_api.base_url, claude_bin, tmp_path / "home", XDG_CACHE_HOME=str(tmp_path / "cache")
    )


def case_turns(fake_api, *case_ids: str) -> int:
    texts = [prompt_of(case) for case in case_ids]
    return sum(1 for r in fake_api.agent_turns() if any(text in r.prompt for text in texts))


def test_a_plugin_installed_room_grades_the_namespaced_call_as_its_skill(fake_api, tmp_path, env):
    repo = claude_packaged(tmp_path / "repo", "alpha", "beta")
    # claude lists the plugin's skills as demo:alpha and demo:beta: the model calls them so.
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("demo:alpha"), "beta-pos-1": R.skill("demo:alpha")}))
    run = route(
        repo, env, "--install", "plugin", "--routing-room", "alpha,beta", "--skip-preflight", "--no-cache",
        "--only", "alpha-pos-1,beta-pos-1", "--min-accuracy", "0",
    )  # fmt: skip
    assert run.code == 0, run.stderr[-3000:]
    assert valid(run.report) == []
    assert run.verdicts() == {"alpha-pos-1": "correct_trigger", "beta-pos-1": "wrong_skill"}, json.dumps(
        run.case("alpha-pos-1")
    )[:3000]
    assert run.case("beta-pos-1")["samples"][0]["observed"] == "alpha"
    # the agent saw the room as the plugin lists it, and nothing was copied in as well
    assert sorted(run.report["meta"]["room"]) == ["alpha", "beta"]
    assert not run.report["meta"].get("room_missing") and not run.report["meta"].get("room_extra")


def test_a_manifest_leaving_a_room_skill_out_stops_before_any_case(fake_api, tmp_path, env):
    repo = claude_packaged(tmp_path / "repo", "alpha")
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("demo:alpha")}))
    run = route(
        repo, env, "--install", "plugin", "--routing-room", "alpha,beta", "--skip-preflight", "--no-cache",
        "--only", "alpha-pos-1,beta-pos-1",
    )  # fmt: skip
    assert run.code == 1
    assert f"error: {MISSING}" in run.stderr
    assert case_turns(fake_api, "alpha-pos-1", "beta-pos-1") == 0
    report = run.report
    assert valid(report) == []
    assert report["meta"]["agent_error"] == MISSING and report["meta"]["unfinished"] == 2
    assert report["cases"] == []  # nothing graded, so nothing counted as a miss


def test_a_repo_without_a_marketplace_is_told_to_add_one(fake_api, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "alpha")
    run = route(repo, env, "--install", "plugin", "--routing-room", "alpha", "--skip-preflight", "--no-cache")
    assert run.code == 1
    assert "--install plugin needs .claude-plugin/marketplace.json in the repo" in run.stderr
    assert case_turns(fake_api, "alpha-pos-1") == 0
