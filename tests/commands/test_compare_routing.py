"""`skillscope compare --mode routing`: both versions in the real claude CLI against the scripted fake
API, which routes by what the installed description says; what compare alone decides from the two
sides' outcomes (labels, lift, the result cache, the spend cap, a failed canary) runs on the scripted
runtimes (tests/support/scripted.py), which answer by the same rule from the descriptions installed.
The real edit test (test_an_edit_that_loses_one_prompt_and_wins_another) keeps compare end to end."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path

import pytest

from harness import schemas
from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R
from tests.support import scripted as S
from tests.support.helpers import make_skill
from tests.support.routing import prompt_of, skills_repo

EDITED = "Edited: also covers variant two."


pytestmark = pytest.mark.usefixtures("clean_runs")


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True)
    return done.stdout


@pytest.fixture
def repo(tmp_path) -> Path:
    """alpha and beta committed; alpha's description then edited in the working tree."""
    root = skills_repo(tmp_path / "repo", "alpha", "beta")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "skills")
    description = f"Does the alpha job. Use when asked to alpha. {EDITED}"
    make_skill(root, "alpha", frontmatter={"name": "alpha", "description": description})
    return root


def edited(request) -> bool:
    return EDITED in json.dumps(request.body)


def router(request):
    """The original description wins alpha-pos-1 only; the edited one wins alpha-pos-2 only; beta
    takes alpha-pos-1 when alpha is absent; alpha-pos-3 always fires alpha."""
    if request.tool_results:
        return "done."
    prompt = request.prompt
    if prompt_of("alpha-pos-1") in prompt:
        if "Does the alpha job" not in json.dumps(request.body):
            return R.skill("beta")
        return "I will answer myself." if edited(request) else R.skill("alpha")
    if prompt_of("alpha-pos-2") in prompt:
        return R.skill("alpha") if edited(request) else "I will answer myself."
    if prompt_of("alpha-pos-3") in prompt:
        return R.skill("alpha")
    return "I can answer that directly."


def scripted_router(ran: S.Ran) -> S.Answer:
    """`router` on the scripted runtimes, read from the descriptions installed in the run's workspace."""
    alpha = ran.listing.get("alpha")
    if prompt_of("alpha-pos-1") in ran.prompt:
        if alpha is None:
            return S.fires("beta")
        return S.NO_SKILL if EDITED in alpha else S.fires("alpha")
    if prompt_of("alpha-pos-2") in ran.prompt:
        return S.fires("alpha") if alpha is not None and EDITED in alpha else S.NO_SKILL
    if prompt_of("alpha-pos-3") in ran.prompt:
        return S.fires("alpha")
    return S.NO_SKILL


