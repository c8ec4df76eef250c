"""The canary of every agent routing run: a planted skill that must activate on its own prompt before
any case runs. When it does not, or its run fails, the agent's run is an error saying why, and no case
is graded; an activation is cached per agent version and model. Each real CLI's canary that does not
activate, a failed or budget-stopped run and the dry run are on the real CLIs against the scripted API
(each real CLI's activated canary is the five-agent run of test_routing_agents.py). What the harness
alone does with a canary's outcome (grading after it, the replay and what the cache keeps, --no-canary,
a matrix, the spend cap, pricing a cached one, a canary its timeout ended) runs on the scripted
stand-in (tests/support/scripted.py).
"""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest

from harness.routing import canary
from harness.routing.verdicts import Sample
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import GEMINI_MODEL, TEST_ENV, agent_of, endpoint_env, find_runtime
from tests.support import scripted as S
from tests.support.routing import CaseRouter, route, routing_env, skills_repo, valid

RUNTIMES = ("claude", "copilot", "codex", "gemini", "opencode")
CASES = "alpha-pos-1,alpha-neg-1"
ONE_CASE = "alpha-pos-1"  # where what follows the canary matters less than that a case follows it

pytestmark = pytest.mark.usefixtures("private_temp")


@pytest.fixture
def env(fake_api, claude_bin, tmp_path, copilot_cache, kept_probes):
    environ = routing_env(fake_api.base_url, claude_bin, tmp_path / "home", probes=kept_probes)
    for name in RUNTIMES[1:]:
        binary = find_runtime(name)
        if binary is None:
            pytest.fail(f"the {name} CLI is needed: set {TEST_ENV[name]}=/path/to/{name}", pytrace=False)
        environ[f"SKILLSCOPE_{name.upper()}"] = binary
        environ.update(endpoint_env(name, fake_api.base_url))
    environ["COPILOT_CACHE_HOME"] = copilot_cache
    return environ


@pytest.fixture
def repo(tmp_path):
    return skills_repo(tmp_path / "repo", "alpha", "beta")


def model_of(runtime: str) -> str:
    return GEMINI_MODEL if runtime == "gemini" else "fake-model"


def fires(name: str):
    """A reply that picks `name` in whichever agent's tool the request came from."""
    return lambda request: R.skill_for(agent_of(request), name)


def routed(repo, env, runtime: str, *more: str, only: str = CASES):
    return route(
        repo,
        env,
        "--agent",
        runtime,
        "--routing-room",
        "all",
        "--only",
        only,
        "--skip-preflight",
        "--model",
        model_of(runtime),
        *more,
    )


def case_turns(fake_api) -> list:
    """The model calls of the cases' runs, the canary's left out."""
    return fake_api.agent_turns()


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_an_activated_canary_lets_the_run_be_graded_and_a_second_run_replays_it(scripted, repo, runtime):
    """What the harness makes of an activated canary, whichever runtime answered: the canary runs first
    with the room installed beside it, the cases are graded, and a second run replays both from the
    cache. Each real CLI's canary activating is the five-agent run of
    tests/routing/test_routing_agents.py; here the runtimes are scripted."""
    scripted.script({"alpha-pos-1": S.fires("alpha")})
    first = routed(repo, scripted.env, runtime, only=ONE_CASE)
    assert first.code == 0, first.stderr[-3000:]
    report = first.report
    assert valid(report) == []
    assert report["status"] == "pass" and first.verdicts() == {"alpha-pos-1": "correct_trigger"}
    shown = report["meta"]["canary"]
    assert (shown["status"], shown["observed"], shown["skill"]) == ("activated", canary.NAME, canary.NAME)
    assert shown["sentence"] is None and shown["cached_from"] is None
    # The canary ran first, with the room installed beside it: its listing is the room's and its own.
    assert [(ran.runtime, ran.canary) for ran in scripted.runs] == [(runtime, True), (runtime, False)]
    assert {"alpha", "beta", canary.NAME} <= set(scripted.runs[0].installed)
    assert canary.NAME not in report["session_skills"]["seen"]  # the cases' room stays the room
    assert f"Canary: activated: the planted skill {canary.NAME} fired" in first.stdout
    asked = len(scripted.runs)

    second = routed(repo, scripted.env, runtime, "--format", "text", only=ONE_CASE)
    assert second.code == 0, second.stderr[-3000:]
    assert len(scripted.runs) == asked  # canary and cases all replayed: nothing asked
    replayed = second.report["meta"]["canary"]
    assert replayed["status"] == "cached" and replayed["cached_from"]["started_at"] == report["started_at"]
    assert "Canary: cached (replayed from the result cache)" in second.stdout
    assert valid(second.report) == []


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_canary_that_does_not_activate_makes_the_run_an_error_and_grades_no_case(
    fake_api, repo, env, runtime, tmp_path
):
    fake_api.answers_canary = False  # its prompt now gets the plain text every unlisted prompt gets
    fake_api.script(CaseRouter({"alpha-pos-1": fires("alpha")}))
    junit = tmp_path / "routing.xml"
    done = routed(repo, env, runtime, "--junit", str(junit))
    assert done.code == 1
    report = done.report
    assert valid(report) == []
    version = report["meta"]["agent_version"]
    shown = report["meta"]["canary"]
    assert (shown["status"], shown["observed"]) == ("not-activated", None)
    sentence = shown["sentence"]
    assert sentence.startswith(
        f"the harness cannot see skill activations on {runtime} {version} with model {model_of(runtime)}:"
    )
    assert report["status"] == "error" and report["gate"]["reason"] == sentence
    assert report["totals"]["graded"] == 0 and report["totals"]["samples_run"] == 0
    assert set(done.verdicts().values()) == {"error"}  # never a miss, never a 0 % score
    assert report["verdicts"]["missed_trigger"] == 0 and report["totals"]["accuracy"] is None
    assert case_turns(fake_api) == [] and fake_api.canary_turns()  # no case was sent
    assert f"[routing] failed: {sentence.rstrip('.')}." in done.stderr
    assert f"Canary: not-activated: {sentence}" in done.stdout
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("errors"), suite.get("failures")) == ("3", "3", "0")
    first = suite.find("testcase")  # the canary's own case, then each case an error carrying its sentence
    assert (first.get("name"), first.find("error").text) == ("(canary)", sentence)
    assert all(sentence in (c.find("error").text or "") for c in suite.iter("testcase"))


