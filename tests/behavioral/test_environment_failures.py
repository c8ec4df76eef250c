"""A behavioral case whose agent's tools failed in the agent's own environment (its sandbox, a missing
helper) is an error naming the cause and the fix, never a fail, and is not judged: the real Claude and
Codex CLIs, the model running a shell command that fails as a broken sandbox does."""

from __future__ import annotations

import io
import json

import pytest

from harness.behavioral.judge import JUDGE_HEADER
from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import TEST_ENV, endpoint_env, find_runtime
from tests.support.behavioral import assert_valid
from tests.support.helpers import evals_for, make_skill
from tests.support.routing import routing_env

# What each runtime's shell was seen to say when its sandbox could not start: Codex with Debian's
# bubblewrap and its helper absent; Claude's bubblewrap sandbox without user namespaces.
SANDBOX_FAILURES = {
    "codex": "bwrap: execvp codex-linux-sandbox: No such file or directory",
    "claude": "bwrap: No permissions to creating new namespace, likely because the kernel does not allow",
}
SHELL_TOOLS = {"codex": ("exec_command", "cmd"), "claude": ("Bash", "command")}


def failing_shell(runtime: str):
    """The model's every turn: one shell command, which fails as the runtime's broken sandbox does."""
    tool, key = SHELL_TOOLS[runtime]
    command = f"sh -c 'echo \"{SANDBOX_FAILURES[runtime]}\" >&2; exit 1'"

    def reply(request):
        if request.prompt.startswith(JUDGE_HEADER):
            raise AssertionError("a case whose environment failed is never judged")
        if request.tool_results:
            return "I could not run anything, so out.txt is not written."
        return R.tool_use(tool, {key: command})

    return reply


def environment(runtime: str, fake_api, claude_bin, tmp_path) -> dict[str, str]:
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home")
    if runtime != "claude":
        binary = find_runtime(runtime)
        if binary is None:
            wanted = f"the {runtime} CLI is needed: set {TEST_ENV[runtime]}=/path/to/{runtime}"
            pytest.fail(wanted, pytrace=False)
        env.update({f"SKILLSCOPE_{runtime.upper()}": binary, **endpoint_env(runtime, fake_api.base_url)})
    return env


@pytest.mark.usefixtures("private_temp")
@pytest.mark.parametrize("runtime", ["claude", "codex"])
def test_a_case_whose_sandbox_fails_its_tools_is_an_error_naming_it_not_a_fail(
    fake_api, claude_bin, tmp_path, runtime
):
    dataset = evals_for("alpha")
    dataset["evaluations"][0]["files_exist"] = ["out.txt"]  # a check the run would fail
    repo = tmp_path / "repo"
    make_skill(repo, "alpha", evals=dataset)
    fake_api.script(failing_shell(runtime))
    output, junit = tmp_path / "report.json", tmp_path / "junit.xml"
    env = environment(runtime, fake_api, claude_bin, tmp_path)
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    argv = ["behavioral", "--repo", str(repo), "--agent", runtime, "--model", "fake-model"]
    argv += ["--skip-preflight", "--only", "alpha-pos-1", "--output", str(output), "--junit", str(junit)]
    code = main([*argv, "--format", "markdown"], ctx)
    assert code == 1, ctx.stderr.getvalue()[-3000:]
    report = json.loads(output.read_text(encoding="utf-8"))
    assert_valid(report)
    (case,) = report["cases"]
    assert case["status"] == "error" and case["checks"] == []
    assert SANDBOX_FAILURES[runtime][:40] in case["error"]
    assert "own environment" in case["error"] and "fix the agent's sandbox" in case["error"]
    assert report["counts"]["fail"] == 0 and report["counts"]["error"] == 1
    assert case["judge"]["calls"] == 0
    assert 'failures="0"' in junit.read_text(encoding="utf-8")
    assert "fix the agent's sandbox" in ctx.stdout.getvalue()
