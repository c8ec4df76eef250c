"""The behavioral result model: every report format is rendered from a BehavioralResult."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from harness.agent import Trace, Usage
from harness.agent.families import family_of
from harness.behavioral import hostgraders
from harness.behavioral.isolation import OutsidePath
from harness.behavioral.judge import JudgeOutcome
from harness.behavioral.scorers import Check
from harness.behavioral.snapshot import Changes
from harness.model.dataset import Case
from harness.model.envelope import BLOCKED, ERROR, FAIL, PASS, STATUSES, counts, envelope
from harness.model.stats import wilson_interval
from harness.paid.meta import AgentRunMeta
from harness.paid.replay import Origin, Replay
from harness.paid.spend import NOT_RUN

if TYPE_CHECKING:  # the tripwire's modules load only where a run or a replayed case has one
    from harness.behavioral.tripwire import TripwireReport


@dataclass
class Spend:
    """Tokens and cost of one side of a case (the agent, or the judge)."""

    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = None
    model: str | None = None
    calls: int = 0

    @classmethod
    def of_trace(cls, trace: Trace) -> Spend:
        return cls(trace.usage, trace.cost_usd, trace.init.model if trace.init else None, 1)

    @classmethod
    def of_judge(cls, outcome: JudgeOutcome) -> Spend:
        return cls(outcome.usage, outcome.cost_usd, outcome.model, outcome.calls)

    @classmethod
    def from_json(cls, data: dict) -> Spend:
        tokens = data.get("tokens") or {}
        usage = Usage(
            tokens.get("input", 0),
            tokens.get("output", 0),
            tokens.get("cache_creation", 0),
            tokens.get("cache_read", 0),
        )
        return cls(usage, data.get("cost_usd"), data.get("model"), data.get("calls", 0))

    def plus(self, other: Spend) -> Spend:
        """Both spends together: a case retried in a fresh workspace paid for both attempts."""
        costs = [c for c in (self.cost_usd, other.cost_usd) if c is not None]
        return Spend(
            self.usage.plus(other.usage),
            sum(costs) if costs else None,
            other.model or self.model,
            self.calls + other.calls,
        )

    def to_json(self) -> dict:
        return {
            "calls": self.calls,
            "model": self.model,
            "tokens": {
                "input": self.usage.input_tokens,
                "output": self.usage.output_tokens,
                "cache_read": self.usage.cache_read_input_tokens,
                "cache_creation": self.usage.cache_creation_input_tokens,
            },
            "cost_usd": None if self.cost_usd is None else round(self.cost_usd, 6),
        }


# How a case's notes say its run went without the shell sandbox that --sandbox asked for.
SANDBOX_OFF_NOTE = "the shell sandbox did not apply to this run: "
# Why a case is blocked: the agent worked outside its workspace, so what it did is no evidence.
OUTSIDE_WORKSPACE = "outside-workspace"
BLOCKED_REASONS = (OUTSIDE_WORKSPACE,)


@dataclass(frozen=True)
class Attempt:
    """One run of a case's agent in its own fresh workspace: a blocked attempt is run once more."""

    number: int  # from 1
    status: str
    blocked: str | None
    error: str | None
    isolation: tuple[OutsidePath, ...]
    tool_calls: int
    stop_reason: str | None
    elapsed_s: float
    cost_usd: float | None

    @classmethod
    def of(cls, result: CaseResult, number: int, elapsed_s: float) -> Attempt:
        return cls(
            number,
            result.status,
            result.blocked,
            result.error,
            tuple(result.isolation),
            result.tool_calls,
            result.stop_reason,
            elapsed_s,
            result.agent.cost_usd,
        )

    @classmethod
    def from_json(cls, data: dict) -> Attempt:
        return cls(
            data["attempt"],
            data["status"],
            data.get("blocked"),
            data.get("error"),
            tuple(OutsidePath.from_json(o) for o in data.get("isolation", [])),
            data.get("tool_calls", 0),
            data.get("stop_reason"),
            data.get("elapsed_s", 0.0),
            data.get("cost_usd"),
        )

    def to_json(self) -> dict:
        return {
            "attempt": self.number,
            "status": self.status,
            "blocked": self.blocked,
            "error": self.error,
            "isolation": [o.to_json() for o in self.isolation],
            "tool_calls": self.tool_calls,
            "stop_reason": self.stop_reason,
            "elapsed_s": round(self.elapsed_s, 3),
            "cost_usd": None if self.cost_usd is None else round(self.cost_usd, 6),
        }


