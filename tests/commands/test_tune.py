"""`skillscope tune` end to end: the real claude CLI against the scripted API, whose router fires the
skill whose listed description shares the most topic words with the prompt, and whose proposer answers
the proposal call. A known candidate wins, a bad one stops early, one that steals a neighbour's cases is
rejected; the spend cap, the dry run and --apply; and the lexical engine, offline."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from harness import schemas
from harness.cli import main
from harness.context import Context
from harness.routing import canary
from harness.tune.propose import HEADER
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import TEST_ENV, agent_of, endpoint_env, find_runtime
from tests.support.helpers import make_skill
from tests.support.routing import NO_SKILL_TEXT

ROOM = Path(__file__).resolve().parent.parent / "tune" / "room"
SMALL_ROOM = ROOM.parent / "small_room"  # the fewest cases a split takes: 6 positives, 8 negatives
TOPICS = {"receipt", "ledger", "weather"}
BAD = "Reads the weather forecast and the ledger, and answers questions about both."
STEALER = "Reads a receipt or a ledger and works out its total."
GOOD = "Reads a receipt and works out its total. Use for any receipt."

pytestmark = pytest.mark.usefixtures("private_temp")


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def topic_router(request):
    """The proposer's call gets GOOD; a routing turn fires the skill sharing the most topic words with
    the prompt (the first by name on a tie), or none."""
    if request.tool_results:
        return "done."
    if HEADER in request.prompt:
        return json.dumps([GOOD])
    asked = words(request.prompt) & TOPICS
    listing = request.skill_listing
    shared = {name: len(words(text) & asked) for name, text in sorted(listing.items())}
    best = max(shared, key=lambda name: shared[name], default=None)
    return R.skill(best) if best and shared[best] else NO_SKILL_TEXT


@pytest.fixture
def repo(tmp_path):
    copy = tmp_path / "repo"
    shutil.copytree(ROOM, copy)
    return copy


class Terminal(io.StringIO):
    """A stream a person sits at."""

    def isatty(self) -> bool:
        return True


def tune(
    repo: Path, env: dict, *args: str, stdin: io.StringIO | None = None, stderr: io.StringIO | None = None
) -> tuple[int, dict | None, str, str]:
    output = repo.parent / "tune-report.json"
    output.unlink(missing_ok=True)
    stderr = stderr or io.StringIO()
    ctx = Context(
        environ=dict(env), cwd=repo, stdin=stdin or io.StringIO(), stdout=io.StringIO(), stderr=stderr
    )
    argv = ["tune", "alpha", "--repo", str(repo), "--output", str(output), "--format", "markdown", *args]
    code = main(argv, ctx)
    report = json.loads(output.read_text(encoding="utf-8")) if output.exists() else None
    return code, report, ctx.stdout.getvalue(), ctx.stderr.getvalue()


def valid(report: dict) -> list[str]:
    return [e.message for e in schemas.validator("tune-report").iter_errors(report)]


def candidates_file(repo: Path, *texts: str) -> str:
    (repo / "mine.json").write_text(json.dumps(list(texts)), encoding="utf-8")
    return "mine.json"


AGENT_RUN = ("--skip-preflight", "--no-builtin-negatives", "--confidence", "0.8")


def test_the_right_candidate_is_chosen_the_bad_one_stops_early_and_the_stealer_is_rejected(
    fake_api, repo, env
):
    fake_api.script(topic_router)
    mine = candidates_file(repo, BAD, STEALER)
    code, report, stdout, stderr = tune(
        repo, env, *AGENT_RUN, "--candidates", mine, "--propose", "1", "--apply"
    )
    assert code == 0, stderr
    assert valid(report) == []
    by_label = {c["label"]: c for c in report["candidates"]}
    assert report["chosen"] == "proposed-1.1" and by_label["proposed-1.1"]["description"] == GOOD
    assert report["tried"] == 3
    # The bad one: stopped on train, never graded on validation or final.
    bad = by_label["file-1"]
    assert bad["status"] == "stopped-early" and bad["looks"][-1]["stopped"]
    assert set(bad["scores"]) == {"train"}
    assert bad["spend"]["samples_run"] <= len(report["split"]["cases"]["train"])
    # The stealer wins its own cases but breaks beta's: not chosen.
    stealer = by_label["file-2"]
    judged = stealer["validation"]["claude"]
    assert judged["wins"] > 0 and judged["regressions"]
    assert all(r.startswith("beta-ledger-") for r in judged["regressions"])
    assert not judged["eligible"]
    # Final: graded once, for the chosen one and the current description only.
    assert report["final"]["candidate"] == "proposed-1.1"
    assert [c["label"] for c in report["candidates"] if "final" in c["scores"]] == ["proposed-1.1"]
    assert report["final"]["chosen"]["accuracy"] == 1.0
    # --apply wrote the diff.
    assert report["applied"] and "+description: Reads a receipt" in report["diff"]
    assert (repo / "alpha" / "SKILL.md").read_text(encoding="utf-8").count(GOOD) == 1
    assert "### SKILL.md (applied (--apply))" in stdout
    assert_proposal_saw_only_train(fake_api, repo, report)


def assert_proposal_saw_only_train(fake_api, repo: Path, report: dict) -> None:
    """The proposal call's request body holds every train failure of the current description, the
    neighbour's description, and no validation or final prompt."""
    (asked,) = [r for r in fake_api.requests if r.is_agent_turn and HEADER in r.prompt]
    body = json.dumps(asked.body)
    prompts = {c["id"]: c["prompt"] for c in cases_of(repo)}
    split = report["split"]["cases"]
    failed = [c["id"] for c in report["current"]["cases"]["train"] if c["passed"] is False]
    assert failed and all(json.dumps(prompts[i])[1:-1] in body for i in failed)
    held_out = split["validation"] + split["final"]
    assert not [i for i in held_out if json.dumps(prompts[i])[1:-1] in body]
    assert "Answers ledger questions" in body
    assert not asked.skill_listing  # nothing installed for the proposer


