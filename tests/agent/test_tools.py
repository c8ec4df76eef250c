"""A suite's Claude tool names matched against every runtime's normalised calls."""

from __future__ import annotations

from harness.agent import ToolCall
from harness.agent.tools import HOST_TOOL_KINDS, kinds, matches


def test_claude_names_are_held_exactly() -> None:
    grep = ToolCall(id="1", name="Grep", input={}, read="src")
    assert matches("Grep", grep)
    assert not matches("Read", grep)  # claude has Read itself: a Grep is not one


def test_other_runtimes_match_by_what_the_call_did() -> None:
    codex_cat = ToolCall(id="1", name="exec_command", input={"cmd": "cat a"}, command="cat a", read="a")
    assert kinds(codex_cat) == {"shell", "read"}
    assert matches("Bash", codex_cat) and matches("Read", codex_cat)
    assert not matches("Write", codex_cat)
    copilot_create = ToolCall(id="2", name="create", input={"path": "x"}, written="x")
    assert matches("Write", copilot_create) and matches("Edit", copilot_create)
    gemini_skill = ToolCall(id="3", name="activate_skill", input={"name": "s"}, skill_call=True)
    assert matches("Skill", gemini_skill)


def test_an_unknown_host_tool_matches_only_its_own_name() -> None:
    call = ToolCall(id="1", name="run_shell_command", input={}, command="ls")
    assert not matches("WebFetch", call)
    assert "WebFetch" not in HOST_TOOL_KINDS
