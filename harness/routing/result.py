"""The routing result model: every report format is rendered from a RoutingResult."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from harness.model.envelope import ERROR, FAIL, PASS, Halt, RunMeta, counts, envelope
from harness.paid.sandbox import SandboxUse
from harness.routing import metrics
from harness.routing.metrics import CaseOutcome, Gate
from harness.routing.verdicts import NOT_RUN, Sample


@dataclass
class RoutingMeta:
    run: RunMeta
    agent_version: str | None  # None: the CLI could not be started
    agent_path: str | None
    model: str | None
    effort: str | None
    room: list[str]
    extended: bool
    jobs: int
    repeat: int
    case_timeout: float
    max_tool_calls: int
    max_inspection_calls: int
    max_budget_usd: float
    min_accuracy: Fraction
    isolation: dict
    timed_out: bool = False
    notes: list[str] = field(default_factory=list)
    strict: bool = False  # provisional cases count too
    halt: Halt = field(default_factory=Halt)
    adaptive: bool = False  # --repeat auto: `repeat` is the most samples a case may take
    max_run_usd: float = 0.0
    cache: str | None = None  # the result cache's folder; None with --no-cache
    agent: str = "claude"
    sandbox: SandboxUse = field(default_factory=lambda: SandboxUse(False))
    keep_logs: str | None = None  # --keep-logs as given, so a finding can say what to run to read a case

    def to_json(self) -> dict:
        versions = {"claude_version": self.agent_version} if self.agent == "claude" else {}
        return {
            **self.run.to_json(),
            "agent": self.agent,
            "agent_version": self.agent_version,
            **versions,
            "strict": self.strict,
            "model": self.model,
            "effort": self.effort,
            "room": self.room,
            "extended": self.extended,
            "jobs": self.jobs,
            "repeat": self.repeat,
            "case_timeout": self.case_timeout,
            "max_tool_calls": self.max_tool_calls,
            "max_inspection_calls": self.max_inspection_calls,
            "max_budget_usd": self.max_budget_usd,
            "min_accuracy": float(self.min_accuracy),
            "isolation": self.isolation,
            "timed_out": self.timed_out,
            "notes": self.notes,
            **self.halt.to_json(),
            "adaptive_repeat": self.adaptive,
            "max_run_usd": self.max_run_usd,
            "cache": self.cache,
            "sandbox": self.sandbox.to_json(),
        }


@dataclass
class RoutingResult:
    meta: RoutingMeta
    outcomes: list[CaseOutcome]
    gate: Gate

    command = "routing"

    @property
    def graded(self) -> list[CaseOutcome]:
        return [o for o in self.outcomes if o.graded]

    @property
    def passed(self) -> bool:
        return self.gate.passed and not self.meta.timed_out and not self.meta.halt.halted

    def totals(self) -> dict:
        graded = self.graded
        passed = sum(1 for o in graded if o.passed)
        samples = [s for o in self.outcomes for s in o.samples]
        ran = [s for o in self.outcomes for s in o.runs]
        cached = [s for s in samples if s.cached]
        return {
            "cases": len(self.outcomes),
            "graded": len(graded),
            "passed": passed,
            "errors": sum(1 for o in self.outcomes if o.verdict == ERROR),
            "accuracy": metrics.accuracy(passed, len(graded)),
            "activations": sum(1 for o in graded if o.observed),
            "activations_expected": sum(1 for o in graded if o.expected),
            "not_run": sum(1 for o in self.outcomes if o.verdict == NOT_RUN),
            "flaky": sum(1 for o in self.outcomes if o.flaky),
            "samples": len(samples),
            "samples_run": len(ran),
            "cached_samples": len(cached),
            "input_tokens": sum(s.input_tokens for s in ran),
            "output_tokens": sum(s.output_tokens for s in ran),
            "cost_usd": _cost(ran),
            "cost_saved_usd": _cost(cached),
            "agent_time_s": round(sum(s.elapsed_s for s in ran), 3),
        }

    def session_skills(self) -> dict:
        """What the CLI listed at init, against the room: extras joined, members went missing."""
        seen = {name for o in self.outcomes for s in o.samples for name in s.visible_skills}
        listed = any(s.visible_skills for o in self.outcomes for s in o.samples)
        room = set(self.meta.room)
        return {
            "verified": listed,
            "seen": sorted(seen),
            "extra": sorted(seen - room),
            "missing": sorted(room - seen) if listed else [],
        }

    def unexpected_skills(self) -> list[str]:
        return sorted(
            {
                s.observed
                for o in self.outcomes
                for s in o.samples
                if s.observed and s.observed.startswith("other:")
            }
        )

    def to_json(self) -> dict:
        return {
            **envelope(self.meta.run, self.passed, counts([status(o) for o in self.outcomes])),
            "engine": "agent",
            "meta": self.meta.to_json(),
            "gate": {"passed": self.gate.passed, "reason": self.gate.reason},
            "totals": self.totals(),
            "verdicts": metrics.verdict_counts(self.outcomes),
            "by_category": metrics.by_category(self.outcomes),
            "per_skill": metrics.per_skill(self.outcomes, self.meta.room),
            "confusion": metrics.confusion(self.outcomes),
            "session_skills": self.session_skills(),
            "unexpected_skills": self.unexpected_skills(),
            "cases": [case_json(o) for o in self.outcomes],
        }


def status(o: CaseOutcome) -> str:
    """The shared status word of a case: an ungraded one (no decision) is an error, never a miss;
    one that never started is not-run."""
    if o.verdict == NOT_RUN:
        return NOT_RUN
    if not o.graded:
        return ERROR
    return PASS if o.passed else FAIL


def case_fields(o: CaseOutcome, **after_category) -> dict:
    """What every routing report says of a case, whatever engine graded it: which case, what was expected
    and observed, and the verdict. `o` is any outcome with the CaseOutcome fields these read (the lexical
    one too); `after_category` are an engine's own fields that its reports have always placed there."""
    return {
        "id": o.case.id,
        "skill": o.case.skill,
        "category": o.case.category,
        **after_category,
        "prompt": o.case.prompt,
        "source": o.case.source,
        "line": o.case.line,
        "expect": o.expected,
        "observed": o.observed,
        "verdict": o.verdict,
        "passed": o.passed,
        "status": status(o),
        "error": o.error,
    }


def case_json(o: CaseOutcome) -> dict:
    rate, interval = o.trigger_rate()
    sample = o.representative
    return {
        **case_fields(o, trust_level=o.case.trust_level),
        "stop_reason": sample.stop_reason if sample else None,
        "elapsed_s": round(sum(s.elapsed_s for s in o.samples), 3),
        "tool_calls": sum(s.tool_calls for s in o.samples),
        "inspection_calls": sum(s.inspection_calls for s in o.samples),
        "tokens": {
            "input": sum(s.input_tokens for s in o.samples),
            "output": sum(s.output_tokens for s in o.samples),
        },
        "cost_usd": _sum_cost(o),
        "flaky": o.flaky,
        "trigger_rate": rate,
        "trigger_rate_ci95": list(interval) if interval else None,
        "samples": [s.to_json(o.expected) for s in o.samples],
    }


def _sum_cost(o: CaseOutcome) -> float | None:
    return _cost(o.samples)


def _cost(samples: list[Sample]) -> float | None:
    costs = [s.cost_usd for s in samples if s.cost_usd is not None]
    return round(sum(costs), 6) if costs else None
