"""`skillscope routing --model a,b`: the same cases on every model, one leg each, side by side in every
format, with the difference of accuracy and its interval; the cache keeps each model's samples apart.
The real claude (and Codex) CLI runs the legs; the differences per skill, which need many cases, are
figured from the scripted stand-in's (tests/support/scripted.py). The canary is test_canary.py's
subject: these runs pass --no-canary."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from harness import schemas
from harness.report import html
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import TEST_ENV, agent_of, endpoint_env, find_runtime
from tests.support import scripted as S
from tests.support.helpers import make_skill
from tests.support.routing import CaseRouter, prompt_of, route, routing_env, skills_repo

A, B = "claude-fake-a", "claude-fake-b"
CASES = "alpha-pos-1,alpha-neg-1"


@pytest.fixture
def env(fake_api, claude_bin, tmp_path, kept_probes):
    return routing_env(
        fake_api.base_url,
        claude_bin,
        tmp_path / "home",
        probes=kept_probes,
        XDG_CACHE_HOME=str(tmp_path / "cache"),
    )


@pytest.mark.usefixtures("private_temp")
def test_two_models_are_two_legs_in_every_format_and_the_cache_keeps_them_apart(fake_api, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    # Model a routes the positive right; model b fires the neighbour instead.
    picks = R.by_model({A: R.skill("alpha"), B: R.skill("beta")})
    fake_api.script(CaseRouter({"alpha-pos-1": picks}))
    common = ("--only", CASES, "--routing-room", "all", "--min-accuracy", "0", "--no-canary")
    first = route(repo, env, *common, "--model", A, "--skip-preflight")
    assert first.code == 0, first.stderr[-3000:]
    assert first.report["command"] == "routing" and first.verdicts()["alpha-pos-1"] == "correct_trigger"
    fake_api.forget()

    summary, junit = tmp_path / "summary.md", tmp_path / "junit.xml"
    done = route(
        repo, env, *common, "--model", f"{A},{B}", "--format", "text", "--summary", str(summary),
        "--junit", str(junit),
    )  # fmt: skip
    assert done.code == 0, done.stderr[-3000:]
    report = done.report
    assert [e.message for e in schemas.validator("routing-matrix-report").iter_errors(report)] == []
    legs = [(a["leg"], a["agent"], a["model"]) for a in report["agents"]]
    assert legs == [(f"claude@{A}", "claude", A), (f"claude@{B}", "claude", B)]
    assert [r["meta"]["model"] for r in report["runs"]] == [A, B]
    # Model a's samples were replayed; model b's were run, and decided otherwise: no replay across models.
    assert [a["totals"]["cached_samples"] for a in report["agents"]] == [2, 0]
    cases = [prompt_of(case) for case in CASES.split(",")]
    asked = {r.model for r in fake_api.agent_turns() if any(text in r.prompt for text in cases)}
    assert asked == {B}
    # Each model proved reachable before any case: one preflight per model.
    assert {r.model for r in fake_api.agent_turns()} == {A, B}
    row = next(c for c in report["cases"] if c["id"] == "alpha-pos-1")
    assert row["differs"] is True
    assert {leg: v["verdict"] for leg, v in row["by_agent"].items()} == {
        f"claude@{A}": "correct_trigger",
        f"claude@{B}": "wrong_skill",
    }
    assert report["matrix"]["alpha"] == {
        f"claude@{A}": {"graded": 2, "passed": 2, "accuracy": 1.0},
        f"claude@{B}": {"graded": 2, "passed": 1, "accuracy": 0.5},
    }
    (difference,) = report["differences"]
    assert (difference["a"], difference["b"], difference["difference"]) == (
        f"claude@{A}",
        f"claude@{B}",
        -0.5,
    )
    assert difference["low"] < -0.5 < difference["high"] and difference["beyond_noise"] is False
    # text: a clause per leg and the difference with its interval
    assert (
        f"claude@{A} 2/2 correct, passed" in done.stdout and f"claude@{B} 1/2 correct, passed" in done.stdout
    )
    assert "accuracy -50% (95% interval" in done.stdout
    # markdown: the legs table names each model, the difference, a column per model
    markdown = re.sub(" +", " ", summary.read_text())
    assert f"| claude@{A} | claude | {A} |" in markdown and "### Between models" in markdown
    assert f"| skill | claude@{A} | claude@{B} |" in markdown
    # JUnit: each leg's cases under its own class
    classes = {case.get("classname").split(".")[0] for case in ET.parse(junit).iter("testcase")}
    assert classes == {f"claude@{A}", f"claude@{B}"}
    # the page: a column per model in the matrix, the difference, one section per leg
    page = html.render(report)
    assert page.count(f'<th scope="col">claude@{B}</th>') >= 2 and "Between models" in page
    assert f"Leg claude@{A}" in page and "within noise" in page


@pytest.mark.usefixtures("private_temp")
def test_two_agents_on_two_models_each_are_four_legs(fake_api, tmp_path, env):
    """A bare model id goes to every agent; `agent=model` to that agent only: its ids are its own."""
    codex = find_runtime("codex")
    if codex is None:
        pytest.fail(f"the codex CLI is needed: set {TEST_ENV['codex']}=/path/to/codex", pytrace=False)
    env = {**env, "SKILLSCOPE_CODEX": codex, **endpoint_env("codex", fake_api.base_url)}
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    right = lambda request: R.skill_for(agent_of(request), "alpha")  # noqa: E731
    wrong = lambda request: R.skill_for(agent_of(request), "beta")  # noqa: E731
    fake_api.script(CaseRouter({"alpha-pos-1": R.by_model({A: right, B: wrong, "gpt-fake-c": right})}))
    done = route(
        repo, env, "--agent", "claude,codex", "--model", f"claude={A},{B},codex=gpt-fake-c",
        "--only", "alpha-pos-1", "--routing-room", "all", "--min-accuracy", "0", "--skip-preflight",
        "--no-cache", "--no-canary",
    )  # fmt: skip
    assert done.code == 0, done.stderr[-3000:]
    report = done.report
    assert [e.message for e in schemas.validator("routing-matrix-report").iter_errors(report)] == []
    legs = [(a["leg"], a["model"]) for a in report["agents"]]
    assert legs == [
        (f"claude@{A}", A),
        (f"claude@{B}", B),
        (f"codex@{B}", B),
        ("codex@gpt-fake-c", "gpt-fake-c"),
    ]
    (row,) = report["cases"]
    assert {leg: v["verdict"] for leg, v in row["by_agent"].items()} == {
        f"claude@{A}": "correct_trigger",
        f"claude@{B}": "wrong_skill",
        f"codex@{B}": "wrong_skill",
        "codex@gpt-fake-c": "correct_trigger",
    }
    # one difference per agent: its later model against its first
    assert [(d["agent"], d["a"], d["b"], d["difference"]) for d in report["differences"]] == [
        ("claude", f"claude@{A}", f"claude@{B}", -1.0),
        ("codex", f"codex@{B}", "codex@gpt-fake-c", 1.0),
    ]
    assert f"| skill | claude@{A} | claude@{B} | codex@{B} | codex@gpt-fake-c |" in re.sub(
        " +", " ", done.stdout
    )


@pytest.mark.usefixtures("private_temp")
def test_the_skills_outside_the_room_are_said_once_before_the_legs_not_before_each(scripted, tmp_path):
    """Every leg has the same room: a two-model run said the note before each of them."""
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    make_skill(repo, "gamma", evals=None)
    scripted.script({f"{name}-pos-{n}": S.fires(name) for name in ("alpha", "beta") for n in (1, 2, 3)})
    done = route(
        repo, scripted.env, "--model", f"{A},{B}", "--routing-room", "all", "--min-accuracy", "0",
        "--skip-preflight", "--no-cache", "--no-builtin-negatives", "--format", "text",
    )  # fmt: skip
    assert done.code == 0, done.stderr[-3000:]
    said = "1 of the catalog's 3 skill(s) were left out of the room: gamma"
    assert done.stderr.count(said) == 1  # the matrix summary names each leg, not the room


@pytest.mark.usefixtures("private_temp")
def test_each_skill_gets_its_own_difference_between_models(scripted, tmp_path):
    """Model b loses alpha's positives to beta and leaves beta's alone: alpha's drop is beyond noise
    over its own five cases while the whole run's is not, and beta's is no difference at all."""
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")

    def picks(ran):
        return S.fires("alpha" if ran.model == A else "beta")

    scripted.script(
        {f"alpha-pos-{n}": picks for n in (1, 2, 3)} | {f"beta-pos-{n}": S.fires("beta") for n in (1, 2, 3)}
    )
    done = route(
        repo, scripted.env, "--model", f"{A},{B}", "--routing-room", "all", "--min-accuracy", "0",
        "--skip-preflight", "--no-cache", "--no-builtin-negatives", "--format", "text",
    )  # fmt: skip
    assert done.code == 0, done.stderr[-3000:]
    report = done.report
    assert [e.message for e in schemas.validator("routing-matrix-report").iter_errors(report)] == []
    rows = {(row["skill"], row["b"]): row for row in report["skill_differences"]}
    alpha, beta = rows[("alpha", f"claude@{B}")], rows[("beta", f"claude@{B}")]
    assert (alpha["rate_a"], alpha["rate_b"], alpha["difference"]) == (1.0, 0.4, -0.6)
    assert alpha["beyond_noise"] and alpha["high"] < 0
    assert (beta["difference"], beta["beyond_noise"]) == (0.0, False)
    assert report["skill_differences"][0] is not beta  # beyond noise first
    assert report["skill_differences"][0]["skill"] == "alpha"
    (whole,) = report["differences"]
    assert whole["difference"] == -0.3 and whole["beyond_noise"] is False  # diluted over ten cases
    assert f"1 skill(s) beyond noise between models: alpha -60% on claude@{B}" in done.stdout
    page = html.render(report)
    assert "Per skill between models" in page and "beyond noise" in page
    assert {ran.spec.model for ran in scripted.case_runs()} == {A, B} and len(scripted.case_runs()) == 20


def test_a_dry_run_plans_every_leg_and_sends_nothing(fake_api, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "alpha", "beta")
    done = route(repo, env, "--model", f"{A},{B}", "--routing-room", "all", "--dry-run")
    assert done.code == 0, done.stderr[-3000:]
    assert f"nothing was sent (claude@{A})" in done.stdout and f"nothing was sent (claude@{B})" in done.stdout
    assert f"--model {A}" in done.stdout and f"--model {B}" in done.stdout
    assert fake_api.requests == []
