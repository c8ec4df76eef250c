"""The routing result model: every report format is rendered from a RoutingResult."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from harness.model.envelope import ERROR, FAIL, PASS, counts, envelope
from harness.paid.meta import AgentRunMeta
from harness.routing import metrics
from harness.routing.metrics import CaseOutcome, Gate
from harness.routing.verdicts import NOT_RUN, Sample

if TYPE_CHECKING:  # the canary runs an agent, which a lexical run (reading this module) never loads
    from harness.routing.canary import Verdict


@dataclass(kw_only=True)
class RoutingMeta(AgentRunMeta):
    agent_path: str | None
    room: list[str]
    repeat: int
    max_tool_calls: int
    max_inspection_calls: int
    min_accuracy: Fraction
    adaptive: bool = False  # --repeat auto: `repeat` is the most samples a case may take
    listing: dict | None = None  # what the model was shown of the room (routing/listed.py), predicted
    canary: Verdict | None = None  # None: the agent never started, so no canary ran

    def own_json(self) -> dict:
        return {
            "room": self.room,
            "repeat": self.repeat,
            "max_tool_calls": self.max_tool_calls,
            "max_inspection_calls": self.max_inspection_calls,
            "min_accuracy": float(self.min_accuracy),
            "adaptive_repeat": self.adaptive,
            **({"listing": self.listing} if self.listing is not None else {}),
            "canary": self.canary.to_json() if self.canary else None,
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

    def tally(self) -> metrics.Tally:
        """The case counts every report of this run shows (see Tally)."""
        return metrics.Tally.of(self.outcomes, self.meta.strict, self.meta.quarantined)

    def totals(self) -> dict:
        graded = self.graded
        tally = self.tally()
        samples = [s for o in self.outcomes for s in o.samples]
        ran = [s for o in self.outcomes for s in o.runs]
        cached = [s for s in samples if s.cached]
        # The canary's own run is paid for like a case's: in the spend, never in the case counts.
        planted = self.meta.canary.sample if self.meta.canary else None
        canary_ran = [planted] if planted is not None and not planted.cached else []
        canary_cached = [planted] if planted is not None and planted.cached else []
        return {
            "cases": tally.cases,
            "graded": tally.graded,
            "passed": tally.passed,
            "errors": tally.errors,
            "accuracy": tally.accuracy,
            "gated": tally.to_json(),
            "activations": sum(1 for o in graded if o.observed),
            "activations_expected": sum(1 for o in graded if o.expected),
            "not_run": tally.not_run,
            "flaky": sum(1 for o in self.outcomes if o.flaky),
            "samples": len(samples),
            "samples_run": len(ran),
            "cached_samples": len(cached),
            "input_tokens": sum(s.input_tokens for s in ran + canary_ran),
            "output_tokens": sum(s.output_tokens for s in ran + canary_ran),
            "cost_usd": _cost(ran + canary_ran),
            "canary_cost_usd": _cost(canary_ran),
            "cost_saved_usd": _cost(cached + canary_cached),
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
            "cases": [{**case_json(o), **self.meta.run_fields(o.case)} for o in self.outcomes],
        }


def status(o: metrics.Graded) -> str:
    """The shared status word of a case: an ungraded one (no decision) is an error, never a miss;
    one that never started is not-run."""
    if o.verdict == NOT_RUN:
        return NOT_RUN
    if not o.graded:
        return ERROR
    return PASS if o.passed else FAIL


def case_fields(o: metrics.Graded, **after_category) -> dict:
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
        "summary": o.summary,
    }


def case_json(o: CaseOutcome) -> dict:
    rate, interval = o.trigger_rate()
    fired, tried = o.trigger_counts()
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
        "trigger_counts": {"fired": fired, "graded": tried},
        "trigger_rate_ci95": list(interval) if interval else None,
        "samples": [s.to_json(o.expected, o.unwanted) for s in o.samples],
        "read_failed": o.read_failed,
        "retried": o.retried,
        "unlisted": o.unlisted,
    }


def _sum_cost(o: CaseOutcome) -> float | None:
    return _cost(o.samples)


def _cost(samples: list[Sample]) -> float | None:
    costs = [s.cost_usd for s in samples if s.cost_usd is not None]
    return round(sum(costs), 6) if costs else None
