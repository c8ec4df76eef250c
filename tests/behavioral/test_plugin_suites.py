"""Claude Code plugin eval suites run in place, end to end with the real agent CLIs against the scripted
API: a `tool_used: Skill` suite as routing cases on claude, a regex/file_exists/llm/tool suite as a
behavioral case on gemini, whose own tool names the suite's Claude names are matched through. How the
suite's graders weigh a case, its `runs` repeating it and how a must-not-fire case is graded are the
harness's: those run on the scripted runtimes (tests/support/scripted.py), whose agent has claude's
tools and writes its files into its workspace."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from harness.behavioral.judge import JUDGE_HEADER
from harness.cli import main
from harness.context import Context
from tests.fakeapi import replies as R
from tests.fakeapi.runtimes import GEMINI_MODEL, TEST_ENV, endpoint_env, find_runtime
from tests.support import scripted as S
from tests.support.behavioral import assert_valid, verdicts
from tests.support.helpers import make_skill
from tests.support.routing import CaseRouter, route, routing_env

SUITES = Path(__file__).resolve().parent.parent / "acceptance" / "plugin-eval"
REPORT = "out/week/report.md"
# Our own coverage policy (Tier 0) still applies to a host suite; these small suites do not meet it.
TIER0 = ("--warn", "tier0-behavior,tier0-negatives,tier0-positives")

pytestmark = pytest.mark.usefixtures("private_temp")


def _repo(tmp_path: Path, suite: str) -> Path:
    repo = tmp_path / "repo"
    make_skill(repo, "pdf-tools", evals=None)
    shutil.copytree(SUITES / suite / "evals", repo / "pdf-tools" / "evals")
    return repo


def test_a_skill_grader_suite_runs_as_routing_cases_with_its_runs(fake_api, claude_bin, tmp_path):
    repo = _repo(tmp_path, "routing")
    env = routing_env(fake_api.base_url, claude_bin, tmp_path / "home")
    fake_api.script(CaseRouter({"Merge these two PDF": R.skill("pdf-tools"), "two plus two": "Four."}))
    only = ("--only", "merge-pdfs,arithmetic-stays-quiet")  # the suite's cases, not the shared negatives
    done = route(repo, env, *TIER0, "--skip-preflight", "--min-accuracy", "0", "--format", "json", *only)
    assert done.code == 0, done.stderr[-3000:]
    assert done.verdicts() == {"merge-pdfs": "correct_trigger", "arithmetic-stays-quiet": "true_negative"}
    merge = done.case("merge-pdfs")
    assert merge["source"] == "pdf-tools/evals/routes/case.yaml" and merge["line"] == 2
    assert len(merge["samples"]) == 2  # the case's own `runs: 2`: two samples, one interval
    assert len(done.case("arithmetic-stays-quiet")["samples"]) == 1


def test_a_false_trigger_on_a_must_not_fire_case_fails(scripted, tmp_path):
    """How a must-not-fire case of the suite is graded is the harness's, so the runtime is scripted;
    the suite's cases on the real claude CLI are the test above."""
    repo = _repo(tmp_path, "routing")
    scripted.script({"two plus two": S.fires("pdf-tools")})
    only = ("--only", "arithmetic-stays-quiet")  # the one case this is about
    done = route(
        repo, scripted.env, *TIER0, "--skip-preflight", "--min-accuracy", "0", "--format", "json", *only
    )
    assert done.verdicts() == {"arithmetic-stays-quiet": "false_trigger"}


def _behave(repo: Path, env: dict[str, str], *args: str) -> tuple[int, str, dict]:
    output = repo.parent / "report.json"
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO())
    argv = ["behavioral", "--repo", str(repo), *TIER0, "--skip-preflight", "--output", str(output), *args]
    code = main([*argv, "--format", "markdown"], ctx)
    report = json.loads(output.read_text(encoding="utf-8"))
    assert_valid(report)
    return code, ctx.stderr.getvalue(), report


def _checks(report: dict) -> dict[str, bool]:
    (case,) = report["cases"]
    return {c["expectation"].split(" (")[0]: c["passed"] for c in case["checks"]}


def writes_and_checks(write: R.Reply, shell: R.Reply, last: str):
    """The agent writes the report, runs one shell command and says `last`; the judge passes."""
    turns: dict[str, int] = {}

    def reply(request):
        if request.prompt.startswith(JUDGE_HEADER):
            return verdicts(("E1", True))
        count = turns.get(request.cwd, 0)
        turns[request.cwd] = count + 1
        return [write, shell, last][min(count, 2)]

    return reply


