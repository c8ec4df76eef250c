"""The compare result model: every compare report is rendered from a CompareResult."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.compare import stats
from harness.compare.labels import LABELS, label
from harness.compare.sides import NO_SKILL, SideRecord
from harness.envelope import ERROR, FAIL, PASS, Halt, RunMeta, counts, envelope
from harness.routing.verdicts import wilson_interval

RULE = (
    "A case flips (improvement or regression) when the sides' majority verdicts differ. With one run a "
    "side the flip is the change itself; with repeats it counts only when Newcombe's hybrid score 95 % "
    "interval for the difference of the two pass rates excludes zero, else the case is same-pass or "
    "same-fail by the pooled runs. A side with no graded run makes the case an error, never a regression."
)


@dataclass
class CaseComparison:
    """One case of the candidate's dataset, graded on both sides."""

    id: str
    skill: str | None
    source: str
    line: int | None
    prompt: str
    baseline: SideRecord
    candidate: SideRecord
    expect: str | None = None  # routing: the skill the case expects

    @property
    def label(self) -> str:
        return label(self.baseline.side, self.candidate.side)

    def delta(self) -> dict:
        base, cand = self.baseline.side, self.candidate.side
        found = stats.rate_difference(base.passes, base.runs, cand.passes, cand.runs)
        before, after = self.baseline.figures(), self.candidate.figures()
        return {
            "rate": None if found is None else round(found[0], 4),
            "rate_ci95": None if found is None else [round(found[1], 4), round(found[2], 4)],
            **{key: _minus(after[key], before[key]) for key in after},
        }

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "skill": self.skill,
            "source": self.source,
            "line": self.line,
            "prompt": self.prompt,
            "expect": self.expect,
            "label": self.label,
            "baseline": self.baseline.to_json(),
            "candidate": self.candidate.to_json(),
            "delta": self.delta(),
        }


def _minus(after: float | None, before: float | None) -> float | None:
    return None if after is None or before is None else round(after - before, 6)


@dataclass
class CompareMeta:
    run: RunMeta
    mode: str  # routing or behavioral
    baseline: str  # what the baseline is: a report file, a git ref, a folder, or none
    candidate: str
    source: str  # "reports" (offline) or "live"
    repeat: int = 1
    allow_regressions: bool = False
    skills: list[str] = field(default_factory=list)
    agent: dict = field(default_factory=dict)  # live runs: the CLI, its version, model, isolation
    notes: list[str] = field(default_factory=list)
    halt: Halt = field(default_factory=Halt)  # a cancelling signal stopped the run

    def to_json(self) -> dict:
        return {
            **self.run.to_json(),
            **self.halt.to_json(),
            "mode": self.mode,
            "baseline": self.baseline,
            "candidate": self.candidate,
            "source": self.source,
            "repeat": self.repeat,
            "allow_regressions": self.allow_regressions,
            "skills": self.skills,
            "agent": self.agent,
            "rule": RULE,
            "notes": self.notes,
        }


@dataclass
class CompareResult:
    meta: CompareMeta
    cases: list[CaseComparison]

    command = "compare"
    schema = "compare"

    def labels(self) -> dict[str, int]:
        found = [c.label for c in self.cases]
        return {name: found.count(name) for name in LABELS}

    @property
    def regressions(self) -> list[CaseComparison]:
        return [c for c in self.cases if c.label == "regression"]

    @property
    def compared(self) -> list[CaseComparison]:
        return [c for c in self.cases if c.label != "error"]

    @property
    def passed(self) -> bool:
        """Nothing compared says nothing; a regression fails unless --allow-regressions."""
        return (
            not self.meta.halt.halted
            and bool(self.compared)
            and (self.meta.allow_regressions or not self.regressions)
        )

    def side_totals(self, which: str) -> dict:
        records = [getattr(c, which) for c in self.cases]
        graded = [r for r in records if r.side.graded]
        passed = sum(1 for r in graded if r.side.passed)
        interval = wilson_interval(passed, len(graded))
        figures = [r.figures() for r in records]
        costs = [f["cost_usd"] for f in figures if f["cost_usd"] is not None]
        turns = [f["turns"] for f in figures if f["turns"] is not None]
        return {
            "cases": len(records),
            "graded": len(graded),
            "passed": passed,
            "errors": len(records) - len(graded),
            "pass_rate": round(passed / len(graded), 4) if graded else None,
            "pass_rate_ci95": [round(x, 4) for x in interval] if interval else None,
            "trigger_rate": self.trigger_rates(which),
            "runs": sum(len(r.runs) for r in records),
            "elapsed_s": round(sum(f["elapsed_s"] for f in figures), 3),
            "input_tokens": sum(f["input_tokens"] for f in figures),
            "output_tokens": sum(f["output_tokens"] for f in figures),
            "cost_usd": round(sum(costs), 6) if costs else None,
            "tool_calls": sum(f["tool_calls"] for f in figures),
            "turns": sum(turns) if turns else None,
        }

    def trigger_rates(self, which: str) -> dict[str, float | None]:
        """Routing: per skill, the share of its positive cases' graded runs in which it fired."""
        out = {}
        for skill in dict.fromkeys(c.expect for c in self.cases if c.expect):
            runs = [r for c in self.cases if c.expect == skill for r in getattr(c, which).graded]
            fired = sum(1 for r in runs if r.outcome == skill)
            out[skill] = round(fired / len(runs), 4) if runs else None
        return out

    def totals(self) -> dict:
        base, cand = self.side_totals("baseline"), self.side_totals("candidate")
        found = stats.rate_difference(base["passed"], base["graded"], cand["passed"], cand["graded"])
        keys = ("elapsed_s", "input_tokens", "output_tokens", "cost_usd", "tool_calls", "turns")
        delta = {
            "pass_rate": None if found is None else round(found[0], 4),
            "pass_rate_ci95": None if found is None else [round(found[1], 4), round(found[2], 4)],
            **{key: _minus(cand[key], base[key]) for key in keys},
            "trigger_rate": {
                skill: _minus(cand["trigger_rate"][skill], rate)
                for skill, rate in base["trigger_rate"].items()
            },
        }
        return {"baseline": base, "candidate": cand, "delta": delta}

    def lift(self) -> dict | None:
        """With no skill as the baseline: which cases pass without it (no lift), which need it, and
        (routing) which other skill took a prompt that expects the missing one."""
        if self.meta.baseline != "none":
            return None
        taken = {
            c.id: c.baseline.outcome
            for c in self.cases
            if c.expect and c.baseline.outcome not in (None, NO_SKILL, c.expect, f"other:{c.expect}")
        }
        return {
            "no_lift": [c.id for c in self.cases if c.baseline.status == PASS],
            "needs_skill": [
                c.id for c in self.cases if c.baseline.status == FAIL and c.candidate.status == PASS
            ],
            "taken_by": taken,
        }

    def to_json(self) -> dict:
        statuses = [
            FAIL if c.label == "regression" else ERROR if c.label == "error" else PASS for c in self.cases
        ]
        return {
            **envelope(self.meta.run, self.passed, counts(statuses)),
            "meta": self.meta.to_json(),
            "labels": self.labels(),
            "totals": self.totals(),
            "lift": self.lift(),
            "cases": [c.to_json() for c in self.cases],
        }
