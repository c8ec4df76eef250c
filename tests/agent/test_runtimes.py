"""Copilot CLI, Codex, Gemini CLI and OpenCode as Agents, each driven for real against the fake
model API speaking its wire protocol: the routing decision, its confirmation, isolation, failures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.agent import AgentUnavailable, RunSpec, connect_runtime, stop_at_decision
from tests.fakeapi import FakeAPI, write_skill
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import API_KEY, MODEL, TEST_ENV, endpoint_env, find_runtime
from tests.support.hermetic import git_isolation
from tests.support.procs import group_members

RUNTIMES = ("copilot", "codex", "gemini", "opencode")
PROMPT = "please convert my pdf"


@pytest.fixture(scope="module", params=RUNTIMES)
def runtime(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def shared_api(runtime: str):
    with FakeAPI() as server:
        yield server


@pytest.fixture
def api(shared_api: FakeAPI):
    shared_api.forget()
    return shared_api


@pytest.fixture(scope="module")
def agent(runtime: str, shared_api: FakeAPI, tmp_path_factory, copilot_cache: str):
    """One located agent per runtime for the module: probing a CLI's version costs a start-up."""
    binary = find_runtime(runtime)
    if binary is None:
        pytest.fail(f"the {runtime} CLI is needed: set {TEST_ENV[runtime]}=/path/to/{runtime}", pytrace=False)
    home = tmp_path_factory.mktemp(f"{runtime}-home")
    environ = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        **git_isolation(),
        "COPILOT_CACHE_HOME": copilot_cache,
        **endpoint_env(runtime, shared_api.base_url),
    }
    return connect_runtime(runtime, binary, environ, tmp_path_factory.mktemp(f"{runtime}-runs"))


@pytest.fixture
def room(tmp_path: Path) -> dict[str, Path]:
    source = tmp_path / "repo"
    return {
        "pdf-tools": write_skill(
            source,
            "pdf-tools",
            "Work with PDF files.",
            "# PDF\nSay PDF-ACTIVE.\n",
            extra_files={"evals/evals.json": '{"answer": "key"}'},
        ),
        "csv-report": write_skill(source, "csv-report", "Summarize CSV files."),
    }


def route(agent, room, **fields):
    with agent.workspace(room) as workspace:
        assert not (workspace / ".agents" / "skills" / "pdf-tools" / "evals").exists()
        spec = RunSpec(
            PROMPT,
            workspace,
            model=MODEL if agent.runtime != "gemini" else None,
            timeout_s=300,
            stop=stop_at_decision(4, 8),
            **fields,
        )
        trace = agent.run(spec)
    assert trace.pid is not None and group_members(trace.pid) == []  # nothing of the run outlives it
    return trace


def test_the_picked_skill_is_the_confirmed_decision(agent, api, room, runtime):
    # The fake answers at once, so a CLI may load csv-report too before the stop lands (seen under
    # load); a later activation must not change the decision. The third turn never gets an answer:
    # however fast or slow the machine, a run not stopped at the decision would wait out its limit.
    api.script({PROMPT: [R.skill_for(runtime, "pdf-tools"), R.skill_for(runtime, "csv-report"), R.hang()]})
    trace = route(agent, room)
    assert trace.failure is None, (trace.failure, trace.stderr_tail[-2000:])
    decision = trace.decision
    assert decision is not None, trace.stderr_tail[-2000:]
    assert (decision.name, decision.confirmed) == ("pdf-tools", True)
    assert trace.stop_reason == "activation"
    first = api.agent_turns()[0]
    assert set(first.skill_listing) == {"pdf-tools", "csv-report"}  # no user or built-in skill listed
    assert len(api.requests) == len(api.agent_turns())  # no side request (OpenCode's title is given)
    assert ("heuristic" in " ".join(trace.notes)) == (runtime == "codex")


def test_a_neighbour_skill_is_a_different_decision(agent, api, room, runtime):
    api.script({PROMPT: [R.skill_for(runtime, "csv-report"), "finished"]})
    assert route(agent, room).decision.name == "csv-report"


