"""A run that ends the way its runtime declares its own failure gets one fresh retry before it is an
error, and every report format says so: the real Gemini CLI, whose model stream the fake API cuts
short (as an overloaded server did) until the case runs in a fresh workspace."""

from __future__ import annotations

import pytest

from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import GEMINI_MODEL, TEST_ENV, endpoint_env, find_runtime
from tests.support.routing import route, routing_env, skills_repo, valid

EARLY_END = "gemini's model stream ended early"


class CutShortIn:
    """Every model stream of the first workspace seen ends early (Gemini CLI retries those itself a
    few times, then gives up); in any other workspace the model picks alpha, or `later` says so."""

    def __init__(self, *, later: bool = True):
        self.first: str | None = None
        self.later = later

    def __call__(self, request):
        if request.tool_results:
            return "done."
        self.first = self.first or request.cwd
        if request.cwd == self.first or not self.later:
            return R.cut_short()
        return R.skill_for("gemini", "alpha")


@pytest.fixture
def env(fake_api, claude_bin, tmp_path):
    environ = routing_env(fake_api.base_url, claude_bin, tmp_path / "home")
    binary = find_runtime("gemini")
    if binary is None:
        pytest.fail(f"the gemini CLI is needed: set {TEST_ENV['gemini']}=/path/to/gemini", pytrace=False)
    environ["SKILLSCOPE_GEMINI"] = binary
    environ.update(endpoint_env("gemini", fake_api.base_url))
    return environ


def gemini_route(repo, env, *args: str):
    return route(
        repo,
        env,
        "--agent",
        "gemini",
        "--only",
        "alpha-pos-1",
        "--routing-room",
        "all",
        "--skip-preflight",
        "--model",
        GEMINI_MODEL,
        *args,
    )


@pytest.mark.usefixtures("private_temp")
def test_an_early_end_of_the_stream_is_retried_once_fresh_and_every_report_says_so(fake_api, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    script = CutShortIn()
    fake_api.script(script)
    junit = tmp_path / "junit.xml"
    done = gemini_route(repo, env, "--junit", str(junit))
    assert done.code == 0, done.stderr[-3000:]
    report = done.report
    assert valid(report) == []
    case = done.case("alpha-pos-1")
    assert (case["verdict"], case["error"]) == ("correct_trigger", None)
    assert case["retried"].startswith(EARLY_END) and case["samples"][0]["retried"] == case["retried"]
    cwds = {r.cwd for r in fake_api.agent_turns()}
    assert len(cwds) == 2  # the retry ran in a workspace of its own
    assert "### Retried cases" in done.stdout and EARLY_END in done.stdout  # markdown
    assert f"retried once, fresh: {EARLY_END}" in junit.read_text(encoding="utf-8")
    fake_api.script(CutShortIn())
    text = gemini_route(repo, env, "--format", "text", "--no-cache")
    assert f"was run once more, fresh: {EARLY_END}" in text.stdout
    assert "1 retried after its agent CLI failed on its own" in text.stdout


@pytest.mark.usefixtures("private_temp")
def test_an_early_end_in_the_retry_too_is_an_error_that_says_it_was_retried(fake_api, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    fake_api.script(CutShortIn(later=False))
    done = gemini_route(repo, env, "--min-accuracy", "0")
    report = done.report
    assert valid(report) == []
    case = done.case("alpha-pos-1")
    assert case["verdict"] == "error" and "Model stream ended without a finish reason" in case["error"]
    assert case["retried"].startswith(EARLY_END)
    assert len({r.cwd for r in fake_api.agent_turns()}) == 2  # once more, never a third time
    assert report["status"] == "error"
