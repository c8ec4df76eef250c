"""What every report of an agent run records of how it ran: the agent, the limits, how it ended.

Routing and behavioral each add their own fields (`own_json`) to these; one place writes the shared ones,
so the two reports cannot drift apart on what a field is called or when it is present.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.model.dataset import Case
from harness.model.envelope import Halt, RunMeta
from harness.model.provenance import Provenance
from harness.paid.sandbox import SandboxUse


@dataclass(kw_only=True)
class AgentRunMeta:
    run: RunMeta
    agent: str = "claude"
    agent_version: str | None  # None: the CLI could not be started
    model: str | None
    effort: str | None
    extended: bool
    jobs: int
    case_timeout: float | None  # None: the paid settings hold none (PaidSettings.case_timeout)
    max_budget_usd: float | None
    isolation: dict
    timed_out: bool = False
    notes: list[str] = field(default_factory=list)
    strict: bool = False  # provisional cases count too
    halt: Halt = field(default_factory=Halt)
    max_run_usd: float = 0.0
    cache: str | None = None  # the result cache's folder; None with --no-cache
    sandbox: SandboxUse = field(default_factory=lambda: SandboxUse(False))
    keep_logs: str | None = None  # --keep-logs as given, so a failure can say what to run to read a case
    # What produced the verdicts, for the run ledger `history` reads; None when no agent started.
    provenance: Provenance | None = None
    quarantine: list[dict] = field(default_factory=list)  # the entries in force, each listed by every report

    @property
    def quarantined(self) -> set[str]:
        """The ids of the quarantined cases: run and reported, never gating."""
        return {entry["id"] for entry in self.quarantine}

    def run_fields(self, case: Case) -> dict:
        """What the run says of one of its cases, after the case's own fields in the report: whether it is
        quarantined, and the digests of its inputs (None without provenance)."""
        return {
            "quarantined": case.id in self.quarantined,
            "digests": self.provenance.of_case(case.id, case.skill) if self.provenance else None,
        }

    def own_json(self) -> dict:
        """The fields only this kind of run has, placed after the agent and the limits."""
        return {}

    def to_json(self) -> dict:
        # claude_version: agent_version under its older name, for readers of claude's reports written
        # before agent_version; deprecated, removed in 0.2.0 (CHANGELOG, Decisions).
        versions = {"claude_version": self.agent_version} if self.agent == "claude" else {}
        return {
            **self.run.to_json(),
            "agent": self.agent,
            "agent_version": self.agent_version,
            **versions,
            "strict": self.strict,
            "model": self.model,
            "effort": self.effort,
            "extended": self.extended,
            "jobs": self.jobs,
            "case_timeout": self.case_timeout,
            "max_budget_usd": self.max_budget_usd,
            **self.own_json(),
            "isolation": self.isolation,
            "timed_out": self.timed_out,
            "notes": self.notes,
            **self.halt.to_json(),
            "max_run_usd": self.max_run_usd,
            "cache": self.cache,
            "sandbox": self.sandbox.to_json(),
            "quarantine": self.quarantine,
            "keep_logs": self.keep_logs,
            "ledger": self.provenance.to_json() if self.provenance else None,
        }