def scripted_writes(last: str) -> S.Script:
    """`writes_and_checks` with claude's tools, on the scripted runtimes: the agent writes the report into
    its workspace, runs one shell command and says `last`; the judge passes."""
    passed = S.says(json.dumps({"verdicts": [{"id": "E1", "pass": True, "reason": "scripted E1"}]}))
    does = S.calls(
        ("Write", {"file_path": "{{cwd}}/" + REPORT, "content": "# Week 12\n"}, "File created."),
        ("Bash", {"command": "ls out/week"}, "report.md"),
        then=S.says(last),
    )
    return lambda ran: passed if ran.prompt.startswith(JUDGE_HEADER) else does


# The graders through a real CLI's own tool names are the gemini test below; these two on the stand-in.


def test_a_missed_regex_fails_the_case_and_weighs_in_its_score(scripted, tmp_path):
    repo = _repo(tmp_path, "behavioral")
    scripted.script(scripted_writes("Done."))
    code, _, report = _behave(repo, scripted.env, "--model", "claude-fake-1")
    assert code == 1
    (case,) = report["cases"]
    assert case["status"] == "fail" and _checks(report)["says-written"] is False
    # weights: the regex's 2 missed; 1+1+1+1 and the llm grader's 3 met
    assert case["host_score"] == pytest.approx(7 / 9, abs=1e-4)


def test_the_same_suite_runs_on_gemini_with_its_own_tool_names(fake_api, claude_bin, tmp_path):
    binary = find_runtime("gemini")
    if binary is None:
        pytest.fail(f"the gemini CLI is needed: set {TEST_ENV['gemini']}=/path/to/gemini", pytrace=False)
    repo = _repo(tmp_path, "behavioral")
    env = {
        **routing_env(fake_api.base_url, claude_bin, tmp_path / "home"),
        "SKILLSCOPE_GEMINI": binary,
        **endpoint_env("gemini", fake_api.base_url),
    }
    write = R.tool_use("write_file", {"file_path": "{{cwd}}/" + REPORT, "content": "# Week 12\n"})
    shell = R.tool_use("run_shell_command", {"command": "ls out/week"})
    fake_api.script(writes_and_checks(write, shell, "The report is written."))
    code, stderr, report = _behave(
        repo, env, "--agent", "gemini", "--judge-agent", "gemini", "--model", GEMINI_MODEL
    )
    assert code == 0, stderr[-3000:]
    (case,) = report["cases"]
    assert case["status"] == "pass" and case["host_score"] == 1.0
    assert all(_checks(report).values())


def test_free_and_judged_graders_run_as_a_behavioral_case_on_claude_its_runs_repeating_it(scripted, tmp_path):
    """Every grader of the suite passes on the case; `runs: 3` runs it three times, each in a fresh
    workspace, reported with its pass share's interval; the dry run's count of agent runs is the number
    of agents the real run starts."""
    repo = _repo(tmp_path, "behavioral")
    prompt = repo / "pdf-tools" / "evals" / "writes" / "prompt.md"
    prompt.write_text(
        prompt.read_text().replace('schema_version: "1.0"\n', 'schema_version: "1.0"\nruns: 3\n')
    )
    env = scripted.env
    scripted.script(scripted_writes("The report is written."))
    dry = io.StringIO()
    ctx = Context(environ=env, cwd=repo, stdin=io.StringIO(), stdout=dry, stderr=io.StringIO())
    argv = ["behavioral", "--repo", str(repo), *TIER0, "--skip-preflight", "--model", "claude-fake-1"]
    assert main([*argv, "--dry-run"], ctx) == 0
    (planned,) = [
        int(line.split()[1]) for line in dry.getvalue().splitlines() if line.startswith("Estimate:")
    ]
    assert "3 runs (its `runs`), 0 cached" in dry.getvalue()
    assert scripted.runs == []  # the dry run started nothing

    code, stderr, report = _behave(repo, env, "--model", "claude-fake-1", "--no-cache")
    assert code == 0, stderr[-3000:]
    agents = [ran for ran in scripted.runs if not ran.prompt.startswith(JUDGE_HEADER)]
    assert planned == len({ran.spec.workspace for ran in agents}) == len(agents) == 3
    (case,) = report["cases"]
    assert case["status"] == "pass" and case["host_score"] == 1.0
    assert case["source"] == "pdf-tools/evals/writes/prompt.md"
    assert _checks(report) == {
        "says-written": True,
        "no-apology": True,
        "report-file": True,
        "shell-once": True,
        "write-then-check": True,
        "The report has a heading for the week.": True,
    }
    assert (case["runs"], case["runs_passed"]) == (3, 3)
    assert len(case["repeats"]) == 2 and all(r["status"] == "pass" for r in case["repeats"])
    assert case["pass_rate_ci95"][1] == 1.0
    assert report["totals"]["agent"]["calls"] >= 3  # every sample's spend counts
