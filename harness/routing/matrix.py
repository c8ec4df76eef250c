"""The same routing cases on several agents: one RoutingResult per agent, and their comparison.

The matrix's gate is every agent's gate: a skill that routes in one agent and not in another
fails the run, and the cases whose verdicts differ between agents are listed first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from harness.model.envelope import counts, envelope
from harness.routing import metrics
from harness.routing.result import RoutingResult, status
from harness.routing.verdicts import NOT_RUN

SHARED = "(shared negatives)"


@dataclass
class RoutingMatrix:
    results: list[RoutingResult]  # one per agent, in the order --agent named them

    command = "routing-matrix"

    @property
    def agents(self) -> list[str]:
        return [r.meta.agent for r in self.results]

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)

    def statuses(self) -> dict[str, str]:
        """`<agent>:<case id>` -> that agent's status word for the case."""
        return {f"{r.meta.agent}:{o.case.id}": status(o) for r in self.results for o in r.outcomes}

    def cells(self) -> dict[str, dict[str, dict]]:
        """Skill -> agent -> graded, passed and accuracy over that skill's own cases."""
        table: dict[str, dict[str, dict]] = {}
        for result in self.results:
            rows: dict[str, list] = {}
            for outcome in result.outcomes:
                rows.setdefault(outcome.case.skill or SHARED, []).append(outcome)
            for skill, outcomes in rows.items():
                graded = [o for o in outcomes if o.graded]
                passed = sum(1 for o in graded if o.passed)
                table.setdefault(skill, {})[result.meta.agent] = {
                    "graded": len(graded),
                    "passed": passed,
                    "accuracy": metrics.accuracy(passed, len(graded)),
                }
        return table

    def case_rows(self) -> list[dict]:
        """Each case with every agent's verdict; cases whose verdicts differ come first. An agent whose
        run stopped before a case (a signal, the agent not starting) shows it as not run."""
        by_agent = [{o.case.id: o for o in r.outcomes} for r in self.results]
        selected = {o.case.id: o for r in self.results for o in r.outcomes}
        rows = []
        for case_id, any_outcome in selected.items():
            seen = {r.meta.agent: table.get(case_id) for r, table in zip(self.results, by_agent, strict=True)}
            verdicts = {agent: o.verdict if o else NOT_RUN for agent, o in seen.items()}
            rows.append(
                {
                    "id": case_id,
                    "skill": any_outcome.case.skill,
                    "expect": any_outcome.expected,
                    "differs": len(set(verdicts.values())) > 1,
                    "by_agent": {
                        agent: (
                            {"observed": o.observed, "verdict": o.verdict, "error": o.error}
                            if o
                            else {"observed": None, "verdict": NOT_RUN, "error": "not run on this agent"}
                        )
                        for agent, o in seen.items()
                    },
                }
            )
        return sorted(rows, key=lambda row: not row["differs"])  # stable: dataset order otherwise

    def to_json(self) -> dict:
        first = self.results[0].meta.run
        run = replace(first, command=self.command)
        return {
            **envelope(run, self.passed, counts(list(self.statuses().values()))),
            "agents": [
                {
                    "agent": r.meta.agent,
                    "agent_version": r.meta.agent_version,
                    "passed": r.passed,
                    "halt": r.meta.halt.to_json(),
                    "gate": {"passed": r.gate.passed, "reason": r.gate.reason},
                    "totals": r.totals(),
                    "notes": r.meta.notes,
                    "canary": r.meta.canary.to_json() if r.meta.canary else None,
                }
                for r in self.results
            ],
            "matrix": self.cells(),
            "cases": self.case_rows(),
            "runs": [r.to_json() for r in self.results],
        }
