"""The same compare on several models: one CompareResult per leg, side by side.

A change can help on one model and hurt on another, so each model gets its own whole comparison
(both versions on that model, interleaved) and the matrix passes only when every leg passes. Each
leg states, per mode, the candidate's pass rate against the baseline's with the interval of that
difference; each later model of an agent also gets its candidate's pass rate against the agent's
first model's; the cases whose label differs between models come first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from harness.compare.result import CompareResult, status_of
from harness.compare.stats import difference_fields
from harness.model.envelope import counts, envelope
from harness.paid.legs import against_first
from harness.routing.verdicts import NOT_RUN


@dataclass
class CompareMatrix:
    results: list[CompareResult]  # one per leg, in the order --model named them
    labels: list[str]  # each leg's name (see paid.legs.labels), parallel to `results`

    command = "compare-matrix"

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)

    def legs(self) -> list[tuple[str, CompareResult]]:
        return list(zip(self.labels, self.results, strict=True))

    def statuses(self) -> dict[str, str]:
        """`<leg>:<case name>` -> fail for a regression, error for a case a side graded nothing of,
        else pass: the words every compare report gates on."""
        return {f"{label}:{r.name(c)}": status_of(c.label) for label, r in self.legs() for c in r.cases}

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
        for agent, base_label, base, label, result in against_first(self.legs(), runtime_of):
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
        tables = [{(c.id, c.mode): c for c in r.cases} for r in self.results]
        selected = {(c.id, c.mode): c for r in self.results for c in r.cases}
        rows = []
        for key, any_case in selected.items():
            by_leg = {
                label: table[key].label if key in table else NOT_RUN
                for label, table in zip(self.labels, tables, strict=True)
            }
            rows.append(
                {
                    "id": any_case.id,
                    "mode": any_case.mode,
                    "skill": any_case.skill,
                    "differs": len(set(by_leg.values())) > 1,
                    "by_leg": by_leg,
                }
            )
        return sorted(rows, key=lambda row: not row["differs"])

    def to_json(self) -> dict:
        run = replace(self.results[0].meta.run, command=self.command)
        return {
            **envelope(run, self.passed, counts(list(self.statuses().values()))),
            "legs": [
                {
                    "leg": label,
                    "agent": r.meta.agent.get("runtime"),
                    "model": r.meta.agent.get("model"),
                    "agent_version": r.meta.agent.get("version"),
                    "passed": r.passed,
                    "halt": r.meta.halt.to_json(),
                    "labels": r.labels(),
                    "by_mode": self.sides(r),
                    "notes": r.meta.notes,
                }
                for label, r in self.legs()
            ],
            "differences": self.differences(),
            "cases": self.case_rows(),
            "runs": [r.to_json() for r in self.results],
        }


def runtime_of(result: CompareResult) -> str:
    """The agent a leg's compare ran on (empty when it never started)."""
    return str(result.meta.agent.get("runtime", ""))
