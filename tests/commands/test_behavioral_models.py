"""`skillscope behavioral --model a,b`: every case on each model, one judge grading both, one report
with each model's pass rate, the difference and its interval, in every format and on the page."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET

from harness import schemas
from harness.report import html
from tests.fakeapi import replies as R
from tests.support.behavioral import SCENARIOS, Behave, verdicts

A, B, JUDGE = "claude-fake-a", "claude-fake-b", "claude-judge-1"
WRITES = [
    R.tool_use("Write", {"file_path": "{{cwd}}/report.md", "content": "# Week\n"}),
    R.tool_use("Bash", {"command": "echo status-ok"}),
    R.text("Wrote report.md."),
]


def model_a(request):
    """Does the job, one step per turn."""
    return WRITES[min(len(request.tool_results), len(WRITES) - 1)]


def test_two_models_are_graded_side_by_side_by_one_judge(tmp_path, claude_bin, fake_env, fake_api):
    repo = tmp_path / "writer"
    shutil.copytree(SCENARIOS / "writer", repo)
    judge = verdicts(("E1", True), ("E2", True))
    # Model b answers without doing anything: its checks fail whatever the judge says.
    fake_api.script(R.by_model({A: model_a, B: R.text("I would rather not."), JUDGE: judge}))
    summary, junit = tmp_path / "summary.md", tmp_path / "junit.xml"
    run = Behave(repo, claude_bin, fake_env)(
        "--only", "report-writer-pass", "--model", f"{A},{B}", "--judge-model", JUDGE,
        "--format", "text", "--summary", str(summary), "--junit", str(junit), "--no-sandbox",
    )  # fmt: skip
    assert run.code == 1, run.stderr
    report = run.report
    assert report["command"] == "behavioral-matrix"
    assert [e.message for e in schemas.validator("behavioral-matrix-report").iter_errors(report)] == []
    for leg_run in report["runs"]:
        assert [e.message for e in schemas.validator("behavioral-report").iter_errors(leg_run)] == []
    legs = [(leg["leg"], leg["model"], leg["judge_model"], leg["pass_rate"]) for leg in report["legs"]]
    assert legs == [(f"claude@{A}", A, JUDGE, 1.0), (f"claude@{B}", B, JUDGE, 0.0)]
    meta = report["runs"][0]["meta"]
    assert (meta["judge_model"], meta["judge_family"], meta["agent_family"]) == (
        JUDGE,
        "anthropic",
        "anthropic",
    )
    (difference,) = report["differences"]
    assert (difference["figure"], difference["difference"]) == ("pass_rate", -1.0)
    # one case a side: a whole flip is still within noise (Newcombe's interval reaches past zero)
    assert (difference["low"], difference["beyond_noise"]) == (-1.0, False) and 0 < difference["high"] < 0.2
    assert report["cases"][0]["by_leg"] == {f"claude@{A}": "pass", f"claude@{B}": "fail"}
    assert {r.model for r in fake_api.agent_turns()} == {A, B, JUDGE}  # the judge never ran on a leg's model
    # text: a clause per model, the difference, who judged
    assert f"claude@{A} 1/1 passed" in run.stdout and f"claude@{B} 0/1 passed" in run.stdout
    assert "pass rate -100% (95% interval" in run.stdout
    assert f"judged by {JUDGE} (anthropic family) on claude" in run.stdout
    assert f"failed on claude@{B}" in run.stderr
    markdown = re.sub(" +", " ", summary.read_text())
    assert "## Behavioral across models" in markdown and "### Between models" in markdown
    assert f"| case | skill | claude@{A} | claude@{B} |" in markdown
    classes = {case.get("classname").split(".")[0] for case in ET.parse(junit).iter("testcase")}
    assert classes == {f"claude@{A}", f"claude@{B}"}
    page = html.render(report)
    assert "Between models" in page and f"Model claude@{B}" in page
    # The header's cost is every model's agent and judge spend, summed: each leg recorded its own.
    spent = [
        cost for leg_run in report["runs"] for side in ("agent", "judge")
        if (cost := leg_run["totals"][side]["cost_usd"]) is not None
    ]  # fmt: skip
    assert len(spent) == 4 and f"<span>cost:</span> ${sum(spent):.4f}</div>" in page
    assert f'<th scope="col">claude@{A}</th>' in page


def test_one_model_says_which_judge_graded_and_warns_of_its_own_family(
    tmp_path, claude_bin, fake_env, fake_api
):
    repo = tmp_path / "writer"
    shutil.copytree(SCENARIOS / "writer", repo)
    fake_api.script(R.by_model({A: model_a, JUDGE: verdicts(("E1", True), ("E2", True))}))
    run = Behave(repo, claude_bin, fake_env)(
        "--only", "report-writer-pass", "--model", A, "--judge-model", JUDGE, "--no-sandbox"
    )
    assert run.code == 0, run.stderr
    assert run.report["meta"]["judge_family"] == "anthropic"
    assert f"judged by `{JUDGE}` (anthropic family) on claude" in run.stdout
    assert "The judge is of the agent's own model family (anthropic)" in run.stdout
