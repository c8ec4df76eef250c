"""harness.report.transcript: a report's case as the head `skillscope show` prints above its transcripts."""

from __future__ import annotations

from harness.report.transcript import case_head, outcome_of


def test_a_case_head_says_what_its_report_graded():
    routing = {"id": "a-1", "skill": "a", "category": "positive", "prompt": "do a\nnow", "expect": "a"}
    routing |= {"observed": None, "verdict": "missed_trigger", "status": "fail", "error": None}
    assert case_head(routing) == [
        "-- case a-1: fail (a, positive)",
        "   prompt: do a",
        "           now",
        "   expect a; observed no skill; verdict missed_trigger",
    ]
    behavioral = {"id": "b", "status": "error", "error": "the agent run failed: 529"}
    behavioral["checks"] = [
        {"kind": "files_exist", "expectation": "out.md", "passed": False, "detail": "not found"},
        {"kind": "logs_contain", "expectation": "ok", "passed": True, "detail": "found"},
    ]
    assert case_head(behavioral) == [
        "-- case b: error",
        "   unmet files_exist `out.md`: not found",
        "   error: the agent run failed: 529",
    ]
    errored = {"id": "e", "status": "error", "expect": "a", "observed": None, "verdict": "error"}
    assert case_head(errored)[1] == "   expect a; observed —; verdict error"  # no decision, not "no skill"
    matrix = {
        "id": "m",
        "differs": True,
        "by_agent": {"claude": {"observed": "a", "verdict": "correct_trigger"}},
    }
    assert case_head(matrix)[:2] == [
        "-- case m: agents differ",
        "   claude: observed a; verdict correct_trigger",
    ]
    assert outcome_of({"id": "c", "label": "regression"}) == "regression" and outcome_of({"id": "x"}) is None
