"""The same behavioral cases on several models: one BehavioralResult per leg, and their comparison.

The matrix passes when every leg passes. Each later model of an agent gets the difference of its pass
rate from the agent's first model, with its 95 % interval; the cases whose status differs come first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from harness.behavioral.result import BehavioralResult
from harness.compare.stats import difference_fields
from harness.model.envelope import BLOCKED, STATUSES, counts, envelope
from harness.paid.legs import against_first
from harness.routing.verdicts import NOT_RUN


@dataclass
class BehavioralMatrix:
    results: list[BehavioralResult]  # one per leg, in the order --model named them
    labels: list[str]  # each leg's name (see paid.legs.labels), parallel to `results`

    command = "behavioral-matrix"

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)

    def legs(self) -> list[tuple[str, BehavioralResult]]:
        return list(zip(self.labels, self.results, strict=True))

    def statuses(self) -> dict[str, str]:
        """`<leg>:<case id>` -> that leg's status for the case."""
        return {f"{label}:{c.case.id}": c.status for label, r in self.legs() for c in r.cases}

    def differences(self) -> list[dict]:
        """Each later model of an agent against its first: the difference of the pass rate over the
        counted cases, with its interval."""
        found = []
        for agent, base_label, base, label, result in against_first(self.legs(), lambda r: r.meta.agent):
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
        tables = [{c.case.id: c for c in r.cases} for r in self.results]
        selected = {c.case.id: c for r in self.results for c in r.cases}
        rows = []
        for case_id, any_case in selected.items():
            by_leg = {
                label: table[case_id].status if case_id in table else NOT_RUN
                for label, table in zip(self.labels, tables, strict=True)
            }
            rows.append(
                {
                    "id": case_id,
                    "skill": any_case.case.skill,
                    "differs": len(set(by_leg.values())) > 1,
                    "by_leg": by_leg,
                }
            )
        return sorted(rows, key=lambda row: not row["differs"])

    def to_json(self) -> dict:
        run = replace(self.results[0].meta.run, command=self.command)
        return {
            **envelope(run, self.passed, counts(list(self.statuses().values()), (*STATUSES, BLOCKED))),
            "legs": [
                {
                    "leg": label,
                    "agent": r.meta.agent,
                    "model": r.meta.model,
                    "agent_version": r.meta.agent_version,
                    "judge_agent": r.meta.judge_agent,
                    "judge_model": r.meta.judge_model,
                    "passed": r.passed,
                    "halt": r.meta.halt.to_json(),
                    "counts": r.counts(),
                    "pass_rate": share(*rate(r)),
                    "notes": r.meta.notes,
                }
                for label, r in self.legs()
            ],
            "differences": self.differences(),
            "cases": self.case_rows(),
            "runs": [r.to_json() for r in self.results],
        }


def rate(result: BehavioralResult) -> tuple[int, int]:
    """(passed, graded) over the cases the gate counts; errors, blocks and cases not run are not graded."""
    graded = [c for c in result.counted if c.status in ("pass", "fail")]
    return sum(1 for c in graded if c.status == "pass"), len(graded)


def share(passed: int, graded: int) -> float | None:
    return passed / graded if graded else None
