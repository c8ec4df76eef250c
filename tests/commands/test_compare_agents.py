"""`skillscope compare --agent` and `--baseline-agent`, and `skillscope cost --agent`: the real agent
CLIs against the scripted fake API, which answers in whichever agent's tool the request came from. The
retry of a side its CLI failed on its own runs on the scripted runtimes (tests/support/scripted.py)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from harness import schemas
from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import GEMINI_MODEL, TEST_ENV, agent_of, endpoint_env, find_runtime
from tests.support import scripted as S
from tests.support.routing import CaseRouter, skills_repo

pytestmark = pytest.mark.usefixtures("private_temp")


@pytest.fixture
def env(env, fake_api):
    environ = dict(env)  # the routing environment, with codex beside claude
    binary = find_runtime("codex")
    if binary is None:
        pytest.fail(f"the codex CLI is needed: set {TEST_ENV['codex']}=/path/to/codex", pytrace=False)
    environ["SKILLSCOPE_CODEX"] = binary
    environ.update(endpoint_env("codex", fake_api.base_url))
    return environ


def run(repo: Path, env: dict, *argv: str) -> tuple[int, dict, str, str]:
    output = repo.parent / "report.json"
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    code = main([*argv, "--repo", str(repo), "--output", str(output), "--format", "markdown"], ctx)
    report = json.loads(output.read_text("utf-8")) if output.exists() else {}
    return code, report, ctx.stdout.getvalue(), ctx.stderr.getvalue()


def test_two_agents_side_by_side_on_the_same_version(fake_api, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")

    def codex_misses(request):  # codex's model answers alpha-pos-2 itself; claude's picks alpha
        if agent_of(request) == "codex":
            return "I will answer myself."
        return R.skill_for("claude", "alpha")

    def alpha_anywhere(request):
        return R.skill_for(agent_of(request), "alpha")

    fake_api.script(CaseRouter({"alpha-pos-1": alpha_anywhere, "alpha-pos-2": codex_misses}))
    code, report, out, err = run(
        repo,
        env,
        *("compare", "--skill", "alpha", "--mode", "routing", "--routing-room", "alpha,beta"),
        *("--only", "alpha-pos-1,alpha-pos-2", "--repeat", "1", "--skip-preflight", "--no-cache"),
        *("--baseline", "alpha", "--baseline-agent", "codex"),  # the same folder: only the agent differs
        "--no-canary",  # each agent's canary is tested in tests/routing/test_canary.py
        *("--model", "fake-model"),  # a model codex does not know offers its generic tools
    )
    assert code == 0, err[-3000:]
    assert schemas.errors("compare", report) == []
    labels = {c["id"]: c["label"] for c in report["cases"]}
    assert labels == {"alpha-pos-1": "same-pass", "alpha-pos-2": "improvement"}
    agent = report["meta"]["agent"]
    assert agent["runtime"] == "claude" and agent["baseline"]["runtime"] == "codex"
    assert agent["baseline"]["version"].count(".") == 2
    assert {agent_of(r) for r in fake_api.agent_turns()} == {"claude", "codex"}
    assert "codex" in err and "1 improvements" in out


def test_cost_runs_the_prompt_on_the_agent_named(fake_api, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "alpha")
    fake_api.script(
        lambda request: "done." if request.tool_results else R.skill_for(agent_of(request), "alpha")
    )
    code, report, _out, err = run(
        repo,
        env,
        "cost",
        "Please do the alpha job.",
        "--skill",
        "alpha",
        "--agent",
        "codex",
        "--skip-preflight",
        "--model",
        "fake-model",
    )
    assert code == 0, err[-3000:]
    assert report["meta"]["agent"]["runtime"] == "codex"
    assert {agent_of(r) for r in fake_api.agent_turns()} == {"codex"}
    assert schemas.errors("cost-report", report) == []


def test_a_dry_run_estimates_each_sides_agent_and_sends_nothing(fake_api, tmp_path, env):
    binary = find_runtime("gemini")
    if binary is None:
        pytest.fail(f"the gemini CLI is needed: set {TEST_ENV['gemini']}=/path/to/gemini", pytrace=False)
    env = {**env, "SKILLSCOPE_GEMINI": binary, **endpoint_env("gemini", fake_api.base_url)}
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    code, _report, out, err = run(
        repo,
        env,
        *("compare", "--skill", "alpha", "--mode", "routing", "--routing-room", "alpha,beta"),
        *("--only", "alpha-pos-1,alpha-pos-2", "--repeat", "1", "--no-cache", "--dry-run"),
        *("--baseline", "alpha", "--baseline-agent", "gemini"),
    )
    assert code == 0, err[-3000:]
    # Two cases, one sample each, on both sides, and each agent's canary: claude decides in 1 request,
    # gemini in 2.
    assert out.count("Canary: skillscope-canary-wren, 1 sample before the cases") == 2
    assert "Estimate: 6 sample(s), 2 of them canaries;" in out
    assert "Model requests: about 9 (1.5 per sample" in out
    assert fake_api.requests == []


# An installed skill's SKILL.md named where no file is: the read the model asks for fails.
MISSING_SKILL_MD = "{{cwd}}/gone/.agents/skills/alpha/SKILL.md"


def test_a_side_decided_by_a_failed_skill_md_read_says_so_beside_its_verdict(fake_api, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")

    def alpha_anywhere(request):  # codex's model reads alpha's SKILL.md, at a path that fails
        if agent_of(request) == "codex":
            return R.tool_use("exec_command", {"cmd": f"cat {MISSING_SKILL_MD}"})
        return R.skill_for(agent_of(request), "alpha")

    fake_api.script(CaseRouter({"alpha-pos-1": alpha_anywhere}))
    code, report, out, err = run(
        repo,
        env,
        *("compare", "--skill", "alpha", "--mode", "routing", "--routing-room", "alpha,beta"),
        *("--only", "alpha-pos-1", "--repeat", "1", "--skip-preflight", "--no-cache"),
        *("--baseline", "alpha", "--baseline-agent", "codex", "--model", "fake-model", "--no-canary"),
    )
    assert code == 0, err[-3000:]
    assert schemas.errors("compare", report) == []
    (case,) = report["cases"]
    assert case["label"] == "same-pass" and case["baseline"]["outcome"] == "alpha"
    assert "No such file" in case["baseline"]["read_failed"]
    assert case["candidate"]["read_failed"] is None and case["candidate"]["retried"] is None
    assert "### Retried runs and failed SKILL.md reads" in out
    assert "| alpha-pos-1 | baseline | decided by a SKILL.md read that failed |" in out


def test_a_side_whose_run_its_cli_failed_on_its_own_ran_again_and_says_so(scripted, tmp_path):
    """The harness's one fresh retry of a runtime's own failure, on gemini scripted: the first run ends
    as gemini's CLI gives up on a cut stream. The real CLI's failure being recognised and retried is
    tests/routing/test_retry.py."""
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    first: list[Path] = []

    def cut_in_the_first_workspace(ran: S.Ran) -> S.Answer:  # whichever side runs first
        first[:1] = first[:1] or [ran.spec.workspace]
        cut = S.cli_fails("Model stream ended without a finish reason.")
        return cut if ran.spec.workspace == first[0] else S.fires("alpha")

    scripted.script({"alpha-pos-1": cut_in_the_first_workspace})
    code, report, out, err = run(
        repo,
        scripted.env,
        *("compare", "--skill", "alpha", "--mode", "routing", "--routing-room", "alpha,beta"),
        *("--only", "alpha-pos-1", "--repeat", "1", "--skip-preflight", "--no-cache", "--jobs", "1"),
        *("--baseline", "alpha", "--agent", "gemini", "--model", GEMINI_MODEL, "--no-canary"),
    )
    assert code == 0, err[-3000:]
    assert schemas.errors("compare", report) == []
    (case,) = report["cases"]
    assert case["label"] == "same-pass"
    retried = [side for side in ("baseline", "candidate") if case[side]["retried"]]
    assert len(retried) == 1 and case[retried[0]]["retried"].startswith("gemini's model stream ended early")
    assert f"| alpha-pos-1 | {retried[0]} | retried once, fresh |" in out
    assert len({ran.spec.workspace for ran in scripted.runs}) == len(scripted.runs) == 3
