"""Each kind's matrix report, and each case of a routing or behavioral report, keeps the key order of the
reports real runs saved (tests/report/html/saved): no schema checks the order, and a reader may rely on it.
The results are built by hand, so this runs without an agent."""

from __future__ import annotations

from fractions import Fraction

import pytest

from harness.behavioral.matrix import BehavioralMatrix
from harness.behavioral.result import BehavioralMeta, BehavioralResult, CaseResult
from harness.compare.matrix import CompareMatrix
from harness.compare.result import CompareMeta, CompareResult
from harness.model.dataset import Case
from harness.model.envelope import RunMeta
from harness.paid.matrix import Matrix
from harness.routing import metrics
from harness.routing.matrix import RoutingMatrix
from harness.routing.metrics import CaseOutcome
from harness.routing.result import RoutingMeta, RoutingResult
from harness.routing.verdicts import Sample
from tests.support import saved_reports

RUN = RunMeta(command="routing", repo="/repo", globs=["*"], started_at="2026-01-01T00:00:00+00:00")
CASE = Case(id="c1", prompt="split it", should_trigger=True, skill="pdf", source="pdf/evals/evals.json")
LIMITS = {"effort": None, "extended": True, "jobs": 1, "max_budget_usd": 1.0, "isolation": {}}


def routing(model: str) -> RoutingResult:
    meta = RoutingMeta(
        run=RUN, agent_version="2.1.332", agent_path="claude", model=model, room=["pdf"], repeat=1,
        case_timeout=240.0, max_tool_calls=4, max_inspection_calls=8, min_accuracy=Fraction(1), **LIMITS,
    )  # fmt: skip
    outcomes = [CaseOutcome(CASE, [Sample(observed="pdf", stop_reason="activation", visible_skills=["pdf"])])]
    return RoutingResult(meta=meta, outcomes=outcomes, gate=metrics.gate(outcomes, Fraction(1)))


def behavioral(model: str) -> BehavioralResult:
    meta = BehavioralMeta(
        run=RUN, agent_version="2.1.332", model=model, judge_model=None, skills=["pdf"], case_timeout=900.0,
        strict_isolation=False, permission_mode="acceptEdits", allowed_tools=["Read"], **LIMITS,
    )  # fmt: skip
    return BehavioralResult(meta=meta, cases=[CaseResult(CASE)])


def compare(model: str) -> CompareResult:
    meta = CompareMeta(run=RUN, mode="routing", baseline="HEAD", candidate="working tree", source="live")
    meta.agent = {"runtime": "claude", "version": "2.1.332", "model": model}
    return CompareResult(meta=meta, cases=[])


KINDS = {
    "routing-matrix": (RoutingMatrix, routing, "agents"),
    "behavioral-matrix": (BehavioralMatrix, behavioral, "legs"),
    "compare-matrix": (CompareMatrix, compare, "legs"),
}


def without_settings(report: dict) -> list[str]:
    """The report's keys but the settings the command's edge adds when it writes the report."""
    return [key for key in report if key != "settings"]


@pytest.mark.parametrize("name", list(KINDS))
def test_a_matrix_report_and_its_leg_rows_keep_the_saved_reports_key_order(name):
    kind, result_of, rows = KINDS[name]
    matrix: Matrix = kind([result_of("m1"), result_of("m2")], ["claude@m1", "claude@m2"])
    report, saved = matrix.to_json(), saved_reports.load(name)
    assert list(report) == without_settings(saved)
    assert [list(row) for row in report[rows]] == [list(saved[rows][0])] * 2
    assert [row["model"] for row in report[rows]] == ["m1", "m2"]


@pytest.mark.parametrize("name", ["routing", "behavioral"])
def test_a_case_of_a_report_ends_with_the_runs_fields_in_the_saved_order(name):
    report = {"routing": routing, "behavioral": behavioral}[name]("m1").to_json()
    (case,) = report["cases"]
    assert list(case) == list(saved_reports.load(name)["cases"][0])
    assert (case["quarantined"], case["digests"]) == (False, None)
