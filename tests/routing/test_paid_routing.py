"""What a routing run spends: one model request per decision and the result cache end to end with the
real claude CLI against the scripted fake API (request counts read from the fake server, never from
timing); what the harness alone decides about the cache, the run's spend cap, dry runs, adaptive
repeats and progress on the scripted stand-in (tests/support/scripted.py), counting the runs it was
asked for.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from harness import __version__
from harness.paid.cache import KEY_FILE, default_folder
from harness.routing import canary
from tests.fakeapi import FakeAPI
from tests.fakeapi import replies as R
from tests.support import scripted as S
from tests.support.routing import CaseRouter, route, routing_env, valid
from tests.support.select import commit, git, init_repo

ALPHA = "alpha-pos-1,alpha-pos-2,alpha-pos-3"
FIRES_ALPHA = {f"alpha-pos-{n}": R.skill("alpha") for n in (1, 2, 3)}  # for the real CLI
SCRIPTED_ALPHA = {f"alpha-pos-{n}": S.fires("alpha") for n in (1, 2, 3)}  # for the stand-in


pytestmark = pytest.mark.usefixtures("private_temp")


def turns(fake_api) -> int:
    return len(fake_api.agent_turns())


# --- one request per decision ----------------------------------------------------------------------


def test_each_case_that_decides_on_its_first_turn_costs_one_request_and_reports_its_cost(fake_api, repo, env):
    fake_api.script(CaseRouter({**FIRES_ALPHA, "alpha-neg-1": "not for a skill"}))
    run = route(
        repo,
        env,
        "--routing-room",
        "alpha,beta",
        "--skip-preflight",
        "--no-cache",
        "--only",
        ALPHA + ",alpha-neg-1",
    )
    assert run.code == 0, run.stderr
    assert turns(fake_api) == 4  # nothing is asked after a skill launched
    assert len(fake_api.canary_turns()) == 1  # and the canary, which ran first, cost one request too
    for case_id in ("alpha-pos-1", "alpha-pos-2", "alpha-pos-3"):
        case = run.case(case_id)
        assert (case["verdict"], case["stop_reason"]) == ("correct_trigger", "activation")
        assert case["cost_usd"] > 0 and case["tokens"]["input"] > 0 and case["tokens"]["output"] > 0
    # The totals hold what the canary's run spent too, and say how much that was.
    totals, planted = run.report["totals"], run.report["meta"]["canary"]
    assert (
        totals["canary_cost_usd"] == planted["cost_usd"] == pytest.approx(run.case("alpha-pos-1")["cost_usd"])
    )
    assert totals["cost_usd"] == pytest.approx(5 * run.case("alpha-pos-1")["cost_usd"])
    assert "PostToolUse hook" in run.report["meta"]["isolation"]["decision_stop"]


# --- the result cache --------------------------------------------------------------------------------


def test_an_unchanged_second_run_makes_no_request_and_marks_every_sample_cached(fake_api, repo, env):
    fake_api.script(CaseRouter(FIRES_ALPHA))
    two = "alpha-pos-1,alpha-pos-2"
    first = route(repo, env, "--routing-room", "alpha,beta", "--skip-preflight", "--only", two)
    assert first.code == 0, first.stderr
    assert turns(fake_api) == 2
    asked = len(fake_api.requests)
    spent, made = first.report["totals"]["cost_usd"], first.report  # the next run writes the same file
    second = route(repo, env, "--routing-room", "alpha,beta", "--skip-preflight", "--only", two)
    assert second.code == 0, second.stderr
    assert len(fake_api.requests) == asked  # the second run asked nothing, not even the canary
    report = second.report
    assert valid(report) == []
    assert all(s["cached"] for c in report["cases"] for s in c["samples"])
    assert second.verdicts() == first.verdicts()
    totals = report["totals"]
    assert (totals["cached_samples"], totals["samples_run"], totals["cost_usd"]) == (2, 0, None)
    assert totals["cost_saved_usd"] == pytest.approx(spent)
    # In the user's cache, one folder per repo; nothing inside the repo under test.
    assert report["meta"]["cache"] == str(default_folder(repo, env))
    assert report["meta"]["cache"].startswith(str(Path(env["HOME"]) / ".cache" / "skillscope" / "results"))
    assert not (repo / ".skillscope" / "cache").exists()
    made_by = {"started_at": made["started_at"], "harness_version": __version__}
    assert all(s["cached_from"] == made_by for c in report["cases"] for s in c["samples"])
    assert all(s["cached_from"] is None for c in made["cases"] for s in c["samples"])
    said = f"2 of 2 samples replayed from the result cache (made by the run of {made_by['started_at']})"
    assert f"{said}, saving $" in second.stdout


def test_a_replayed_sample_is_marked_in_the_text_and_junit_reports(scripted, repo, tmp_path):
    scripted.script(SCRIPTED_ALPHA)
    env = scripted.env
    first = route(
        repo, env, "--routing-room", "alpha", "--skip-preflight", "--only", "alpha-pos-1,alpha-pos-2"
    )
    assert first.code == 0, first.stderr
    started = first.report["started_at"]
    junit = tmp_path / "routing.xml"
    args = ("--routing-room", "alpha", "--skip-preflight", "--only", ALPHA, "--junit", str(junit))
    again = route(repo, env, *args, "--format", "text")
    assert again.code == 0, again.stderr
    assert len(scripted.case_runs()) == 3
    (summary,) = [line for line in again.stdout.splitlines() if line.startswith("skillscope routing:")]
    assert f"; 2 of 3 samples replayed from the result cache (made by the run of {started})" in summary
    cases = {c.get("name"): c for c in ElementTree.parse(junit).getroot().iter("testcase")}
    out = cases["alpha-pos-1"].findtext("system-out")
    assert out == f"replayed from the result cache, made by the run of {started}, skillscope {__version__}"
    assert cases["alpha-pos-3"].find("system-out") is None  # run now


def test_a_cache_folder_inside_the_repo_is_refused_and_planted_entries_are_never_read(
    scripted, repo, tmp_path
):
    """A pull request force-adds entries made elsewhere, against a model that routes as expected, and
    names their folder in the repo's settings: the run refuses it. Without the setting the planted files
    are not read, and copied into this machine's own cache they fail verification: the cases run."""
    env = scripted.env
    scripted.script(SCRIPTED_ALPHA)
    elsewhere = routing_env(env["ANTHROPIC_BASE_URL"], env["SKILLSCOPE_CLAUDE"], tmp_path / "attacker-home")
    made = route(repo, elsewhere, "--routing-room", "alpha", "--skip-preflight", "--only", ALPHA)
    assert made.code == 0, made.stderr
    assert len(scripted.case_runs()) == 3
    planted = repo / ".skillscope" / "cache"
    shutil.copytree(default_folder(repo, elsewhere), planted, ignore=shutil.ignore_patterns(KEY_FILE))
    (repo / "pyproject.toml").write_text('[tool.skillscope]\ncache = ".skillscope/cache"\n')
    init_repo(repo)
    git(repo, "add", "-A")
    git(repo, "add", "-f", ".skillscope/cache")
    commit(repo, "tune the alpha skill")
    assert ".skillscope/cache/" in git(repo, "ls-files")

    scripted.script({})  # the model this run faces never routes to a skill
    refused = route(repo, env, "--routing-room", "alpha", "--skip-preflight", "--only", ALPHA)
    assert refused.code == 2 and len(scripted.case_runs()) == 3 and not refused.output.exists()
    assert (
        f"--cache {planted} lies inside the repo under test, where a commit could plant graded results"
        in (refused.stderr)
    )
    (repo / "pyproject.toml").unlink()
    fresh = route(repo, env, "--routing-room", "alpha", "--skip-preflight", "--only", ALPHA)
    assert fresh.code == 1 and len(scripted.case_runs()) == 6
    assert not any(s["cached"] for c in fresh.report["cases"] for s in c["samples"])

    # The workflows once restored a cache on top of the checkout; copied into this machine's own
    # folder, the planted entries still do not verify (made by another key).
    shutil.rmtree(default_folder(repo, env))
    shutil.copytree(planted, default_folder(repo, env))
    again = route(repo, env, "--routing-room", "alpha", "--skip-preflight", "--only", ALPHA)
    assert again.code == 1 and len(scripted.case_runs()) == 9
    # The three cases' entries and the canary's: none verifies, so the canary ran again too.
    assert "4 cache entries failed verification and were run again" in again.report["meta"]["notes"]
    assert again.report["meta"]["canary"]["status"] == "activated"