def test_a_proposal_breaking_structurals_rules_is_rejected_before_a_token_is_spent_on_it(fake_api, repo, env):
    too_long = "Reads receipts. " * 80
    fake_api.script(
        lambda request: json.dumps([too_long]) if HEADER in request.prompt else topic_router(request)
    )
    logs = repo.parent / "logs"
    code, report, _, stderr = tune(repo, env, *AGENT_RUN, "--propose", "1", "--keep-logs", str(logs))
    assert code == 0, stderr
    train = report["split"]["cases"]["train"]
    # The canary ran in the current description's room, so its transcript is kept beside that room's.
    assert sorted(p.stem for p in (logs / "current").glob("*.jsonl")) == sorted([*train, canary.NAME])
    assert (logs / "propose-1.jsonl").is_file()
    (proposed,) = report["candidates"]
    assert proposed["status"] == "rejected" and proposed["rejected"][0]["rule"] == "description-too-long"
    assert report["tried"] == 0 and report["chosen"] is None
    # The current description on train, and the one proposal call: nothing else was asked.
    assert len(fake_api.agent_turns()) == len(report["split"]["cases"]["train"]) + 1


def cases_of(repo: Path) -> list[dict]:
    return [
        case
        for name in ("alpha", "beta")
        for case in json.loads((repo / name / "evals" / "evals.json").read_text(encoding="utf-8"))[
            "evaluations"
        ]
    ]


def test_a_tiny_budget_stops_the_run_with_a_partial_report_and_a_failing_exit(fake_api, repo, env):
    fake_api.script(topic_router)
    mine = candidates_file(repo, GOOD)
    code, report, _, stderr = tune(
        repo, env, *AGENT_RUN, "--candidates", mine, "--max-run-usd", "0.000001", "--jobs", "2"
    )
    assert code == 1
    assert valid(report) == []
    assert "--max-run-usd" in report["halted"] and report["chosen"] is None
    assert not report["passed"]
    # No sample starts once the cap is reached: at most one in flight per job past it.
    assert len(fake_api.agent_turns()) <= 2
    assert report["current"]["scores"]["train"]["ungraded"] > 0
    assert "Files invoices" in (repo / "alpha" / "SKILL.md").read_text(encoding="utf-8")


def test_a_dry_run_prints_the_plan_and_a_range_and_sends_nothing(fake_api, repo, env):
    fake_api.script(topic_router)
    mine = candidates_file(repo, GOOD, BAD)
    code, report, stdout, _ = tune(repo, env, *AGENT_RUN, "--candidates", mine, "--propose", "2", "--dry-run")
    assert code == 0 and report is None
    assert fake_api.requests == []
    assert "## Tune dry run: nothing was sent (alpha)" in stdout
    assert "train: 10 case(s), 5 positive, 5 negative" in stdout
    assert re.search(r"Samples: \d+ at fewest .*, \d+ at most", stdout)
    assert "Proposal calls: 1" in stdout
    assert "Canary: skillscope-canary-wren, 1 sample before the cases" in stdout  # counted in the samples
    most = int(re.search(r"Samples: \d+ at fewest .*, (\d+) at most", stdout).group(1))
    assert (
        f"Cost ceiling: about ${most * 0.75:.2f} ({most} sample(s), each stopped by the agent once past"
        in stdout
    )


