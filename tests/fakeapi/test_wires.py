"""Each wire protocol of the fake, spoken to over plain HTTP."""

from __future__ import annotations

import json

import requests

from tests.fakeapi import FakeAPI
from tests.fakeapi import replies as R

CODEX_DEVELOPER = """<skills_instructions>
### Skill roots
- `r0` = `/tmp/ws/.agents/skills`
### Available skills
- csv-report: Summarize CSV files. (file: r0/csv-report/SKILL.md)
- pdf-tools: Work with PDF files. (file: r0/pdf-tools/SKILL.md)
</skills_instructions>"""
XML_LISTING = """<available_skills>
  <skill>
    <name>pdf-tools</name>
    <description>Work with
      PDF files.</description>
    <location>/tmp/ws/.agents/skills/pdf-tools/SKILL.md</location>
  </skill>
  <skill>
    <name>csv-report</name>
    <description>Summarize CSV files.</description>
    <location>project</location>
  </skill>
</available_skills>"""


def _responses_body(prompt: str = "convert my pdf", **extra) -> dict:
    def message(role: str, text: str) -> dict:
        return {"type": "message", "role": role, "content": [{"type": "input_text", "text": text}]}

    return {
        "model": "fake-model",
        "stream": True,
        "tools": [{"type": "function", "name": "exec_command"}],
        "input": [
            message("developer", CODEX_DEVELOPER),
            message("user", "<environment_context>\n  <cwd>/tmp/ws</cwd>\n</environment_context>"),
            message("user", prompt),
        ],
        **extra,
    }


def _chat_body(prompt: str = "convert my pdf", **extra) -> dict:
    return {
        "model": "fake-model",
        "stream": True,
        "tools": [{"type": "function", "function": {"name": "skill"}}],
        "messages": [
            {"role": "system", "content": f"Working directory: /tmp/ws\n{XML_LISTING}"},
            {"role": "user", "content": prompt},
        ],
        **extra,
    }


def _gemini_body(prompt: str = "convert my pdf") -> dict:
    context = "<session_context>\n- **Workspace Directories:**\n  - /tmp/ws\n</session_context>"
    return {
        "contents": [{"role": "user", "parts": [{"text": context}, {"text": prompt}]}],
        "systemInstruction": {"parts": [{"text": XML_LISTING}]},
        "tools": [{"functionDeclarations": [{"name": "activate_skill"}]}],
    }


def _data(response: requests.Response) -> list[dict]:
    frames = [f for f in response.text.replace("\r\n", "\n").split("\n\n") if f.strip()]
    payloads = [line[len("data: ") :] for f in frames for line in f.splitlines() if line.startswith("data: ")]
    return [json.loads(p) for p in payloads if p != "[DONE]"]


def test_responses_stream_carries_a_function_call_and_usage():
    script = [R.skill_for("codex", "pdf-tools", usage={"input_tokens": 7, "output_tokens": 3})]
    with FakeAPI(script) as api:
        response = requests.post(f"{api.base_url}/v1/responses", json=_responses_body())
    (request,) = api.agent_turns()
    assert request.wire.name == "responses"
    assert request.prompt == "convert my pdf"
    assert request.cwd == "/tmp/ws"
    assert request.skill_listing == {
        "csv-report": "Summarize CSV files.",
        "pdf-tools": "Work with PDF files.",
    }
    assert request.skill_files["pdf-tools"] == "/tmp/ws/.agents/skills/pdf-tools/SKILL.md"
    events = _data(response)
    assert [e["type"] for e in events][0] == "response.created"
    assert events[-1]["type"] == "response.completed"
    assert events[-1]["response"]["usage"]["input_tokens"] == 7
    (call,) = [e["item"] for e in events if e["type"] == "response.output_item.done"]
    assert call["name"] == "exec_command"
    assert json.loads(call["arguments"]) == {"cmd": "cat /tmp/ws/.agents/skills/pdf-tools/SKILL.md"}
    pieces = [e["delta"] for e in events if e["type"] == "response.function_call_arguments.delta"]
    assert len(pieces) > 1 and "".join(pieces) == call["arguments"]


