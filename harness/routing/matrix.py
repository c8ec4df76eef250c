"""The same routing cases on several legs (agent x model): one RoutingResult per leg, and their
comparison.

The matrix's gate is every leg's gate: a skill that routes in one agent or model and not in another
fails the run, and the cases whose verdicts differ between legs are listed first. An agent run on
several models gets the difference of each later model's accuracy from its first, with its interval.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.model.stats import difference_fields
from harness.paid.matrix import Matrix
from harness.routing import metrics
from harness.routing.metrics import CaseOutcome
from harness.routing.result import RoutingResult, status
from harness.routing.verdicts import NOT_RUN

SHARED = "(shared negatives)"


@dataclass
class RoutingMatrix(Matrix[RoutingResult]):
    """One RoutingResult per leg: each agent --agent names, on each of its models."""

    command = "routing-matrix"
    rows_named = "agents"

    @property
    def agents(self) -> list[str]:
        """The matrix's columns: each leg's name."""
        return self.labels

    def differences(self) -> list[dict]:
        """For an agent run on several models: each later model against its first, the difference in
        trigger accuracy with its 95 % interval (Newcombe), and whether the interval excludes zero."""
        found = []
        for agent, base_label, base, label, other in self.against_first(agent_of):
            a, b = base.totals(), other.totals()
            found.append(
                {
                    "agent": agent,
                    "figure": "accuracy",
                    "a": base_label,
                    "b": label,
                    "model_a": base.meta.model,
                    "model_b": other.meta.model,
                    "rate_a": a["accuracy"],
                    "rate_b": b["accuracy"],
                    **difference_fields(a["passed"], a["graded"], b["passed"], b["graded"]),
                }
            )
        return found

    def skill_differences(self) -> list[dict]:
        """The same per skill, over each skill's own cases: which skills a model change moves. Those
        beyond noise come first, then the largest drops; a skill a leg graded no case of is left out."""
        cells = self.cells()
        found = []
        for agent, base_label, _base, label, _other in self.against_first(agent_of):
            for skill, row in cells.items():
                a, b = row.get(base_label), row.get(label)
                if not a or not b or not a["graded"] or not b["graded"]:
                    continue
                found.append(
                    {
                        "agent": agent,
                        "skill": skill,
                        "a": base_label,
                        "b": label,
                        "rate_a": a["accuracy"],
                        "rate_b": b["accuracy"],
                        **difference_fields(a["passed"], a["graded"], b["passed"], b["graded"]),
                    }
                )
        return sorted(found, key=lambda row: (not row["beyond_noise"], row["difference"]))

    def case_statuses(self, result: RoutingResult) -> list[tuple[str, str]]:
        return [(o.case.id, status(o)) for o in result.outcomes]

    def cells(self) -> dict[str, dict[str, dict]]:
        """Skill -> leg -> graded, passed and accuracy over that skill's own cases."""
        table: dict[str, dict[str, dict]] = {}
        for label, result in self.legs():
            rows: dict[str, list] = {}
            for outcome in result.outcomes:
                rows.setdefault(outcome.case.skill or SHARED, []).append(outcome)
            for skill, outcomes in rows.items():
                graded = [o for o in outcomes if o.graded]
                passed = sum(1 for o in graded if o.passed)
                table.setdefault(skill, {})[label] = {
                    "graded": len(graded),
                    "passed": passed,
                    "accuracy": metrics.accuracy(passed, len(graded)),
                }
        return table

    def case_rows(self) -> list[dict]:
        """Each case with every leg's verdict; cases whose verdicts differ come first. A leg whose run
        stopped before a case (a signal, the agent not starting) shows it as not run."""
        return self.case_table(lambda r: r.outcomes, lambda o: o.case.id, case_row)

    def leg_fields(self, result: RoutingResult) -> dict:
        return {
            "gate": {"passed": result.gate.passed, "reason": result.gate.reason},
            "totals": result.totals(),
        }

    def leg_row(self, label: str, result: RoutingResult) -> dict:
        """A routing leg's row closes with its canary's verdict, as routing reports always have."""
        canary = result.meta.canary
        return {**super().leg_row(label, result), "canary": canary.to_json() if canary else None}

    def own_json(self) -> dict:
        return {"skill_differences": self.skill_differences(), "matrix": self.cells()}


def agent_of(result: RoutingResult) -> str:
    return result.meta.agent


def case_row(any_outcome: CaseOutcome, seen: dict[str, CaseOutcome | None]) -> dict:
    """A case's row: every leg's verdict, and what each observed."""
    verdicts = {agent: o.verdict if o is not None else NOT_RUN for agent, o in seen.items()}
    return {
        "id": any_outcome.case.id,
        "skill": any_outcome.case.skill,
        "expect": any_outcome.expected,
        "differs": len(set(verdicts.values())) > 1,
        "by_agent": {
            agent: (
                {"observed": o.observed, "verdict": o.verdict, "error": o.error}
                if o is not None
                else {"observed": None, "verdict": NOT_RUN, "error": "not run on this agent"}
            )
            for agent, o in seen.items()
        },
    }
