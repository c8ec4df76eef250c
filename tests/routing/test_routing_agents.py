"""`skillscope routing --agent a,b,...`: the same cases on every agent, one matrix report."""

from __future__ import annotations

import json
import re

import pytest

from harness import schemas
from harness.routing import canary
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import TEST_ENV, agent_of, endpoint_env, find_runtime
from tests.support.routing import CaseRouter, prompt_of, route, routing_env, skills_repo
from tests.support.sandbox import path_without, require_bubblewrap

AGENTS = ("claude", "copilot", "codex", "gemini", "opencode")


@pytest.fixture
def env(fake_api, claude_bin, tmp_path, copilot_cache, kept_probes):
    environ = routing_env(fake_api.base_url, claude_bin, tmp_path / "home", probes=kept_probes)
    for name in AGENTS[1:]:
        binary = find_runtime(name)
        if binary is None:
            pytest.fail(f"the {name} CLI is needed: set {TEST_ENV[name]}=/path/to/{name}", pytrace=False)
        environ[f"SKILLSCOPE_{name.upper()}"] = binary
        environ.update(endpoint_env(name, fake_api.base_url))
    environ["COPILOT_CACHE_HOME"] = copilot_cache
    return environ


def skill_call(name: str):
    """A reply that picks `name` in whichever agent's tool the request came from."""
    return lambda request: R.skill_for(agent_of(request), name)


@pytest.mark.usefixtures("private_temp")
def test_one_command_routes_the_same_cases_on_all_five_agents(fake_api, tmp_path, env):
    """With bubblewrap on PATH (Codex then runs its shell in it), every agent's canary activates and
    every agent decides the same; this is each real CLI's canary activation (tests/routing/test_canary.py
    reads what the harness makes of one on the scripted runtimes). Without bubblewrap: the test below."""
    require_bubblewrap()
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")

    def codex_misroutes(request):  # one agent disagrees on one case
        return R.skill_for("codex", "beta") if agent_of(request) == "codex" else skill_call("alpha")(request)

    # A case each agent but one routes right, and a negative: each run of a case starts its CLI once.
    fake_api.script(CaseRouter({"alpha-pos-1": codex_misroutes}))
    done = route(
        repo,
        env,
        "--agent",
        ",".join(AGENTS),
        "--only",
        "alpha-pos-1,alpha-neg-1",
        "--skip-preflight",
        "--routing-room",
        "all",
        "--min-accuracy",
        "0",
        "--model",
        "gemini-2.5-flash",
    )
    assert done.code == 0, done.stderr[-3000:]
    report = done.report
    assert [e.message for e in schemas.validator("routing-matrix-report").iter_errors(report)] == []
    for run in report["runs"]:
        assert [e.message for e in schemas.validator("routing-report").iter_errors(run)] == []
    assert [a["agent"] for a in report["agents"]] == list(AGENTS)
    assert all(a["agent_version"].count(".") == 2 for a in report["agents"])
    first = report["cases"][0]  # the case that differs comes first
    assert (first["id"], first["differs"]) == ("alpha-pos-1", True)
    assert first["by_agent"]["codex"]["verdict"] == "wrong_skill"
    assert {a: v["verdict"] for a, v in first["by_agent"].items() if a != "codex"} == dict.fromkeys(
        ("claude", "copilot", "gemini", "opencode"), "correct_trigger"
    )
    (negative,) = report["cases"][1:]
    assert (negative["id"], negative["differs"]) == ("alpha-neg-1", False)
    assert {v["verdict"] for v in negative["by_agent"].values()} == {"true_negative"}
    assert len(negative["by_agent"]) == len(AGENTS)
    assert report["matrix"]["alpha"]["codex"] == {"graded": 2, "passed": 1, "accuracy": 0.5}
    assert report["matrix"]["alpha"]["claude"]["accuracy"] == 1
    codex = next(a for a in report["agents"] if a["agent"] == "codex")
    assert any("heuristic" in note for note in codex["notes"])
    assert "Skill routing across agents" in done.stdout and "**differs** alpha-pos-1" in done.stdout
    assert prompt_of("alpha-pos-1")  # the router keyed on it
    json.dumps(report)
    # Each agent's canary activated, first, with the room listed beside its planted skill.
    assert [a["canary"]["status"] for a in report["agents"]] == ["activated"] * len(AGENTS)
    assert all(run["meta"]["canary"]["observed"] == canary.NAME for run in report["runs"])
    for name in AGENTS:
        (asked, *_) = [r for r in fake_api.canary_turns() if agent_of(r) == name]
        assert {"alpha", "beta", canary.NAME} <= set(asked.skill_listing), name
        cases = [r for r in fake_api.agent_turns() if agent_of(r) == name]
        assert cases and asked.started <= min(r.started for r in cases), name


@pytest.mark.usefixtures("private_temp")
def test_without_bubblewrap_every_agent_still_routes_a_case_right(fake_api, tmp_path, env):
    """No runtime's own sandbox is graded as the skill's miss when bubblewrap is missing (Codex then
    runs its shell in a sandbox mode of its own, claude's sandbox could not start): one case each, the
    canary already proven on each CLI above."""
    env = {**env, "PATH": str(path_without("bwrap", env["PATH"], tmp_path / "no-bwrap"))}
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    fake_api.script(CaseRouter({"alpha-pos-1": skill_call("alpha")}))
    done = route(
        repo, env, "--agent", ",".join(AGENTS), "--only", "alpha-pos-1", "--skip-preflight", "--no-canary",
        "--routing-room", "all", "--model", "gemini-2.5-flash",
    )  # fmt: skip
    assert done.code == 0, done.stderr[-3000:]
    (case,) = done.report["cases"]
    assert {a: v["verdict"] for a, v in case["by_agent"].items()} == dict.fromkeys(AGENTS, "correct_trigger")


@pytest.mark.usefixtures("private_temp")
def test_a_dry_run_on_several_agents_shows_each_command_and_sends_nothing(fake_api, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    done = route(repo, env, "--agent", "codex,gemini,opencode", "--routing-room", "all", "--dry-run")
    assert done.code == 0, done.stderr[-3000:]
    assert "nothing was sent (codex)" in done.stdout and "nothing was sent (gemini)" in done.stdout
    # Each agent's estimate counts the requests its CLI spends on the deciding turn.
    parts = dict(re.findall(r"nothing was sent \((\w+)\)\n(.*?)(?=\n## |\Z)", done.stdout, re.S))
    for agent, per_case in (("codex", 1), ("gemini", 2), ("opencode", 1.25)):
        samples = int(re.search(r"Estimate: (\d+) sample", parts[agent]).group(1))
        assert f"Model requests: about {round(samples * per_case)} ({per_case} per sample" in parts[agent]
    assert " exec --json " in done.stdout and " --allowed-tools activate_skill " in done.stdout
    assert prompt_of("alpha-pos-1") not in "".join(
        line for line in done.stdout.splitlines() if "exec" in line
    )
    assert "fake-test-key" not in done.stdout  # the keys stay out of the printed command
    assert "Cost ceiling" not in done.stdout  # these CLIs cap no run's spend: no ceiling is claimed
    assert fake_api.requests == []
