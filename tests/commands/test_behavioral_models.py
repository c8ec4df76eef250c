"""`skillscope behavioral --model a,b`: every case on each model, one judge grading both, one report
with each model's pass rate, the difference and its interval, in every format and on the page.

The legs, the one judge and the reports are the harness's: the runs are the scripted stand-in's
(tests/support/scripted.py), whose agent on model a writes report.md into its workspace and runs a
command, as the fake API's agent does through the real CLI. Each leg on its own model through the real
claude CLI is
tests/routing/test_routing_models.py::test_two_models_are_two_legs_in_every_format_and_the_cache_keeps_them_apart,
and a judged case on it tests/commands/test_behavioral.py::test_a_case_meeting_every_expectation_passes."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET

from harness import schemas
from harness.behavioral.judge import JUDGE_HEADER
from harness.report import html
from tests.support import scripted as S
from tests.support.behavioral import SCENARIOS, Behave

A, B, JUDGE = "claude-fake-a", "claude-fake-b", "claude-judge-1"
# Does the job: writes the report, says so on its shell.
DOES_IT = S.calls(
    ("Write", {"file_path": "{{cwd}}/report.md", "content": "# Week\n"}, "File created."),
    ("Bash", {"command": "echo status-ok"}, "status-ok"),
    then=S.says("Wrote report.md."),
)
BOTH_MET = S.says(
    json.dumps({"verdicts": [{"id": i, "pass": True, "reason": f"scripted {i}"} for i in ("E1", "E2")]})
)


def by_model(answers: dict[str, S.Answer]) -> S.Script:
    """Each run answered as its model's entry says; a judge's run only on the judge's model."""

    def answer(ran: S.Ran) -> S.Answer:
        if ran.prompt.startswith(JUDGE_HEADER):
            assert ran.model == JUDGE, ran.model
            return BOTH_MET
        return answers[ran.model or ""]

    return answer


def test_two_models_are_graded_side_by_side_by_one_judge(tmp_path, scripted):
    repo = tmp_path / "writer"
    shutil.copytree(SCENARIOS / "writer", repo)
    # Model b answers without doing anything: its checks fail whatever the judge says.
    scripted.script(by_model({A: DOES_IT, B: S.says("I would rather not.")}))
    summary, junit = tmp_path / "summary.md", tmp_path / "junit.xml"
    run = Behave(repo, "claude", scripted.env)(
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
    assert {ran.model for ran in scripted.runs} == {A, B, JUDGE}  # the judge never ran on a leg's model
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


def test_one_model_says_which_judge_graded_and_warns_of_its_own_family(tmp_path, scripted):
    repo = tmp_path / "writer"
    shutil.copytree(SCENARIOS / "writer", repo)
    scripted.script(by_model({A: DOES_IT}))
    run = Behave(repo, "claude", scripted.env)(
        "--only", "report-writer-pass", "--model", A, "--judge-model", JUDGE, "--no-sandbox"
    )
    assert run.code == 0, run.stderr
    assert run.report["meta"]["judge_family"] == "anthropic"
    assert f"judged by `{JUDGE}` (anthropic family) on claude" in run.stdout
    assert "The judge is of the agent's own model family (anthropic)" in run.stdout
