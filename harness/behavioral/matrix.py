"""The same behavioral cases on several models: one BehavioralResult per leg, and their comparison.

The matrix passes when every leg passes. Each later model of an agent gets the difference of its pass
rate from the agent's first model, with its 95 % interval; the cases whose status differs come first.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.behavioral.result import BehavioralResult, CaseResult
from harness.model.envelope import BLOCKED, STATUSES
from harness.model.stats import difference_fields
from harness.paid.matrix import Matrix
from harness.routing.verdicts import NOT_RUN


@dataclass
class BehavioralMatrix(Matrix[BehavioralResult]):
    """One BehavioralResult per leg, in the order --model named them."""

    command = "behavioral-matrix"
    words = (*STATUSES, BLOCKED)

    def case_statuses(self, result: BehavioralResult) -> list[tuple[str, str]]:
        return [(c.case.id, c.status) for c in result.cases]

    def differences(self) -> list[dict]:
        """Each later model of an agent against its first: the difference of the pass rate over the
        counted cases, with its interval."""
        found = []
        for agent, base_label, base, label, result in self.against_first(lambda r: r.meta.agent):
            a, b = rate(base), rate(result)
            found.append(
                {
                    "agent": agent,
                    "figure": "pass_rate",
                    "a": base_label,
                    "b": label,
                    "model_a": base.meta.model,
                    "model_b": result.meta.model,
                    "rate_a": share(*a),
                    "rate_b": share(*b),
                    **difference_fields(*a, *b),
                }
            )
        return found

    def case_rows(self) -> list[dict]:
        """Each case with every leg's status; the cases whose status differs come first."""
        return self.case_table(lambda r: r.cases, lambda c: c.case.id, case_row)

    def identity(self, result: BehavioralResult) -> dict:
        return {
            **super().identity(result),
            "judge_agent": result.meta.judge_agent,
            "judge_model": result.meta.judge_model,
        }

    def leg_fields(self, result: BehavioralResult) -> dict:
        return {"counts": result.counts(), "pass_rate": share(*rate(result))}


def rate(result: BehavioralResult) -> tuple[int, int]:
    """(passed, graded) over the cases the gate counts; errors, blocks and cases not run are not graded."""
    graded = [c for c in result.counted if c.status in ("pass", "fail")]
    return sum(1 for c in graded if c.status == "pass"), len(graded)


def share(passed: int, graded: int) -> float | None:
    return passed / graded if graded else None


def case_row(any_case: CaseResult, seen: dict[str, CaseResult | None]) -> dict:
    by_leg = {label: c.status if c is not None else NOT_RUN for label, c in seen.items()}
    return {
        "id": any_case.case.id,
        "skill": any_case.case.skill,
        "differs": len(set(by_leg.values())) > 1,
        "by_leg": by_leg,
    }
