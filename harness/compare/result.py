"""The compare result model: every compare report is rendered from a CompareResult."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.compare.labels import LABELS, label
from harness.compare.sides import NO_SKILL, SideRecord
from harness.model import stats
from harness.model.dataset import Case
from harness.model.envelope import ERROR, FAIL, PASS, Halt, RunMeta, counts, envelope
from harness.model.stats import wilson_interval

if TYPE_CHECKING:  # the canary runs an agent, which an offline compare of two reports never loads
    from harness.routing.canary import Checked

BOTH = "both"
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
    mode: str = "routing"  # what was compared: the routing decision or the behavioral run
    trust_level: str = "stable"  # provisional: reported apart, counted only with --strict

    @classmethod
    def of(cls, case: Case, mode: str, baseline: SideRecord, candidate: SideRecord) -> CaseComparison:
        """A dataset case compared live in `mode`."""
        return cls(
            id=case.id,
            skill=case.skill,
            source=case.source,
            line=case.line,
            prompt=case.prompt,
            baseline=baseline,
            candidate=candidate,
            expect=case.expected_skill if mode == "routing" else None,
            mode=mode,
            trust_level=case.trust_level,
        )

    @property
    def provisional(self) -> bool:
        return self.trust_level == "provisional"

    @property
    def not_run(self) -> bool:
        """A run of either side never started: the run's --max-run-usd was reached."""
        return any(r.not_run for r in self.baseline.runs + self.candidate.runs)

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
            "mode": self.mode,
            "trust_level": self.trust_level,
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
    mode: str  # routing, behavioral, or both
    baseline: str  # what the baseline is: a report file, a git ref, a folder, or none
    candidate: str
    source: str  # "reports" (offline) or "live"
    repeat: int = 1
    allow_regressions: bool = False
    min_pairs: int = 1  # cases each mode must grade on both sides for the comparison to count
    skills: list[str] = field(default_factory=list)
    agent: dict = field(default_factory=dict)  # live runs: the CLI, its version, model, isolation
    notes: list[str] = field(default_factory=list)
    halt: Halt = field(default_factory=Halt)  # a signal stopped the run, or the agent never started
    strict: bool = False  # provisional cases count too
    max_run_usd: float = 0.0
    cache: str | None = None  # the result cache's folder; None: --no-cache (or offline)
    # Routing mode: the canary of each agent and model, run before any case (routing/canary.py).
    canary: list[Checked] = field(default_factory=list)

    def canary_cost_usd(self) -> float | None:
        """What the canaries' own runs spent now (a replay spends nothing); None when none did."""
        samples = [c.verdict.sample for c in self.canary]
        costs = [s.cost_usd for s in samples if s is not None and not s.cached and s.cost_usd is not None]
        return round(sum(costs), 6) if costs else None

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
            "min_pairs": self.min_pairs,
            "skills": self.skills,
            "agent": self.agent,
            "rule": RULE,
            "notes": self.notes,
            "strict": self.strict,
            "max_run_usd": self.max_run_usd,
            "cache": self.cache,
            "canary": [c.to_json() for c in self.canary],
            "canary_cost_usd": self.canary_cost_usd(),
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

    def name(self, case: CaseComparison) -> str:
        """The case's name in lists and JUnit: its id, and its mode when both modes ran."""
        return case.id if self.meta.mode != BOTH else f"{case.id} ({case.mode})"

    @property
    def regressions(self) -> list[CaseComparison]:
        return [c for c in self.cases if c.label == "regression"]

    @property
    def counted(self) -> list[CaseComparison]:
        """The cases the verdict counts: provisional ones only with --strict, or when no stable case ran."""
        stable = [c for c in self.cases if not c.provisional]
        return self.cases if self.meta.strict or not stable else stable

    def counts_toward_verdict(self, case: CaseComparison) -> bool:
        return self.meta.strict or not case.provisional or all(c.provisional for c in self.cases)

    @property
    def failing(self) -> list[CaseComparison]:
        """The regressions that fail the run (unless --allow-regressions): those of counted cases."""
        return [c for c in self.counted if c.label == "regression"]

    @property
    def compared(self) -> list[CaseComparison]:
        return [c for c in self.counted if c.label != "error"]

    @property
    def canary_failure(self) -> str | None:
        """The sentence of the canary that kept the routing cases from running, if one did."""
        return next((c.verdict.sentence for c in self.meta.canary if c.verdict.blocks), None)

    @property
    def not_run(self) -> list[CaseComparison]:
        return [c for c in self.cases if c.not_run]

    def short_modes(self) -> dict[str, int]:
        """Each mode that ran with fewer cases graded on both sides than --min-pairs, and how many it
        graded: in both modes, a routing side that graded does not vouch for a behavioral side that
        errored throughout."""
        modes = dict.fromkeys(c.mode for c in self.cases)
        graded = {mode: sum(1 for c in self.compared if c.mode == mode) for mode in modes}
        return {mode: got for mode, got in graded.items() if got < self.meta.min_pairs}

    @property
    def passed(self) -> bool:
        """Nothing compared says nothing (in any mode that ran), and a case the spend cap kept from
        running leaves the comparison short; a regression fails unless --allow-regressions."""
        return (
            not self.meta.halt.halted
            and bool(self.compared)
            and not self.short_modes()
            and not self.not_run
            and (self.meta.allow_regressions or not self.failing)
        )

    def side_totals(self, which: str, cases: list[CaseComparison] | None = None) -> dict:
        chosen = self.cases if cases is None else cases
        records = [getattr(c, which) for c in chosen]
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
            "trigger_rate": self.trigger_rates(which, chosen),
            "runs": sum(len(r.runs) for r in records),
            "cached_runs": sum(1 for r in records for run in r.runs if run.cached),
            "not_run": sum(1 for r in records for run in r.runs if run.not_run),
            "elapsed_s": round(sum(f["elapsed_s"] for f in figures), 3),
            "input_tokens": sum(f["input_tokens"] for f in figures),
            "output_tokens": sum(f["output_tokens"] for f in figures),
            "cost_usd": round(sum(costs), 6) if costs else None,
            "tool_calls": sum(f["tool_calls"] for f in figures),
            "turns": sum(turns) if turns else None,
        }

    def trigger_rates(self, which: str, cases: list[CaseComparison]) -> dict[str, float | None]:
        """Routing: per skill, the share of its positive cases' graded runs in which it fired."""
        out = {}
        for skill in dict.fromkeys(c.expect for c in cases if c.expect):
            runs = [r for c in cases if c.expect == skill for r in getattr(c, which).graded]
            fired = sum(1 for r in runs if r.outcome == skill)
            out[skill] = round(fired / len(runs), 4) if runs else None
        return out

    def totals(self, cases: list[CaseComparison] | None = None) -> dict:
        """Each side's figures over `cases` (default: every case) and the candidate's delta."""
        base, cand = self.side_totals("baseline", cases), self.side_totals("candidate", cases)
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

    def by_mode(self) -> dict[str, dict]:
        """The totals of each mode that ran apart: a routing and a behavioral pass rate do not add up."""
        modes = dict.fromkeys(c.mode for c in self.cases)
        return {mode: self.totals([c for c in self.cases if c.mode == mode]) for mode in modes}

    def lift(self) -> dict | None:
        """With no skill as the baseline: which cases pass without it (no lift), which need it, and
        (routing) which other skill took a prompt that expects the missing one."""
        if self.meta.baseline != "none":
            return None
        taken = {
            self.name(c): c.baseline.outcome
            for c in self.cases
            if c.expect and c.baseline.outcome not in (None, NO_SKILL, c.expect, f"other:{c.expect}")
        }
        return {
            "no_lift": [self.name(c) for c in self.cases if c.baseline.status == PASS],
            "needs_skill": [
                self.name(c) for c in self.cases if c.baseline.status == FAIL and c.candidate.status == PASS
            ],
            "taken_by": taken,
        }

    def to_json(self) -> dict:
        statuses = [status_of(c.label) for c in self.cases]
        return {
            **envelope(self.meta.run, self.passed, counts(statuses)),
            "meta": self.meta.to_json(),
            "labels": self.labels(),
            "totals": self.totals(),
            "by_mode": self.by_mode(),
            "lift": self.lift(),
            "cases": [c.to_json() for c in self.cases],
        }


def status_of(label: str) -> str:
    """A compare label as a status: a regression fails, an error is an error, the rest pass."""
    return FAIL if label == "regression" else ERROR if label == "error" else PASS