def test_no_skill_is_a_finished_run_without_activation(agent, api, room):
    api.script({PROMPT: ["I can answer that directly."]})
    trace = route(agent, room)
    assert trace.failure is None, (trace.failure, trace.stderr_tail[-2000:])
    assert trace.activations == [] and trace.stop_reason == "result"
    assert trace.final_message == "I can answer that directly."


def test_an_invented_name_is_never_credited(agent, api, room, runtime):
    api.script({PROMPT: [R.skill_for(runtime, "ghost-skill"), "finished"]})
    trace = route(agent, room)
    if runtime == "codex":  # no skill tool: a command naming no installed SKILL.md is no decision
        assert trace.decision is None and trace.inspection_calls == 1
        return
    decision = trace.decision
    assert (decision.name, decision.confirmed) == ("other:ghost-skill", False)


def test_an_api_error_fails_the_run(agent, api, room, runtime):
    api.script({PROMPT: [R.error(400)]})
    trace = route(agent, room)
    assert trace.failure is not None
    assert trace.decision is None


def test_describe_names_the_runtime_and_its_isolation(agent, runtime):
    facts = agent.describe()
    assert facts["runtime"] == runtime and facts["skills_folder"] == ".agents/skills"
    assert agent.version.count(".") == 2


def test_a_prompt_beyond_the_argument_limit_reaches_the_model_on_stdin(agent, api, room, runtime):
    # One command-line argument holds at most 128 KiB on Linux: a judge's evidence can be longer.
    padding = "evidence " * 25_000
    api.script({PROMPT: lambda request: "read it all"})  # every request answered, a retry too
    with agent.workspace(room) as workspace:
        model = MODEL if runtime != "gemini" else None
        trace = agent.run(RunSpec(f"{PROMPT}\n{padding}", workspace, model=model, timeout_s=300))
    assert padding.strip() in api.agent_turns()[0].prompt
    if runtime == "gemini" and trace.failure and trace.non_json_lines:
        # Gemini CLI echoes the prompt as its first event and can exit before that long line is
        # written out whole: an errored run (never a pass), as docs/agents.md says.
        assert "before reporting a result" in trace.failure
    else:
        assert trace.failure is None, (trace.failure, trace.stderr_tail[-2000:])
    argv, _ = agent.invocation(RunSpec(PROMPT, Path("<workspace>")))
    assert PROMPT not in " ".join(argv)


def test_the_api_key_reaches_the_model_but_not_the_tools_environment(agent, api, room, runtime, tmp_path):
    api.script({PROMPT: ["fine"]})
    route(agent, room)
    assert any(API_KEY in value for value in api.requests[0].headers.values())
    home = tmp_path / "home"
    home.mkdir()
    with agent.relay() as handover:
        _, env, _ = agent.command(RunSpec(PROMPT, tmp_path), home, handover)
    # The key stays in the relay: neither the environment nor any file of the run's home holds it.
    assert [name for name, value in env.items() if API_KEY in value] == []
    assert [p for p in home.rglob("*") if p.is_file() and API_KEY in p.read_text(errors="replace")] == []


def test_a_runtime_without_a_shell_sandbox_says_so_without_running(agent, api, runtime):
    support = agent.probe_sandbox()
    assert (support.available, support.reason) == (
        False,
        f"skillscope cannot turn on a shell sandbox for {runtime}",
    )
    assert api.requests == []


def test_a_rejected_key_fails_the_preflight_naming_the_runtimes_own_variable(agent, api, runtime):
    # One preflight rule for every runtime: the prompt's run did not fail, else the fix is named.
    api.script(lambda request: R.error(401))
    with pytest.raises(AgentUnavailable) as raised:
        agent.preflight(MODEL if runtime != "gemini" else None)
    assert str(raised.value).startswith("the API rejected the credentials (the API answered 401")
    assert str(raised.value).endswith(f"check {agent.credential_vars[0]}")