def test_no_canary_grades_the_same_cases_without_asking_the_canary_anything(scripted, repo):
    scripted.script({"alpha-pos-1": S.fires("alpha"), canary.PROMPT: S.NO_SKILL})  # a blind agent
    blocked = routed(repo, scripted.env, "claude")
    assert blocked.code == 1 and scripted.case_runs() == []
    skipped = routed(repo, scripted.env, "claude", "--no-canary")
    assert skipped.code == 0, skipped.stderr[-3000:]
    assert skipped.report["meta"]["canary"]["status"] == "skipped"
    assert len(scripted.canary_runs()) == 1 and len(scripted.case_runs()) == 2  # no second canary
    assert skipped.verdicts() == {"alpha-pos-1": "correct_trigger", "alpha-neg-1": "true_negative"}
    assert "Canary: skipped (--no-canary)" in skipped.stdout


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_dry_run_lists_the_canary_and_prices_it(fake_api, repo, env, runtime):
    done = routed(repo, env, runtime, "--dry-run")
    assert done.code == 0, done.stderr[-3000:]
    assert f"Canary: {canary.NAME}, 1 sample before the cases" in done.stdout
    assert "not cached" in next(line for line in done.stdout.splitlines() if line.startswith("Canary:"))
    assert re.search(
        r"Estimate: 3 sample\(s\), 1 of them the canary; 0 from the result cache", done.stdout
    )  # 2 cases + canary
    skipped = routed(repo, env, runtime, "--dry-run", "--no-canary")
    assert "Canary: skipped (--no-canary)." in skipped.stdout
    assert re.search(r"Estimate: 2 sample\(s\); ", skipped.stdout)
    assert fake_api.requests == []


def test_a_dry_run_after_a_run_counts_the_cached_canary(scripted, repo):
    scripted.script({"alpha-pos-1": S.fires("alpha")})
    assert routed(repo, scripted.env, "claude").code == 0
    asked = len(scripted.runs)
    done = routed(repo, scripted.env, "claude", "--dry-run")
    line = next(line for line in done.stdout.splitlines() if line.startswith("Canary:"))
    assert "; cached;" in line
    assert re.search(r"Estimate: 3 sample\(s\), 1 of them the canary; 3 from the result cache", done.stdout)
    assert len(scripted.runs) == asked


def test_a_failed_canary_run_is_an_error_of_the_canary_not_a_failed_activation(fake_api, repo, env):
    fake_api.answers_canary = False
    fake_api.script(CaseRouter({canary.PROMPT: R.error(529), "alpha-pos-1": fires("alpha")}))
    done = routed(repo, env, "claude")
    assert done.code == 1
    shown = done.report["meta"]["canary"]
    assert shown["status"] == "error"
    assert shown["sentence"].startswith("the canary's run failed on claude ")
    assert "529" in shown["sentence"] and "cannot vouch for this agent's activations" in shown["sentence"]
    assert done.report["status"] == "error" and set(done.verdicts().values()) == {"error"}
    assert case_turns(fake_api) == []


