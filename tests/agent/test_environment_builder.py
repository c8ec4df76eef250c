"""Each runtime's environment is built from its allowlist (harness/agent/environment.py): whatever
the harness's environment holds, a run's CLI gets what every CLI needs to start, its runtime's own
endpoint and model variables, the names --pass-env gives, and the run's own home; never a credential
it does not need, and never a SKILLSCOPE_* variable. No CLI is started here."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.agent import LocatedCLI, RunSpec
from harness.agent.environment import HARNESS_PREFIX, NETWORK_VARS, START_VARS, agent_environment, refused
from harness.agent.relay import Handover
from harness.agent.runtimes import AGENT_CLASSES
from tests.support.examples import examples

KEY = "sk-model-key-0123456789"
ENDPOINTS = {
    "claude": {"ANTHROPIC_BASE_URL": "http://127.0.0.1:9", "ANTHROPIC_API_KEY": KEY},
    "copilot": {"COPILOT_PROVIDER_BASE_URL": "http://127.0.0.1:9", "COPILOT_PROVIDER_API_KEY": KEY},
    "codex": {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": KEY},
    "gemini": {"GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9", "GEMINI_API_KEY": KEY},
    "opencode": {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": KEY},
}
HARNESS = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "LC_CTYPE": "C.UTF-8",
    "HTTPS_PROXY": "http://proxy.invalid:3128",
    "HOME": "/home/ci",
    "SKILLSCOPE_CACHE_KEY": "cache-key-secret-value",
    "SKILLSCOPE_CLAUDE": "/opt/claude",
    "AWS_SECRET_ACCESS_KEY": "aws-secret-value-0000",
    "GITHUB_TOKEN": "ghp-token-value-0000",
    "FOO_TOKEN": "foo-token-value-0000",
    "ANTHROPIC_API_KEY": "sk-another-runtimes-key",
    "OPENAI_API_KEY": "sk-another-runtimes-key-2",
    "CLAUDECODE": "1",
    "MY_SETTING": "passed-by-name",
}
STAND_IN = Handover("http://127.0.0.1:1234", "skillscope-run-stand-in")


def run_env(runtime: str, environ: dict[str, str], tmp_path, pass_env=()) -> dict[str, str]:
    kind = AGENT_CLASSES[runtime]
    cli = LocatedCLI("/bin/true", "9.9.9", frozenset(kind.optional_flags))
    agent = kind(cli, environ, tmp_path, pass_env)
    with agent.home() as home:
        _, env, _ = agent.command(RunSpec("hello", tmp_path), home, STAND_IN)
    return env


@pytest.mark.parametrize("runtime", sorted(AGENT_CLASSES))
def test_each_runtime_gets_its_allowlist_and_what_is_passed_by_name(runtime, tmp_path):
    environ = {**HARNESS, **ENDPOINTS[runtime]}
    env = run_env(runtime, environ, tmp_path, pass_env=("MY_SETTING",))
    assert env["PATH"] == "/usr/bin:/bin" and env["LANG"] == env["LC_CTYPE"] == "C.UTF-8"
    assert env["HTTPS_PROXY"] == "http://proxy.invalid:3128" and env["MY_SETTING"] == "passed-by-name"
    assert not [name for name in env if name.startswith(HARNESS_PREFIX)]
    secrets = {HARNESS[name] for name in HARNESS if "KEY" in name or "TOKEN" in name}
    assert [name for name, value in env.items() if value in secrets or KEY in value] == []
    assert env["HOME"] != "/home/ci" and "CLAUDECODE" not in env  # a throwaway home; no nesting mark
    assert STAND_IN.token in env.values() or runtime in ("codex", "opencode")  # those take it by file


@pytest.mark.parametrize("runtime", sorted(AGENT_CLASSES))
def test_without_pass_env_a_variable_of_the_users_does_not_arrive(runtime, tmp_path):
    assert "MY_SETTING" not in run_env(runtime, {**HARNESS, **ENDPOINTS[runtime]}, tmp_path)


@settings(max_examples=examples(60), deadline=None)
@given(
    names=st.lists(st.from_regex(r"[A-Z][A-Z0-9_]{0,20}", fullmatch=True), max_size=12),
    passed=st.lists(st.from_regex(r"[A-Z][A-Z0-9_]{0,20}", fullmatch=True), max_size=4),
)
def test_the_allowlist_keeps_only_its_names_and_never_one_of_skillscopes(names, passed):
    environ = {name: f"value-of-{name}" for name in [*names, "SKILLSCOPE_CACHE_KEY", *passed]}
    built = agent_environment(environ, ("ANTHROPIC_MODEL",), [*passed, "SKILLSCOPE_CACHE_KEY"])
    allowed = {*START_VARS, *NETWORK_VARS, "ANTHROPIC_MODEL", *passed}
    assert all(name in allowed or name.startswith("LC_") for name in built)
    assert not [name for name in built if name.startswith("SKILLSCOPE_")]
    assert {name for name in passed if not name.startswith("SKILLSCOPE_")} <= set(built)


def test_pass_env_refuses_skillscopes_own_variables_and_non_names():
    assert refused(["FOO", "BAR_BAZ"]) is None
    why = refused(["FOO", "SKILLSCOPE_CACHE_KEY"])
    assert why and "SKILLSCOPE_CACHE_KEY is skillscope's own" in why and "--pass-env" in why
    assert "not an environment variable's name" in (refused(["A=B"]) or "")
