"""`skillscope routing --install plugin` with the real claude CLI against the scripted fake API: the room
installed through `claude plugin` from the repo's marketplace, its skills called `<plugin>:<skill>` and
credited to the room skill, and a manifest that leaves a room skill out stopping the run before any case.
The canary is test_canary.py's subject: these runs pass --no-canary."""

from __future__ import annotations

import json

import pytest

from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import TEST_ENV, endpoint_env, find_runtime
from tests.support.plugins import claude_packaged, codex_packaged, copilot_packaged
from tests.support.routing import CaseRouter, prompt_of, route, routing_env, skills_repo, valid

pytestmark = pytest.mark.usefixtures("private_temp")
MISSING = (
    "beta is not listed by claude after installing the plugins of .claude-plugin/marketplace.json: add it "
    "to a plugin's skills there, or leave them out of the run (--routing-room, --skill); no case was run"
)

CODEX_MISSING = (
    "beta is not listed by codex after installing the plugins of .agents/plugins/marketplace.json: add it "
    "to a plugin's skills there, or leave them out of the run (--routing-room, --skill); no case was run"
)


@pytest.fixture
def env(fake_api, claude_bin, tmp_path, kept_probes):
    return routing_env(
        fake_api.base_url,
        claude_bin,
        tmp_path / "home",
        probes=kept_probes,
        XDG_CACHE_HOME=str(tmp_path / "cache"),
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
        "--no-canary", "--only", "alpha-pos-1,beta-pos-1", "--min-accuracy", "0",
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
    assert "--install plugin on claude needs .claude-plugin/marketplace.json in the repo" in run.stderr
    assert case_turns(fake_api, "alpha-pos-1") == 0


@pytest.fixture
def codex_env(env, fake_api):
    binary = find_runtime("codex")
    if binary is None:
        pytest.fail(f"the codex CLI is needed: set {TEST_ENV['codex']}=/path/to/codex", pytrace=False)
    return {**env, "SKILLSCOPE_CODEX": binary, **endpoint_env("codex", fake_api.base_url)}


def codex_reads(name: str):
    """Codex's model reading the listed SKILL.md of `name`, at the path the listing gives."""

    def reply(request):
        files = request.skill_files
        return R.tool_use("exec_command", {"cmd": f"cat {files[f'demo:{name}']}"})

    return reply


def test_codex_lists_the_plugin_installed_room_before_any_case_and_grades_its_reads(
    fake_api, tmp_path, codex_env
):
    repo = codex_packaged(tmp_path / "repo", "alpha", "beta")
    fake_api.script(CaseRouter({"alpha-pos-1": codex_reads("alpha"), "beta-pos-1": codex_reads("alpha")}))
    run = route(
        repo, codex_env, "--agent", "codex", "--install", "plugin", "--routing-room", "alpha,beta",
        "--skip-preflight", "--no-cache", "--no-canary", "--model", "fake-model",
        "--only", "alpha-pos-1,beta-pos-1", "--min-accuracy", "0",
    )  # fmt: skip
    assert run.code == 0, run.stderr[-3000:]
    assert valid(run.report) == []
    assert run.verdicts() == {"alpha-pos-1": "correct_trigger", "beta-pos-1": "wrong_skill"}
    turns = [
        r
        for r in fake_api.agent_turns()
        if any(prompt_of(c) in r.prompt for c in ("alpha-pos-1", "beta-pos-1"))
    ]
    assert turns
    for turn in turns:  # the plugin's skills, from the installed plugin, and no copy in the workspace
        assert set(turn.skill_listing) == {"demo:alpha", "demo:beta"}, turn.skill_listing
        assert all("/plugins/cache/demo-market/demo/" in path for path in turn.skill_files.values())


def test_codex_stops_before_any_case_when_its_marketplace_leaves_a_room_skill_out(
    fake_api, tmp_path, codex_env
):
    repo = codex_packaged(tmp_path / "repo", "alpha")
    fake_api.script(CaseRouter({"alpha-pos-1": codex_reads("alpha")}))
    run = route(
        repo, codex_env, "--agent", "codex", "--install", "plugin", "--routing-room", "alpha,beta",
        "--skip-preflight", "--no-cache", "--only", "alpha-pos-1,beta-pos-1",
    )  # fmt: skip
    assert run.code == 1
    said = CODEX_MISSING
    assert f"error: {said}" in run.stderr
    assert fake_api.requests == []  # neither a case nor the canary: the listing was read without a request
    assert run.report["meta"]["agent_error"] == said and run.report["cases"] == []


@pytest.fixture
def copilot_env(env, fake_api, copilot_cache):
    binary = find_runtime("copilot")
    if binary is None:
        pytest.fail(f"the copilot CLI is needed: set {TEST_ENV['copilot']}=/path/to/copilot", pytrace=False)
    copilot = {"SKILLSCOPE_COPILOT": binary, "COPILOT_CACHE_HOME": copilot_cache}
    return {**env, **copilot, **endpoint_env("copilot", fake_api.base_url)}


def test_copilot_lists_the_plugin_installed_room_before_any_case_and_grades_its_calls(
    fake_api, tmp_path, copilot_env
):
    repo = copilot_packaged(tmp_path / "repo", "alpha", "beta")
    call = R.skill_for("copilot", "alpha")
    fake_api.script(CaseRouter({"alpha-pos-1": call, "beta-pos-1": call}))
    run = route(
        repo, copilot_env, "--agent", "copilot", "--install", "plugin", "--routing-room", "alpha,beta",
        "--skip-preflight", "--no-cache", "--no-canary", "--only", "alpha-pos-1,beta-pos-1",
        "--min-accuracy", "0",
    )  # fmt: skip
    assert run.code == 0, run.stderr[-3000:]
    assert valid(run.report) == []
    assert run.verdicts() == {"alpha-pos-1": "correct_trigger", "beta-pos-1": "wrong_skill"}
    turns = [
        r
        for r in fake_api.agent_turns()
        if any(prompt_of(c) in r.prompt for c in ("alpha-pos-1", "beta-pos-1"))
    ]
    assert turns
    for turn in turns:  # listed as the plugin's skills, with no copy in the workspace beside them
        assert set(turn.skill_listing) == {"alpha", "beta"}, turn.skill_listing
        assert turn.system_text.count("<location>plugin</location>") == 2, turn.system_text[-3000:]


def test_copilot_stops_before_any_case_when_its_marketplace_leaves_a_room_skill_out(
    fake_api, tmp_path, copilot_env
):
    repo = copilot_packaged(tmp_path / "repo", "alpha")
    run = route(
        repo, copilot_env, "--agent", "copilot", "--install", "plugin", "--routing-room", "alpha,beta",
        "--skip-preflight", "--no-cache", "--only", "alpha-pos-1,beta-pos-1",
    )  # fmt: skip
    assert run.code == 1
    said = MISSING.replace("by claude", "by copilot").replace(".claude-plugin/", ".github/plugin/")
    assert f"error: {said}" in run.stderr
    assert fake_api.requests == []  # neither a case nor the canary: the listing was read offline
    assert run.report["meta"]["agent_error"] == said and run.report["cases"] == []