def compare(repo: Path, env: dict, *args: str, preflight: bool = False):
    output = repo.parent / "compare.json"
    output.unlink(missing_ok=True)
    ctx = Context(
        environ=dict(env), cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    code = main(
        [
            "compare",
            "--repo",
            str(repo),
            "--output",
            str(output),
            *([] if preflight else ["--skip-preflight"]),
            "--skill",
            "alpha",
            "--format",
            "markdown",
            *args,
        ],
        ctx,
    )
    report = json.loads(output.read_text("utf-8")) if output.exists() else {}
    return code, ctx.stdout.getvalue(), ctx.stderr.getvalue(), report


ONLY = (
    *("--only", "alpha-pos-1,alpha-pos-2,alpha-pos-3", "--repeat", "1", "--routing-room", "alpha,beta"),
    *("--mode", "routing"),  # the fixture's cases carry expectations, so the default would be both
)


def test_an_edit_that_loses_one_prompt_and_wins_another(fake_api, repo, env):
    fake_api.script(router)
    before = git(repo, "status", "--porcelain")
    # No result cache: its folder under the repo would show in `git status`.
    code, out, err, report = compare(repo, env, "--baseline", "HEAD", "--no-cache", "--no-canary", *ONLY)
    assert code == 1, err
    labels = {c["id"]: c["label"] for c in report["cases"]}
    assert labels == {"alpha-pos-1": "regression", "alpha-pos-2": "improvement", "alpha-pos-3": "same-pass"}
    assert "1 regressions, 1 improvements" in out
    assert schemas.errors("compare", report) == []
    assert report["meta"]["source"] == "live" and report["meta"]["baseline"] == "HEAD"
    # The ref was read with git archive: the working tree still holds the edit, untouched.
    assert git(repo, "status", "--porcelain") == before == " M alpha/SKILL.md\n"
    assert EDITED in (repo / "alpha" / "SKILL.md").read_text("utf-8")


def test_a_529_on_one_side_is_an_error_never_a_regression(scripted, repo):
    # The label is compare's; a real 529 read as an error is test_routing_cli.py's overloaded-API test.
    def overloaded_baseline(ran: S.Ran) -> S.Answer:
        if prompt_of("alpha-pos-1") in ran.prompt and EDITED not in ran.listing.get("alpha", ""):
            return S.fails("the API answered 529 (overloaded)")
        return scripted_router(ran)

    scripted.script(overloaded_baseline)
    # alpha-pos-1 errs on one side; alpha-pos-2 is the improvement that shows the rest was graded
    code, _out, err, report = compare(
        repo, scripted.env, "--baseline", "HEAD", *ONLY, "--only", "alpha-pos-1,alpha-pos-2", "--no-canary"
    )
    case = next(c for c in report["cases"] if c["id"] == "alpha-pos-1")
    assert case["label"] == "error" and "529" in case["baseline"]["error"]
    assert report["labels"]["regression"] == 0 and report["labels"]["improvement"] == 1
    assert code == 0, err


def test_baseline_none_shows_which_other_skill_took_the_prompt(scripted, repo):
    # Reading the lift is compare's; a real run credits another skill in test_routing_cli.py's verdicts.
    scripted.script(scripted_router)
    code, out, err, report = compare(repo, scripted.env, "--baseline", "none", "--no-canary", *ONLY)
    case = next(c for c in report["cases"] if c["id"] == "alpha-pos-1")
    assert case["baseline"]["outcome"] == "beta" and case["label"] == "changed"  # failed either way
    assert report["lift"] == {
        "no_lift": [],
        "needs_skill": ["alpha-pos-2", "alpha-pos-3"],
        "taken_by": {"alpha-pos-1": "beta"},
    }
    assert "fail: beta" in out and "`alpha-pos-1` by `beta`" in out and code == 0, err


def test_an_unknown_ref_is_one_usage_error_before_any_run(fake_api, repo, env):
    code, _out, err, _report = compare(repo, env, "--baseline", "no-such-ref", *ONLY)
    assert code == 2 and "--baseline no-such-ref: not a folder and not a git ref" in err
    assert fake_api.requests == []


def test_a_candidate_from_a_ref_is_located_at_the_working_tree_dataset(scripted, repo):
    scripted.script(scripted_router)
    code, _out, err, report = compare(
        repo,
        scripted.env,
        *(
            "--candidate",
            "HEAD",
            "--baseline",
            "none",
            "--only",
            "alpha-pos-3",
            "--repeat",
            "1",
            "--no-canary",
        ),
    )
    (case,) = report["cases"]
    assert case["source"] == "alpha/evals/evals.json" and case["line"], err
    assert case["label"] == "improvement" and code == 0
    assert report["meta"]["candidate"] == "HEAD"
    assert report["meta"]["mode"] == "routing"  # the default: alpha-pos-3 carries no expectation


def test_the_result_cache_serves_both_sides_and_a_dry_run_sends_nothing(scripted, repo, tmp_path):
    # The cache is the harness's; a real claude run replayed from it is test_paid_routing.py's
    # unchanged second run.
    scripted.script(scripted_router)
    env = scripted.env
    cached = (
        "--cache",
        str(tmp_path / "cache"),
        "--only",
        "alpha-pos-3",
        "--repeat",
        "2",
        "--mode",
        "routing",
    )
    code, _out, err, first = compare(repo, env, *cached)
    assert code == 0 and len(scripted.case_runs()) == 4, err  # two runs a side
    assert first["totals"]["candidate"]["cached_runs"] == 0

    code, out, err, _report = compare(repo, env, *cached, "--dry-run")
    assert code == 0 and len(scripted.case_runs()) == 4, err  # nothing sent
    assert "## Compare dry run: nothing was sent" in out
    assert "alpha-pos-3: expects alpha; baseline 2/2 cached, candidate 2/2 cached" in out
    assert (
        "Canary: skillscope-canary-wren, 1 sample before the cases, installed beside the room; cached" in out
    )
    assert "Estimate: 5 sample(s), 1 of them the canary; 5 from the result cache" in out
    assert "### routing: 1 case(s) x 2 sample(s) x 2 sides" in out  # the 4 samples beside the canary

    code, out, err, again = compare(repo, env, *cached)
    assert code == 0 and len(scripted.case_runs()) == 4, err  # every run reused
    assert again["totals"]["baseline"]["cached_runs"] == again["totals"]["candidate"]["cached_runs"] == 2
    assert again["meta"]["cache"] == str(tmp_path / "cache") and schemas.errors("compare", again) == []
    made_by = {"started_at": first["started_at"], "harness_version": first["harness_version"]}
    assert again["cases"][0]["candidate"]["cached_from"] == [made_by, made_by]
    assert first["cases"][0]["candidate"]["cached_from"] == []
    assert f"4 of 4 runs replayed from the result cache (made by the run of {first['started_at']})." in out


def test_the_run_spend_cap_stops_new_runs_and_fails_saying_why(scripted, repo):
    # The cap is the harness's; a real claude run stopped by it is test_paid_behavioral.py's.
    scripted.script(scripted_router)
    env = scripted.env
    code, _out, err, report = compare(
        repo, env, "--no-cache", "--only", "alpha-pos-3", "--repeat", "1", "--mode", "routing", "--no-canary"
    )
    spent_one = report["cases"][0]["baseline"]["cost_usd"]  # what one run costs
    assert code == 0 and spent_one > 0, err
    before = len(scripted.case_runs())
    code, out, err, report = compare(
        repo,
        env,
        *("--no-cache", "--only", "alpha-pos-3", "--repeat", "2", "--mode", "routing", "--jobs", "1"),
        *("--max-run-usd", f"{spent_one / 2:.8f}", "--no-canary"),  # the canary's spend alone would reach it
    )
    assert code == 1 and len(scripted.case_runs()) - before == 1, err  # the first run spent past the cap
    (case,) = report["cases"]
    assert case["label"] == "error" and report["meta"]["max_run_usd"] > 0
    totals = report["totals"]
    assert totals["baseline"]["not_run"] + totals["candidate"]["not_run"] == 3
    assert "[compare] failed: 1 case(s) did not run on both sides: the run had spent $" in err
    assert (
        "did not start: the run reached its --max-run-usd" in out and schemas.errors("compare", report) == []
    )


def test_a_missing_cli_still_writes_every_report(fake_api, repo, env, tmp_path):
    junit = tmp_path / "compare.xml"
    missing = {**env, "SKILLSCOPE_CLAUDE": str(tmp_path / "no-claude")}
    code, out, err, report = compare(repo, missing, *ONLY, "--junit", str(junit))
    assert code == 1 and err.splitlines()[-1].startswith("error: claude CLI not found at "), err
    assert report["meta"]["agent_error"].startswith("claude CLI not found at ") and report["cases"] == []
    assert report["passed"] is False and schemas.errors("compare", report) == []
    assert "No case ran: claude CLI not found" in out
    assert 'name="(agent)"' in junit.read_text("utf-8") and fake_api.requests == []


def test_a_failed_preflight_still_writes_the_report(fake_api, repo, env):
    fake_api.script(lambda request: R.error(401))
    code, out, err, report = compare(repo, env, *ONLY, preflight=True)
    assert code == 1 and "error: the API rejected the credentials" in err
    assert {t.prompt for t in fake_api.agent_turns()} == {"Reply with the single word: ok"}
    assert report["meta"]["agent_error"].startswith("the API rejected the credentials")
    assert report["meta"]["unfinished"] == 3 and "No case ran" in out


def test_an_agent_whose_activations_cannot_be_seen_is_an_error_never_same_fail(scripted, repo):
    # Compare's reading of a failed canary; a real claude canary that does not activate is
    # test_canary.py's test_a_canary_that_does_not_activate_makes_the_run_an_error_and_grades_no_case.
    from harness.routing import canary

    scripted.script(scripted_router, canary_fires=False)  # the canary's prompt answered in plain text
    env = scripted.env
    code, out, err, report = compare(repo, env, "--baseline", "HEAD", "--no-cache", *ONLY)
    assert code == 1
    assert schemas.errors("compare", report) == []
    (checked,) = report["meta"]["canary"]  # both sides share the agent and model: one canary
    assert (checked["agent"], checked["status"], checked["model"]) == ("claude", "not-activated", None)
    sentence = checked["sentence"]
    assert sentence.startswith("the harness cannot see skill activations on claude ")
    # No case ran: each is an error on both sides carrying the canary's sentence, none "same-fail".
    assert {c["label"] for c in report["cases"]} == {"error"} and len(report["cases"]) == 3
    assert all(sentence in c[side]["error"] for c in report["cases"] for side in ("baseline", "candidate"))
    assert report["status"] == "error" and report["labels"]["same-fail"] == 0
    assert scripted.case_runs() == [] and scripted.canary_runs()
    assert f"failed: the routing mode graded no case, since a canary failed: {sentence.rstrip('.')}" in err
    assert report["meta"]["canary_cost_usd"] == checked["cost_usd"] is not None
    assert f"Canary (claude on its default model): not-activated: {sentence}" in out
    assert canary.NAME in sentence

    # --no-canary grades the pairs as before, asking the canary nothing.
    asked, canaries = len(scripted.case_runs()), len(scripted.canary_runs())
    code, _out, err, report = compare(
        repo, env, "--baseline", "HEAD", "--no-cache", "--no-canary", *ONLY, "--only", "alpha-pos-1"
    )
    assert code == 1, err  # the edit's regression, graded
    assert [c["status"] for c in report["meta"]["canary"]] == ["skipped"]
    assert report["labels"]["regression"] == 1 and len(scripted.canary_runs()) == canaries
    assert len(scripted.case_runs()) == asked + 2  # alpha-pos-1 on both sides
