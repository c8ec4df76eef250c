"""The same compare on several models: one CompareResult per leg, side by side.

A change can help on one model and hurt on another, so each model gets its own whole comparison
(both versions on that model, interleaved) and the matrix passes only when every leg passes. Each
leg states, per mode, the candidate's pass rate against the baseline's with the interval of that
difference; each later model of an agent also gets its candidate's pass rate against the agent's
first model's; the cases whose label differs between models come first.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.compare.result import CaseComparison, CompareResult, status_of
from harness.model.stats import difference_fields
from harness.paid.matrix import Matrix
from harness.routing.verdicts import NOT_RUN


@dataclass
class CompareMatrix(Matrix[CompareResult]):
    """One CompareResult per leg, in the order --model named them."""

    command = "compare-matrix"

    def case_statuses(self, result: CompareResult) -> list[tuple[str, str]]:
        """Each case by name: fail for a regression, error for a case a side graded nothing of, else
        pass: the words every compare report gates on."""
        return [(result.name(c), status_of(c.label)) for c in result.cases]

    def sides(self, result: CompareResult) -> dict[str, dict]:
        """Per mode, each side's pass rate and the candidate's difference with its interval."""
        found = {}
        for mode, totals in result.by_mode().items():
            base, cand = totals["baseline"], totals["candidate"]
            found[mode] = {
                "baseline_rate": base["pass_rate"],
                "candidate_rate": cand["pass_rate"],
                **difference_fields(base["passed"], base["graded"], cand["passed"], cand["graded"]),
            }
        return found

    def differences(self) -> list[dict]:
        """Each later model of an agent against its first, per mode: the candidate's pass rate on
        each, the difference and its interval (does the new version fare alike on both models?)."""
        found = []
        for agent, base_label, base, label, result in self.against_first(runtime_of):
            before, after = base.by_mode(), result.by_mode()
            for mode in [m for m in after if m in before]:
                a, b = before[mode]["candidate"], after[mode]["candidate"]
                found.append(
                    {
                        "agent": agent,
                        "mode": mode,
                        "figure": "candidate_pass_rate",
                        "a": base_label,
                        "b": label,
                        "model_a": base.meta.agent.get("model"),
                        "model_b": result.meta.agent.get("model"),
                        "rate_a": a["pass_rate"],
                        "rate_b": b["pass_rate"],
                        **difference_fields(a["passed"], a["graded"], b["passed"], b["graded"]),
                    }
                )
        return found

    def case_rows(self) -> list[dict]:
        """Each case with its label on every leg; the cases labelled differently come first."""
        return self.case_table(lambda r: r.cases, lambda c: (c.id, c.mode), case_row)

    def identity(self, result: CompareResult) -> dict:
        """A compare's meta holds its agent as a dict: the CLI (its runtime), its version and model."""
        agent = result.meta.agent
        return {
            "agent": agent.get("runtime"),
            "model": agent.get("model"),
            "agent_version": agent.get("version"),
        }

    def leg_fields(self, result: CompareResult) -> dict:
        return {"labels": result.labels(), "by_mode": self.sides(result)}


def runtime_of(result: CompareResult) -> str:
    """The agent a leg's compare ran on (empty when it never started)."""
    return str(result.meta.agent.get("runtime", ""))


def case_row(any_case: CaseComparison, seen: dict[str, CaseComparison | None]) -> dict:
    by_leg = {label: c.label if c is not None else NOT_RUN for label, c in seen.items()}
    return {
        "id": any_case.id,
        "mode": any_case.mode,
        "skill": any_case.skill,
        "differs": len(set(by_leg.values())) > 1,
        "by_leg": by_leg,
    }