@dataclass
class CaseResult:
    case: Case  # as graded: placeholders filled
    checks: list[Check] = field(default_factory=list)
    error: str | None = None
    elapsed_s: float = 0.0
    agent: Spend = field(default_factory=Spend)
    judge: Spend = field(default_factory=Spend)
    stop_reason: str | None = None
    tool_calls: int = 0
    turns: int | None = None  # the agent's model turns, as the CLI's result event counts them
    activated: list[str] = field(default_factory=list)
    changes: Changes | None = None
    isolation: list[OutsidePath] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    cached: bool = False  # reused from the result cache, not run now
    cached_from: Origin | None = None  # the run that made it, when reused
    not_run: bool = False  # never started: the run's spend cap was reached (`error` says so)
    blocked: str | None = None  # a BLOCKED_REASONS code: not graded, and `error` says why
    attempts: list[Attempt] = field(default_factory=list)  # every run of the agent, in order
    sandbox: bool | None = None  # with --sandbox: whether the CLI said its shell sandbox was on
    # The agent's run failed in a way its runtime declares its own (a RetryRule): why (never reported;
    # the case runs once more), and, once it did, why it was `retried` (reported).
    retryable: str | None = None
    retried: str | None = None
    # A plugin eval suite case's further samples (its `runs`), each run fresh; this result is the first.
    repeats: list[CaseResult] = field(default_factory=list)
    tripwire: TripwireReport | None = None  # with --tripwire: what was planted and what fired

    @classmethod
    def from_cache(cls, case: Case, replay: Replay) -> CaseResult:
        """A graded result stored by an earlier run, standing in for this case."""
        entry = replay.sample
        files = entry.get("files")
        return cls(
            case,
            checks=[Check(**check) for check in entry["checks"]],
            elapsed_s=entry.get("elapsed_s", 0.0),
            agent=Spend.from_json(entry["agent"]),
            judge=Spend.from_json(entry["judge"]),
            stop_reason=entry.get("stop_reason"),
            tool_calls=entry.get("tool_calls", 0),
            turns=entry.get("turns"),
            activated=list(entry.get("activated", [])),
            changes=Changes(files["created"], files["changed"], files["removed"]) if files else None,
            isolation=[OutsidePath.from_json(o) for o in entry.get("isolation", [])],
            notes=list(entry.get("notes", [])),
            cached=True,
            cached_from=replay.origin,
            attempts=[Attempt.from_json(a) for a in entry.get("attempts", [])],
            sandbox=entry.get("sandbox"),
            retried=entry.get("retried"),
            tripwire=tripwire_of(entry.get("tripwire")),
        )

    @property
    def cost_usd(self) -> float | None:
        costs = [s.cost_usd for s in (self.agent, self.judge) if s.cost_usd is not None]
        return sum(costs) if costs else None

    @property
    def samples(self) -> list[CaseResult]:
        return [self, *self.repeats]

    @property
    def status(self) -> str:
        """One sample's status; over several, the most common graded one (a tie goes to fail), as
        routing takes a case's verdict over its samples; ungraded throughout: the first one's."""
        if self.repeats:
            graded = [s.sample_status for s in self.samples if s.sample_status in (PASS, FAIL)]
            if not graded:
                return self.sample_status
            return PASS if graded.count(PASS) > graded.count(FAIL) else FAIL
        return self.sample_status

    @property
    def sample_status(self) -> str:
        if self.not_run:
            return NOT_RUN
        if self.tripped:
            return FAIL  # whatever else went wrong: a hit is never an error's or a block's to hide
        if self.blocked is not None:
            return BLOCKED
        if self.error is not None and not self.unmet:
            return ERROR  # a check already failed is a decided fail: a later error (the judge) cannot undo it
        return PASS if self.checks and all(c.passed for c in self.checks) else FAIL

    @property
    def tripped(self) -> bool:
        """The tripwire fired on this sample or a further one."""
        return any(s.tripwire is not None and s.tripwire.hits for s in self.samples)

    @property
    def sandbox_refused(self) -> str | None:
        """Why this case's run went without the shell sandbox, when its CLI said so."""
        return next(
            (n.removeprefix(SANDBOX_OFF_NOTE) for n in self.notes if n.startswith(SANDBOX_OFF_NOTE)), None
        )

    @property
    def left_workspace_before(self) -> bool:
        """An earlier attempt was blocked for leaving its workspace, whatever the last one did."""
        return any(a.isolation for a in self.attempts[:-1])

    @property
    def unmet(self) -> list[Check]:
        return [c for c in self.checks if not c.passed]

    def summary(self) -> str:
        met = sum(1 for c in self.checks if c.passed)
        return f"{met}/{len(self.checks)} expectation(s) met"

    def to_json(self) -> dict:
        case = self.case
        return (
            {
                "id": case.id,
                "skill": case.skill,
                "source": case.source,
                "line": case.line,
                "extended": case.extended,
                "trust_level": case.trust_level,
                "prompt": case.prompt,
                "status": self.status,
                "elapsed_s": round(self.elapsed_s, 3),
                "stop_reason": self.stop_reason,
                "tool_calls": self.tool_calls,
                "turns": self.turns,
                "activated": self.activated,
                "agent": self.agent.to_json(),
                "judge": self.judge.to_json(),
                "checks": [c.to_json() for c in self.checks],
                "error": self.error,
                "blocked": self.blocked,
                "isolation": [o.to_json() for o in self.isolation],
                "attempts": [a.to_json() for a in self.attempts],
                "sandbox": self.sandbox,
                "retried": self.retried,
                "files": self.changes.to_json() if self.changes else None,
                "notes": self.notes,
                "cached": self.cached,
                "cached_from": self.cached_from.to_json() if self.cached_from else None,
                "tripwire": self.tripwire.to_json() if self.tripwire else None,
            }
            | self._host_score()
            | self._repeats()
        )

    def _repeats(self) -> dict:
        """Over a suite case's `runs`: how many samples passed, with the 95 % interval of the pass share,
        and each further sample's own outcome."""
        if not self.repeats:
            return {}
        graded = [s for s in self.samples if s.sample_status in (PASS, FAIL)]
        passed = sum(1 for s in graded if s.sample_status == PASS)
        interval = wilson_interval(passed, len(graded))
        return {
            "runs": len(self.samples),
            "runs_passed": passed,
            "pass_rate_ci95": [round(x, 4) for x in interval] if interval else None,
            "repeats": [
                {
                    "status": r.sample_status,
                    "error": r.error,
                    "elapsed_s": round(r.elapsed_s, 3),
                    "cost_usd": None if r.cost_usd is None else round(r.cost_usd, 6),
                    "cached": r.cached,
                    "checks": [c.to_json() for c in r.checks],
                }
                for r in self.repeats
            ],
        }

    def _host_score(self) -> dict:
        """A plugin eval suite's weighted score, only for its cases and only when graded."""
        score = hostgraders.weighted_score(self.case.graders, self.checks)
        return {} if score is None or self.error is not None else {"host_score": round(score, 4)}


