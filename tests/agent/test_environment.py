"""The agent's environment is built for it: on each of the five real CLIs, a behavioral case whose
model runs `env` with the CLI's own shell tool shows (to the model, and in every kept file) what the
runtime's allowlist and --pass-env let through, and none of the harness's secrets or own variables;
and the model API key the endpoint receives is the real one although the CLI never held it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from harness.behavioral.judge import JUDGE_HEADER
from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import API_KEY, TEST_ENV, endpoint_env, find_runtime
from tests.support.behavioral import assert_valid
from tests.support.helpers import evals_for, make_skill
from tests.support.routing import routing_env

RUNTIMES = ["claude", "copilot", "codex", "gemini", "opencode"]
# The harness's environment as a CI job has it: its own secrets and credentials besides the model's.
PLANTED = {
    "SKILLSCOPE_CACHE_KEY": "cache-signing-secret-5b1e0c",
    "AWS_SECRET_ACCESS_KEY": "aws-secret-access-9f4d2a7",
    "GITHUB_TOKEN": "ghp-planted-token-3c8e1f",
    "FOO_TOKEN": "foo-planted-token-77a2d9",
}
PASSED = {"MY_TOOL_SETTING": "passed-through-by-name-42"}
# Each CLI's own shell tool, and the input key holding the command.
SHELLS = {
    "claude": ("Bash", {"command": "env"}),
    "copilot": ("bash", {"command": "env", "description": "print the environment"}),
    "codex": ("exec_command", {"cmd": "env"}),
    "gemini": ("run_shell_command", {"command": "env"}),
    "opencode": ("bash", {"command": "env", "description": "print the environment"}),
}


def scripted(runtime: str):
    tool, given = SHELLS[runtime]

    def reply(request):
        if request.prompt.startswith(JUDGE_HEADER):
            return R.text('{"verdicts": [{"id": "E1", "pass": true, "reason": "it did"}]}')
        if request.tool_results:
            return "Printed the environment."
        return R.tool_use(tool, given)

    return reply


def environment(runtime: str, fake_api, claude_bin: str, tmp_path: Path) -> dict[str, str]:
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home", ANTHROPIC_API_KEY=API_KEY)
    if runtime != "claude":
        binary = find_runtime(runtime)
        if binary is None:
            pytest.fail(f"the {runtime} CLI is needed: set {TEST_ENV[runtime]}", pytrace=False)
        env.update({f"SKILLSCOPE_{runtime.upper()}": binary, **endpoint_env(runtime, fake_api.base_url)})
    return {**env, **PLANTED, **PASSED}


def kept_texts(*places: Path) -> dict[str, str]:
    found = {}
    for place in places:
        for path in [place] if place.is_file() else sorted(p for p in place.rglob("*") if p.is_file()):
            found[str(path)] = path.read_text(encoding="utf-8", errors="replace")
    return found


@pytest.mark.usefixtures("private_temp")
@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_agent_sees_its_allowlist_and_pass_env_and_nothing_of_the_harness(
    runtime, fake_api, claude_bin, copilot_cache, tmp_path
):
    repo = tmp_path / "repo"
    make_skill(repo, "alpha", evals=evals_for("alpha"))
    fake_api.script(scripted(runtime))
    env = environment(runtime, fake_api, claude_bin, tmp_path)
    if runtime == "copilot":
        env["COPILOT_CACHE_HOME"] = copilot_cache
    logs, output = tmp_path / "logs", tmp_path / "report.json"
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    argv = ["behavioral", "--repo", str(repo), "--agent", runtime, "--model", "fake-model"]
    argv += ["--judge-agent", "claude", "--skip-preflight", "--no-sandbox", "--no-cache"]
    argv += ["--only", "alpha-pos-1", "--keep-logs", str(logs), "--output", str(output)]
    argv += ["--pass-env", ",".join(PASSED)]
    code = main(argv, ctx)
    report = json.loads(output.read_text(encoding="utf-8"))
    assert_valid(report)
    assert code == 0, (ctx.stderr.getvalue()[-3000:], report["cases"])

    # What the model was sent back: the output of `env` in the agent's own shell.
    printed = [
        result["text"]
        for request in fake_api.requests
        if not request.prompt.startswith(JUDGE_HEADER)
        for result in request.tool_results
    ]
    assert any("PATH=" in text for text in printed), printed  # env ran and printed
    shown = "\n".join(printed)
    assert "MY_TOOL_SETTING=passed-through-by-name-42" in shown
    assert [name for name in PLANTED if name in shown or PLANTED[name] in shown] == []
    assert "SKILLSCOPE_" not in shown and API_KEY not in shown  # no own variable, no model key
    # Every model request still carried the real key: the relay put it where the CLI's stand-in was.
    carried = [API_KEY in json.dumps(request.headers) + request.path for request in fake_api.requests]
    assert carried and all(carried)

    kept = {**kept_texts(logs, output), "stdout": ctx.stdout.getvalue(), "stderr": ctx.stderr.getvalue()}
    leaked = [
        (where, name) for where, text in kept.items() for name, value in PLANTED.items() if value in text
    ]
    assert leaked == [] and not [where for where, text in kept.items() if API_KEY in text]
