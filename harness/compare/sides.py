"""One side of one compared case: its runs read from a routing or behavioral case's JSON, and what
they add up to (the labels' Side, plus the figures shown beside it).

Both live runs and `--reports` go through the case JSON, so a comparison reads the same either way.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from harness.compare.labels import Side
from harness.model.envelope import BLOCKED, ERROR, FAIL, PASS
from harness.paid.replay import Origin
from harness.paid.spend import NOT_RUN
from harness.routing.verdicts import PASSING

UNGRADED = (NOT_RUN, BLOCKED)

NO_SKILL = "(no skill)"


@dataclass(frozen=True)
class Run:
    """One graded (or errored) attempt of a case on one side."""

    status: str  # pass, fail or error
    outcome: str = ""  # what fired (routing) or which expectations held (behavioral)
    elapsed_s: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    tool_calls: int = 0
    turns: int | None = None  # model turns; None when the CLI did not say
    error: str | None = None
    cached: bool = False  # reused from the result cache, not run now
    cached_from: Origin | None = None  # the run that made it, when reused (and the report says)
    not_run: bool = False  # never started: the run's --max-run-usd was reached (an error, never graded)
    retried: str | None = None  # why it ran twice: its first attempt failed the way its agent CLI does
    read_failed: str | None = None  # routing: decided by a request to read SKILL.md that failed (why)


def routing_runs(case: dict) -> list[Run]:
    """Each sample of a routing case is a run; an errored sample graded nothing."""
    return [
        Run(
            status=ERROR if s["error"] else PASS if s["verdict"] in PASSING else FAIL,
            outcome=s["observed"] or NO_SKILL,
            elapsed_s=s["elapsed_s"],
            input_tokens=s["tokens"]["input"],
            output_tokens=s["tokens"]["output"],
            cost_usd=s["cost_usd"],
            tool_calls=s["tool_calls"],
            turns=s.get("turns"),  # reports before turns were recorded lack it
            error=s["error"],
            cached=s.get("cached", False),
            cached_from=Origin.from_json(s.get("cached_from")),
            not_run=s["verdict"] == NOT_RUN,
            retried=s.get("retried"),  # reports before retries and failed reads were recorded lack them
            read_failed=s.get("read_failed"),
        )
        for s in case["samples"]
    ]


def behavioral_run(case: dict) -> Run:
    """A behavioral case is one run; its outcome is the set of expectations it met."""
    met = sorted(c["expectation"] for c in case["checks"] if c["passed"])
    agent = case["agent"]
    return Run(
        # Blocked (the agent left its workspace) and not-run cases graded nothing: errors, as in labels.
        status=ERROR if case["status"] in UNGRADED else case["status"],
        outcome="; ".join(met),
        elapsed_s=case["elapsed_s"],
        input_tokens=agent["tokens"]["input"],
        output_tokens=agent["tokens"]["output"],
        cost_usd=agent["cost_usd"],
        tool_calls=case["tool_calls"],
        turns=case.get("turns"),
        error=case["error"],
        cached=case.get("cached", False),
        cached_from=Origin.from_json(case.get("cached_from")),
        not_run=case["status"] == NOT_RUN,
        retried=case.get("retried"),
    )


def lexical_run(case: dict) -> Run:
    """A lexical routing case is one ranking: free, instant, and graded unless it errored."""
    return Run(
        status=ERROR if case.get("error") else PASS if case["passed"] else FAIL,
        outcome=case["observed"] or NO_SKILL,
        elapsed_s=0.0,
        input_tokens=0,
        output_tokens=0,
        cost_usd=0.0,
        tool_calls=0,
        error=case.get("error"),
    )


def runs_of(command: str, case: dict) -> list[Run]:
    if command == "behavioral":
        return [behavioral_run(case)]
    return routing_runs(case) if "samples" in case else [lexical_run(case)]


@dataclass
class SideRecord:
    """All runs of one side on one case; `missing` says why a side has none."""

    runs: list[Run] = field(default_factory=list)
    missing: str | None = None

    @property
    def graded(self) -> list[Run]:
        return [r for r in self.runs if r.status != ERROR]

    @property
    def side(self) -> Side:
        graded, outcome = self.graded, self.outcome  # an outcome exactly when a run was graded
        return Side(
            passes=sum(1 for r in graded if r.status == PASS),
            runs=len(graded),
            errors=len(self.runs) - len(graded),
            outcome=frozenset([outcome] if outcome is not None else []),
        )

    @property
    def outcome(self) -> str | None:
        """The most common outcome of the graded runs (ties: the first seen)."""
        graded = self.graded
        return Counter(r.outcome for r in graded).most_common(1)[0][0] if graded else None

    @property
    def status(self) -> str:
        side = self.side
        return ERROR if not side.graded else PASS if side.passed else FAIL

    @property
    def error(self) -> str | None:
        if self.graded:
            return None
        return self.missing or next((r.error for r in self.runs if r.error), "no run")

    @property
    def retried(self) -> str | None:
        """Why a run of this side ran twice (the first such run's reason), or None."""
        return next((r.retried for r in self.runs if r.retried), None)

    @property
    def read_failed(self) -> str | None:
        """Routing: why the SKILL.md read that decided a run of this side failed (the first), or None."""
        return next((r.read_failed for r in self.runs if r.read_failed), None)

    def figures(self) -> dict:
        costs = [r.cost_usd for r in self.runs if r.cost_usd is not None]
        turns = [r.turns for r in self.runs if r.turns is not None]
        return {
            "elapsed_s": round(sum(r.elapsed_s for r in self.runs), 3),
            "input_tokens": sum(r.input_tokens for r in self.runs),
            "output_tokens": sum(r.output_tokens for r in self.runs),
            "cost_usd": round(sum(costs), 6) if costs else None,
            "tool_calls": sum(r.tool_calls for r in self.runs),
            "turns": sum(turns) if turns else None,
        }

    def to_json(self) -> dict:
        side = self.side
        return {
            "status": self.status,
            "passes": side.passes,
            "runs": side.runs,
            "errors": side.errors,
            "rate": None if side.rate is None else round(side.rate, 4),
            "outcome": self.outcome,
            "error": self.error,
            **self.figures(),
            "cached_from": [r.cached_from.to_json() for r in self.runs if r.cached and r.cached_from],
            "replayed": [
                {"run": n, "cached_from": r.cached_from.to_json() if r.cached_from else None}
                for n, r in enumerate(self.runs, 1)
                if r.cached
            ],
            "retried": self.retried,
            "read_failed": self.read_failed,
        }
