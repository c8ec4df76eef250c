"""`skillscope routing` end to end: the real claude CLI against the scripted fake API.

Every test here also checks, on the way out, that no process of the run is alive and no
`skillscope-*` temp directory is left behind (the `clean_runs` fixture). A test about something other
than the canary (test_canary.py) passes --no-canary, so the CLI starts for its cases only; what the
harness alone decides (the bar, case selection, the report's fields) runs on the scripted stand-in
(tests/support/scripted.py), which starts nothing.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import xml.etree.ElementTree as ET

import pytest

from tests.fakeapi import RecordedRequest, write_skill
from tests.fakeapi import replies as R
from tests.support import scripted as S
from tests.support.helpers import make_skill
from tests.support.routing import (
    CaseRouter,
    bash_forever,
    prompt_of,
    route,
    routing_env,
    skills_repo,
    valid,
)
from tests.support.sandbox import path_without, require_bubblewrap, stale_verdict

pytestmark = pytest.mark.usefixtures("clean_runs")


# --- verdicts ------------------------------------------------------------------------------------


def test_each_graded_verdict_end_to_end(fake_api, repo, env):
    fake_api.script(
        CaseRouter(
            {
                "alpha-pos-1": R.skill("alpha"),  # correct_trigger
                "alpha-pos-2": "I will just answer.",  # missed_trigger
                "alpha-pos-3": R.skill("beta"),  # wrong_skill
                "alpha-neg-1": "Not a job for a skill.",  # true_negative
                "alpha-neg-2": R.skill("beta"),  # false_trigger
            }
        )
    )
    run = route(
        repo,
        env,
        "--routing-room",
        "alpha,beta",
        "--skip-preflight",
        "--only",
        "alpha-pos-1,alpha-pos-2,alpha-pos-3,alpha-neg-1,alpha-neg-2",
    )
    assert run.code == 1, run.stderr
    assert run.verdicts() == {
        "alpha-pos-1": "correct_trigger",
        "alpha-pos-2": "missed_trigger",
        "alpha-pos-3": "wrong_skill",
        "alpha-neg-1": "true_negative",
        "alpha-neg-2": "false_trigger",
    }
    report = run.report
    assert valid(report) == []
    assert (report["totals"]["graded"], report["totals"]["passed"], report["totals"]["errors"]) == (5, 2, 0)
    assert report["gate"] == {
        "passed": False,
        "reason": "2/5 correct (accuracy 0.400) is below the --min-accuracy bar of 1",
    }
    assert report["per_skill"]["alpha"] == {
        "expected": 3,
        "correct": 1,
        "missed": 1,
        "lost_to_other_skill": 1,
        "fired_total": 1,
        "fired_when_not_expected": 0,
        "recall": 0.333,
        "precision": 1.0,
        # Wilson 95 % intervals of 1/3 and 1/1, which the page reads instead of recomputing them
        "recall_ci95": pytest.approx([0.0615, 0.7923], abs=1e-4),
        "precision_ci95": pytest.approx([0.2065, 1.0], abs=1e-4),
    }
    assert report["per_skill"]["beta"]["fired_when_not_expected"] == 2
    assert report["confusion"] == {
        "alpha": {"alpha": 1, "(no skill)": 1, "beta": 1},
        "(no skill)": {"(no skill)": 1, "beta": 1},
    }
    assert report["by_category"]["positive"] == {"graded": 3, "passed": 1, "accuracy": 0.333}
    assert report["by_category"]["near_miss"] == {"graded": 2, "passed": 1, "accuracy": 0.5}
    correct = run.case("alpha-pos-1")
    assert (correct["observed"], correct["stop_reason"], correct["passed"]) == ("alpha", "activation", True)
    assert run.case("alpha-pos-2")["stop_reason"] == "result"
    assert correct["tokens"]["input"] > 0 and correct["elapsed_s"] > 0
    # One progress line per finished case, in the documented shape.
    lines = run.progress
    assert len(lines) == 5
    assert re.fullmatch(
        r"\[\d/5\] \[PASS\] alpha-pos-1: expected alpha -> got alpha \(correct_trigger, activation, "
        r"\d+\.\ds\)  \(\d+s elapsed(, ETA \d+s)?\)",
        lines["alpha-pos-1"],
    )
    assert (
        "[FAIL] alpha-pos-2: expected alpha -> got no skill (missed_trigger, result, " in lines["alpha-pos-2"]
    )
    assert "[FAIL] alpha-neg-2: expected no skill -> got beta (false_trigger, " in lines["alpha-neg-2"]
    assert "[routing] failed: 2/5 correct" in run.stderr
    assert "## Skill routing" in run.stdout and "**2/5 correct (40.0%)**" in run.stdout
    # The isolation held: the model was shown exactly the room, and the report raises no false alarm.
    listings = {tuple(sorted(t.skill_listing)) for t in fake_api.agent_turns()}
    assert listings == {("alpha", "beta")}
    assert report["session_skills"] == {
        "verified": True,
        "seen": ["alpha", "beta"],
        "extra": [],
        "missing": [],
    }
    assert "beyond the room" not in run.stdout


def test_the_run_stops_at_the_decision_whatever_the_cli_asks_next(fake_api, repo, env):
    # The fake answers at once, so a late kill (a busy machine) may let the CLI ask again and run a
    # command; that is speed, not the harness. What must hold at any speed: the run ends at the
    # decision. The turn after the command never gets an answer, so a run that did not stop there
    # would wait out its limit instead.
    asked: list[RecordedRequest] = []

    def command_then_silence(request: RecordedRequest):
        asked.append(request)
        return R.tool_use("Bash", {"command": "echo x"}) if len(asked) == 1 else R.hang()

    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha")}, later=command_then_silence))
    run = route(
        repo, env, "--routing-room", "alpha", "--skip-preflight", "--no-canary", "--only", "alpha-pos-1"
    )
    assert run.code == 0, run.stderr
    case = run.case("alpha-pos-1")
    assert (case["stop_reason"], case["observed"], case["verdict"]) == (
        "activation",
        "alpha",
        "correct_trigger",
    )


def test_an_uninstalled_skill_is_other_and_never_credited_to_a_room_member(fake_api, repo, env):
    fake_api.script(
        CaseRouter(
            {
                "alpha-pos-1": R.skill("ghost"),
                "alpha-neg-1": R.skill("alpha-extra"),  # contains a room name: still not alpha
            }
        )
    )
    run = route(
        repo,
        env,
        "--routing-room",
        "alpha,beta",
        "--skip-preflight",
        "--no-canary",
        "--min-accuracy",
        "0",
        "--only",
        "alpha-pos-1,alpha-neg-1",
    )
    assert run.code == 0, run.stderr  # an activation was seen, so detection works: bar 0 only reports
    pos, neg = run.case("alpha-pos-1"), run.case("alpha-neg-1")
    assert (pos["observed"], pos["verdict"]) == ("other:ghost", "wrong_skill")
    assert (neg["observed"], neg["verdict"]) == ("other:alpha-extra", "false_trigger")
    report = run.report
    assert report["unexpected_skills"] == ["other:alpha-extra", "other:ghost"]
    assert report["per_skill"]["alpha"]["lost_to_other_skill"] == 1
    assert report["per_skill"]["alpha"]["fired_total"] == 0
    assert not any(name.startswith("other:") for name in report["per_skill"])
    assert "A skill this run did not install activated: other:alpha-extra, other:ghost" in run.stdout
    assert report["gate"]["reason"] == "0/2 correct; reported only (--min-accuracy 0)"


def test_a_prefix_named_neighbour_is_credited_to_itself(fake_api, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "pdf", "pdf-tools")
    fake_api.script(
        CaseRouter(
            {
                "pdf-tools-pos-1": R.skill("pdf-tools"),
                "pdf-pos-1": R.skill("pdf-tools"),
                "pdf-pos-2": R.skill("/pdf"),
            }
        )
    )
    run = route(
        repo,
        env,
        "--routing-room",
        "all",
        "--skip-preflight",
        "--no-canary",
        "--only",
        "pdf-tools-pos-1,pdf-pos-1,pdf-pos-2",
    )
    assert run.verdicts() == {
        "pdf-tools-pos-1": "correct_trigger",
        "pdf-pos-1": "wrong_skill",
        "pdf-pos-2": "correct_trigger",
    }
    assert run.case("pdf-pos-1")["observed"] == "pdf-tools"
    per_skill = run.report["per_skill"]
    assert per_skill["pdf"]["fired_total"] == 1 and per_skill["pdf"]["lost_to_other_skill"] == 1
    assert per_skill["pdf-tools"]["fired_total"] == 2
    assert run.report["meta"]["room"] == ["pdf", "pdf-tools"]


def test_user_and_config_dir_skills_never_join_the_room(fake_api, repo, claude_bin, tmp_path, kept_probes):
    home = tmp_path / "home"
    write_skill(home / ".claude" / "skills", "home-skill", "Does everything. Use for any request.")
    user_config = tmp_path / "user-config"
    write_skill(user_config / "skills", "config-skill", "Does everything too.")
    env = routing_env(
        fake_api.base_url, claude_bin, home, probes=kept_probes, CLAUDE_CONFIG_DIR=str(user_config)
    )
    fake_api.script(
        CaseRouter(
            {
                "alpha-pos-1": R.skill("alpha"),
                "alpha-neg-1": R.skill("home-skill"),
                "alpha-neg-2": R.skill("config-skill"),
            }
        )
    )
    only = ("--only", "alpha-pos-1,alpha-neg-1,alpha-neg-2")
    run = route(repo, env, "--routing-room", "alpha", "--no-canary", *only)
    turns = fake_api.agent_turns()
    first_turns = [t for t in turns if not t.tool_results and t.skill_listing]
    assert len(first_turns) == 3
    assert all(set(t.skill_listing) == {"alpha"} for t in first_turns)
    # Calling them anyway finds nothing: they are someone else's skills, reported as such.
    assert run.case("alpha-neg-1")["observed"] == "other:home-skill"
    assert run.case("alpha-neg-2")["observed"] == "other:config-skill"
    report = run.report
    assert report["meta"]["isolation"]["config_dir"] == "fresh"
    assert report["session_skills"]["extra"] == [] and report["session_skills"]["seen"] == ["alpha"]
    assert not (user_config / "projects").exists()  # the user's config dir was never used


# --- runs without a decision are errors, never misses -----------------------------------------


def test_an_overloaded_api_is_an_error_not_a_miss(fake_api, repo, env):
    fake_api.script(CaseRouter({"alpha-pos-1": R.error(529), "alpha-pos-2": R.skill("alpha")}))
    only = ("--only", "alpha-pos-1,alpha-pos-2")
    run = route(repo, env, "--routing-room", "alpha", "--skip-preflight", "--no-canary", *only)
    assert run.code == 0, run.stderr  # the error counts on neither side: 1/1 graded passed
    errored = run.case("alpha-pos-1")
    assert errored["verdict"] == "error" and errored["passed"] is False and errored["observed"] is None
    assert errored["error"] == "the API answered 529 (overloaded)"
    assert run.report["totals"]["errors"] == 1
    assert run.report["gate"]["reason"] == "1/1 correct; meets the bar of 1"
    assert "[ERROR] alpha-pos-1: " in run.progress["alpha-pos-1"]
    assert "### Errored cases (not graded)" in run.stdout


def test_a_run_whose_every_case_errored_fails_with_no_case_graded(scripted, repo):
    overloaded = S.fails("the API answered 529 (overloaded)")
    scripted.script({}, default=overloaded)
    run = route(
        repo,
        scripted.env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--min-accuracy",
        "0",
        "--only",
        "alpha-pos-1,alpha-neg-1",
    )
    assert run.code == 1
    assert set(run.verdicts().values()) == {"error"}
    assert all("529" in c["error"] for c in run.report["cases"])
    assert run.report["totals"]["graded"] == 0
    assert "[routing] failed: no case was graded" in run.stderr


def test_a_hang_past_the_case_timeout_is_an_error_and_leaves_nothing_behind(fake_api, repo, env):
    fake_api.script(CaseRouter({"alpha-pos-1": R.hang()}))
    run = route(
        repo,
        env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--no-canary",
        "--case-timeout",
        "1",  # the reply never comes, so the CLI never finishes: a second is as far past as any
        "--only",
        "alpha-pos-1",
    )
    assert run.code == 1 and "[routing] failed: no case was graded" in run.stderr
    hung = run.case("alpha-pos-1")
    assert (hung["verdict"], hung["stop_reason"]) == ("error", "timeout")
    assert hung["error"] == "timed out after 1 s before claude finished"
    # (clean_runs checks that the killed CLI and its workspace are gone)


def test_a_malformed_stream_is_an_error(fake_api, repo, env):
    fake_api.script(CaseRouter({"alpha-pos-1": R.malformed()}, later=R.malformed()))
    run = route(
        repo, env, "--routing-room", "alpha", "--skip-preflight", "--no-canary", "--only", "alpha-pos-1"
    )
    assert run.code == 1
    case = run.case("alpha-pos-1")
    assert case["verdict"] == "error" and case["error"].startswith("claude reported an error: API Error")


FAILING_CLAUDE = """#!/bin/sh
case "$1" in
  --version) echo "2.1.332 (Claude Code)"; exit 0 ;;
  --help) echo "Usage: claude --setting-sources --settings --no-session-persistence"; exit 0 ;;
