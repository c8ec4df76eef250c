"""What every JSON report opens with: which command ran, on what, when, for how long, and how it went.

One envelope and one set of status words across structural, refs, routing, behavioral and select, so a
tool reading any report needs one parser for its head.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness import __version__
from harness.deadline import Deadline
from harness.model.repo import Repo

PASS, FAIL, ERROR = "pass", "fail", "error"
STATUSES = (PASS, FAIL, ERROR)
# A behavioral case whose evidence cannot be trusted (its agent left the workspace): never a pass or
# a fail, and, like an error, it keeps the run from passing.
BLOCKED = "blocked"


@dataclass
class RunMeta:
    """What every report says of its run: command, repo, globs, start and length."""

    command: str
    repo: str
    globs: list[str]
    started_at: str
    elapsed_s: float = 0.0
    harness_version: str = __version__

    @classmethod
    def of(cls, command: str, repo: Repo, clock: Deadline) -> RunMeta:
        """The meta of a run of `command` over `repo` that started when `clock` did, as of now."""
        return cls(command, str(repo.root), repo.globs, clock.started_at, clock.elapsed())

    def to_json(self) -> dict[str, object]:
        return {
            "command": self.command,
            "harness_version": self.harness_version,
            "repo": self.repo,
            "skills_dir": self.globs,
            "started_at": self.started_at,
            "elapsed_s": round(self.elapsed_s, 3),
        }


@dataclass(frozen=True)
class Halt:
    """Why a paid run reports fewer cases than it selected: a signal stopped it (the report holds the
    cases that finished), or the agent could not start (no case ran)."""

    interrupted: str | None = None  # "SIGINT" or "SIGTERM"
    unfinished: int = 0  # selected cases the report does not hold
    agent_error: str | None = None  # why the agent could not run at all

    @property
    def halted(self) -> bool:
        return self.interrupted is not None or self.agent_error is not None

    @classmethod
    def of(cls, meta: dict[str, Any]) -> Halt:
        """The halt a paid report's meta holds (its `interrupted`, `unfinished` and `agent_error`)."""
        return cls(meta.get("interrupted"), meta.get("unfinished") or 0, meta.get("agent_error"))

    def sentence(self) -> str | None:
        """One line for the markdown and JUnit reports, or None when the run was not halted."""
        if self.interrupted:
            return (
                f"Interrupted by {self.interrupted}: the report holds the cases that finished; "
                f"{self.unfinished} selected case(s) did not."
            )
        if self.agent_error:
            return f"No case ran: {self.agent_error}."
        return None

    def to_json(self) -> dict[str, object]:
        return {
            "interrupted": self.interrupted,
            "unfinished": self.unfinished,
            "agent_error": self.agent_error,
        }


def counts(statuses: list[str], words: tuple[str, ...] = STATUSES) -> dict[str, int]:
    """How many graded units ended in each status word, and how many there were."""
    return {"total": len(statuses), **{word: statuses.count(word) for word in words}}


def status(passed: bool, tally: dict[str, int]) -> str:
    """The run's own word: a run that failed only because units could not be graded (errored or
    blocked) is an error."""
    if passed:
        return PASS
    ungraded = tally[ERROR] + tally.get(BLOCKED, 0)
    return ERROR if ungraded and not tally[FAIL] else FAIL


def envelope(meta: RunMeta, passed: bool, tally: dict[str, int]) -> dict[str, object]:
    """The head of a JSON report; the command's own fields follow it."""
    return {
        "command": meta.command,
        "harness_version": meta.harness_version,
        "repo": meta.repo,
        "started_at": meta.started_at,
        "elapsed_s": round(meta.elapsed_s, 3),
        "passed": passed,
        "status": status(passed, tally),
        "counts": tally,
    }
