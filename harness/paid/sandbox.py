"""--sandbox in a report: whether the agent CLI's own shell sandbox was asked for, and whether it applied.

The agent layer probes the CLI (see `probe_sandbox` of an agent that has one) and each run reports
what its CLI said; this module only turns those answers into the report's words.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

OFF, APPLIED, UNAVAILABLE, UNKNOWN = "off", "applied", "unavailable", "unknown"


@dataclass(frozen=True)
class SandboxUse:
    requested: bool
    status: str = OFF  # OFF (not asked), APPLIED, UNAVAILABLE, or UNKNOWN (the CLI does not say)
    reason: str | None = None  # why it did not apply, in the CLI's words where it gave them

    @classmethod
    def of(
        cls,
        requested: bool,
        available: bool | None,
        reason: str | None,
        observed: Iterable[bool | None] = (),
        refused: str | None = None,
    ) -> SandboxUse:
        """From the probe before the run (`available`, `reason`) and what each run's CLI reported
        (`observed`; `refused`, why one ran without it)."""
        if not requested:
            return cls(False)
        if available is False:
            return cls(True, UNAVAILABLE, reason)
        if False in list(observed):
            return cls(True, UNAVAILABLE, refused or reason)
        if available:
            return cls(True, APPLIED)
        return cls(True, UNKNOWN, reason)

    def sentence(self) -> str | None:
        if self.status == APPLIED:
            return "--sandbox: the agent's shell commands ran in its CLI's own sandbox."
        if self.status == UNAVAILABLE:
            return f"--sandbox: the CLI's shell sandbox did not apply ({self.reason}); cases ran without it."
        if self.status == UNKNOWN:
            return f"--sandbox: whether the CLI's shell sandbox applied is unknown ({self.reason})."
        return None

    def to_json(self) -> dict:
        return {"requested": self.requested, "status": self.status, "reason": self.reason}


def probe(ready, deadline, cancel) -> tuple[bool | None, str | None]:
    """Whether `ready` (an Agent) offers a shell sandbox here, and why not; a runtime skillscope
    cannot turn one on for says so."""
    support = ready.probe_sandbox(deadline=deadline, cancel=cancel)
    return support.available, support.reason
