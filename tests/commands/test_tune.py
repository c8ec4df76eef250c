"""`skillscope tune` end to end. One tuning on the scripted runtimes (tests/support/scripted.py), whose
router fires the skill whose listed description shares the most topic words with the prompt and whose
proposer answers the proposal call, is shared by the tests that read it: a known candidate wins, a bad
one stops early, one that steals a neighbour's cases is rejected, a proposal breaking structural's rules
costs nothing, --apply, and its dry run's plan; the spend cap, the result cache, the search over several
agents and --no-canary are scripted too. On the real claude CLI against the scripted API: the proposal
call and the kept transcripts, the dry run, the question at a terminal and the canary; the lexical
engine, offline."""

from __future__ import annotations

import io
import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

import pytest

from harness import agent, schemas
from harness.cli import main
from harness.context import Context
from harness.routing import canary
from harness.tune.propose import HEADER
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import TEST_ENV, agent_of, endpoint_env, find_runtime
from tests.fakeapi.server import is_canary
from tests.support import scripted as S
from tests.support.helpers import make_skill
from tests.support.routing import NO_SKILL_TEXT

ROOM = Path(__file__).resolve().parent.parent / "tune" / "room"
SMALL_ROOM = ROOM.parent / "small_room"  # the fewest cases a split takes: 6 positives, 8 negatives
TOPICS = {"receipt", "ledger", "weather"}
BAD = "Reads the weather forecast and the ledger, and answers questions about both."
STEALER = "Reads a receipt or a ledger and works out its total."
GOOD = "Reads a receipt and works out its total. Use for any receipt."
TOO_LONG = ("Reads receipts. " * 80).strip()  # past structural's description-length rule

# The shared run is built once, on one worker (the suite runs --dist loadgroup).
pytestmark = [pytest.mark.usefixtures("private_temp"), pytest.mark.xdist_group("tune-command")]


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def topic_fired(prompt: str, listing: dict[str, str]) -> str | None:
    """The skill sharing the most topic words with the prompt (the first by name on a tie), or none."""
    asked = words(prompt) & TOPICS
    shared = {name: len(words(text) & asked) for name, text in sorted(listing.items())}
    best = max(shared, key=lambda name: shared[name], default=None)
    return best if best and shared[best] else None


def topic_router(request):
    """The proposer's call gets GOOD; a routing turn fires the skill `topic_fired` names, or none."""
    if request.tool_results:
        return "done."
    if HEADER in request.prompt:
        return json.dumps([GOOD])
    fired = topic_fired(request.prompt, request.skill_listing)
    return R.skill(fired) if fired else NO_SKILL_TEXT


def scripted_topics(ran: S.Ran) -> S.Answer:
    """`topic_router` for the scripted runtimes."""
    return S.Answer(topic_fired(ran.prompt, dict(ran.listing)))


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


@dataclass
class Tuned:
    """One tuning run on the scripted runtimes, and its dry run before it."""

    stand_in: S.Scripted
    repo: Path
    code: int
    report: dict
    stdout: str
    stderr: str
    plan: str  # the dry run's stdout
    ran_by_the_dry_run: int

    @property
    def by_label(self) -> dict[str, dict]:
        return {c["label"]: c for c in self.report["candidates"]}


def proposing_good_and_too_long(ran: S.Ran) -> S.Answer:
    """The proposal call answers GOOD and TOO_LONG; a routing run fires as `topic_fired` says."""
    return S.says(json.dumps([GOOD, TOO_LONG])) if HEADER in ran.prompt else scripted_topics(ran)


