"""The routing result model and its renderers (JSON, markdown, annotations, JUnit), without the CLI."""

from __future__ import annotations

from fractions import Fraction

from markdown_it import MarkdownIt

from harness import schemas
from harness.model.dataset import Case
from harness.model.envelope import RunMeta
from harness.report import github, sarif, text
from harness.report import routing as renderers
from harness.routing import metrics
from harness.routing.metrics import CaseOutcome
from harness.routing.result import RoutingMeta, RoutingResult
from harness.routing.verdicts import Sample
from tests.support.sarif import problems
from tests.support.written import FromResult

report = FromResult(renderers)  # each renderer reads the result's written JSON report


def case(case_id: str, skill: str | None, trigger: bool, prompt: str = "a prompt") -> Case:
    return Case(
        id=case_id,
        prompt=prompt,
        should_trigger=trigger,
        skill=skill,
        source=f"{skill or 'shared'}/evals/evals.json",
        line=4,
    )


def result(
    outcomes: list[CaseOutcome],
    *,
    config_dir: str = "fresh",
    timed_out: bool = False,
    notes: list[str] | None = None,
    bar: Fraction = Fraction(1),
) -> RoutingResult:
    meta = RoutingMeta(
        run=RunMeta(
            command="routing",
            repo="/repo",
            globs=["*"],
            started_at="2026-01-01T00:00:00+00:00",
            elapsed_s=3.0,
        ),
        agent_version="2.1.332",
        agent_path="claude",
        model="claude-fake-1",
        effort=None,
        room=["pdf", "pdf-tools"],
        extended=True,
        jobs=4,
        repeat=1,
        case_timeout=240.0,
        max_tool_calls=4,
        max_inspection_calls=8,
        max_budget_usd=0.75,
        min_accuracy=bar,
        isolation={"config_dir": config_dir},
        timed_out=timed_out,
        notes=notes or [],
    )
    return RoutingResult(meta=meta, outcomes=outcomes, gate=metrics.gate(outcomes, bar))


def sample(observed=None, *, error=None, seen=("pdf", "pdf-tools"), cost=0.001) -> Sample:
    return Sample(
        observed=observed,
        error=error,
        stop_reason="error" if error else "activation",
        elapsed_s=1.25,
        input_tokens=100,
        output_tokens=20,
        cost_usd=cost,
        visible_skills=list(seen),
    )


def mixed() -> list[CaseOutcome]:
    return [
        CaseOutcome(case("p1", "pdf", True), [sample("pdf")]),
        CaseOutcome(case("p2", "pdf", True, "Split it | then\nmerge"), [sample("pdf-tools")]),
        CaseOutcome(case("s1", None, False), [sample(error="the API answered 529 (overloaded)")]),
        CaseOutcome(case("s2", None, False), [sample(None), sample("other:ghost"), sample(None)]),
    ]


def test_the_json_report_validates_and_adds_up():
    data = result(mixed()).to_json()
    assert [e.message for e in schemas.validator("routing-report").iter_errors(data)] == []
    totals = data["totals"]
    assert (totals["cases"], totals["graded"], totals["passed"], totals["errors"]) == (4, 3, 2, 1)
    assert (totals["activations"], totals["activations_expected"], totals["samples"]) == (2, 2, 6)
    assert totals["input_tokens"] == 600 and totals["cost_usd"] == 0.006 and totals["agent_time_s"] == 7.5
    assert data["unexpected_skills"] == ["other:ghost"]
    s2 = next(c for c in data["cases"] if c["id"] == "s2")
    assert s2["verdict"] == "true_negative" and s2["trigger_rate"] == 1 / 3 and len(s2["samples"]) == 3
    assert data["meta"]["min_accuracy"] == 1.0 and data["passed"] is False
    assert (data["command"], data["status"]) == ("routing", "fail")
    assert data["counts"] == {"total": 4, "pass": 2, "fail": 1, "error": 1}
    assert [c["status"] for c in data["cases"]] == ["pass", "fail", "error", "pass"]