esac
echo "fatal: the claude binary is corrupt" >&2
exit 3
"""


def test_a_cli_exiting_non_zero_is_an_error_with_its_stderr(tmp_path, repo, fake_api):
    # The real CLI cannot be made to die like this; a stand-in script can.
    fake = tmp_path / "bin" / "claude"
    fake.parent.mkdir()
    fake.write_text(FAILING_CLAUDE)
    fake.chmod(0o755)
    env = routing_env(fake_api.base_url, str(fake), tmp_path / "home")
    args = ("--routing-room", "alpha", "--skip-preflight", "--only", "alpha-pos-1,alpha-neg-1")
    blocked = route(repo, env, *args)
    assert blocked.code == 1 and blocked.report["meta"]["canary"]["status"] == "error"
    assert (
        "(claude exited 3 without any JSON output: fatal: the claude binary is corrupt)"
        in (blocked.report["gate"]["reason"])
    )
    run = route(repo, env, *args, "--no-canary")  # each case meets the crash itself
    assert run.code == 1
    for case in run.report["cases"]:
        assert case["verdict"] == "error"
        assert case["error"] == "claude exited 3 without any JSON output: fatal: the claude binary is corrupt"
    assert valid(run.report) == []
    # This CLI's --help lacks --max-budget-usd: the report says the budget was not enforced.
    assert run.report["meta"]["notes"] == [
        "claude 2.1.332 has no --max-budget-usd; the budget was not enforced",
        "1 of the catalog's 2 skill(s) were left out of the room: beta; `--routing-room catalog` installs "
        "every skill under --skills-dir.",
    ]
    assert "> claude 2.1.332 has no --max-budget-usd; the budget was not enforced" in run.stdout


# --- stops ------------------------------------------------------------------------------------


def test_the_tool_budget_stops_a_run_that_never_decides(fake_api, repo, env):
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha")}, default=bash_forever, later=bash_forever))
    run = route(
        repo,
        env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--no-canary",
        "--max-tool-calls",
        "2",
        "--only",
        "alpha-pos-1,alpha-pos-2,alpha-neg-1",
    )
    assert run.verdicts() == {
        "alpha-pos-1": "correct_trigger",
        "alpha-pos-2": "missed_trigger",
        "alpha-neg-1": "true_negative",
    }
    for case_id in ("alpha-pos-2", "alpha-neg-1"):
        case = run.case(case_id)
        assert (case["stop_reason"], case["tool_calls"], case["error"]) == ("tool_budget", 2, None)
    assert run.code == 1 and run.report["gate"]["reason"].startswith("2/3 correct")
    # Killed at the budget (stop_reason above), not at the timeout. How many more turns the CLI sent
    # before the kill landed depends on the machine's load, so it is not asserted.


def test_the_budget_stop_is_a_graded_no_skill(fake_api, repo, env):
    fake_api.script(bash_forever)
    run = route(
        repo,
        env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--no-canary",
        "--max-budget-usd",
        "0.002",
        "--max-tool-calls",
        "50",
        "--min-accuracy",
        "0",
        "--only",
        "alpha-neg-1",
    )
    case = run.case("alpha-neg-1")
    assert (case["verdict"], case["stop_reason"], case["error"]) == ("true_negative", "budget", None)
    assert case["cost_usd"] >= 0.002
    assert run.report["meta"]["max_budget_usd"] == 0.002
    assert run.code == 0, run.stderr


# --- concurrency and repeats ----------------------------------------------------------------------


def test_jobs_run_cases_side_by_side(fake_api, repo, env):
    both_waiting = threading.Barrier(2, timeout=60)  # released only when two model calls overlap
    waited = []

    def router(request):
        if not request.tool_results and len(waited) < 2:
            waited.append(request.session_id)
            with contextlib.suppress(threading.BrokenBarrierError):
                both_waiting.wait()
        return R.skill("alpha") if "job" in request.prompt else "no skill"

    fake_api.script(router)
    run = route(
        repo,
        env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--no-canary",
        "--jobs",
        "4",
        "--only",
        "alpha-pos-1,alpha-neg-1",  # two are enough to overlap
    )
    assert not both_waiting.broken
    assert fake_api.max_concurrency() >= 2
    assert len({t.session_id for t in fake_api.agent_turns()}) == 2
    assert run.report["meta"]["jobs"] == 4
    assert run.verdicts() == {"alpha-pos-1": "correct_trigger", "alpha-neg-1": "true_negative"}


@pytest.mark.parametrize("jobs", [2, 4])
def test_jobs_n_keeps_n_samples_in_flight_and_never_more(scripted, repo, jobs):
    """Nothing the harness does around a run (staging, the cache, progress, hand-out order) may hold
    the other workers back: the first `jobs` runs meet at a barrier that opens only when all of them
    are in flight at once, so a run that serialises them breaks it (a deadlock guard, not a timing)."""
    all_in = threading.Barrier(jobs, timeout=60)
    lock, counts = threading.Lock(), {"started": 0, "running": 0, "most": 0}

    def held(answer: S.Answer):
        def run(ran: S.Ran) -> S.Answer:
            with lock:
                counts["started"] += 1
                counts["running"] += 1
                counts["most"] = max(counts["most"], counts["running"])
                first = counts["started"] <= jobs
            try:
                if first:
                    with contextlib.suppress(threading.BrokenBarrierError):
                        all_in.wait()
            finally:
                with lock:
                    counts["running"] -= 1
            return answer

        return run

    answers = {f"alpha-pos-{n}": held(S.fires("alpha")) for n in (1, 2, 3)}
    scripted.script({**answers, "alpha-neg-1": held(S.NO_SKILL)})
    run = route(
        repo,
        scripted.env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--no-canary",
        "--jobs",
        str(jobs),
        "--only",
        "alpha-pos-1,alpha-pos-2,alpha-pos-3,alpha-neg-1",
    )
    assert not all_in.broken, f"--jobs {jobs}: only {counts['most']} sample(s) were ever in flight at once"
    assert counts["most"] == jobs  # and the pool never starts more than --jobs
    assert run.code == 0, run.stderr
    assert len(scripted.case_runs()) == 4


def test_repeat_runs_every_sample_afresh_with_a_log_each_and_takes_the_majority(
    fake_api, repo, env, tmp_path
):
    fake_api.script(CaseRouter({"alpha-pos-1": [R.skill("alpha"), "no skill", R.skill("alpha")]}))
    logs = tmp_path / "logs"
    run = route(
        repo,
        env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--repeat",
        "3",
        "--min-accuracy",
        "0",
        "--only",
        "alpha-pos-1",
        "--keep-logs",
        str(logs),
    )
    assert run.code == 0, run.stderr
    one = run.case("alpha-pos-1")
    assert sorted(s["verdict"] for s in one["samples"]) == [
        "correct_trigger",
        "correct_trigger",
        "missed_trigger",
    ]
    assert (one["verdict"], one["observed"]) == ("correct_trigger", "alpha")
    assert len({t.session_id for t in fake_api.agent_turns()}) == 3  # three runs of the CLI
    assert run.report["totals"]["samples"] == 3 and run.report["meta"]["repeat"] == 3
    assert sorted(p.name for p in logs.iterdir()) == [
        *(f"alpha-pos-1-{n}.jsonl" for n in (1, 2, 3)),
        "skillscope-canary-wren.jsonl",  # the canary runs once, whatever --repeat says
    ]
    first = json.loads((logs / "alpha-pos-1-2.jsonl").read_text().splitlines()[0])
    assert (first["type"], first["subtype"]) == ("system", "init")


def test_repeat_keeps_every_sample_and_takes_the_majority(scripted, repo):
    scripted.script(
        {
            "alpha-pos-1": [S.fires("alpha"), S.NO_SKILL, S.fires("alpha")],
            "alpha-pos-2": [S.NO_SKILL, S.fires("alpha"), S.NO_SKILL],
        }
    )
    run = route(
        repo,
        scripted.env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--repeat",
        "3",
        "--min-accuracy",
        "0",
        "--only",
        "alpha-pos-1,alpha-pos-2",
    )
    assert run.code == 0, run.stderr
    one, two = run.case("alpha-pos-1"), run.case("alpha-pos-2")
    assert [len(c["samples"]) for c in (one, two)] == [3, 3]
    assert sorted(s["verdict"] for s in one["samples"]) == [
        "correct_trigger",
        "correct_trigger",
        "missed_trigger",
    ]
    assert (one["verdict"], one["observed"]) == ("correct_trigger", "alpha")
    assert (two["verdict"], two["observed"]) == ("missed_trigger", None)
    assert one["trigger_rate"] == pytest.approx(2 / 3) and two["trigger_rate"] == pytest.approx(1 / 3)
    assert one["trigger_rate_ci95"] == [pytest.approx(0.2077, abs=1e-4), pytest.approx(0.9385, abs=1e-4)]
    assert run.report["totals"]["samples"] == 6 and run.report["meta"]["repeat"] == 3
    assert len(scripted.case_runs()) == 6 and len(scripted.canary_runs()) == 1
    assert "2/3 (66.7% [21–94%])" in run.stdout


# --- the gate, end to end --------------------------------------------------------------------------


@pytest.mark.parametrize(("bar", "code"), [("0", 0), ("0.5", 0), ("0.51", 1), ("1", 1)])
def test_the_bar_decides_the_exit_code(scripted, repo, bar, code):
    scripted.script({"alpha-pos-1": S.fires("alpha"), "alpha-neg-1": S.fires("alpha")})
    run = route(
        repo,
        scripted.env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--min-accuracy",
        bar,
        "--only",
        "alpha-pos-1,alpha-neg-1",
    )
    assert run.code == code, run.stderr
    assert run.report["passed"] is (code == 0) and run.report["meta"]["min_accuracy"] == float(bar)
    assert run.verdicts() == {"alpha-pos-1": "correct_trigger", "alpha-neg-1": "false_trigger"}


def test_no_activation_anywhere_fails_even_at_bar_zero(scripted, repo):
    scripted.script({}, default=S.NO_SKILL)
    run = route(
        repo,
        scripted.env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--min-accuracy",
        "0",
        "--only",
        "alpha-pos-1,alpha-neg-1",
    )
    assert run.code == 1
    assert "no skill activated in any case although some were expected" in run.stderr
    assert run.report["totals"]["activations"] == 0 and run.report["totals"]["activations_expected"] == 1


def test_the_command_timeout_reports_unfinished_cases_as_errors(scripted, repo):
    # What the harness makes of its --timeout running out: the run it stops and the cases it never
    # starts are errors, the report is written, the command fails. A hung claude killed at its timeout
    # is test_a_hang_past_the_case_timeout_is_an_error_and_leaves_nothing_behind.
    scripted.script({"alpha-pos-1": S.HANGS})
    run = route(
        repo,
        scripted.env,
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--no-canary",
        "--jobs",
        "1",
        "--timeout",
        "2",
        "--only",
        "alpha-pos-1,alpha-pos-2",
    )
    assert run.code == 1
    assert "[routing] failed: the command's --timeout ran out." in run.stderr
    report = run.report
    assert report["meta"]["timed_out"] is True and report["passed"] is False
    assert run.verdicts() == {"alpha-pos-1": "error", "alpha-pos-2": "error"}
    # However slow the machine, the hanging case is the only one started; only how far it got varies.
    started = [ran.spec.prompt for ran in scripted.case_runs()]
    assert len(started) <= 1 and all(prompt_of("alpha-pos-1") in prompt for prompt in started)
    hung = "stopped when" if started else "not run:"
    assert run.case("alpha-pos-1")["error"] == f"{hung} the command's --timeout of 2 s ran out"
    assert run.case("alpha-pos-2")["error"] == "not run: the command's --timeout of 2 s ran out"
    assert "The command's --timeout ran out" in run.stdout


# --- what reaches the room, and what runs ------------------------------------------------------------


def test_an_alias_activation_is_credited_to_its_directory(fake_api, claude_bin, tmp_path, kept_probes):
    # A frontmatter name that differs from the folder fails structural, so the command never installs
    # one; the runner underneath still resolves it through the skill's base directory.
    from harness import agent
    from harness.deadline import Deadline
    from harness.model.dataset import Case
    from harness.paid.controls import RunControls
    from harness.routing.runner import RoutingRun, RoutingSettings

    skill_dir = write_skill(tmp_path / "skills", "pdf-tools", "Work with PDF files.", name="pdf-kit")
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home", probes=kept_probes)
    fake_api.script(CaseRouter({"merge these": R.skill("pdf-kit")}))
    case = Case(
        id="merge",
        prompt="merge these PDFs",
        should_trigger=True,
        skill="pdf-tools",
        source="pdf-tools/evals/evals.json",
    )
    run = RoutingRun(
        agent.connect(claude_bin, env),
        {"pdf-tools": skill_dir},
        RoutingSettings(),
        RunControls(Deadline(60)),
    )
    (outcome,) = run.run([case])
    assert (outcome.verdict, outcome.observed) == ("correct_trigger", "pdf-tools")
    assert fake_api.agent_turns()[0].skill_listing == {"pdf-tools": "Work with PDF files."}


def test_only_picks_case_ids_and_the_shared_negatives_are_unrelated(scripted, repo):
    scripted.script({"alpha-pos-1": S.fires("alpha")})
    only = ("--only", "alpha-pos-1,shared-sql-join")
    run = route(repo, scripted.env, "--routing-room", "alpha,beta", "--skip-preflight", *only)
    assert run.code == 0, run.stderr
    shared = run.case("shared-sql-join")
    assert (shared["skill"], shared["category"], shared["expect"], shared["verdict"]) == (
        None,
        "unrelated",
        None,
        "true_negative",
    )
    assert sorted(run.verdicts()) == ["alpha-pos-1", "shared-sql-join"]
    assert run.report["by_category"]["unrelated"]["graded"] == 1
    assert len(scripted.case_runs()) == 2


def test_skill_keeps_only_that_skills_cases(scripted, repo):
    scripted.script({f"beta-pos-{n}": S.fires("beta") for n in (1, 2, 3)})
    run = route(repo, scripted.env, "--routing-room", "alpha,beta", "--skip-preflight", "--skill", "beta")
    assert run.code == 0, run.stderr
    assert sorted(run.verdicts()) == ["beta-neg-1", "beta-neg-2", "beta-pos-1", "beta-pos-2", "beta-pos-3"]
    assert run.report["meta"]["room"] == ["alpha", "beta"]  # the room stays whole
    assert len(scripted.case_runs()) == 5
    assert all(ran.installed == ["alpha", "beta"] for ran in scripted.case_runs())


def test_structural_errors_in_the_room_stop_the_run_before_any_request(fake_api, tmp_path, env):
    repo = skills_repo(tmp_path / "repo", "alpha")
    skill_md = repo / "alpha" / "SKILL.md"
    skill_md.write_text(skill_md.read_text().replace('name: "alpha"', 'name: "alfa"'))
    run = route(repo, env, "--routing-room", "alpha")
    assert run.code == 1
    assert "structural error(s) in the skills this run installs" in run.stderr
    assert "`name` is `alfa` but the folder is `alpha`" in run.stderr
    assert fake_api.requests == [] and not run.output.exists()


def test_a_rejected_credential_fails_the_preflight_with_one_clear_error(fake_api, repo, env):
    fake_api.script(lambda request: R.error(401))
    run = route(repo, env, "--routing-room", "alpha", "--only", "alpha-pos-1")
    assert run.code == 1
    assert run.stderr.startswith("error: the API rejected the credentials")
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    # Only the preflight prompt went out (a key helper's CLI asks again once after a 401).
    assert {t.prompt for t in fake_api.agent_turns()} == {"Reply with the single word: ok"}
    meta = run.report["meta"]  # still written, for a CI step that uploads reports whatever happened
    assert meta["agent_error"].startswith("the API rejected the credentials") and meta["unfinished"] == 1
    assert run.report["cases"] == [] and run.report["passed"] is False
    assert "No case ran: the API rejected the credentials" in run.stdout


def test_a_missing_cli_still_writes_the_json_and_junit_reports(fake_api, repo, env, tmp_path):
    junit = tmp_path / "junit.xml"
    missing = {**env, "SKILLSCOPE_CLAUDE": str(tmp_path / "no-claude")}
    run = route(repo, missing, "--routing-room", "alpha", "--only", "alpha-pos-1", "--junit", str(junit))
    assert run.code == 1 and run.stderr.startswith("error: claude CLI not found at ")
    report = run.report
    assert report["meta"]["claude_version"] is None and report["meta"]["interrupted"] is None
    assert report["meta"]["agent_error"].startswith("claude CLI not found at ")
    assert 'name="(agent)"' in junit.read_text() and fake_api.requests == []


def test_every_report_is_written(fake_api, tmp_path, claude_bin, kept_probes):
    evals = {
        "evaluations": [
            {
                "id": "split-pdf",
                "skill_should_trigger": True,
                "prompt": "Split report.pdf into pages.",
                "expected_behavior": ["Splits it"],
            },
            {"id": "merge-pdf", "skill_should_trigger": True, "prompt": "Merge a.pdf and b.pdf."},
            {"id": "rotate-pdf", "skill_should_trigger": True, "prompt": "Rotate page 2 of c.pdf."},
            {"id": "pipe-prompt", "skill_should_trigger": False, "prompt": "Run `cat x | sort`\nthen count."},
            {"id": "word-doc", "skill_should_trigger": False, "prompt": "Fix the margins of my Word file."},
        ]
    }
    repo = tmp_path / "repo"
    from tests.support.helpers import make_skill

    make_skill(repo, "pdf", evals=evals)
    fake_api.script(CaseRouter({"Split": R.skill("pdf"), "cat x": R.skill("pdf"), "Merge": R.error(529)}))
    summary, junit, logs = tmp_path / "summary.md", tmp_path / "junit.xml", tmp_path / "logs"
    env = routing_env(
        fake_api.base_url, claude_bin, tmp_path / "home", probes=kept_probes, GITHUB_ACTIONS="true"
    )
    run = route(
        repo,
        env,
        "--routing-room",
        "pdf",
        "--skip-preflight",
        "--summary",
        str(summary),
        "--junit",
        str(junit),
        "--keep-logs",
        str(logs),
        "--model",
        "claude-fake-1",
        "--only",
        "split-pdf,merge-pdf,rotate-pdf,pipe-prompt",
    )
    assert run.code == 1
    report = run.report
    assert valid(report) == []
    meta = report["meta"]
    assert meta["claude_version"] == "2.1.332" and meta["model"] == "claude-fake-1"
    assert meta["room"] == ["pdf"] and meta["isolation"]["config_dir"] == "fresh"
    assert (
        meta["jobs"],
        meta["case_timeout"],
        meta["max_tool_calls"],
        meta["max_inspection_calls"],
        meta["max_budget_usd"],
        meta["min_accuracy"],
    ) == (4, 240.0, 4, 8, 0.75, 1.0)
    assert report["repo"] == str(repo)
    assert f"JSON report: {run.output}" in run.stdout
    # Markdown: on stdout and appended to the summary; the failing prompt stays one escaped table cell.
    assert summary.read_text().strip() in run.stdout
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").enable("table").render(run.stdout)
    assert (
        "<td>Run <code>cat x | sort</code> then count.</td>" in html
        or "<td>Run `cat x | sort` then count.</td>" in html
    )
    failures = run.stdout.split("### Routing failures", 1)[1].split("###", 1)[0]
    assert "pipe-prompt" in failures and "rotate-pdf" in failures and "merge-pdf" not in failures
    errored = run.stdout.split("### Errored cases (not graded)", 1)[1].split("<details>", 1)[0]
    assert "merge-pdf" in errored and "529" in errored
    assert "<details><summary>All cases</summary>" in run.stdout
    # GitHub annotations point at each failing case's line in its dataset.
    notes = [line for line in run.stdout.splitlines() if line.startswith("::")]
    lines = {c["id"]: c["line"] for c in report["cases"]}
    assert (
        f"::error file=pdf/evals/evals.json,line={lines['rotate-pdf']},title=skillscope routing::routing "
        "case `rotate-pdf`: expected pdf -> got no skill (missed_trigger) for the prompt"
    ) in " ".join(notes)
    assert any(
        n.startswith(f"::warning file=pdf/evals/evals.json,line={lines['merge-pdf']},")
        and "errored (not graded): the API answered 529" in n
        for n in notes
    )
    assert len(notes) == 3
    # JUnit: a failure per wrong route, an error per errored case.
    suite = ET.parse(junit).getroot().find("testsuite")
    # The canary's own case comes first: it activated, so it passed.
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("5", "2", "1")
    kinds = {c.get("name"): [child.tag for child in c] for c in suite.iter("testcase")}
    located = {c.get("name"): (c.get("file"), c.get("line")) for c in suite.iter("testcase")}
    assert located["rotate-pdf"] == ("pdf/evals/evals.json", str(lines["rotate-pdf"]))
    assert kinds == {
        "(canary)": ["system-out"],
        "split-pdf": [],
        "merge-pdf": ["error"],
        "rotate-pdf": ["failure"],
        "pipe-prompt": ["failure"],
    }
    # --keep-logs: one stream-json file per case (and the canary's), starting at the CLI's init event.
    assert sorted(p.name for p in logs.iterdir()) == [
        "merge-pdf.jsonl",
        "pipe-prompt.jsonl",
        "rotate-pdf.jsonl",
        "skillscope-canary-wren.jsonl",
        "split-pdf.jsonl",
    ]
    first = json.loads((logs / "split-pdf.jsonl").read_text().splitlines()[0])
    assert (first["type"], first["subtype"]) == ("system", "init")


# --- the shell sandbox ------------------------------------------------------------------------------


@pytest.mark.parametrize("bubblewrap", ["present", "hidden", "hidden, a stale verdict kept"])
def test_sandbox_is_probed_and_every_run_asks_for_it(fake_api, repo, env, tmp_path, claude_bin, bubblewrap):
    """Hidden under a kept "it starts" (planted under this very key): the runs' own CLI has the last word."""
    if bubblewrap == "present":
        require_bubblewrap()
    else:
        env = {**env, "PATH": str(path_without("bwrap", env["PATH"], tmp_path / "bin"))}
    if bubblewrap.endswith("kept"):
        env = stale_verdict(env, claude_bin, tmp_path / "stale")
    fake_api.script(CaseRouter({"alpha-pos-1": R.skill("alpha")}))
    logs = tmp_path / "logs"
    run = route(
        repo, env, "--routing-room", "alpha,beta", "--skip-preflight", "--no-canary", "--only", "alpha-pos-1",
        "--sandbox", "--keep-logs", str(logs),
    )  # fmt: skip
    assert run.code == 0, run.stderr
    report = run.report
    assert valid(report) == []
    init = json.loads((logs / "alpha-pos-1.jsonl").read_text().splitlines()[0])
    sandbox = report["meta"]["sandbox"]
    assert sandbox["requested"] is True
    assert sandbox["status"] == ("applied" if init["sandbox_enabled"] else "unavailable")  # as the run said
    if bubblewrap == "present":
        assert (sandbox["status"], sandbox["reason"]) == ("applied", None)
    else:
        assert sandbox["status"] == "unavailable" and "bubblewrap" in sandbox["reason"]
        assert (f"did not apply ({sandbox['reason']})" in run.stderr) is (bubblewrap == "hidden")
        assert f"did not apply ({sandbox['reason']})" in " ".join(report["meta"]["notes"])
    assert any(note.startswith("--sandbox: ") for note in report["meta"]["notes"])
    assert all(r.prompt != "sandbox probe" for r in fake_api.agent_turns())


