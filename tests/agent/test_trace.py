"""claude's event reader on synthetic stream-json, shaped like what claude 2.1.x prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.agent import ClaudeEvents, stop_at_decision
from harness.agent.failures import explain
from harness.agent.trace import RESULT_TEXT_KEEP, ToolCall
from tests.support.tracing import finished

WS = Path("/ws")
INSTALLED = {
    "pdf": WS / ".claude/skills/pdf",
    "pdf-tools": WS / ".claude/skills/pdf-tools",
    "dirname": WS / ".claude/skills/dirname",
}


def assistant(*blocks, parent=None, message_id="msg_1", usage=None, **extra) -> str:
    message = {"id": message_id, "role": "assistant", "content": list(blocks)}
    if usage is not None:
        message["usage"] = usage
    return json.dumps({"type": "assistant", "message": message, "parent_tool_use_id": parent, **extra})


def tool_use(tool_id: str, name: str, payload: dict) -> dict:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": payload}


def result_event(tool_id: str, content: str, *, is_error=False, structured=None, parent=None):
    block = {"type": "tool_result", "tool_use_id": tool_id, "content": content}
    if is_error:
        block["is_error"] = True
    event = {"type": "user", "message": {"role": "user", "content": [block]}}
    event["parent_tool_use_id"] = parent
    if structured is not None:
        event["tool_use_result"] = structured
    return json.dumps(event)


def base_dir(path: str, body: str = "# body") -> str:
    text = f"Base directory for this skill: {path}\n\n{body}\n"
    return json.dumps(
        {
            "type": "user",
            "message": {"role": "user", "content": [{"type": "text", "text": text}]},
            "parent_tool_use_id": None,
            "isSynthetic": True,
        }
    )


def launch(tool_id: str, name: str, *, dir_name: str | None = None) -> list[str]:
    """The three events of a successful Skill call."""
    return [
        assistant(tool_use(tool_id, "Skill", {"skill": name})),
        result_event(tool_id, f"Launching skill: {name}", structured={"success": True}),
        base_dir(str(WS / ".claude/skills" / (dir_name or name))),
    ]


def build(lines: list[str]) -> ClaudeEvents:
    builder = ClaudeEvents(INSTALLED)
    for line in lines:
        builder.feed(line)
    return builder


def test_confirmed_exact_activation():
    trace = build(launch("t1", "pdf")).trace
    (activation,) = trace.activations
    assert activation.name == "pdf" and activation.confirmed and activation.settled
    assert activation.base_dir == "/ws/.claude/skills/pdf"
    assert trace.activated == ["pdf"]
    assert trace.injected_skill_text[0].startswith("Base directory for this skill:")


def test_prefix_neighbour_is_never_credited():
    trace = build(launch("t1", "pdf-tools")).trace
    assert trace.activated == ["pdf-tools"]
    builder = ClaudeEvents({"pdf-tools": INSTALLED["pdf-tools"]})
    for line in launch("t1", "pdf"):
        builder.feed(line)
    assert builder.trace.activations[0].name == "other:pdf"


def test_leading_slash_is_stripped():
    trace = build(launch("t1", "/pdf")).trace
    assert trace.activations[0].name == "pdf"
    assert trace.activations[0].raw_input_name == "pdf"


def test_alias_resolves_through_the_base_directory():
    builder = build(launch("t1", "front", dir_name="dirname")[:2])
    assert not builder.trace.activations[0].settled  # waits for the injected base dir
    builder.feed(launch("t1", "front", dir_name="dirname")[2])
    activation = builder.trace.activations[0]
    assert activation.name == "dirname" and activation.raw_input_name == "front"
    assert activation.settled


def test_unknown_skill_is_other_and_unconfirmed():
    trace = build(
        [
            assistant(tool_use("t1", "Skill", {"skill": "nope"})),
            result_event(
                "t1",
                "<tool_use_error>Unknown skill: nope</tool_use_error>",
                is_error=True,
                structured="Error: Unknown skill: nope",
            ),
        ]
    ).trace
    (activation,) = trace.activations
    assert activation.name == "other:nope"
    assert not activation.confirmed and activation.settled
    assert "Unknown skill" in activation.error_text
    assert trace.activated == []


def test_success_flag_is_required_for_confirmation():
    trace = build(
        [
            assistant(tool_use("t1", "Skill", {"skill": "pdf"})),
            result_event("t1", "Launching skill: pdf", structured={"success": False}),
        ]
    ).trace
    assert not trace.activations[0].confirmed


def test_skill_calls_inside_subagents_are_not_activations():
    trace = build(
        [
            assistant(tool_use("a1", "Agent", {"prompt": "go"})),
            assistant(tool_use("t1", "Skill", {"skill": "pdf"}), parent="a1"),
            result_event("t1", "Launching skill: pdf", structured={"success": True}, parent="a1"),
        ]
    ).trace
    assert trace.activations == []
    assert [c.name for c in trace.tool_calls] == ["Agent", "Skill"]
    assert trace.tool_calls[1].parent_tool_use_id == "a1"


def test_tool_budgets_ignore_bookkeeping_skill_calls_and_count_inspections():
    lines = [
        assistant(tool_use("b1", "TodoWrite", {"todos": []})),
        assistant(tool_use("s1", "Skill", {"skill": "nope"})),
        assistant(tool_use("i1", "Read", {"file_path": "/ws/.claude/skills/pdf/SKILL.md"})),
        assistant(tool_use("r1", "Bash", {"command": "ls"})),
    ]
    trace = build(lines).trace
    assert (trace.budget_tool_calls, trace.inspection_calls) == (1, 1)
    kinds = [(c.is_bookkeeping, c.is_skill_inspection) for c in trace.tool_calls]
    assert kinds == [(True, False), (False, False), (False, True), (False, False)]
    assert stop_at_decision(max_tool_calls=1)(trace) == "tool_budget"
    assert stop_at_decision(max_inspection_calls=1)(trace) == "tool_budget"
    assert stop_at_decision(max_tool_calls=2, max_inspection_calls=2)(trace) is None


def test_stop_policy_fires_on_the_first_settled_activation():
    policy = stop_at_decision()
    builder = ClaudeEvents(INSTALLED)
    seen = []
    for line in launch("t1", "pdf"):
        builder.feed(line)
        seen.append(policy(builder.trace))
    assert seen == [None, "activation", "activation"]


def test_tool_results_are_matched_and_bounded():
    huge = "x" * (RESULT_TEXT_KEEP * 3)
    trace = build(
        [
            assistant(tool_use("r1", "Bash", {"command": "cat big"})),
            result_event("r1", huge),
            assistant(tool_use("r2", "Write", {"file_path": "/ws/a"})),
            result_event("r2", "denied", is_error=True),
        ]
    ).trace
    first, second = trace.tool_calls
    assert first.answered and len(first.result_text) < RESULT_TEXT_KEEP + 50
    assert second.is_error and second.result_text == "denied"


def test_result_event_fills_final_message_usage_and_cost():
    result = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": "Done.",
        "total_cost_usd": 0.0016,
        "usage": {"input_tokens": 200, "output_tokens": 40, "cache_read_input_tokens": 5},
        "permission_denials": [{"tool_name": "Write"}],
    }
    builder = build([assistant({"type": "text", "text": "thinking aloud"}), json.dumps(result)])
    trace = finished(builder)
    assert trace.final_message == "Done."
    assert trace.usage.as_dict() == {
        "input_tokens": 200,
        "output_tokens": 40,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 5,
    }
    assert trace.cost_usd == 0.0016
    assert trace.permission_denials == [{"tool_name": "Write"}]
    assert trace.error is None


def test_usage_without_result_counts_each_message_once():
    usage = {"input_tokens": 100, "output_tokens": 1}
    builder = build(
        [
            assistant({"type": "text", "text": "a"}, message_id="m1", usage=usage),
            assistant(tool_use("t", "Bash", {}), message_id="m1", usage=usage),
            assistant({"type": "text", "text": "b"}, message_id="m2", usage=usage),
        ]
    )
    trace = finished(builder, exit_code=143, stop_reason="activation")
    assert trace.usage.input_tokens == 200
    assert trace.final_message == "b"
    assert trace.cost_usd is None


def test_non_json_and_unknown_events_are_ignored():
    builder = build(
        [
            "not json at all",
            json.dumps({"type": "from_the_future", "x": 1}),
            json.dumps([1, 2]),
            "",
            *launch("t1", "pdf"),
        ]
    )
    trace = builder.trace
    assert trace.non_json_lines == 2
    assert trace.event_count == 4
    assert trace.activated == ["pdf"]


def test_failures_are_explained_in_one_sentence():
    def ended(lines, **kw):
        return finished(build(lines), **{"exit_code": 1, **kw})

    api = json.dumps({"type": "result", "subtype": "success", "is_error": True, "api_error_status": 529})
    assert ended([api]).error == "the API answered 529 (overloaded)"
    login = json.dumps({"type": "result", "subtype": "success", "is_error": True, "result": "Not logged in"})
    assert ended([login]).error == "claude reported an error: Not logged in"
    silent = ended([], stop_reason="completed", stderr_tail="boom\n")
    assert silent.error == "claude exited 1 without any JSON output: boom"
    garbage = ended(["garbage"], exit_code=0, stop_reason="completed")
    assert garbage.error == "claude produced no JSON output: garbage"
    cut = ended(launch("t1", "pdf")[:1], exit_code=2, stop_reason="completed")
    assert cut.error == "claude exited 2 before reporting a result"
    stopped = ended(launch("t1", "pdf"), exit_code=143, stop_reason="activation")
    assert stopped.error is None
    budget = json.dumps({"type": "result", "subtype": "error_max_budget_usd", "is_error": True})
    assert ended([budget], stop_reason="budget").error is None
    assert explain("claude", build([]).trace, 240) is None  # still running: nothing to explain


def test_memory_stays_bounded_on_a_huge_stream():
    """~64 MB of events, some with very large tool results, fed line by line."""
    builder = ClaudeEvents(INSTALLED)
    big = "y" * (1024 * 1024)
    fed = 0
    count = 0
    while fed < 64 * 1024 * 1024:
        tool_id = f"t{count}"
        lines = [assistant(tool_use(tool_id, "Bash", {"command": f"step {count}"}))]
        lines.append(result_event(tool_id, big if count % 8 == 0 else "ok " * 7000))
        for line in lines:
            builder.feed(line)
            fed += len(line)
        count += 1
    builder.feed(json.dumps({"type": "result", "subtype": "success", "result": "end"}))
    trace = finished(builder)
    assert trace.event_count == 2 * count + 1  # every event counted, none kept whole
    assert all(len(c.result_text or "") <= RESULT_TEXT_KEEP + 50 for c in trace.tool_calls)
    assert trace.budget_tool_calls == count  # counters stay exact
    assert isinstance(trace.tool_calls[0], ToolCall)


ODD_VALUES = [[1], {"a": 1}, "12", True, None, -5, 1e400, float("nan"), 10**30]


@pytest.mark.parametrize("odd", ODD_VALUES)
def test_an_odd_field_never_discards_the_runs_real_result(odd):
    """Each field a stream-json event may carry, set to a value of the wrong type: the activation and
    the final result still come through, and nothing raises."""
    odd_assistant = {
        "type": "assistant",
        "message": {"id": odd, "content": [{"type": "text", "text": odd}], "usage": {"input_tokens": odd}},
        "parent_tool_use_id": None,
        "error": odd,
    }
    odd_init = {
        "type": "system",
        "subtype": "init",
        **dict.fromkeys(["skills", "tools", "model", "cwd"], odd),
    }
    odd_result = {
        "type": "result",
        "subtype": "success",
        "result": "Done.",
        **dict.fromkeys(["is_error", "api_error_status", "usage", "permission_denials", "errors"], odd),
        "total_cost_usd": odd,
    }
    lines = [json.dumps(odd_init), *launch("t1", "pdf"), json.dumps(odd_assistant), json.dumps(odd_result)]
    lines.append(json.dumps({"type": "user", "message": odd, "parent_tool_use_id": odd}))
    lines.append(json.dumps({"type": "assistant", "message": odd}))
    trace = finished(build(lines))
    assert trace.activated == ["pdf"] and trace.final_message == "Done." and trace.result_seen
    assert all(isinstance(v, int) and v >= 0 for v in trace.usage.as_dict().values())
    assert trace.cost_usd is None or trace.cost_usd >= 0


def test_an_event_nested_past_what_json_reads_is_a_non_json_line_and_a_deep_one_is_cut():
    too_deep = '{"type": "assistant", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    deep = {"type": "result", "subtype": "success", "result": "Done.", "x": json.loads("[" * 900 + "]" * 900)}
    builder = build([too_deep, json.dumps(deep)])
    trace = finished(builder)
    assert trace.non_json_lines == 1 and trace.final_message == "Done." and trace.error is None
