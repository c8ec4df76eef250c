"""A request to read an installed skill's SKILL.md is the routing decision even when the read fails, and
a run whose agent's own environment failed its tools without a decision is an error, never a miss.

Each runtime whose listing points its model at SKILL.md (Codex, Copilot, Gemini, OpenCode) runs for
real against the fake API, the model asking for a read that fails. The canary is test_canary.py's
subject: these runs pass --no-canary and start each CLI for their cases only.
"""

from __future__ import annotations

import pytest

from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import GEMINI_MODEL, TEST_ENV, agent_of, endpoint_env, find_runtime
from tests.support.routing import CaseRouter, route, routing_env, skills_repo, valid

RUNTIMES = ("codex", "copilot", "gemini", "opencode")
# An installed skill's SKILL.md, named where no file is: the read the model asks for fails.
MISSING = "{{cwd}}/gone/.agents/skills/alpha/SKILL.md"
# What Codex's shell said for every command with Debian's bubblewrap on PATH and its helper absent.
SANDBOX_FAILURE = "bwrap: execvp codex-linux-sandbox: No such file or directory"


def failing_read(agent: str) -> R.Reply:
    """The model's call reading alpha's SKILL.md through `agent`'s own read tool, at a path that fails."""
    if agent == "codex":
        return R.tool_use("exec_command", {"cmd": f"cat {MISSING}"})
    tool, key = {
        "copilot": ("view", "path"),
        "gemini": ("read_file", "file_path"),
        "opencode": ("read", "filePath"),
    }[agent]
    return R.tool_use(tool, {key: MISSING})


@pytest.fixture
def env(fake_api, claude_bin, tmp_path, copilot_cache, kept_probes):
    environ = routing_env(fake_api.base_url, claude_bin, tmp_path / "home", probes=kept_probes)
    for name in RUNTIMES:
        binary = find_runtime(name)
        if binary is None:
            pytest.fail(f"the {name} CLI is needed: set {TEST_ENV[name]}=/path/to/{name}", pytrace=False)
        environ[f"SKILLSCOPE_{name.upper()}"] = binary
        environ.update(endpoint_env(name, fake_api.base_url))
    environ["COPILOT_CACHE_HOME"] = copilot_cache
    return environ


@pytest.mark.usefixtures("private_temp")
@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_failed_read_of_the_skill_md_is_the_decision_and_is_reported(fake_api, tmp_path, env, runtime):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    fake_api.script(CaseRouter({"alpha-pos-1": lambda request: failing_read(agent_of(request))}))
    done = route(
        repo,
        env,
        "--agent",
        runtime,
        "--only",
        "alpha-pos-1",
        "--routing-room",
        "all",
        "--skip-preflight",
        "--no-canary",
        "--model",
        GEMINI_MODEL if runtime == "gemini" else "fake-model",
    )
    assert done.code == 0, done.stderr[-3000:]
    assert valid(done.report) == []
    case = done.case("alpha-pos-1")
    assert (case["verdict"], case["observed"]) == ("correct_trigger", "alpha")
    assert case["read_failed"] and case["samples"][0]["read_failed"] == case["read_failed"]
    assert "### Decided by a failed SKILL.md read" in done.stdout


@pytest.mark.usefixtures("private_temp")
def test_a_run_whose_sandbox_fails_every_command_is_an_error_naming_it_not_misses(fake_api, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    broken = R.tool_use("exec_command", {"cmd": f"sh -c 'echo \"{SANDBOX_FAILURE}\" >&2; exit 1'"})
    fake_api.script(CaseRouter({}, default=broken, later="I could not look at the skills."))
    done = route(
        repo,
        env,
        "--agent",
        "codex",
        "--only",
        "alpha-pos-1,beta-pos-1",
        "--routing-room",
        "all",
        "--skip-preflight",
        "--no-canary",
        "--model",
        "fake-model",
        "--format",
        "text",
    )
    assert done.code == 1, done.stderr[-3000:]
    report = done.report
    assert valid(report) == []
    assert report["status"] == "error"
    assert set(done.verdicts().values()) == {"error"}
    assert all(SANDBOX_FAILURE in c["error"] and "own environment" in c["error"] for c in report["cases"])
    assert SANDBOX_FAILURE in report["gate"]["reason"]
    assert "missed_trigger" not in done.stdout