def test_session_skills_flag_extras_and_missing_members():
    outcomes = [CaseOutcome(case("p1", "pdf", True), [sample("pdf", seen=("pdf", "stray"))])]
    assert result(outcomes).session_skills() == {
        "verified": True,
        "seen": ["pdf", "stray"],
        "extra": ["stray"],
        "missing": ["pdf-tools"],
    }
    unseen = [CaseOutcome(case("p1", "pdf", True), [sample(error="claude exited 1", seen=())])]
    assert result(unseen).session_skills() == {"verified": False, "seen": [], "extra": [], "missing": []}


def test_the_extras_hint_fits_the_isolation_that_applied():
    outcomes = [CaseOutcome(case("p1", "pdf", True), [sample("pdf", seen=("pdf", "pdf-tools", "stray"))])]
    fresh = report.markdown(result(outcomes, config_dir="fresh"))
    assert "The CLI listed skills beyond the room: stray." in fresh
    assert "already used a throwaway config dir" in fresh and "Set ANTHROPIC_API_KEY" not in fresh
    user = report.markdown(result(outcomes, config_dir="user"))
    assert "Set ANTHROPIC_API_KEY so the run can use a throwaway config dir." in user


def test_markdown_tables_hold_escaped_prompts_and_errors_apart():
    text = report.markdown(result(mixed(), notes=["claude 2.1.0 has no --effort; effort low was not set"]))
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert "<td>Split it | then merge</td>" in html  # one cell: the pipe escaped once, the newline gone
    failures = text.split("### Routing failures", 1)[1].split("###", 1)[0]
    assert "p2" in failures and "s1" not in failures
    errored = text.split("### Errored cases (not graded)", 1)[1].split("<details>", 1)[0]
    assert "the API answered 529 (overloaded)" in errored
    assert "> claude 2.1.0 has no --effort; effort low was not set" in text
    assert "**2/3 correct (66.7%)**" in text and "Gate: **failed**" in text
    assert "| s2 " in text and "1/3 (33.3% [6–79%])" in text


def test_a_timed_out_run_fails_and_says_so():
    made = result([CaseOutcome(case("p1", "pdf", True), [sample("pdf")])], timed_out=True)
    assert made.gate.passed and not made.passed and not made.to_json()["passed"]
    assert "The command's --timeout ran out" in report.markdown(made)


def test_annotations_and_junit_cases_follow_the_verdicts():
    made = result(mixed())
    notes = github.finding_annotations(report.findings(made))
    assert len(notes) == 2
    assert notes[0].startswith(
        "::error file=pdf/evals/evals.json,line=4,title=skillscope routing::routing case `p2`: expected pdf "
        "-> got pdf-tools (wrong_skill) for the prompt "
    )
    assert notes[0].endswith(
        "compare the descriptions of `pdf` and `pdf-tools`: the prompt matched the other better"
    )
    assert notes[1] == (
        "::warning file=shared/evals/evals.json,line=4,title=skillscope routing::routing case `s1` errored "
        "(not graded): the API answered 529 (overloaded)"
    )
    cases = {c.name: c for c in report.junit(made)}
    assert cases["p1"].failure is None and cases["p1"].error is None and cases["p1"].time_s == 1.25
    assert cases["p2"].failure.startswith("routing case `p2`: expected pdf -> got pdf-tools (wrong_skill)")
    assert (cases["p2"].file, cases["p2"].line) == ("pdf/evals/evals.json", 4)
    assert cases["s1"].error == "the API answered 529 (overloaded)" and cases["s1"].failure is None
    assert cases["s2"].classname == "routing.shared" and cases["p1"].classname == "routing.pdf"


def test_text_lines_sarif_and_verbose_statuses_follow_the_verdicts():
    made = result(mixed())
    missed, errored = [text.finding_line(f) for f in report.findings(made)]
    assert missed.startswith(
        "pdf/evals/evals.json:4: error: routing: routing case `p2`: expected pdf -> got pdf-tools"
    )
    assert "'Split it | then\\nmerge'" in missed  # the prompt's newline stays an escape: one line
    assert errored.startswith("shared/evals/evals.json:4: warning: routing: routing case `s1` errored")
    assert report.statuses(made) == {"p1": "pass", "p2": "fail", "s1": "error", "s2": "pass"}
    assert report.headline(made).startswith("2/3 correct (66.7%) of 4 case(s), 1 errored: not graded; ")
    log = sarif.log("routing", report.findings(made))
    assert problems(log) == []
    assert [r["level"] for r in log["runs"][0]["results"]] == ["error", "warning"]
