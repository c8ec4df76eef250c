"""A kept agent log (`--keep-logs`) read back: which runtime wrote it and the Trace it holds.

A kept log is the CLI's own stdout, line for line (secrets blanked), so reading it with the runtime's
event reader gives the trace the graders saw. What stdout never held (exit code, stderr, the reason
skillscope stopped the run) is in the run's report, not here.
"""

from __future__ import annotations

import errno
import io
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.errors import HarnessError
from harness.files import UnreadableFile, opened

from .claude_events import ClaudeEvents
from .codex import CodexEvents
from .copilot import CopilotEvents
from .events import EventReader
from .failures import reported_error
from .gemini import GeminiEvents
from .opencode import OpenCodeEvents
from .trace import Trace

# Each runtime's stream opens with an event no other runtime's stream can open with.
OPENERS: dict[str, Callable[[Mapping[str, Any]], bool]] = {
    "claude": lambda event: event.get("type") == "system",
    "copilot": lambda event: str(event.get("type")).startswith(("session.", "assistant.", "tool.execution")),
    "codex": lambda event: str(event.get("type")).startswith(("thread.", "turn.", "item.")),
    "gemini": lambda event: event.get("type") == "init",
    "opencode": lambda event: "sessionID" in event or str(event.get("type")).startswith("step_"),
}
READERS: dict[str, Callable[[Mapping[str, Path | str]], EventReader]] = {
    "claude": ClaudeEvents,
    "copilot": CopilotEvents,
    "codex": CodexEvents,
    "gemini": GeminiEvents,
    "opencode": OpenCodeEvents,
}
INSTALLED = re.compile(r"\.agents/skills/([A-Za-z0-9_.-]+)/SKILL\.md")
SNIFF_LINES = 50  # a stream whose first fifty lines name no runtime is not one this harness kept

# How the graders name the files of one case (see AgentSettings.log_path and the runners).
AGENT_LOG = re.compile(r"(?P<stem>.+?)(?:\.attempt-(?P<attempt>\d+))?\.agent\.jsonl")
JUDGE_LOG = re.compile(r"(?P<stem>.+?)\.judge-(?P<attempt>\d+)\.jsonl")
JUDGE_EXCHANGE = re.compile(r"(?P<stem>.+?)\.judge\.txt")
ROUTING_LOG = re.compile(r"(?P<stem>.+?)\.jsonl")


@dataclass(frozen=True)
class LogFile:
    """One file of a kept-logs folder: whose case it is and what part of the case it holds."""

    path: Path
    stem: str  # the case id as log_path wrote it
    role: str  # "agent", "agent attempt 2", "judge attempt 1", "judge exchange", "run"

    @property
    def is_stream(self) -> bool:
        return self.path.suffix == ".jsonl"


@dataclass(frozen=True)
class KeptLog:
    path: Path
    runtime: str
    trace: Trace
    ended: bool  # the stream's last event (the CLI's result) is in the log

    @property
    def skill_calls(self) -> list[str]:
        return [a.raw_input_name for a in self.trace.activations]

    @property
    def error(self) -> str | None:
        """The error the stream itself reports (the API's or the CLI's), or None."""
        return reported_error(self.runtime, self.trace)


class UnreadableLog(HarnessError):
    """A kept log that cannot be read back; the message names the file and the fix."""


def log_file(path: Path) -> LogFile | None:
    """What `path` is in a kept-logs folder, or None when no grader writes such a name."""
    name = path.name
    for pattern, role in ((AGENT_LOG, "agent"), (JUDGE_LOG, "judge"), (JUDGE_EXCHANGE, "judge exchange")):
        match = pattern.fullmatch(name)
        if match:
            attempt = match.groupdict().get("attempt")
            if role == "judge" or (attempt and attempt != "1"):
                role = f"{role} attempt {attempt}"
            return LogFile(path, match.group("stem"), role)
    match = ROUTING_LOG.fullmatch(name)
    return LogFile(path, match.group("stem"), "run") if match else None


def kept_files(folder: Path) -> Iterator[LogFile]:
    """Every kept log under `folder` (a multi-agent or compare run keeps a sub-folder each), in order."""
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        found = log_file(path)
        if found is not None:
            yield found


def runtime_of(event: Mapping[str, Any]) -> str | None:
    """The runtime whose stream opens with `event`, if exactly one can."""
    named = [runtime for runtime, opens in OPENERS.items() if opens(event)]
    return named[0] if len(named) == 1 else None


def read_log(path: Path, runtime: str | None = None) -> KeptLog:
    """The trace in a kept log; `runtime` None: told by the stream's first event. Read line by line
    (twice: a routing log can run to tens of megabytes), never whole."""
    try:
        runtime, named = survey(path, runtime)
        reader = READERS[runtime]({} if runtime == "claude" else dict.fromkeys(named, ""))
        ended = False
        for line in lines_of(path):
            event = reader.feed(line)
            ended = ended or (event is not None and reader.ends_run(event))
    except OSError as exc:
        raise UnreadableLog(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    return KeptLog(path, runtime, reader.finish(), ended)


def lines_of(path: Path) -> Iterator[str]:
    """The log's lines, read through the one reader: a pipe or device given as a log is refused."""
    try:
        with opened(path) as raw, io.TextIOWrapper(io.BufferedReader(raw), "utf-8", "replace") as stream:
            yield from stream
    except UnreadableFile as exc:
        raise OSError(errno.EINVAL, exc.reason) from None


def survey(path: Path, runtime: str | None) -> tuple[str, list[str]]:
    """The runtime that wrote the log (`runtime` when given) and the skills its stream names by their
    folder: without the run's workspace, those are the installed ones (codex, which has no skill tool,
    is credited a skill by reading its SKILL.md there)."""
    named: list[str] = []
    opening = None
    for number, line in enumerate(lines_of(path)):
        named += INSTALLED.findall(line)
        if runtime is None and opening is None and number < SNIFF_LINES:
            opening = first_event(line)
            runtime = runtime_of(opening) if opening else None
    if runtime is None:
        runtime = next((part for part in reversed(path.parts[:-1]) if part in READERS), None)
    if runtime is None:
        raise UnreadableLog(
            f"{path}: no agent CLI's stream opens this way (it holds no JSON event skillscope knows); "
            f"if an agent wrote it, name which with --agent ({', '.join(READERS)})"
        )
    return runtime, named


def first_event(line: str) -> dict[str, Any] | None:
    """The line's JSON object, or None when it holds none (a log may open with the CLI's own warnings)."""
    try:
        event = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return event if isinstance(event, dict) else None