def test_a_hand_edited_entry_fails_verification_and_its_case_runs_again(scripted, repo):
    env = scripted.env
    scripted.script({})  # never routes: every positive case fails
    failed = route(repo, env, "--routing-room", "alpha", "--skip-preflight", "--only", ALPHA)
    assert failed.code == 1 and len(scripted.case_runs()) == 3
    stored = [json.loads(path.read_text()) for path in sorted(default_folder(repo, env).glob("*/*.json"))]
    assert len(stored) == 4  # the three cases, and the canary's activation
    entries = [
        path
        for path in sorted(default_folder(repo, env).glob("*/*.json"))
        if json.loads(path.read_text())["sample"]["observed"] != canary.NAME
    ]
    assert len(entries) == 3
    for path in entries:  # the positives "pass" now, as written by hand
        entry = json.loads(path.read_text())
        entry["sample"]["observed"] = "alpha"
        path.write_text(json.dumps(entry))
    again = route(repo, env, "--routing-room", "alpha", "--skip-preflight", "--only", ALPHA)
    assert again.code == 1 and len(scripted.case_runs()) == 6
    assert set(again.verdicts().values()) == {"missed_trigger"}
    note = "3 cache entries failed verification and were run again"
    assert note in again.report["meta"]["notes"] and note in again.stdout
    assert valid(again.report) == []


