"""One agent session: the protocol every runtime fills, the settings every paid run shares, and
the one place a case id becomes a log file name.

Graders hold an `Agent` and call `run(spec)`; they never see a CLI path, its isolation or its
environment. Every runtime fills it through `runtime.CliAgent`, the one drive loop.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from harness.cancel import Cancellation
from harness.deadline import Deadline

from .spec import RunSpec, SandboxSupport
from .trace import Trace

if TYPE_CHECKING:
    from harness.model.listing import ListingRule

# A log name is one plain path segment: no separators, no leading dot, no control characters.
UNSAFE_NAME_CHARS = re.compile(r"[^A-Za-z0-9_.-]")
MAX_STEM = 100


@dataclass(frozen=True)
class AgentSettings:
    """What every paid run shares: model, effort, concurrency, time and spend bounds, log folder."""

    model: str | None = None
    effort: str | None = None
    jobs: int = 1
    case_timeout: float = 240.0
    max_budget_usd: float | None = None  # per agent run; None or 0: no cap
    keep_logs: Path | None = None
    skill_usage: tuple[tuple[str, int, float], ...] = ()  # (name, uses, days since use): see RunSpec

    def log_path(self, case_id: str, suffix: str, sample: int | None = None) -> Path | None:
        """Where a run of `case_id` (its `sample`-th, when it has several) keeps its log, or None when logs
        are not kept."""
        return None if self.keep_logs is None else log_path(self.keep_logs, case_id, suffix, sample)


def spec_for(settings: AgentSettings, prompt: str, workspace: Path, **fields: Any) -> RunSpec:
    """A RunSpec carrying the shared settings; `fields` add or override per-run options."""
    base = {
        "model": settings.model,
        "effort": settings.effort,
        "max_budget_usd": settings.max_budget_usd or None,
        "timeout_s": settings.case_timeout,
        "skill_usage": settings.skill_usage,
    }
    return RunSpec(prompt, workspace, **{**base, **fields})


def log_path(folder: Path, case_id: str, suffix: str, sample: int | None = None) -> Path:
    """`folder/<stem>[-<sample>].<suffix>`, the stem a safe rendering of the case id: never a sub-folder,
    never outside `folder`. Ids that had to be changed get a short hash so two of them cannot collide; the
    sample number follows it, so every sample's file still names its case."""
    stem = UNSAFE_NAME_CHARS.sub("_", case_id).lstrip(".")[:MAX_STEM] or "case"
    if stem != case_id:
        stem += "-" + hashlib.sha256(case_id.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    if sample is not None:
        stem += f"-{sample}"
    return folder / (f"{stem}.{suffix}" if suffix else stem)


class Agent(Protocol):
    """A located, isolated agent CLI ready to run prompts. One per command; safe across threads."""

    runtime: str  # "claude", ...
    version: str
    path: str  # the CLI's executable, which a report records (graders never read it)
    skills_folder: str  # where a workspace holds the installed room, relative to the workspace
    requests_to_decision: float  # model requests a routing case spends before the stop, on average
    temp_parent: Path | None  # where throwaway workspaces and config dirs go (None: a clean temp dir)

    @property
    def listing(self) -> ListingRule:
        """How this runtime lists the room to its model (measured: harness/data/listing.json)."""
        ...

    def endpoint_line(self) -> str:
        """Where its requests would go (the endpoint variable's value, or its default): a dry run's line."""
        ...

    def caps_run_spend(self) -> bool:
        """Its CLI stops a run that spends past the run spec's max_budget_usd (else that cap is only
        noted as not enforced)."""
        ...

    def workspace(
        self, room: Mapping[str, Path], fixture: Path | None = None
    ) -> AbstractContextManager[Path]:
        """A throwaway workspace with `room` installed where this runtime reads project skills
        (without their `evals/`), `fixture`'s files in its root; removed on exit."""
        ...

    def installed_as_plugins(
        self,
        repo: Path,
        room: Mapping[str, Path],
        *,
        deadline: Deadline | None = None,
        cancel: Cancellation | None = None,
    ) -> AbstractContextManager[None]:
        """While open, `room` is installed through the host's own plugin mechanism from `repo`'s
        manifests, each skill checked listed (--install plugin); AgentUnavailable in one sentence when
        a skill is not listed or the runtime has no such mechanism."""
        ...

    def run(self, spec: RunSpec) -> Trace:
        """Run one prompt to its end, its stop policy, its timeout or `spec.cancel`. Never raises
        for agent failures: `Trace.failure` says why a run failed (stop reason `cancelled` when
        the command was interrupted)."""
        ...

    def preflight(
        self, model: str | None, *, deadline: Deadline | None = None, cancel: Cancellation | None = None
    ) -> None:
        """One tiny prompt before any paid run, ended by the command's `deadline` or `cancel`; raises
        AgentUnavailable naming the fix."""
        ...

    def probe_sandbox(
        self, *, deadline: Deadline | None = None, cancel: Cancellation | None = None
    ) -> SandboxSupport:
        """Whether this CLI's shell sandbox starts here, found without a paid request; a runtime
        skillscope cannot turn one on for answers `available` False and says so."""
        ...

    def key_exposure(self) -> str | None:
        """Why the agent's tools could read its model credential here; None when they cannot."""
        ...

    def describe(self) -> dict[str, str]:
        """The isolation in force, for the report."""
        ...

    def redact(self, text: str) -> str:
        """`text` with every known secret of this agent's environment blanked out."""
        ...

    def invocation(self, spec: RunSpec) -> tuple[list[str], dict[str, str]]:
        """The command line and environment changes a run of `spec` would use (for --dry-run)."""
        ...