def test_responses_tool_results_and_errors():
    body = _responses_body()
    body["input"].append(
        {"type": "function_call_output", "call_id": "call_1", "output": "---\nname: pdf-tools"}
    )
    with FakeAPI([R.error(429), "later"]) as api:
        limited = requests.post(f"{api.base_url}/v1/responses", json=body)
        answered = requests.post(f"{api.base_url}/v1/responses", json={**body, "stream": False}).json()
    assert limited.status_code == 429
    assert limited.json()["error"]["type"] == "rate_limit_exceeded"
    assert answered["output"][0]["content"][0]["text"] == "later"
    assert api.requests[0].tool_results == [
        {"tool_use_id": "call_1", "is_error": False, "text": "---\nname: pdf-tools"}
    ]


def test_chat_stream_reassembles_tool_call_and_ends_with_done():
    with FakeAPI([R.skill_for("opencode", "pdf-tools")]) as api:
        response = requests.post(f"{api.base_url}/v1/chat/completions", json=_chat_body())
    (request,) = api.agent_turns()
    assert request.wire.name == "chat"
    assert request.cwd == "/tmp/ws"
    assert request.skill_listing == {
        "pdf-tools": "Work with PDF files.",
        "csv-report": "Summarize CSV files.",
    }
    assert request.skill_files == {"pdf-tools": "/tmp/ws/.agents/skills/pdf-tools/SKILL.md"}
    assert response.text.rstrip().endswith("data: [DONE]")
    chunks = _data(response)
    arguments = "".join(
        call["function"].get("arguments", "")
        for chunk in chunks
        for choice in chunk["choices"]
        for call in choice["delta"].get("tool_calls", [])
    )
    assert json.loads(arguments) == {"name": "pdf-tools"}
    assert [c["choices"][0]["finish_reason"] for c in chunks if c["choices"]][-1] == "tool_calls"
    assert chunks[-1]["usage"]["prompt_tokens"] == 100


def test_chat_side_call_without_tools_is_not_an_agent_turn():
    with FakeAPI(["scripted"]) as api:
        title = requests.post(f"{api.base_url}/v1/chat/completions", json=_chat_body(stream=False, tools=[]))
        turn = requests.post(f"{api.base_url}/v1/chat/completions", json=_chat_body(stream=False))
    assert title.json()["choices"][0]["message"]["content"] == "done."
    assert turn.json()["choices"][0]["message"]["content"] == "scripted"
    assert len(api.agent_turns()) == 1


def test_gemini_stream_and_count_tokens_and_error_status():
    path = "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    with FakeAPI([R.skill_for("gemini", "pdf-tools", text="Loading it."), R.error(503)]) as api:
        response = requests.post(api.base_url + path, json=_gemini_body())
        failed = requests.post(api.base_url + path, json=_gemini_body())
        counted = requests.post(f"{api.base_url}/v1beta/models/gemini-2.5-flash:countTokens", json={})
    request = api.agent_turns()[0]
    assert request.wire.name == "gemini"
    assert request.prompt == "convert my pdf"
    assert request.cwd == "/tmp/ws"
    assert set(request.skill_listing) == {"pdf-tools", "csv-report"}
    frames = _data(response)
    parts = [p for f in frames for p in f["candidates"][0]["content"]["parts"]]
    assert "".join(p.get("text", "") for p in parts) == "Loading it."
    assert parts[-1] == {"functionCall": {"name": "activate_skill", "args": {"name": "pdf-tools"}}}
    assert frames[-1]["modelVersion"] == "gemini-2.5-flash"
    assert frames[-1]["candidates"][0]["finishReason"] == "STOP"
    assert failed.status_code == 503 and failed.json()["error"]["status"] == "UNAVAILABLE"
    assert counted.json()["totalTokens"] >= 1
    assert len(api.agent_turns()) == 2


def test_every_wire_breaks_a_malformed_stream_mid_way():
    bodies = {
        "/v1/responses": _responses_body(),
        "/v1/chat/completions": _chat_body(),
        "/v1beta/models/m:streamGenerateContent?alt=sse": _gemini_body(),
    }
    for path, body in bodies.items():
        with FakeAPI([R.malformed()]) as api:
            response = requests.post(api.base_url + path, json=body)
        assert b"\xff" in response.content, path
        assert b"[DONE]" not in response.content and b"response.completed" not in response.content