def test_only_an_activation_is_cached_so_a_failed_canary_is_asked_again(scripted, repo):
    """What the cache keeps is the harness's: the runtime is scripted. A canary's failed run on the real
    CLI is the test above."""
    scripted.script({canary.PROMPT: S.fails("the API answered 529 (overloaded)")})
    assert routed(repo, scripted.env, "claude").report["meta"]["canary"]["status"] == "error"
    scripted.script({"alpha-pos-1": S.fires("alpha")})
    again = routed(repo, scripted.env, "claude", only=ONE_CASE)
    assert again.code == 0, again.stderr[-3000:]
    assert again.report["meta"]["canary"]["status"] == "activated"
    assert len(scripted.canary_runs()) == 2


def test_a_canary_that_times_out_says_so_and_not_that_activations_are_unseen(scripted, repo):
    """What the harness makes of a canary its timeout ended, so the runtime is scripted; a hung claude
    killed at its timeout is test_routing_cli.py's test_a_hang_past_the_case_timeout_is_an_error_and_
    leaves_nothing_behind."""
    scripted.script({canary.PROMPT: S.HANGS})
    # The canary gets at least its floor whatever --case-timeout says; --timeout bounds the command.
    done = routed(repo, scripted.env, "claude", "--case-timeout", "1", "--timeout", "2")
    assert done.code == 1
    shown = done.report["meta"]["canary"]
    assert (shown["status"], shown["stop_reason"]) == ("error", "timeout")
    assert shown["sentence"].startswith("the canary timed out on claude ")
    assert "says nothing about activations" in shown["sentence"] and "cannot see" not in shown["sentence"]
    assert set(done.verdicts().values()) == {"error"} and scripted.case_runs() == []


def test_in_a_matrix_the_agent_whose_canary_fails_is_an_error_and_the_other_is_graded(scripted, repo):
    """How a matrix reports one agent's failed canary is the harness's, so the runtimes are scripted;
    each real CLI's canary that does not activate is the parametrized test above."""

    def claude_only(ran: S.Ran) -> S.Answer:  # codex's model ignores the canary
        return S.fires(canary.NAME) if ran.runtime == "claude" else S.NO_SKILL

    scripted.script({canary.PROMPT: claude_only, "alpha-pos-1": S.fires("alpha")})
    done = routed(repo, scripted.env, "claude,codex", only=ONE_CASE)
    assert done.code == 1
    report = done.report
    by_agent = {run["meta"]["agent"]: run for run in report["runs"]}
    assert by_agent["claude"]["meta"]["canary"]["status"] == "activated"
    assert by_agent["claude"]["passed"] is True and by_agent["claude"]["totals"]["graded"] == 1
    codex = by_agent["codex"]
    assert codex["meta"]["canary"]["status"] == "not-activated" and codex["status"] == "error"
    assert codex["totals"]["graded"] == 0 and codex["gate"]["reason"].startswith(
        "the harness cannot see skill activations on codex "
    )
    assert report["status"] == "error"  # nothing failed; one agent's cases could not be graded
    assert [a["canary"]["status"] for a in report["agents"]] == ["activated", "not-activated"]
    assert [ran.runtime for ran in scripted.case_runs()] == ["claude"]
    assert "- codex: Canary: not-activated: the harness cannot see" in done.stdout


