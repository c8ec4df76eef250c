"""A behavioral case's status from what its run left: every combination of an error, its checks and a
block, and the JSON report the schema accepts for each."""

from __future__ import annotations

import itertools

import pytest

from harness import schemas
from harness.behavioral.result import BLOCKED, ERROR, FAIL, PASS, CaseResult
from harness.behavioral.scorers import Check
from harness.model.dataset import Case
from tests.report.test_behavioral import result

MET = Check("files_exist", "out.txt", True, "")
UNMET = Check("logs_contain", "done", False, "not found")
CHECKS = {"none": [], "met": [MET], "unmet": [UNMET], "both": [MET, UNMET]}


# A blocked case always says why in its error; a case with neither checks nor an error never reaches a
# report (the runner makes it the error "nothing to grade").
RUNS = [
    (error, checks, blocked)
    for error, checks, blocked in itertools.product([False, True], CHECKS, [False, True])
    if (error or not blocked) and (error or checks != "none")
]


def expected(error: bool, checks: str, blocked: bool) -> str:
    if blocked:
        return BLOCKED
    if checks in ("unmet", "both"):
        return FAIL  # a graded miss stands whatever went wrong after it
    return ERROR if error else PASS


@pytest.mark.parametrize(("error", "checks", "blocked"), RUNS)
def test_a_failed_check_is_a_fail_an_error_without_one_is_an_error(error, checks, blocked):
    made = CaseResult(
        Case(id="c", prompt="p", should_trigger=True, skill="pdf", source="pdf/evals.json"),
        checks=list(CHECKS[checks]),
        error="the judge's run failed: 529" if error else None,
        blocked="outside-workspace" if blocked else None,
    )
    assert made.status == expected(error, checks, blocked)
    assert schemas.errors("behavioral-report", result([made]).to_json()) == []
