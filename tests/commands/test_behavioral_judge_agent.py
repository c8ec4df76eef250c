"""`skillscope behavioral --judge-agent`: the judge runs in another agent CLI, its long prompt on stdin.

The case runs in the real claude CLI, the judge in the real Codex CLI; one fake model server answers
both, each in its own wire protocol.
"""

from __future__ import annotations

import shutil

import pytest

from tests.fakeapi.runtimes import API_KEY, TEST_ENV, endpoint_env, find_runtime
from tests.support.behavioral import SCENARIOS, Behave, assert_valid, judge_requests, writer_passes


@pytest.fixture
def behave(tmp_path, claude_bin, fake_env, fake_api):
    codex = find_runtime("codex")
    if codex is None:
        pytest.fail(f"the codex CLI is needed: set {TEST_ENV['codex']}=/path/to/codex", pytrace=False)
    repo = tmp_path / "writer"
    shutil.copytree(SCENARIOS / "writer", repo)
    env = {**fake_env, **endpoint_env("codex", fake_api.base_url), "SKILLSCOPE_CODEX": codex}
    return Behave(repo, claude_bin, env)


def test_a_judge_on_codex_grades_a_case_run_in_claude(behave, fake_api):
    fake_api.script(writer_passes())
    run = behave(
        "--only",
        "report-writer-pass",
        "--judge-agent",
        "codex",
        "--judge-model",
        "fake-model",
        "--no-sandbox",
    )
    assert run.code == 0, run.stderr
    assert_valid(run.report)
    meta = run.report["meta"]
    assert (meta["agent"], meta["judge_agent"]) == ("claude", "codex")
    assert meta["judge_version"].count(".") == 2
    case = run.case("report-writer-pass")
    assert case["status"] == "pass" and case["judge"]["calls"] == 1
    (judged,) = judge_requests(fake_api)
    assert judged.wire.name == "responses"  # Codex's wire: the judge ran there
    assert any(API_KEY in value for value in judged.headers.values())
    assert "on codex" in run.stdout
