"""`run` as a hook's `check(run, case, ctx)` sees it: the trace, the produced files and helpers."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from harness.agent import ToolCall, Trace
from harness.behavioral.evidence import Passage, find, passages
from harness.behavioral.scorers import normalise, segment_match
from harness.behavioral.snapshot import Changes
from harness.files import UnreadableFile, read_bytes

PRODUCED_LIMIT = 256 * 1024 * 1024  # what an agent writes may be large, but not without end


@dataclass
class AgentRun:
    workspace: Path  # the case's workspace, still in place while `check` runs
    prompt: str  # the prompt as sent, placeholders filled
    trace: Trace
    changes: Changes
    skills_folder: str  # where the agent's runtime installed the skills, relative to the workspace

    @property
    def final_message(self) -> str:
        return self.trace.final_message or ""

    @property
    def files(self) -> list[str]:
        """Workspace-relative paths the run created or changed."""
        return self.changes.produced

    @property
    def all_files(self) -> list[str]:
        """Every file in the workspace now, outside the folder holding the installed skills."""
        return self.changes.present

    @property
    def commands(self) -> list[str]:
        """Shell commands, in the order the agent ran them (whatever the runtime calls its shell tool)."""
        return [c.command for c in self.trace.tool_calls if c.command is not None]

    def tool_calls(self, name: str | None = None) -> list[ToolCall]:
        return [c for c in self.trace.tool_calls if name is None or c.name == name]

    @cached_property
    def did(self) -> list[Passage]:
        """What the agent did as searchable passages, built once: a check may search many times."""
        return passages(self.trace, self.workspace, self.skills_folder)

    def logs_contain(self, text: str) -> bool:
        """The same search as the dataset's `logs_contain`: case-insensitive, skill text excluded."""
        return find(text, self.did) is not None

    def produced(self, name: str) -> str | None:
        """The first created or changed file matching `name` by whole path segments."""
        pattern = normalise(name)
        return next((p for p in self.files if segment_match(p, pattern)), None)

    def path(self, relative: str) -> Path:
        return self.workspace / relative

    def read(self, relative: str) -> str:
        """The file's text; a pipe, socket or device fails the check instead of blocking it."""
        try:
            data = read_bytes(self.path(relative), PRODUCED_LIMIT)
        except UnreadableFile as exc:
            raise AssertionError(f"{relative} cannot be read: {exc.reason}") from None
        return data.decode("utf-8", errors="replace")

    def expect_logged(self, text: str) -> None:
        assert self.logs_contain(text), f"nothing the agent did contains {text!r}"

    def expect_produced(self, name: str) -> str:
        found = self.produced(name)
        assert found is not None, f"the run created or changed no file matching {name!r}: {self.files}"
        return found
