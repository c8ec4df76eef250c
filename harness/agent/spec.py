"""What every runtime takes and answers besides a Trace: the run's spec, the one error of an agent
that cannot run, the limit on a probe, whether a CLI's shell sandbox starts, and the failures of its
own that earn a run one fresh retry."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from harness.cancel import Cancellation
from harness.deadline import Deadline

from .trace import StopPolicy, Trace

PROBE_TIMEOUT_S = 60


class AgentUnavailable(Exception):
    """The agent cannot run at all; the message is one sentence naming the fix."""


def probe_timeout(deadline: Deadline | None) -> float:
    """A probe's limit: PROBE_TIMEOUT_S, or less when the command's --timeout has less left."""
    return PROBE_TIMEOUT_S if deadline is None else deadline.cap(PROBE_TIMEOUT_S)


@dataclass
class RunSpec:
    prompt: str
    workspace: Path
    model: str | None = None
    effort: str | None = None
    permission_mode: str | None = None  # None or e.g. "acceptEdits" (bypass is refused as root)
    allowed_tools: Sequence[str] = ()
    disallowed_tools: Sequence[str] = ()
    max_budget_usd: float | None = None  # None or 0: no budget
    timeout_s: float = 240.0
    stop: StopPolicy | None = None  # called after each event; a returned reason stops the run
    keep_log: Path | None = None  # raw stdout (the CLI's JSON lines) is written here
    extra_args: Sequence[str] = ()
    installed: Mapping[str, Path] | None = None  # default: the workspace's skills folder
    tools: Sequence[str] = ()  # non-empty: the only built-in tools the model gets (--tools)
    cancel: Cancellation | None = None  # once set, the run is stopped and its group killed
    stop_after_skill: bool = False  # ask the CLI itself to end the run once a skill launches
    sandbox: bool = False  # turn on the CLI's shell sandbox (the trace says whether it applied)
    # With the sandbox: folders the agent's tools must not read (the repo's answer keys, the cache).
    unreadable: Sequence[Path] = ()
    # How often the user used each skill, as (name, uses, days since the last use): a host that ranks its
    # listing by usage is given this record; none means every skill was never used.
    skill_usage: Sequence[tuple[str, int, float]] = ()
    # The tripwire (plant.py): files planted in the run's throwaway HOME (relative path -> text), and a
    # loopback proxy that the agent's outbound traffic is pointed at.
    home_files: Mapping[str, str] = field(default_factory=dict)
    proxy: str | None = None


@dataclass(frozen=True)
class SandboxSupport:
    """Whether this CLI's shell sandbox starts on this machine; `available` None: it does not say."""

    available: bool | None
    reason: str | None = None
    kept: bool = False  # read from the probe cache (probes.py), not probed by this run

    def to_json(self) -> dict[str, bool | str | None]:
        return {"available": self.available, "reason": self.reason}


@dataclass(frozen=True)
class RetryRule:
    """A way a runtime's CLI is known to fail on its own (not the API's answer, not a model's choice):
    a run whose own reported error matches `pattern` gets one fresh retry, and the report says `why`."""

    pattern: str  # searched in the errors the CLI's own stream reported
    why: str  # the reason the report gives for the retry

    def matches(self, trace: Trace) -> bool:
        if trace.failure is None or trace.api_error_status is not None or trace.stop_reason == "cancelled":
            return False
        return any(re.search(self.pattern, said, re.IGNORECASE) for said in trace.result_errors)