def test_without_sandbox_routing_says_it_was_not_asked(scripted, repo):
    scripted.script({"alpha-pos-1": S.fires("alpha")})
    run = route(
        repo, scripted.env, "--routing-room", "alpha,beta", "--skip-preflight", "--only", "alpha-pos-1"
    )
    sandbox = run.report["meta"]["sandbox"]
    assert sandbox.items() >= {"requested": False, "status": "off", "reason": None}.items()
    assert sandbox["headline"] == "no shell sandbox (--no-sandbox)"
    assert not any(ran.spec.sandbox for ran in scripted.runs)


# --- skills that ask for permission ------------------------------------------------------------


@pytest.mark.parametrize("allowed", ["Bash Read", "Bash(git *) Read"])
def test_a_skill_with_allowed_tools_loads_as_for_a_user_and_decides_in_one_request(
    fake_api, tmp_path, claude_bin, kept_probes, allowed
):
    """A skill whose frontmatter lists allowed-tools asks before it runs ("Execute skill: x"), which a
    -p run refused: the stop hook never ran and the CLI asked the model again. One request a case."""
    root = skills_repo(tmp_path / "repo", "beta")
    front = {"name": "alpha", "description": "Does the alpha job.", "allowed-tools": allowed}
    case = {"id": "alpha-yes", "skill_should_trigger": True, "prompt": "Do the alpha job."}
    make_skill(root, "alpha", frontmatter=front, evals={"evaluations": [case]})
    fake_api.script(CaseRouter({"alpha job": R.skill("alpha")}, later=R.text("should never be asked")))
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home", probes=kept_probes)
    tier0 = "tier0-positives,tier0-negatives,tier0-behavior"  # one case is enough here
    run = route(
        root, env, "--routing-room", "alpha,beta", "--skip-preflight", "--no-canary", "--only", "alpha-yes",
        "--warn", tier0,
    )  # fmt: skip
    assert run.verdicts() == {"alpha-yes": "correct_trigger"}, run.stderr
    # The decision's request, never a second after the skill ran.
    assert len(fake_api.requests) == 1