def test_at_a_terminal_the_plan_is_shown_and_nothing_is_sent_without_a_yes(fake_api, repo, env):
    fake_api.script(topic_router)
    mine = candidates_file(repo, GOOD)
    terminal = {k: v for k, v in env.items() if k != "CI"}
    code, report, _, stderr = tune(
        repo, terminal, *AGENT_RUN, "--candidates", mine, stdin=Terminal("n\n"), stderr=Terminal()
    )
    assert code == 1 and report is None
    assert fake_api.requests == []
    assert "Samples: " in stderr and "Spend cap: none (set --max-run-usd)." in stderr
    assert "Start the paid run? [y/N]" in stderr and "nothing was sent" in stderr


def test_the_lexical_engine_screens_candidates_offline_and_says_when_none_beats_noise(repo, tmp_path):
    mine = candidates_file(repo, BAD)
    env = {"HOME": str(tmp_path / "home"), "PATH": ""}
    code, report, stdout, _ = tune(repo, env, "--engine", "lexical", "--candidates", mine)
    assert code == 0
    assert valid(report) == []
    assert report["chosen"] is None and report["diff"] is None
    assert "no candidate beat the current description beyond noise" in report["verdict"]
    assert report["meta"]["engine"] == "lexical" and report["spend"]["cost_usd"] == 0


def test_without_apply_the_diff_is_reported_and_skill_md_left_alone(repo, tmp_path):
    mine = candidates_file(repo, GOOD)
    env = {"HOME": str(tmp_path / "home"), "PATH": ""}
    junit = tmp_path / "tune.xml"
    code, report, stdout, stderr = tune(
        repo, env, "--engine", "lexical", "--candidates", mine, "--confidence", "0.8", "--junit", str(junit)
    )
    assert code == 0
    assert report["chosen"] == "file-1" and not report["applied"]
    assert report["diff"].startswith("--- a/alpha/SKILL.md\n+++ b/alpha/SKILL.md\n")
    assert "pass --apply to write it" in stdout
    cases = {case.get("name"): case for case in ElementTree.parse(junit).getroot().iter("testcase")}
    assert set(cases) == {"file-1"} and cases["file-1"].find("failure") is None
    assert "Files invoices" in (repo / "alpha" / "SKILL.md").read_text(encoding="utf-8")


def test_a_candidate_breaking_structurals_rules_costs_nothing_and_is_reported_with_the_rule(repo, tmp_path):
    mine = candidates_file(repo, "x" * 1500, GOOD)
    env = {"HOME": str(tmp_path / "home"), "PATH": ""}
    code, report, _, _ = tune(repo, env, "--engine", "lexical", "--candidates", mine)
    assert code == 0
    rejected = report["candidates"][0]
    assert rejected["status"] == "rejected" and rejected["rejected"][0]["rule"] == "description-too-long"
    assert rejected["scores"] == {} and report["tried"] == 1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--engine", "lexical", "--propose", "2"), "--propose asks the agent"),
        ((), "tune needs candidates"),
        (("--engine", "lexical", "--candidates", "nope.json"), "--candidates nope.json: cannot read it"),
    ],
)
def test_bad_input_is_one_sentence(repo, tmp_path, args, said):
    env = {"HOME": str(tmp_path / "home"), "PATH": ""}
    code, report, _, stderr = tune(repo, env, *args)
    assert code == 2 and report is None
    assert said in stderr and "Traceback" not in stderr


@pytest.fixture
def two_agents(env, fake_api, copilot_cache):
    binary = find_runtime("copilot")
    if binary is None:
        pytest.fail(f"the copilot CLI is needed: set {TEST_ENV['copilot']}=/path/to/copilot", pytrace=False)
    return {
        **env,
        "SKILLSCOPE_COPILOT": binary,
        **endpoint_env("copilot", fake_api.base_url),
        "COPILOT_CACHE_HOME": copilot_cache,
    }


