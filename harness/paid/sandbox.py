"""--sandbox: which folders the sandboxed agent must not read, and in a report whether the agent CLI's
own shell sandbox was asked for and whether it applied.

The agent layer probes the CLI (see `probe_sandbox` of an agent that has one) and each run reports
what its CLI said; this module turns those answers into the report's words.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from harness.model.repo import Repo

# The repo's own folder of reports, baseline and any cache a commit brought along.
REPO_STATE = ".skillscope"

OFF, APPLIED, UNAVAILABLE, UNKNOWN = "off", "applied", "unavailable", "unknown"
# What a report says of a run whose sandbox was turned off where it is the default.
TURNED_OFF = (
    "--no-sandbox: the agent's shell commands ran without the CLI's sandbox and could read the repo's "
    "files; only isolation evidence guards them."
)


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
        if False in list(observed):  # a run's own word wins over the probe's, kept or not
            return cls(True, UNAVAILABLE, refused or reason or "a run's CLI said its sandbox was off")
        if available:
            return cls(True, APPLIED)
        return cls(True, UNKNOWN, reason or "no agent run said")

    def sentence(self) -> str | None:
        if self.status == APPLIED:
            return (
                "--sandbox: the agent's shell commands ran in its CLI's own sandbox, which could not read "
                "the repo's skill folders, .skillscope/ or the result cache."
            )
        if self.status == UNAVAILABLE:
            return (
                f"--sandbox: the CLI's shell sandbox did not apply ({self.reason}); cases ran without it, "
                "so the agent's shell could read the repo's files (isolation evidence still blocks)."
            )
        if self.status == UNKNOWN:
            return f"--sandbox: whether the CLI's shell sandbox applied is unknown ({self.reason})."
        return None

    def headline(self) -> str:
        """A few words for a summary line: whether the sandbox applied, and why not."""
        if self.status == APPLIED:
            return "shell sandbox applied"
        if self.status == OFF:
            return "no shell sandbox (--no-sandbox)"
        word = "did not apply" if self.status == UNAVAILABLE else "unknown"
        return f"shell sandbox {word} ({self.reason})"

    def to_json(self) -> dict:
        # What every format says of it: a sentence under the headline (off where it is the default says
        # so), and a few words in the summary line.
        said = self.sentence() or (None if self.requested else TURNED_OFF)
        return {
            "requested": self.requested,
            "status": self.status,
            "reason": self.reason,
            "said": said,
            "headline": self.headline(),
        }


def unreadable(repo: Repo, *folders: Path | None) -> tuple[Path, ...]:
    """What a sandboxed agent may not read: every skill folder of the repo (its datasets, fixtures and
    hooks: the answer keys; the agent reads the installed copy in its workspace), the repo's
    .skillscope/, and `folders` (the result cache, the kept logs). Each also by its real path, which
    is what the sandbox sees behind a symlink."""
    chosen = [*repo.skill_dirs.values(), repo.root / REPO_STATE, *(f for f in folders if f is not None)]
    both = [form for folder in chosen for form in (folder.absolute(), folder.resolve())]
    return tuple(dict.fromkeys(both))


def probe(ready, deadline, cancel) -> tuple[bool | None, str | None, bool]:
    """Whether `ready` (an Agent) offers a shell sandbox here, why not, and whether that was kept from
    an earlier run rather than probed; a runtime skillscope cannot turn one on for says so."""
    support = ready.probe_sandbox(deadline=deadline, cancel=cancel)
    return support.available, support.reason, support.kept
