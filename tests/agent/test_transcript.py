"""harness.agent.transcript: a kept log's trace as the lines `skillscope show` prints.
(tests/commands/test_show.py renders real CLIs' logs; these pin the layout on traces made by hand.)"""

from __future__ import annotations

from pathlib import Path

from harness.agent.logs import KeptLog
from harness.agent.trace import Activation, ToolCall, Trace, Usage
from harness.agent.transcript import NOT_ENDED, render


def kept(trace: Trace, ended: bool = True, runtime: str = "claude") -> KeptLog:
    return KeptLog(Path("logs/a.jsonl"), runtime, trace, ended)


def test_each_call_shows_what_it_asked_and_the_head_of_its_answer():
    answer = "\n".join(f"line {n}" for n in range(1, 8))
    trace = Trace(
        tool_calls=[
            ToolCall("1", "Skill", {"skill": "pdf"}, answered=True, result_text="Launching skill: pdf"),
            ToolCall(
                "2", "Bash", {"command": "ls\nls -a"}, command="ls\nls -a", answered=True, result_text=answer
            ),
            ToolCall("3", "Write", {"file_path": "out.md"}, written="out.md", answered=True, is_error=True),
            ToolCall("4", "Grep", {"pattern": "x" * 300}),
        ],
        activations=[Activation("pdf", "pdf", "1", confirmed=True, settled=True)],
        final_message="Done.",
        usage=Usage(input_tokens=10, output_tokens=3, cache_read_input_tokens=5),
        cost_usd=0.0123,
        turns=2,
    )
    lines = render(kept(trace), "a.jsonl: run")
    assert lines[0] == "== a.jsonl: run (claude; 0 events)"
    assert lines[1:4] == ["  1. Skill pdf", "     -> ok", "        Launching skill: pdf"]
    assert lines[4:10] == [
        "  2. Bash $ ls …",
        "     -> ok",
        "        line 1",
        "        line 2",
        "        line 3",
        "        ... 4 more lines (--full shows them)",
    ]
    assert lines[10:12] == ["  3. Write writes out.md", "     -> error (no output)"]
    assert (
        lines[12].startswith('  4. Grep {"pattern": "xxx')
        and lines[12].endswith("…")
        and len(lines[12]) < 180
    )
    assert lines[13] == "     -> no answer in the log"
    assert lines[14:] == [
        "final message:",
        "  Done.",
        "tokens: 10 in, 3 out; cache 5 read, 0 written; $0.0123; 2 turns",
        "ended: the CLI's result event",
    ]
    full = render(kept(trace), "a.jsonl: run", full=True)
    grep = next(line for line in full if line.startswith("  4. Grep"))
    assert "  2. Bash $ ls\nls -a" in full and "        line 7" in full and len(grep) > 300


def test_a_subagents_call_names_the_call_it_ran_inside():
    trace = Trace(
        tool_calls=[
            ToolCall("t", "Task", {"prompt": "look"}, answered=True, result_text="found"),
            ToolCall("b", "Bash", {"command": "ls"}, command="ls", parent_tool_use_id="t", answered=True),
        ]
    )
    assert "  2. Bash $ ls (inside call 1)" in render(kept(trace), "a")


def test_codex_reading_a_skill_keeps_its_command_and_names_the_skill():
    read = "cat .agents/skills/pdf/SKILL.md"
    trace = Trace(
        tool_calls=[
            ToolCall("c", "exec_command", {"command": read}, command=read, skill_call=True, answered=True)
        ],
        activations=[Activation("pdf", "pdf", "c")],
    )
    assert f"  1. exec_command $ {read} (reads skill pdf)" in render(kept(trace, runtime="codex"), "a")


def test_a_cut_log_its_errors_and_stray_lines_are_said():
    trace = Trace(is_error=True, api_error_status=529, result_errors=["overloaded"], non_json_lines=2)
    trace.non_json_sample = "Segmentation fault\nmore\n"
    lines = render(kept(trace, ended=False, runtime="gemini"), "a")
    assert "no tool calls" in lines
    assert "error: the API answered 529 (overloaded): overloaded" in lines
    assert "2 lines were not JSON, starting: Segmentation fault …" in lines
    assert lines[-1] == f"ended: {NOT_ENDED}"
