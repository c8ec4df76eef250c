"""The agent boundary: the only package that knows agent CLIs.

Callers `connect()` to an Agent (a located CLI with its isolation and environment), stage a
workspace with `agent.workspace(room)`, and get a Trace back from `agent.run(spec)`; graders read
only the Trace, and `Trace.failure` says whether and why a run failed.
"""

from .claude import (
    ClaudeAgent,
    Isolation,
    build_argv,
    connect,
    isolation_for,
    locate,
    read_only_spec,
)
from .claude_events import ClaudeEvents
from .events import EventReader
from .failures import ENVIRONMENT_FIX
from .runtime import CliAgent, CliLookup, LocatedCLI
from .runtimes import DEFAULT_RUNTIME, RUNTIMES, connect_runtime, model_environment, stand_in_runtime
from .session import Agent, AgentSettings, log_path, spec_for
from .spec import AgentUnavailable, RetryRule, RunSpec, SandboxSupport
from .trace import (
    Activation,
    InitInfo,
    ToolCall,
    Trace,
    Usage,
    stop_at_decision,
)
from .workspace import WorkspaceError, installed_skills, stage_workspace

__all__ = [
    "Activation",
    "Agent",
    "AgentSettings",
    "AgentUnavailable",
    "ClaudeAgent",
    "ClaudeEvents",
    "CliAgent",
    "CliLookup",
    "EventReader",
    "DEFAULT_RUNTIME",
    "ENVIRONMENT_FIX",
    "RUNTIMES",
    "LocatedCLI",
    "InitInfo",
    "Isolation",
    "RetryRule",
    "RunSpec",
    "SandboxSupport",
    "ToolCall",
    "Trace",
    "Usage",
    "WorkspaceError",
    "build_argv",
    "connect",
    "connect_runtime",
    "installed_skills",
    "isolation_for",
    "locate",
    "log_path",
    "model_environment",
    "read_only_spec",
    "spec_for",
    "stand_in_runtime",
    "stage_workspace",
    "stop_at_decision",
]