def test_report_only_misses_are_warning_annotations_never_errors(scripted, repo):
    # Below a bar of 0 the run cannot fail on its misses: an ::error would paint the pull request red.
    scripted.script({"alpha-pos-1": S.fires("alpha"), "alpha-pos-2": S.NO_SKILL})
    run = route(
        repo,
        {**scripted.env, "GITHUB_ACTIONS": "true"},
        "--routing-room",
        "alpha",
        "--skip-preflight",
        "--min-accuracy",
        "0",
        "--only",
        "alpha-pos-1,alpha-pos-2",
    )
    assert run.code == 0, run.stderr
    notes = [line for line in run.stdout.splitlines() if line.startswith("::")]
    assert len(notes) == 1 and notes[0].startswith("::warning file=alpha/evals/evals.json,line=")
    assert "routing case `alpha-pos-2`: expected alpha -> got no skill (missed_trigger)" in notes[0]


@pytest.mark.parametrize("form", ["text", "junit", "sarif"])
def test_a_miss_on_a_built_in_shared_negative_points_at_no_package_file_and_says_how_to_leave_it_out(
    scripted, repo, form
):
    """The built-in set lives in the installed package, which no user can edit: its findings point at
    the repo and name the set and the flag that leaves it out; a user's own negatives file keeps its
    file and line."""
    (repo / "eval").mkdir()
    (repo / "eval" / "negatives.json").write_text(
        '{"evaluations": [\n  {"id": "own-neg", "skill_should_trigger": false, '
        '"prompt": "Own negative prompt"}\n]}'
    )
    scripted.script(
        {"alpha-pos-1": S.fires("alpha"), "LEFT JOIN": S.fires("alpha"), "Own neg": S.fires("alpha")}
    )
    only = "alpha-pos-1,shared-sql-join,own-neg"
    argv = [
        "--routing-room",
        "alpha,beta",
        "--skip-preflight",
        "--only",
        only,
        "--negatives",
        "eval/negatives.json",
    ]
    run = route(repo, scripted.env, *argv, "--format", form)
    assert run.code == 1, run.stderr
    assert run.verdicts()["shared-sql-join"] == "false_trigger"
    assert "harness/data/negatives.json" not in run.stdout
    assert "built-in shared negatives" in run.stdout and "--no-builtin-negatives" in run.stdout
    own = {"text": "eval/negatives.json:2: error: routing:", "junit": 'file="eval/negatives.json" line="2"'}
    own["sarif"] = '"uri": "eval/negatives.json"'
    assert own[form] in run.stdout, run.stdout
