"""A behavioral case whose agent CLI failed on its own (its runtime's RetryRule) runs once more in a fresh
workspace, and the reports say so: the real Gemini CLI, its model stream cut short in the first one."""

from __future__ import annotations

import io
import json

import pytest

from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import GEMINI_MODEL, TEST_ENV, endpoint_env, find_runtime
from tests.support.behavioral import assert_valid
from tests.support.helpers import evals_for, make_skill
from tests.support.routing import routing_env

EARLY_END = "gemini's model stream ended early"


def writes_in_a_second_workspace():
    first: list[str] = []

    def reply(request):
        first[:1] = first[:1] or [request.cwd]
        if request.cwd == first[0]:
            return R.cut_short()
        if request.tool_results:
            return "Wrote out.txt."
        return R.tool_use("write_file", {"file_path": "{{cwd}}/out.txt", "content": "done\n"})

    return reply


@pytest.mark.usefixtures("private_temp")
def test_a_case_the_cli_failed_on_its_own_runs_again_fresh_and_passes_saying_so(
    fake_api, claude_bin, tmp_path
):
    dataset = evals_for("alpha")
    first, second = dataset["evaluations"][:2]
    second["expected_behavior"] = first.pop("expected_behavior")  # Tier 0 wants one; this case needs none
    first["files_exist"] = ["out.txt"]
    repo = tmp_path / "repo"
    make_skill(repo, "alpha", evals=dataset)
    binary = find_runtime("gemini")
    if binary is None:
        pytest.fail(f"the gemini CLI is needed: set {TEST_ENV['gemini']}=/path/to/gemini", pytrace=False)
    env = {
        **routing_env(fake_api.base_url, claude_bin, tmp_path / "home"),
        "SKILLSCOPE_GEMINI": binary,
        **endpoint_env("gemini", fake_api.base_url),
    }
    fake_api.script(writes_in_a_second_workspace())
    output = tmp_path / "report.json"
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    argv = ["behavioral", "--repo", str(repo), "--agent", "gemini", "--judge-agent", "gemini"]
    argv += ["--model", GEMINI_MODEL, "--skip-preflight", "--only", "alpha-pos-1", "--output", str(output)]
    code = main([*argv, "--format", "markdown"], ctx)
    assert code == 0, ctx.stderr.getvalue()[-3000:]
    report = json.loads(output.read_text(encoding="utf-8"))
    assert_valid(report)
    (case,) = report["cases"]
    assert case["status"] == "pass" and case["retried"].startswith(EARLY_END)
    assert [a["attempt"] for a in case["attempts"]] == [1, 2]
    assert "Model stream ended without a finish reason" in case["attempts"][0]["error"]
    assert len({r.cwd for r in fake_api.agent_turns()}) == 2
    shown = ctx.stdout.getvalue()
    assert "### Retried cases" in shown and EARLY_END in shown
