"""The agent boundary: the only package that knows the `claude` CLI.

Callers locate the CLI, pick an isolation, stage a workspace, and get a Trace
back from `run`; graders read only the Trace.
"""

from .claude import (
    AgentUnavailable,
    ClaudeCLI,
    Isolation,
    RunSpec,
    build_argv,
    isolation_for,
    locate,
    preflight,
    read_only_spec,
    run,
)
from .trace import (
    Activation,
    InitInfo,
    ToolCall,
    Trace,
    TraceBuilder,
    Usage,
    stop_at_decision,
)
from .workspace import WorkspaceError, installed_skills, stage_workspace

__all__ = [
    "Activation",
    "AgentUnavailable",
    "ClaudeCLI",
    "InitInfo",
    "Isolation",
    "RunSpec",
    "ToolCall",
    "Trace",
    "TraceBuilder",
    "Usage",
    "WorkspaceError",
    "build_argv",
    "installed_skills",
    "isolation_for",
    "locate",
    "preflight",
    "read_only_spec",
    "run",
    "stage_workspace",
    "stop_at_decision",
]
