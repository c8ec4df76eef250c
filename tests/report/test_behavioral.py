"""The behavioral report's markdown, rendered from a result built by hand (no agent run)."""

from __future__ import annotations

from markdown_it import MarkdownIt

from harness import schemas
from harness.behavioral.result import BehavioralMeta, BehavioralResult, CaseResult
from harness.behavioral.scorers import Check
from harness.envelope import RunMeta
from harness.model.dataset import Case
from harness.report import behavioral as report
from harness.report import sarif, text
from tests.support.sarif import problems


def result(cases: list[CaseResult]) -> BehavioralResult:
    meta = BehavioralMeta(
        run=RunMeta(command="behavioral", repo="/repo", globs=["*"], started_at="2026-01-01T00:00:00+00:00"),
        agent_version="2.1.332",
        model="claude-fake-1",
        judge_model=None,
        effort=None,
        skills=["pdf"],
        extended=True,
        jobs=1,
        case_timeout=900.0,
        max_budget_usd=5.0,
        strict_isolation=False,
        permission_mode="acceptEdits",
        allowed_tools=["Read"],
        isolation={"config_dir": "fresh"},
    )
    return BehavioralResult(meta=meta, cases=cases)


def case(case_id: str) -> Case:
    return Case(id=case_id, prompt="split it", should_trigger=True, skill="pdf", source="pdf/evals.json")


def cells(text: str, after: str) -> list[str]:
    """The body cells of the first table after the heading `after`, as GitHub would parse them."""
    section = text.split(after, 1)[1]
    html = MarkdownIt("commonmark").enable("table").render(section)
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [part.split("</td>", 1)[0] for part in body.split("<td>")[1:]]


def test_a_pipe_in_an_unmet_expectation_stays_in_its_cell():
    unmet = Check("expected_behavior", "use a | b pipe", False, "it ran a | b instead")
    text = report.markdown(result([CaseResult(case("c1"), checks=[unmet])]))
    assert "\\\\|" not in text  # escaped once, never twice
    assert cells(text, "### Unmet expectations") == [
        "c1",
        "pdf/evals.json",
        "expected_behavior",
        "use a | b pipe",
        "it ran a | b instead",
    ]


def test_a_pipe_in_an_error_is_escaped_once_and_a_long_one_is_clipped():
    text = report.markdown(result([CaseResult(case("c1"), error="exit | code " + "x" * 400)]))
    (case_id, _where, error) = cells(text, "### Errored cases (not graded)")
    assert case_id == "c1" and error.startswith("exit | code x") and error.endswith("…")
    assert len(error) == 300


def test_the_json_report_carries_the_envelope_and_validates():
    failed = CaseResult(case("c1"), checks=[Check("files_exist", "out.txt", False, "no such file")])
    errored = CaseResult(case("c2"), error="the API answered 529")
    data = result([failed, errored]).to_json()
    assert schemas.errors("behavioral-report", data) == []
    assert (data["command"], data["passed"], data["status"]) == ("behavioral", False, "fail")
    assert data["counts"] == {"total": 2, "pass": 0, "fail": 1, "error": 1}


def test_text_sarif_and_verbose_statuses_come_from_the_cases():
    met = CaseResult(case("c0"), checks=[Check("files_exist", "out.txt", True, "")])
    failed = CaseResult(case("c1"), checks=[Check("files_exist", "out.txt", False, "no such file")])
    errored = CaseResult(case("c2"), error="the API answered 529")
    made = result([met, failed, errored])
    lines = [text.finding_line(f) for f in report.findings(made)]
    assert lines[0].startswith("pdf/evals.json: behavioral: behavioral case `c1`:")
    assert "files_exist `out.txt`: no such file" in lines[0]
    assert (
        lines[1]
        == "pdf/evals.json: behavioral: behavioral case `c2` errored (not graded): the API answered 529"
    )
    assert report.statuses(made) == {"c0": "pass", "c1": "fail", "c2": "error"}
    assert report.headline(made) == "1/3 case(s) passed; 1 failed, 1 errored"
    assert problems(sarif.log("behavioral", report.findings(made))) == []