def test_the_model_and_endpoint_chosen_through_the_environment_are_in_the_key(fake_api, repo, env):
    # The CLI itself reads these variables (the model asked for is the one the request names), so a
    # sample made under one must never be replayed under another.
    fake_api.script(CaseRouter(FIRES_ALPHA))
    args = ("--routing-room", "alpha", "--skip-preflight", "--only", "alpha-pos-1")
    assert route(repo, env, *args).code == 0 and turns(fake_api) == 1
    other_model = route(repo, {**env, "ANTHROPIC_MODEL": "claude-other-2"}, *args)
    assert other_model.code == 0, other_model.stderr
    asked = fake_api.agent_turns()[1:]
    assert len(asked) == 1 and {t.body["model"] for t in asked} == {"claude-other-2"}
    with FakeAPI() as gateway:
        gateway.script(CaseRouter(FIRES_ALPHA))
        other_endpoint = route(repo, {**env, "ANTHROPIC_BASE_URL": gateway.base_url}, *args)
        assert other_endpoint.code == 0, other_endpoint.stderr
        assert len(gateway.agent_turns()) == 1
    assert route(repo, env, *args).code == 0 and turns(fake_api) == 2  # the first key still holds


def test_editing_one_skill_reruns_only_the_cases_whose_room_holds_it(scripted, repo, tmp_path):
    env = scripted.env
    scripted.script({**SCRIPTED_ALPHA, **{f"beta-pos-{n}": S.fires("beta") for n in (1, 2, 3)}})
    shared = str(tmp_path / "shared-cache")

    def both_rooms():
        for name in ("alpha", "beta"):
            done = route(
                repo, env, "--routing-room", name, "--skill", name, "--skip-preflight", "--cache", shared
            )
            assert done.code == 0, done.stderr

    both_rooms()
    assert len(scripted.case_runs()) == 10  # five cases in each room
    skill_md = repo / "alpha" / "SKILL.md"
    skill_md.write_text(skill_md.read_text().replace("Does the alpha job.", "Does the alpha job well."))
    both_rooms()
    rerun = scripted.case_runs()[10:]
    assert len(rerun) == 5 and all("alpha" in ran.prompt for ran in rerun)


def test_errors_are_never_cached(scripted, repo):
    env = scripted.env
    scripted.script({"alpha-pos-1": S.fails("the API answered 529 (overloaded)")})
    failed = route(repo, env, "--routing-room", "alpha", "--skip-preflight", "--only", "alpha-pos-1")
    assert failed.case("alpha-pos-1")["verdict"] == "error"
    scripted.script({"alpha-pos-1": S.fires("alpha")})
    again = route(repo, env, "--routing-room", "alpha", "--skip-preflight", "--only", "alpha-pos-1")
    assert again.case("alpha-pos-1")["verdict"] == "correct_trigger" and len(scripted.case_runs()) == 2
    assert again.case("alpha-pos-1")["samples"][0]["cached"] is False


# --- the run's spend cap ------------------------------------------------------------------------------


def test_a_run_stops_starting_cases_at_its_cap_and_fails_saying_why(scripted, repo):
    scripted.script(SCRIPTED_ALPHA)  # each run, the canary's too, costs $0.0005
    run = route(
        repo,
        scripted.env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--only",
        ALPHA,
        "--jobs",
        "1",
        "--max-run-usd",
        "0.001",  # what the canary and one case cost together
    )
    # The canary spent under the cap (its spend counts too); the first case then reached it.
    assert run.code == 1 and len(scripted.case_runs()) == 1 and len(scripted.canary_runs()) == 1
    report = run.report
    assert valid(report) == []
    assert sorted(run.verdicts().values()) == ["correct_trigger", "not-run", "not-run"]
    assert report["totals"]["not_run"] == 2 and report["meta"]["max_run_usd"] == 0.001
    assert report["gate"]["reason"].startswith("2 case(s) did not run: the run had spent $0.0")
    assert "reaching its --max-run-usd of $0.001;" in run.stderr and "[routing] failed" in run.stderr
    assert re.search(r"\[\d/3\] \[NOT-RUN\] alpha-pos-\d: ", run.stderr)


# --- dry runs -------------------------------------------------------------------------------------------


