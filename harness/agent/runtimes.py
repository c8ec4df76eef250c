"""Every agent runtime skillscope drives, by name: `--agent claude|copilot|codex|gemini|opencode`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from harness.cancel import Cancellation
from harness.deadline import Deadline

from . import claude, codex, copilot, gemini, opencode
from .runtime import CliAgent, CliLookup
from .session import Agent


class Connect(Protocol):
    """How a runtime's CLI is located and probed (each runtime module's `connect`)."""

    def __call__(
        self,
        explicit: str | None,
        environ: Mapping[str, str],
        temp_parent: Path | None = None,
        *,
        deadline: Deadline | None = None,
        cancel: Cancellation | None = None,
        pass_env: Sequence[str] = (),
    ) -> Agent: ...


CONNECTORS: dict[str, Connect] = {
    "claude": claude.connect,
    "copilot": copilot.connect,
    "codex": codex.connect,
    "gemini": gemini.connect,
    "opencode": opencode.connect,
}
RUNTIMES = tuple(CONNECTORS)


AGENT_CLASSES: dict[str, type[CliAgent[Any]]] = {
    "claude": claude.ClaudeAgent,
    "copilot": copilot.CopilotAgent,
    "codex": codex.CodexAgent,
    "gemini": gemini.GeminiAgent,
    "opencode": opencode.OpenCodeAgent,
}
DEFAULT_RUNTIME = "claude"


def connect_runtime(
    runtime: str,
    explicit: str | None,
    environ: Mapping[str, str],
    temp_parent: Path | None = None,
    *,
    deadline: Deadline | None = None,
    cancel: Cancellation | None = None,
    pass_env: Sequence[str] = (),
) -> Agent:
    """The named runtime's CLI located (`--<runtime> PATH`, `$SKILLSCOPE_<RUNTIME>`, PATH) and isolated;
    its probes end with the command's `deadline` or `cancel`. Its runs' environment is its allowlist
    and `pass_env` (environment.py)."""
    connect = CONNECTORS[runtime]
    return connect(explicit, environ, temp_parent, deadline=deadline, cancel=cancel, pass_env=pass_env)


def stand_in_runtime(
    runtime: str,
    explicit: str | None,
    environ: Mapping[str, str],
    temp_parent: Path | None = None,
    pass_env: Sequence[str] = (),
) -> tuple[Agent, CliLookup]:
    """The named runtime as a dry run shows it: its pinned version at the path where its CLI was
    found (or its bare name), and that lookup; its CLI is never started."""
    return AGENT_CLASSES[runtime].stand_in(explicit, environ, temp_parent, pass_env)


def model_environment(runtime: str) -> tuple[str, ...]:
    """The variables through which `runtime`'s CLI chooses its model or endpoint (none for a name
    that is no runtime)."""
    known = AGENT_CLASSES.get(runtime)
    return known.model_environment if known else ()
