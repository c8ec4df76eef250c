"""Claude Code's tool names, as a plugin eval suite writes them (`tool: Bash`), matched against any
agent's calls. Each runtime declares its own shell, write, read and skill tools and normalises its calls
into ToolCall's `command`, `written`, `read` and `skill_call`; a host name matches through those."""

from __future__ import annotations

import json

from .trace import ToolCall

# The kind of call each host tool name stands for on an agent whose tools have other names.
HOST_TOOL_KINDS = {
    "Bash": "shell",
    "Write": "write",
    "Edit": "write",
    "MultiEdit": "write",
    "NotebookEdit": "write",
    "Read": "read",
    "Glob": "read",
    "Grep": "read",
    "Skill": "skill",
}


def kinds(call: ToolCall) -> set[str]:
    """What a call did, in the runtime-neutral words of HOST_TOOL_KINDS (a shell `cat` is shell and read)."""
    found = set()
    if call.skill_call:
        found.add("skill")
    if call.command is not None:
        found.add("shell")
    if call.written is not None:
        found.add("write")
    if call.read is not None:
        found.add("read")
    return found


def matches(host_tool: str, call: ToolCall) -> bool:
    """True when `call` is the tool a suite names. An agent that has the very name (claude) is held
    to it exactly, so `Read` is not credited by a `Grep`; other agents match by kind."""
    if call.name == host_tool:
        return True
    if call.name in HOST_TOOL_KINDS:
        return False
    kind = HOST_TOOL_KINDS.get(host_tool)
    return kind is not None and kind in kinds(call)


def input_text(call: ToolCall) -> str:
    """The call's input as the text an `input_match` pattern searches."""
    if isinstance(call.input, str):
        return call.input
    return json.dumps(call.input, ensure_ascii=False, sort_keys=True)
