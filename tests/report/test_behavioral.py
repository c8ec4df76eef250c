"""The behavioral report's markdown, rendered from a result built by hand (no agent run)."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from harness import schemas
from harness.behavioral.isolation import OutsidePath
from harness.behavioral.result import OUTSIDE_WORKSPACE, Attempt, BehavioralMeta, BehavioralResult, CaseResult
from harness.behavioral.scorers import Check
from harness.model.dataset import Case
from harness.model.envelope import RunMeta
from harness.paid.sandbox import APPLIED, OFF, UNAVAILABLE, UNKNOWN, SandboxUse
from harness.report import behavioral as renderers
from harness.report import junit, sarif, text
from tests.support.sarif import problems
from tests.support.written import FromResult

report = FromResult(renderers)  # each renderer reads the result's written JSON report


def result(cases: list[CaseResult], strict_isolation: bool = False) -> BehavioralResult:
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
        strict_isolation=strict_isolation,
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
    assert data["counts"] == {"total": 2, "pass": 0, "fail": 1, "error": 1, "blocked": 0}


def test_text_sarif_and_verbose_statuses_come_from_the_cases():
    met = CaseResult(case("c0"), checks=[Check("files_exist", "out.txt", True, "")])
    failed = CaseResult(case("c1"), checks=[Check("files_exist", "out.txt", False, "no such file")])
    errored = CaseResult(case("c2"), error="the API answered 529")
    made = result([met, failed, errored])
    lines = [text.finding_line(f) for f in report.findings(made)]
    assert lines[0].startswith("pdf/evals.json: error: behavioral: behavioral case `c1`:")
    assert "files_exist `out.txt`: no such file" in lines[0]
    assert (
        lines[1] == "pdf/evals.json: error: behavioral: behavioral case `c2` errored (not graded): "
        "the API answered 529"
    )
    assert report.statuses(made) == {"c0": "pass", "c1": "fail", "c2": "error"}
    assert report.headline(made) == (
        "1/3 case(s) passed; 1 failed, 1 errored; judged by its default model (anthropic family) on claude; "
        "no shell sandbox (--no-sandbox)"
    )
    assert problems(sarif.log("behavioral", report.findings(made))) == []


# --- blocked ----------------------------------------------------------------------------------

ETC = OutsidePath(1, "Bash", "command", "/etc/hostname")
HOME = OutsidePath(2, "Read", "file", "/root/.netrc")


def attempt(number: int, status: str, *outside: OutsidePath) -> Attempt:
    reason = OUTSIDE_WORKSPACE if status == "blocked" else None
    error = "blocked: outside" if reason else None
    return Attempt(number, status, reason, error, outside, 2, "result", 1.0, 0.001)


def blocked_twice() -> CaseResult:
    return CaseResult(
        case("c3"),
        error="blocked: the agent worked outside its workspace (Read (call 2) touched /root/.netrc)",
        blocked=OUTSIDE_WORKSPACE,
        isolation=[HOME],
        attempts=[attempt(1, "blocked", ETC), attempt(2, "blocked", HOME)],
    )


def test_a_blocked_case_is_its_own_status_in_every_report_and_keeps_the_run_from_passing():
    met = CaseResult(
        case("c0"),
        checks=[Check("files_exist", "out.txt", True, "")],
        attempts=[attempt(1, "blocked", ETC), attempt(2, "pass")],
    )
    made = result([met, blocked_twice()], strict_isolation=True)
    data = made.to_json()
    assert schemas.errors("behavioral-report", data) == []
    assert (data["passed"], data["status"]) == (False, "error")  # nothing failed: it could not be graded
    assert data["counts"] == {"total": 2, "pass": 1, "fail": 0, "error": 0, "blocked": 1}
    assert (data["totals"]["blocked"], data["totals"]["outside_workspace"]) == (1, 2)
    assert data["per_skill"]["pdf"]["blocked"] == 1
    blocked = data["cases"][1]
    assert (blocked["status"], blocked["blocked"]) == ("blocked", "outside-workspace")
    assert [(a["attempt"], a["status"], a["blocked"]) for a in blocked["attempts"]] == [
        (1, "blocked", "outside-workspace"),
        (2, "blocked", "outside-workspace"),
    ]
    assert [a["status"] for a in data["cases"][0]["attempts"]] == ["blocked", "pass"]
    assert report.statuses(made) == {"c0": "pass", "c3": "blocked"}
    assert (
        report.headline(made)
        == "1/2 case(s) passed; 0 failed, 0 errored, 1 blocked; judged by its default model "
        "(anthropic family) on claude; no shell sandbox (--no-sandbox)"
    )
    md = report.markdown(made)
    assert "0 failed, 0 errored, 1 blocked)" in md
    case_id, _where, reason, attempts = cells(md, "### Blocked cases (not graded)")
    assert (case_id, reason) == ("c3", "outside-workspace")
    assert attempts == (
        "attempt 1: blocked (outside-workspace), Bash (call 1) named /etc/hostname / "
        "attempt 2: blocked (outside-workspace), Read (call 2) touched /root/.netrc"
    )
    assert cells(md, "### Outside the workspace")[0] == "c0"  # its first attempt left, the retry passed
    (line,) = [text.finding_line(f) for f in report.findings(made)]
    assert line.startswith(
        "pdf/evals.json: error: behavioral: behavioral case `c3` is blocked (outside-workspace"
    )
    assert problems(sarif.log("behavioral", report.findings(made))) == []
    xml = junit.render("behavioral", report.junit(made))
    assert 'errors="1"' in xml and 'failures="0"' in xml and "blocked (outside-workspace)" in xml


def test_without_strict_isolation_the_paths_are_a_warning_and_the_case_is_graded():
    graded = CaseResult(case("c0"), checks=[Check("files_exist", "out.txt", True, "")], isolation=[ETC])
    made = result([graded])
    assert made.passed and made.to_json()["status"] == "pass"
    (found,) = report.findings(made)
    assert (found.severity, found.fails) == ("warning", False)
    assert "worked outside its workspace (Bash (call 1) named /etc/hostname)" in found.message
    assert "(graded anyway: --no-strict-isolation)" in report.markdown(made)


@pytest.mark.parametrize(
    ("use", "said"),
    [
        (SandboxUse(True, APPLIED), "could not read the repo's skill folders"),
        (SandboxUse(True, UNAVAILABLE, "bubblewrap (bwrap) not installed"), "did not apply (bubblewrap"),
        (SandboxUse(True, UNKNOWN, "no agent run said"), "is unknown (no agent run said)"),
        (SandboxUse(False), "--no-sandbox: the agent's shell commands ran without the CLI's sandbox"),
    ],
)
def test_every_format_says_whether_the_sandbox_applied_and_why_not(use, said):
    made = result([CaseResult(case("c0"), checks=[Check("logs_contain", "x", True, "found")])])
    made.meta.sandbox = use
    assert said in report.markdown(made)
    assert made.to_json()["meta"]["sandbox"] == use.to_json()
    headline = report.headline(made)
    assert headline.endswith(use.headline()) and (use.reason or "") in headline
    assert {
        APPLIED: "shell sandbox applied",
        UNAVAILABLE: "shell sandbox did not apply (bubblewrap (bwrap) not installed)",
        UNKNOWN: "shell sandbox unknown (no agent run said)",
        OFF: "no shell sandbox (--no-sandbox)",
    }[use.status] in headline


def test_a_must_statement_passed_without_evidence_is_said_in_every_format():
    bare = Check(
        "expected_behavior", "writes the report", True, "judge: passed without citing any evidence", True
    )
    cited = Check("unexpected_behavior", "deletes a file", True, "judge: nothing deleted")
    made = result([CaseResult(case("c1"), checks=[bare, cited])])
    data = made.to_json()
    assert schemas.errors("behavioral-report", data) == []
    assert data["totals"]["no_evidence"] == 1 and data["cases"][0]["checks"][0]["no_evidence"] is True
    assert data["cases"][0]["status"] == "pass"  # it counts, unless --require-evidence
    assert "1 MUST statement(s) passed without evidence" in report.headline(made)
    assert cells(report.markdown(made), "### Passed without evidence") == [
        "c1",
        "pdf/evals.json",
        "writes the report",
    ]
    (warning,) = [f for f in report.findings(made) if "without citing any evidence" in f.message]
    assert warning.severity == "warning" and "'writes the report'" in warning.message
    (junit_case,) = report.junit(made)
    assert "[PASS, no evidence cited] expected_behavior: writes the report" in junit_case.output
    assert "[PASS] unexpected_behavior: deletes a file" in junit_case.output