@dataclass(kw_only=True)
class BehavioralMeta(AgentRunMeta):
    judge_model: str | None
    skills: list[str]
    strict_isolation: bool
    permission_mode: str
    allowed_tools: list[str]
    judge_agent: str = "claude"
    judge_version: str | None = None
    require_evidence: bool = False
    tripwire: bool = False
    scan: bool = False  # the cases are `--scan`'s synthetic ones, one per skill

    @property
    def judge_family(self) -> str:
        return family_of(self.judge_agent, self.judge_model)

    @property
    def agent_family(self) -> str:
        return family_of(self.agent, self.model)

    def own_json(self) -> dict:
        return {
            "judge_agent": self.judge_agent,
            "judge_version": self.judge_version,
            "judge_model": self.judge_model,
            "judge_family": self.judge_family,
            "agent_family": self.agent_family,
            "skills": self.skills,
            "strict_isolation": self.strict_isolation,
            "require_evidence": self.require_evidence,
            "tripwire": self.tripwire,
            "scan": self.scan,
            "permission_mode": self.permission_mode,
            "allowed_tools": self.allowed_tools,
        }


@dataclass
class BehavioralResult:
    meta: BehavioralMeta
    cases: list[CaseResult]

    command = "behavioral"

    @property
    def counted(self) -> list[CaseResult]:
        """The cases the gate counts: provisional ones only with --strict, or when no stable case ran;
        quarantined ones never (they are run and reported)."""
        gating = [c for c in self.cases if c.case.id not in self.meta.quarantined]
        stable = [c for c in gating if not c.case.provisional]
        return gating if self.meta.strict or not stable else stable

    @property
    def passed(self) -> bool:
        counted = self.counted
        finished = not self.meta.timed_out and not self.meta.halt.halted
        tripped = any(c.tripped for c in self.cases)  # quarantined or provisional: a hit still fails the run
        return bool(counted) and all(c.status == "pass" for c in counted) and finished and not tripped

    def counts(self, cases: list[CaseResult] | None = None) -> dict:
        chosen = self.cases if cases is None else cases
        statuses = Counter(c.status for c in chosen)
        checks = [check for c in chosen for check in c.checks]
        return {
            "cases": len(chosen),
            "passed": statuses["pass"],
            "failed": statuses["fail"],
            "errors": statuses["error"],
            "blocked": statuses[BLOCKED],
            "not_run": statuses[NOT_RUN],
            "checks": len(checks),
            "checks_passed": sum(1 for check in checks if check.passed),
        }

    def totals(self) -> dict:
        every = [sample for c in self.cases for sample in c.samples]  # a suite case's `runs` each spent
        ran = [c for c in every if not (c.cached or c.not_run)]
        cached = [c for c in every if c.cached]
        saved = [c.cost_usd for c in cached if c.cost_usd is not None]
        return {
            **self.counts(),
            "agent": _spend_total([c.agent for c in ran]),
            "judge": _spend_total([c.judge for c in ran]),
            "agent_time_s": round(sum(c.elapsed_s for c in ran), 3),
            "outside_workspace": sum(1 for c in self.cases if c.isolation or c.left_workspace_before),
            "cached": len(cached),
            "cost_saved_usd": round(sum(saved), 6) if saved else None,
            "no_evidence": len(self.uncited()),
            "tripwire_hits": sum(1 for c in self.cases if c.tripped),
        }

    def uncited(self) -> list[tuple[CaseResult, Check]]:
        """Each MUST statement the judge passed without citing evidence, with its case."""
        return [(c, check) for c in self.cases for check in c.checks if check.no_evidence]

    def per_skill(self) -> dict:
        return {
            name: self.counts([c for c in self.cases if c.case.skill == name]) for name in self.meta.skills
        }

    def to_json(self) -> dict:
        return {
            **envelope(
                self.meta.run, self.passed, counts([c.status for c in self.cases], (*STATUSES, BLOCKED))
            ),
            "meta": self.meta.to_json(),
            "totals": self.totals(),
            "per_skill": self.per_skill(),
            "cases": [{**c.to_json(), **self.meta.run_fields(c.case)} for c in self.cases],
        }


def tripwire_of(saved: dict | None) -> TripwireReport | None:
    if not saved:
        return None
    from harness.behavioral.tripwire import TripwireReport

    return TripwireReport.from_json(saved)


def _spend_total(spends: list[Spend]) -> dict:
    costs = [s.cost_usd for s in spends if s.cost_usd is not None]
    return {
        "calls": sum(s.calls for s in spends),
        "input_tokens": sum(s.usage.input_tokens for s in spends),
        "output_tokens": sum(s.usage.output_tokens for s in spends),
        "cost_usd": round(sum(costs), 6) if costs else None,
    }
