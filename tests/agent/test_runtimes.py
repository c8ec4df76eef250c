"""Copilot CLI, Codex, Gemini CLI and OpenCode as Agents, each driven for real against the fake
model API speaking its wire protocol: the routing decision, its confirmation, isolation, failures.

The tests read the session's shared runs of each runtime (tests/support/agent_runs.py), each scripted
to show several facts and made once."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.agent import AgentUnavailable, RunSpec
from tests.fakeapi import FakeAPI
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import API_KEY, TEST_ENV, find_runtime
from tests.support.agent_runs import DIRECT, PADDING, PROMPT, Run, SharedAgents, model_for

RUNTIMES = ("copilot", "codex", "gemini", "opencode")


# A runtime's tests share the worker that makes its runs (nox runs --dist loadgroup).
@pytest.fixture(
    scope="module", params=[pytest.param(r, marks=pytest.mark.xdist_group(f"agent-{r}")) for r in RUNTIMES]
)
def runtime(request) -> str:
    if find_runtime(request.param) is None:
        pytest.fail(f"the {request.param} CLI is needed: set {TEST_ENV[request.param]}", pytrace=False)
    return request.param


@pytest.fixture
def agent(shared: SharedAgents, runtime: str):
    return shared.agent(runtime)


@pytest.fixture
def api(shared: SharedAgents, runtime: str) -> FakeAPI:
    shared.api(runtime).forget()
    return shared.api(runtime)


@pytest.fixture
def runs(shared: SharedAgents, runtime: str):
    return lambda name: shared.run(runtime, name)


def direct_run(runtime: str, runs) -> Run:
    """The run answered without a skill: the long prompt's, except on Gemini CLI, whose long prompt may
    end the run early (see the test of it), so it answers a short one."""
    return runs("direct" if runtime == "gemini" else "long")


def test_the_picked_skill_is_the_confirmed_decision(runs, runtime):
    run = runs("picked")
    trace = run.trace
    assert trace.failure is None, (trace.failure, trace.stderr_tail[-2000:])
    decision = trace.decision
    assert decision is not None, trace.stderr_tail[-2000:]
    assert (decision.name, decision.confirmed) == ("pdf-tools", True)
    assert trace.stop_reason == "activation"
    assert set(run.turns[0].skill_listing) == {"pdf-tools", "csv-report"}  # no user or built-in skill
    assert len(run.requests) == len(run.turns)  # no side request (OpenCode's title is given)
    assert ("heuristic" in " ".join(trace.notes)) == (runtime == "codex")


def test_an_invented_name_is_never_credited_and_the_neighbour_after_it_is(runs, runtime):
    trace = runs("invented").trace
    assert trace.failure is None, (trace.failure, trace.stderr_tail[-2000:])
    if runtime == "codex":  # no skill tool: a command naming no installed SKILL.md is no decision
        assert trace.inspection_calls == 1
        assert (trace.decision.name, trace.decision.confirmed) == ("csv-report", True)
        return
    assert [(a.name, a.confirmed) for a in trace.activations] == [
        ("other:ghost-skill", False),
        ("csv-report", True),
    ]
    assert (trace.decision.name, trace.decision.confirmed) == ("other:ghost-skill", False)


def test_no_skill_is_a_finished_run_without_activation(runs, runtime):
    trace = direct_run(runtime, runs).trace
    assert trace.failure is None, (trace.failure, trace.stderr_tail[-2000:])
    assert trace.activations == [] and trace.stop_reason == "result"
    assert trace.final_message == DIRECT


def test_describe_names_the_runtime_and_its_isolation(agent, runtime):
    facts = agent.describe()
    assert facts["runtime"] == runtime and facts["skills_folder"] == ".agents/skills"
    assert agent.version.count(".") == 2


def test_a_prompt_beyond_the_argument_limit_reaches_the_model_on_stdin(agent, runs, runtime):
    run = runs("long")
    trace = run.trace
    assert PADDING.strip() in run.turns[0].prompt
    if runtime == "gemini" and trace.failure and trace.non_json_lines:
        # Gemini CLI echoes the prompt as its first event and can exit before that long line is
        # written out whole: an errored run (never a pass), as docs/agents.md says.
        assert "before reporting a result" in trace.failure
    else:
        assert trace.failure is None, (trace.failure, trace.stderr_tail[-2000:])
    argv, _ = agent.invocation(RunSpec(PROMPT, Path("<workspace>")))
    assert PROMPT not in " ".join(argv)


def test_the_api_key_reaches_the_model_but_not_the_tools_environment(agent, runs, tmp_path):
    assert any(API_KEY in value for value in runs("picked").requests[0].headers.values())
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


def test_an_api_error_fails_the_preflight_naming_the_runtimes_own_variable(agent, api, runtime):
    # The preflight is a run like any other: an API error fails it (it raises only on a failed run),
    # and one rule for every runtime names the fix, here the runtime's own key variable.
    api.script(lambda request: R.error(401))
    with pytest.raises(AgentUnavailable) as raised:
        agent.preflight(model_for(runtime))
    assert api.requests  # the run reached the model, which refused it
    assert str(raised.value).startswith("the API rejected the credentials (the API answered 401")
    assert str(raised.value).endswith(f"check {agent.credential_vars[0]}")