@pytest.fixture(scope="module")
def tuned(tmp_path_factory) -> Iterator[Tuned]:
    """BAD and STEALER from a file, and two proposals, GOOD and TOO_LONG, tuned with --apply in the
    room, after the same command's dry run: once for every test that reads it. Which candidate wins,
    stops early or is rejected is the harness's search, so the runtimes are scripted
    (tests/support/scripted.py); the agent side of a tuning (the proposal call, the kept transcripts,
    the requests a sample costs) is `test_on_the_real_cli_...` below, on the real claude CLI."""
    base = tmp_path_factory.mktemp("tuned")
    repo = Path(shutil.copytree(ROOM, base / "repo"))
    mine = candidates_file(repo, BAD, STEALER)
    args = (*AGENT_RUN, "--candidates", mine, "--propose", "2")
    stand_in = S.Scripted(base / "home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(agent, "connect_runtime", stand_in.connect)  # as the `scripted` fixture does
        stand_in.script(proposing_good_and_too_long)
        env = scripted_env(base)
        _, _, plan, _ = tune(repo, env, *args, "--dry-run")
        ran = len(stand_in.runs)
        code, report, stdout, stderr = tune(repo, env, *args, "--apply")
    assert report is not None, stderr
    yield Tuned(stand_in, repo, code, report, stdout, stderr, plan, ran)


def test_the_known_candidate_is_chosen_and_apply_writes_it(tuned):
    report = tuned.report
    assert tuned.code == 0, tuned.stderr
    assert valid(report) == []
    assert report["chosen"] == "proposed-1.1" and tuned.by_label["proposed-1.1"]["description"] == GOOD
    assert report["tried"] == 3
    assert report["applied"] and "+description: Reads a receipt" in report["diff"]
    assert (tuned.repo / "alpha" / "SKILL.md").read_text(encoding="utf-8").count(GOOD) == 1
    assert "### SKILL.md (applied (--apply))" in tuned.stdout


def test_the_bad_one_stops_early_on_train(tuned):
    bad = tuned.by_label["file-1"]
    assert bad["status"] == "stopped-early" and bad["looks"][-1]["stopped"]
    assert set(bad["scores"]) == {"train"}
    assert bad["spend"]["samples_run"] < len(tuned.report["split"]["cases"]["train"])


def test_the_stealer_wins_its_own_cases_but_breaks_the_neighbours_and_is_not_chosen(tuned):
    stealer = tuned.by_label["file-2"]
    judged = stealer["validation"]["claude"]
    assert judged["wins"] > 0 and judged["regressions"]
    assert all(r.startswith("beta-ledger-") for r in judged["regressions"])
    assert not judged["eligible"] and stealer["status"] == "scored"


def test_final_is_graded_once_for_the_chosen_one_and_the_current_description_only(tuned):
    report = tuned.report
    assert report["final"]["candidate"] == "proposed-1.1"
    assert [c["label"] for c in report["candidates"] if "final" in c["scores"]] == ["proposed-1.1"]
    assert report["final"]["chosen"]["accuracy"] == 1.0
    final = set(report["split"]["cases"]["final"])
    assert {c["id"] for c in report["current"]["cases"]["final"]} == final


def test_the_proposal_call_saw_train_failures_only(tuned):
    (asked,) = [r for r in tuned.stand_in.case_runs() if HEADER in r.prompt]
    assert asked.listing == {}  # nothing installed for the proposer
    assert_proposal_saw_only_train(json.dumps(asked.prompt), tuned.repo, tuned.report)


def assert_proposal_saw_only_train(body: str, repo: Path, report: dict) -> None:
    """The proposal call's request `body` (JSON) holds every train failure of the current description,
    the neighbour's description, and no validation or final prompt."""
    prompts = {c["id"]: c["prompt"] for c in cases_of(repo)}
    split = report["split"]["cases"]
    failed = [c["id"] for c in report["current"]["cases"]["train"] if c["passed"] is False]
    assert failed and all(json.dumps(prompts[i])[1:-1] in body for i in failed)
    held_out = split["validation"] + split["final"]
    assert not [i for i in held_out if json.dumps(prompts[i])[1:-1] in body]
    assert "Answers ledger questions" in body


def test_a_proposal_breaking_structurals_rules_is_rejected_before_a_token_is_spent_on_it(tuned):
    proposed = tuned.by_label["proposed-1.2"]
    assert proposed["description"] == TOO_LONG
    assert proposed["status"] == "rejected" and proposed["rejected"][0]["rule"] == "description-too-long"
    assert proposed["scores"] == {} and proposed["spend"]["samples_run"] == 0
    # No run had it installed, and no prompt held it.
    assert [r for r in tuned.stand_in.runs if TOO_LONG in (*r.listing.values(), r.prompt)] == []


def test_the_dry_run_runs_nothing_and_its_plan_bounds_what_the_run_ran(tuned):
    assert tuned.ran_by_the_dry_run == 0
    assert "Proposal calls: 1" in tuned.plan
    fewest, most = map(int, re.search(r"Samples: (\d+) at fewest .*, (\d+) at most", tuned.plan).groups())
    assert ", the canary among them;" in tuned.plan
    # Every agent run but the proposal call is a sample, the canary's included.
    samples = len([r for r in tuned.stand_in.runs if HEADER not in r.prompt])
    assert fewest <= samples <= most


def proposing_too_long(request):
    """The proposal call answers TOO_LONG, which structural rejects: only the current description runs."""
    return json.dumps([TOO_LONG]) if HEADER in request.prompt else topic_router(request)


def test_on_the_real_cli_the_proposal_call_sees_train_failures_only_and_the_transcripts_are_kept(
    fake_api, tmp_path, env
):
    """The agent side of a tuning on the real claude CLI: the proposal call (one read-only run with
    nothing installed, its answer read from the final message) sees only train failures, each sample
    costs the model requests the plan counts, and --keep-logs keeps each run's transcript. The one
    proposal is rejected by structural, so only the current description's train cases and the canary
    run; the search itself is read from the scripted tuning above."""
    repo = Path(shutil.copytree(SMALL_ROOM, tmp_path / "small"))
    fake_api.script(proposing_too_long)
    logs = tmp_path / "logs"
    args = (*AGENT_RUN, "--propose", "1", "--no-cache")
    _, _, plan, _ = tune(repo, env, *args, "--dry-run")
    assert fake_api.requests == []
    code, report, _, stderr = tune(repo, env, *args, "--keep-logs", str(logs))
    assert code == 0, stderr[-3000:]
    assert valid(report) == []
    (asked,) = [r for r in fake_api.agent_turns() if HEADER in r.prompt]
    assert not asked.skill_listing  # nothing installed for the proposer
    assert_proposal_saw_only_train(json.dumps(asked.body), repo, report)
    (proposed,) = report["candidates"]
    assert (proposed["description"], proposed["status"]) == (TOO_LONG, "rejected")
    assert [r for r in fake_api.requests if TOO_LONG[:48] in json.dumps(r.body)] == []
    # What the current description ran: its train cases and, in its room, the canary.
    train = report["split"]["cases"]["train"]
    assert sorted(p.stem for p in (logs / "current").glob("*.jsonl")) == sorted([*train, canary.NAME])
    assert (logs / "propose-1.jsonl").is_file()
    assert not (logs / "proposed-1.1").exists()  # rejected: never run
    # The plan's requests per sample hold on this CLI: it stops at the decision.
    fewest = int(re.search(r"Samples: (\d+) at fewest", plan).group(1))
    low = int(re.search(r"Model requests: about (\d+) to", plan).group(1))
    turns = [r for r in fake_api.agent_turns(canary=True) if HEADER not in r.prompt]
    assert len({r.cwd for r in turns}) == len(train) + 1
    assert len(turns) <= (len(train) + 1) * low / fewest


def cases_of(repo: Path) -> list[dict]:
    return [
        case
        for name in ("alpha", "beta")
        for case in json.loads((repo / name / "evals" / "evals.json").read_text(encoding="utf-8"))[
            "evaluations"
        ]
    ]


def test_a_tiny_budget_stops_the_run_with_a_partial_report_and_a_failing_exit(scripted, repo, tmp_path):
    """The spend cap is the harness's, so the runtime is scripted; what a real claude run costs reaching
    the spend is the canary test below."""
    scripted.script(scripted_topics)
    mine = candidates_file(repo, GOOD)
    code, report, _, stderr = tune(
        repo, scripted_env(tmp_path), *AGENT_RUN, "--candidates", mine, "--max-run-usd", "0.000001",
        "--jobs", "2",
    )  # fmt: skip
    assert code == 1
    assert valid(report) == []
    assert "--max-run-usd" in report["halted"] and report["chosen"] is None
    assert not report["passed"]
    # No sample starts once the cap is reached: at most one in flight per job past it.
    assert len(scripted.case_runs()) <= 2
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


def scripted_env(tmp_path: Path) -> dict[str, str]:
    """What a scripted runtime needs: no CLI, no endpoint."""
    return {"HOME": str(tmp_path / "home"), "PATH": "", "ANTHROPIC_API_KEY": "test-key"}


def test_on_two_agents_a_candidate_that_wins_on_one_only_is_not_chosen_and_the_report_says_where(
    scripted, tmp_path
):
    repo = tmp_path / "small"
    shutil.copytree(SMALL_ROOM, repo)
    # claude routes by the description; copilot's model never fires a skill. The search over several
    # agents is the harness's: the runtimes are scripted (the real CLIs' canaries are checked below).
    scripted.script(lambda ran: S.NO_SKILL if ran.runtime == "copilot" else scripted_topics(ran))
    mine = candidates_file(repo, GOOD)
    code, report, _, stderr = tune(
        repo, scripted_env(tmp_path), *AGENT_RUN, "--agent", "claude,copilot", "--candidates", mine
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
    # Each agent graded the candidate installed where it reads skills.
    graded = {(a.runtime, a.listing.get("alpha")) for a in scripted.case_runs()}
    assert {("claude", GOOD), ("copilot", GOOD)} <= graded
    assert {runtime for runtime, _ in graded} == {"claude", "copilot"}


def test_samples_a_routing_run_cached_for_the_current_description_cost_nothing(scripted, tmp_path):
    """Reading what routing cached is the harness's, so the runtime is scripted."""
    repo = tmp_path / "small"
    shutil.copytree(SMALL_ROOM, repo)
    scripted.script(scripted_topics)
    env = scripted_env(tmp_path)
    ctx = Context(
        environ=dict(env), cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    # Two of the room's cases are enough to show tune reads what routing cached.
    routed = ["routing", "--repo", str(repo), "--routing-room", "all", "--min-accuracy", "0", "--no-canary"]
    routed += ["--only", "beta-ledger-1,beta-near-1", "--skip-preflight", "--no-builtin-negatives"]
    assert main([*routed, "--output", str(tmp_path / "routing.json")], ctx) == 0, ctx.stderr.getvalue()
    assert len(scripted.case_runs()) == 2
    mine = candidates_file(repo, GOOD)
    code, _, stdout, _ = tune(repo, env, *AGENT_RUN, "--candidates", mine, "--dry-run")
    assert code == 0 and len(scripted.runs) == 2
    assert "2 of the current description's from the result cache, free." in stdout


def blind_copilot(request):
    """claude activates the canary; copilot's model answers its prompt in plain text."""
    if is_canary(request) and agent_of(request) == "claude" and not request.tool_results:
        return R.skill(canary.NAME)
    return topic_router(request)


def test_an_agent_whose_activations_cannot_be_seen_grades_no_candidate(fake_api, repo, env, copilot_cache):
    binary = find_runtime("copilot")
    if binary is None:
        pytest.fail(f"the copilot CLI is needed: set {TEST_ENV['copilot']}=/path/to/copilot", pytrace=False)
    two_agents = {
        **env,
        "SKILLSCOPE_COPILOT": binary,
        **endpoint_env("copilot", fake_api.base_url),
        "COPILOT_CACHE_HOME": copilot_cache,
    }
    fake_api.answers_canary = False  # the script answers the canary: seen on claude, not on copilot
    fake_api.script(blind_copilot)
    mine = candidates_file(repo, GOOD)
    code, report, _, stderr = tune(
        repo, two_agents, *AGENT_RUN, "--agent", "claude,copilot", "--candidates", mine, "--no-cache"
    )
    assert code == 1, stderr[-3000:]
    assert valid(report) == []
    seen, blind = report["canary"]
    assert (seen["agent"], seen["status"]) == ("claude", "activated")
    assert (blind["agent"], blind["status"]) == ("copilot", "not-activated")
    sentence = blind["sentence"]
    assert sentence.startswith("the harness cannot see skill activations on copilot ")
    assert report["halted"] == f"a canary failed, so no candidate was graded: {sentence}"
    assert report["chosen"] is None and not report["passed"] and report["status"] != "pass"
    assert report["spend"]["samples_run"] == 0 and fake_api.agent_turns() == []
    assert {agent_of(r) for r in fake_api.canary_turns()} == {"claude", "copilot"}
    # What the canaries spent is the run's spend.
    spent = sum(c["cost_usd"] or 0 for c in report["canary"])
    assert report["spend"]["canary_cost_usd"] == pytest.approx(spent) and spent > 0
    assert report["spend"]["cost_usd"] == pytest.approx(spent)
    assert f"not-activated: {sentence}" in stderr


def test_with_no_canary_the_candidates_are_graded_and_the_canary_asked_nothing(scripted, tmp_path):
    repo = Path(shutil.copytree(SMALL_ROOM, tmp_path / "small"))
    scripted.script(scripted_topics, canary_fires=False)  # a canary would block the run: it is not asked
    mine = candidates_file(repo, GOOD)
    code, report, _, stderr = tune(
        repo, scripted_env(tmp_path), *AGENT_RUN, "--candidates", mine, "--no-cache", "--no-canary"
    )
    assert code == 0, stderr
    assert [c["status"] for c in report["canary"]] == ["skipped"] and scripted.canary_runs() == []
    assert report["spend"]["samples_run"] > 0 and report["spend"]["canary_cost_usd"] == 0
    assert report["candidates"][0]["scores"]


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