def test_a_dry_run_sends_nothing_and_shows_the_cases_the_room_and_the_command(fake_api, repo, env):
    run = route(
        repo, env, "--routing-room", "alpha,beta", "--only", ALPHA, "--dry-run", "--model", "claude-fake-1"
    )
    assert run.code == 0, run.stderr
    assert fake_api.requests == []  # not even the preflight
    assert not run.output.exists()
    out = run.stdout
    assert "Room (2): alpha, beta" in out
    assert "alpha-pos-2: expects alpha; not cached; Please do the alpha job, variant 2." in out
    command = next(line for line in out.splitlines() if "--output-format stream-json" in line)
    assert "CLAUDE_CODE_DISABLE_BUNDLED_SKILLS=1" in command and "--model claude-fake-1" in command
    assert '"PostToolUse"' in command and "--setting-sources project" in command
    assert "Estimate: 4 sample(s), 1 of them the canary; 0 from the result cache" in out  # and three cases
    assert "Model requests: about 4 (1 per sample that decides on its first turn, at most 52)." in out
    assert "unknown until a sample has run" in out
    # claude stops each run once past --max-budget-usd (0.75 by default): a ceiling on the four samples
    assert (
        "Cost ceiling: about $3.00 (4 sample(s), each stopped by the agent once past --max-budget-usd $0.75"
        in out
    )


def test_a_dry_run_gives_no_ceiling_where_the_cap_is_off(fake_api, repo, env):
    run = route(repo, env, "--routing-room", "alpha", "--only", ALPHA, "--dry-run", "--max-budget-usd", "0")
    assert run.code == 0, run.stderr
    assert "unknown until a sample has run" in run.stdout and "Cost ceiling" not in run.stdout


def test_a_dry_run_prices_what_is_left_from_the_cached_samples(scripted, repo):
    env = scripted.env
    scripted.script(SCRIPTED_ALPHA)
    made = route(
        repo, env, "--routing-room", "alpha", "--skip-preflight", "--only", "alpha-pos-1,alpha-pos-2"
    )
    sent = len(scripted.runs)
    per_case = made.case("alpha-pos-1")["cost_usd"]
    run = route(repo, env, "--routing-room", "alpha", "--only", ALPHA, "--dry-run")
    assert len(scripted.runs) == sent
    assert "alpha-pos-1: expects alpha; 1/1 cached;" in run.stdout
    assert (
        "Estimate: 4 sample(s), 1 of them the canary; 3 from the result cache" in run.stdout
    )  # the canary's is cached too
    assert f"${per_case:.4f} (the mean of the 3 cached sample(s))" in run.stdout


# --- adaptive repeats and progress ----------------------------------------------------------------------


def test_repeat_auto_settles_a_stable_case_early_and_names_the_flaky_one(scripted, repo):
    scripted.script({"alpha-pos-1": S.fires("alpha"), "alpha-pos-2": [S.fires("alpha"), S.NO_SKILL]})
    run = route(
        repo,
        scripted.env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--no-cache",
        "--only",
        "alpha-pos-1,alpha-pos-2",
        "--repeat",
        "auto:6",
        "--min-accuracy",
        "0",
    )
    assert run.code == 0, run.stderr
    stable, flaky = run.case("alpha-pos-1"), run.case("alpha-pos-2")
    assert (len(stable["samples"]), stable["flaky"]) == (4, False)
    assert (len(flaky["samples"]), flaky["flaky"]) == (6, True)
    assert len(scripted.case_runs()) == 10
    report = run.report
    assert valid(report) == []
    assert (report["meta"]["repeat"], report["meta"]["adaptive_repeat"], report["totals"]["flaky"]) == (
        6,
        True,
        1,
    )
    assert "### Flaky cases" in run.stdout and "3 correct_trigger, 3 missed_trigger" in run.stdout


def test_progress_counts_finished_cases_with_elapsed_time_and_an_eta(scripted, repo):
    scripted.script(SCRIPTED_ALPHA)
    run = route(
        repo,
        scripted.env,
        *("--routing-room", "alpha", "--skip-preflight", "--no-cache", "--only", ALPHA, "--jobs", "1"),
    )
    lines = [line for line in run.stderr.splitlines() if re.match(r"\[\d/3\] ", line)]
    assert [line[:5] for line in lines] == ["[1/3]", "[2/3]", "[3/3]"]
    assert re.search(r"\(\d+s elapsed, ETA \d+s\)$", lines[0])
    assert re.search(r"\(\d+s elapsed\)$", lines[2])
    assert "\r" not in run.stderr  # not a terminal: plain lines only


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        ("--repeat=auto:0", "after auto: give the most samples"),
        ("--repeat=often", "'often' is not a whole number"),
    ],
)
def test_a_bad_repeat_is_one_sentence(repo, env, flag, message):
    run = route(repo, env, "--routing-room", "alpha", flag)
    assert run.code == 2 and message in run.stderr