def test_on_two_agents_a_candidate_that_wins_on_one_only_is_not_chosen_and_the_report_says_where(
    fake_api, tmp_path, two_agents
):
    repo = tmp_path / "small"
    shutil.copytree(SMALL_ROOM, repo)

    def router(request):  # claude routes by the description; copilot's model never fires a skill
        if agent_of(request) == "copilot" and not request.tool_results:
            return NO_SKILL_TEXT
        return topic_router(request)

    fake_api.script(router)
    mine = candidates_file(repo, GOOD)
    code, report, _, stderr = tune(
        repo, two_agents, *AGENT_RUN, "--agent", "claude,copilot", "--candidates", mine
    )
    assert code == 0, stderr[-3000:]
    assert valid(report) == []
    assert report["meta"]["agent"] == "claude,copilot"
    (good,) = report["candidates"]
    assert set(good["validation"]) == {"claude", "copilot"}
    claude, copilot = good["validation"]["claude"], good["validation"]["copilot"]
    assert claude["wins"] > 0 and claude["losses"] == 0
    assert (copilot["wins"], copilot["eligible"]) == (0, False)
    assert good["reason"].startswith("does not win on") and "on copilot: gain +0.000" in good["reason"]
    assert report["chosen"] is None
    assert {c["agent"] for c in good["cases"]["train"]} == {"claude", "copilot"}


def test_samples_a_routing_run_cached_for_the_current_description_cost_nothing(fake_api, tmp_path, env):
    repo = tmp_path / "small"
    shutil.copytree(SMALL_ROOM, repo)
    fake_api.script(topic_router)
    ctx = Context(
        environ=dict(env), cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    routed = ["routing", "--repo", str(repo), "--routing-room", "all", "--min-accuracy", "0"]
    routed += ["--skip-preflight", "--no-builtin-negatives", "--output", str(tmp_path / "routing.json")]
    assert main(routed, ctx) == 0, ctx.stderr.getvalue()
    asked = len(fake_api.agent_turns())
    mine = candidates_file(repo, GOOD)
    code, _, stdout, _ = tune(repo, env, *AGENT_RUN, "--candidates", mine, "--dry-run")
    assert code == 0 and len(fake_api.agent_turns()) == asked
    assert "14 of the current description's from the result cache, free." in stdout


def test_an_agent_whose_activations_cannot_be_seen_grades_no_candidate(fake_api, repo, env, tmp_path):
    fake_api.answers_canary = False  # the scripted model answers the canary's prompt in plain text
    fake_api.script(topic_router)
    mine = candidates_file(repo, GOOD)
    code, report, _, stderr = tune(repo, env, *AGENT_RUN, "--candidates", mine, "--no-cache")
    assert code == 1
    assert valid(report) == []
    (checked,) = report["canary"]
    assert (checked["agent"], checked["status"]) == ("claude", "not-activated")
    sentence = checked["sentence"]
    assert sentence.startswith("the harness cannot see skill activations on claude ")
    assert report["halted"] == f"a canary failed, so no candidate was graded: {sentence}"
    assert report["chosen"] is None and not report["passed"] and report["status"] != "pass"
    assert report["spend"]["samples_run"] == 0 and fake_api.agent_turns() == [] and fake_api.canary_turns()
    # What the canary spent is the run's spend.
    assert report["spend"]["canary_cost_usd"] == checked["cost_usd"] > 0
    assert report["spend"]["cost_usd"] == checked["cost_usd"]
    assert f"Canary (claude on its default model): not-activated: {sentence}" in stderr

    # --no-canary grades the candidates as before, asking the canary nothing (in the smallest room a
    # split takes: grading itself is the other tests' subject).
    fake_api.forget()
    small = Path(shutil.copytree(SMALL_ROOM, tmp_path / "small"))
    mine = candidates_file(small, GOOD)
    code, report, _, stderr = tune(small, env, *AGENT_RUN, "--candidates", mine, "--no-cache", "--no-canary")
    assert code == 0, stderr
    assert [c["status"] for c in report["canary"]] == ["skipped"] and fake_api.canary_turns() == []
    assert report["spend"]["samples_run"] > 0 and report["spend"]["canary_cost_usd"] == 0


def test_a_catalog_room_installs_a_skill_without_a_dataset_beside_it(repo, tmp_path):
    make_skill(repo, "zeta-helper", evals=None)  # in the catalog, no dataset
    mine = candidates_file(repo, BAD)
    env = {"HOME": str(tmp_path / "home"), "PATH": ""}
    code, report, _, stderr = tune(
        repo, env, "--engine", "lexical", "--candidates", mine, "--routing-room", "all"
    )
    assert code == 0, stderr
    assert "zeta-helper" not in report["meta"]["room"]
    code, report, _, stderr = tune(
        repo, env, "--engine", "lexical", "--candidates", mine, "--routing-room", "catalog"
    )
    assert code == 0, stderr
    assert valid(report) == [] and "zeta-helper" in report["meta"]["room"]