def test_each_verdict_of_the_canary_has_its_own_sentence():
    """Pure: what fired, what failed and what timed out each read differently; only a failure blocks."""
    fired = canary.verdict_of(Sample(observed=canary.NAME), "codex", "0.9.1", "m")
    assert (fired.status, fired.blocks, fired.sentence) == ("activated", False, None)
    other = canary.verdict_of(Sample(observed="alpha"), "codex", "0.9.1", None)
    assert other.status == "not-activated" and other.blocks
    assert other.sentence.startswith("the harness cannot see skill activations on codex 0.9.1 with model")
    assert "(alpha activated instead)" in other.sentence
    late = canary.verdict_of(Sample(error="timed out after 120 s", stop_reason="timeout"), "gemini", "1", "g")
    assert late.status == "error" and "timed out on gemini 1 with model g" in late.sentence
    assert canary.gate(late).reason == late.sentence and canary.gate(fired) is None
    # A run stopped at a limit before its model decided is the canary's error, naming the limit to raise.
    limits = canary.Limits(0.05, 4, 8)
    capped = canary.verdict_of(Sample(stop_reason="budget", cost_usd=0.6), "claude", "2", "m", limits)
    assert capped.status == "error" and capped.blocks and "cannot see" not in capped.sentence
    assert (
        "stopped at the per-run budget --max-budget-usd of $0.05, after spending $0.6000" in capped.sentence
    )
    tools = canary.verdict_of(Sample(stop_reason="tool_budget"), "claude", "2", "m", limits)
    assert tools.status == "error" and "(--max-tool-calls 4, --max-inspection-calls 8)" in tools.sentence
    finished = canary.verdict_of(Sample(stop_reason="result"), "claude", "2", "m", limits)
    assert finished.status == "not-activated"  # only a run its model finished can show blindness
    stopped = canary.verdict_of(None, "claude", "2", "m")
    assert stopped.cancelled and canary.unrun([canary.CASE], stopped) == []
    assert canary.skipped().line() == (
        "Canary: skipped (--no-canary): nothing checked that this agent's activations can be seen."
    )


# Every answer bills as much input as a large prompt: one of them passes a small --max-budget-usd.
COSTLY = {"input_tokens": 200_000, "output_tokens": 20}


def costly_inspection(request):
    """A canary turn that looks around before deciding, each answer billed as 200,000 input tokens."""
    return R.tool_use("Bash", {"command": "ls"}, usage=COSTLY)


def test_a_canary_run_stopped_at_the_per_run_budget_is_an_error_naming_it_not_blindness(fake_api, repo, env):
    fake_api.answers_canary = False
    fake_api.script(CaseRouter({canary.PROMPT: costly_inspection, "alpha-pos-1": fires("alpha")}))
    done = routed(repo, env, "claude", "--max-budget-usd", "0.05")
    assert done.code == 1
    report = done.report
    assert valid(report) == []
    shown = report["meta"]["canary"]
    assert (shown["status"], shown["stop_reason"], shown["observed"]) == ("error", "budget", None)
    sentence = shown["sentence"]
    assert sentence.startswith("the canary's run on claude ")
    assert "stopped at the per-run budget --max-budget-usd of $0.05" in sentence
    assert "raise --max-budget-usd" in sentence and "cannot see" not in sentence
    assert report["status"] == "error" and report["gate"]["reason"] == sentence
    assert set(done.verdicts().values()) == {"error"} and case_turns(fake_api) == []
    # What the canary spent is the run's spend: in the totals, and named as the canary's.
    spent = shown["cost_usd"]
    assert spent is not None and spent > 0.05
    totals = report["totals"]
    assert totals["canary_cost_usd"] == spent and totals["cost_usd"] == spent
    assert (totals["input_tokens"], totals["output_tokens"]) == tuple(shown["tokens"].values())
    assert totals["samples_run"] == 0  # the canary is no case


def test_what_the_canary_spends_counts_in_the_totals_and_against_the_run_cap(scripted, repo):
    """The spend cap and the totals are the harness's, so the runtime is scripted, its canary billed
    past the cap; a real CLI's canary spend reaching the totals is the budget test above."""
    scripted.script({canary.PROMPT: S.fires(canary.NAME, cost_usd=0.2), "alpha-pos-1": S.fires("alpha")})
    done = routed(repo, scripted.env, "claude", "--max-run-usd", "0.10", "--no-cache", only=ONE_CASE)
    report = done.report
    assert valid(report) == []
    shown = report["meta"]["canary"]
    assert shown["status"] == "activated" and shown["cost_usd"] > 0.10
    # The canary alone passed the cap: no case started, and the totals hold what it spent.
    assert set(done.verdicts().values()) == {"not-run"} and scripted.case_runs() == []
    assert done.code == 1
    totals = report["totals"]
    assert totals["canary_cost_usd"] == shown["cost_usd"] == totals["cost_usd"]
    assert totals["input_tokens"] == shown["tokens"]["input"] > 0
    # A replayed canary spends nothing now: its cost is what the cache saved.
    first = routed(repo, scripted.env, "claude", "--max-run-usd", "5", only=ONE_CASE)
    assert first.code == 0, first.stderr[-3000:]
    again = routed(repo, scripted.env, "claude", "--max-run-usd", "5", only=ONE_CASE)
    totals = again.report["totals"]
    assert again.report["meta"]["canary"]["status"] == "cached" and totals["canary_cost_usd"] is None
    assert totals["cost_saved_usd"] >= again.report["meta"]["canary"]["cost_usd"]
