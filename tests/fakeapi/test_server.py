"""The fake API on its own, spoken to over plain HTTP."""

from __future__ import annotations

import json

import requests

from tests.fakeapi import FakeAPI, RecordedRequest, listing_aliases, parse_skill_listing
from tests.fakeapi import replies as R

LISTING = """# Environment
 - Primary working directory: /tmp/ws

The following skills are available for use with the Skill tool:

- csv-report: Summarize CSV files. Use when the user asks about CSV data.
- dirname (front-name): Frontmatter name differs
  from the directory name.
- pdf: Plain PDF.
- pdf-tools: Tools for PDF files.
- myplug:plug-skill: Shipped inside a plugin.

Today's date is 2026-11-30.
"""


def _body(prompt: str = "hello", system: str = LISTING, **extra) -> dict:
    return {
        "model": "claude-fake-1",
        "stream": True,
        "tools": [{"name": "Skill"}],
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "<system-reminder>\nnoise\n</system-reminder>\n"},
                    {"type": "text", "text": prompt},
                ],
            },
            {"role": "system", "content": [{"type": "text", "text": system}]},
        ],
        **extra,
    }


def _sse(response: requests.Response) -> list[tuple[str, dict]]:
    events = []
    for frame in response.text.split("\n\n"):
        if not frame.strip():
            continue
        lines = dict(line.split(": ", 1) for line in frame.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_listing_parser_reads_names_aliases_and_wrapped_descriptions():
    listing = parse_skill_listing(LISTING)
    assert list(listing) == ["csv-report", "dirname", "pdf", "pdf-tools", "myplug:plug-skill"]
    assert listing["dirname"] == "Frontmatter name differs from the directory name."
    assert listing["pdf"] == "Plain PDF."
    assert listing_aliases(LISTING) == {"dirname": "front-name"}
    assert parse_skill_listing("no listing here") == {}


def test_recorded_request_exposes_prompt_cwd_and_tool_results():
    body = _body("use the pdf skill")
    body["messages"].append(
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "Launching skill: pdf"}],
        }
    )
    request = RecordedRequest("POST", "/v1/messages?beta=true", {}, body, 0.0)
    assert request.prompt == "use the pdf skill"
    assert request.cwd == "/tmp/ws"
    assert request.is_agent_turn
    assert request.tool_results == [{"tool_use_id": "t1", "is_error": False, "text": "Launching skill: pdf"}]
    assert set(request.skill_listing) >= {"pdf", "pdf-tools"}


def test_head_models_count_tokens_and_unknown_paths():
    with FakeAPI() as api:
        assert requests.head(f"{api.base_url}/").status_code == 200
        hello = requests.head(f"{api.base_url}/api/hello")
        assert hello.status_code == 200 and hello.content == b""
        models = requests.get(f"{api.base_url}/v1/models").json()
        assert models["data"][0]["id"] == "claude-fake-1"
        counted = requests.post(f"{api.base_url}/v1/messages/count_tokens", json=_body())
        assert counted.json()["input_tokens"] > 0
        missing = requests.post(f"{api.base_url}/v2/nothing", json={})
        assert missing.status_code == 404
        assert missing.json()["error"]["type"] == "not_found_error"
        assert [r.method for r in api.requests] == ["HEAD", "HEAD", "GET", "POST", "POST"]


def test_streamed_tool_use_arrives_in_pieces_that_reassemble():
    script = [R.tool_use("Write", {"file_path": "{{cwd}}/out.txt", "content": "x" * 40})]
    with FakeAPI(script) as api:
        response = requests.post(f"{api.base_url}/v1/messages?beta=true", json=_body())
    assert response.headers["Content-Type"] == "text/event-stream"
    events = _sse(response)
    names = [name for name, _ in events]
    assert names[:3] == ["message_start", "ping", "content_block_start"]
    assert names[-2:] == ["message_delta", "message_stop"]
    pieces = [d["delta"]["partial_json"] for n, d in events if n == "content_block_delta"]
    assert len(pieces) > 1
    assert json.loads("".join(pieces)) == {"file_path": "/tmp/ws/out.txt", "content": "x" * 40}
    assert events[-2][1]["delta"]["stop_reason"] == "tool_use"


def test_non_streaming_reply_and_exhausted_script():
    with FakeAPI(["first"]) as api:
        first = requests.post(f"{api.base_url}/v1/messages", json=_body(stream=False)).json()
        second = requests.post(f"{api.base_url}/v1/messages", json=_body(stream=False)).json()
    assert first["content"] == [{"type": "text", "text": "first"}]
    assert second["content"][0]["text"] == "done."
    assert second["stop_reason"] == "end_turn"


def test_error_statuses_carry_anthropic_error_bodies():
    with FakeAPI([R.error(529), R.error(401), R.error(500)]) as api:
        bodies = [requests.post(f"{api.base_url}/v1/messages", json=_body()) for _ in range(3)]
    assert [b.status_code for b in bodies] == [529, 401, 500]
    kinds = [b.json()["error"]["type"] for b in bodies]
    assert kinds == ["overloaded_error", "authentication_error", "api_error"]


def test_prompt_keyed_scripts_and_routers_and_sessions():
    def router(request: RecordedRequest):
        return f"router saw {sorted(request.skill_listing)[0]}"

    with FakeAPI({"alpha": ["A1", "A2"], "beta": R.text("B")}) as api:
        api.script(router, session="s-router")

        def ask(prompt: str, session: str | None = None) -> str:
            headers = {"X-Claude-Code-Session-Id": session} if session else {}
            response = requests.post(
                f"{api.base_url}/v1/messages", json=_body(prompt, stream=False), headers=headers
            )
            return response.json()["content"][0]["text"]

        assert ask("say alpha please") == "A1"
        assert ask("now beta") == "B"
        assert ask("alpha again") == "A2"
        assert ask("alpha third time") == "done."
        assert ask("alpha", session="s-router") == "router saw csv-report"
        assert len(api.requests_for("s-router")) == 1


def test_malformed_stream_breaks_after_the_first_event():
    with FakeAPI([R.malformed()]) as api:
        response = requests.post(f"{api.base_url}/v1/messages", json=_body())
    assert b"message_start" in response.content
    assert b"\xff" in response.content
    assert b"message_stop" not in response.content


def test_hang_is_released_when_the_server_stops():
    api = FakeAPI([R.hang()]).start()
    try:
        with_timeout = requests.post(f"{api.base_url}/v1/messages", json=_body(), timeout=0.5)
    except requests.exceptions.ReadTimeout:
        with_timeout = None
    finally:
        api.stop()
    assert with_timeout is None
    assert api.requests[0].reply.hang
