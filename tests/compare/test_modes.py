"""harness.compare.modes: the line each compared case prints as it finishes."""

from __future__ import annotations

from harness.compare.modes import progress_line
from harness.compare.result import CaseComparison
from harness.compare.sides import Run, SideRecord

MET = "Installs the server; Pull TTS models for this task"  # a must and an avoided must-not, both met


def compared(mode: str, base: list[Run], cand: list[Run]) -> CaseComparison:
    return CaseComparison(
        "cat-image", "local-ai", "evals.json", 3, "draw a cat", SideRecord(base), SideRecord(cand), mode=mode
    )


def test_a_behavioral_side_is_its_status_and_runs_passed_not_the_statements_it_met():
    """The statements met include must-nots the agent avoided: listed bare, they read as things it did."""
    line = progress_line(compared("behavioral", [Run("fail", MET)], [Run("pass", MET)]))
    assert line == (
        "  [improvement] cat-image (behavioral): baseline fail (0/1 run(s) passed) "
        "-> candidate pass (1/1 run(s) passed)"
    )
    assert "Pull TTS" not in line


def test_a_routing_side_is_the_skill_it_chose_and_an_errored_side_is_an_error():
    line = progress_line(compared("routing", [Run("fail", "beta")], [Run("error", error="529")]))
    assert line == "  [error] cat-image (routing): baseline beta -> candidate error"
