"""OpenAI Responses (`POST /v1/responses`, SSE): Codex CLI."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from typing import Any

from ..replies import Reply, next_id
from .base import Wire, chunks, data_frame, texts_of, usage_of

ERROR_TYPES = {400: "invalid_request_error", 401: "invalid_api_key", 429: "rate_limit_exceeded"}
INPUT_KINDS = ("input_text", "text")


class Responses(Wire):
    name = "responses"

    def serves(self, route: str) -> bool:
        return route == "/v1/responses"

    def session_id(self, headers: Mapping[str, str]) -> str | None:
        return headers.get("session-id") or headers.get("session_id")

    def prompt(self, body: Any) -> str:
        """The last user message that is not the CLI's environment context."""
        found = ""
        for item in _items(body):
            if item.get("type", "message") == "message" and item.get("role") == "user":
                text = "\n".join(texts_of(item.get("content"), INPUT_KINDS))
                if not text.lstrip().startswith(("<environment_context>", "# AGENTS.md")):
                    found = text
        return found

    def system_text(self, body: Any) -> str:
        """`instructions` and every developer or system message."""
        parts = (
            [body["instructions"]]
            if isinstance(body, dict) and isinstance(body.get("instructions"), str)
            else []
        )
        for item in _items(body):
            if item.get("role") in ("developer", "system"):
                parts += texts_of(item.get("content"), INPUT_KINDS)
        return "\n".join(parts)

    def tool_results(self, body: Any) -> list[dict[str, Any]]:
        return [
            {"tool_use_id": item.get("call_id"), "is_error": False, "text": _output_text(item.get("output"))}
            for item in _items(body)
            if item.get("type") == "function_call_output"
        ]

    def tool_names(self, body: Any) -> list[str]:
        tools = body.get("tools") if isinstance(body, dict) else None
        return [str(t.get("name") or t.get("type") or "") for t in tools or [] if isinstance(t, dict)]

    def output(self, reply: Reply) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        if reply.text is not None:
            content = [{"type": "output_text", "text": reply.text, "annotations": []}]
            items.append(
                {
                    "type": "message",
                    "id": f"msg_fake{next_id()}",
                    "role": "assistant",
                    "status": "completed",
                    "content": content,
                }
            )
        for use in reply.tool_uses:
            items.append(
                {
                    "type": "function_call",
                    "id": f"fc_fake{next_id()}",
                    "call_id": use.id,
                    "name": use.name,
                    "arguments": json.dumps(use.input),
                    "status": "completed",
                }
            )
        return items

    def message(self, reply: Reply, model: str) -> dict[str, Any]:
        usage = usage_of(reply)
        return {
            "id": f"resp_fake{next_id()}",
            "object": "response",
            "created_at": int(time.time()),
            "status": "completed",
            "model": reply.model or model,
            "output": self.output(reply),
            "usage": {
                "input_tokens": usage["input_tokens"],
                "input_tokens_details": {"cached_tokens": usage["cache_read_input_tokens"]},
                "output_tokens": usage["output_tokens"],
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": usage["input_tokens"] + usage["output_tokens"],
            },
        }

    def frames(self, reply: Reply, model: str) -> Iterator[bytes]:
        for data in self.events(reply, model):
            yield data_frame(data, data["type"])

    def events(self, reply: Reply, model: str) -> Iterator[dict[str, Any]]:
        done = self.message(reply, model)
        yield {"type": "response.created", "response": {**done, "status": "in_progress", "output": []}}
        for index, item in enumerate(done["output"]):
            if item["type"] == "message":
                yield _added(index, {**item, "status": "in_progress", "content": []})
                for piece in chunks(item["content"][0]["text"], 16):
                    yield {
                        "type": "response.output_text.delta",
                        "item_id": item["id"],
                        "output_index": index,
                        "content_index": 0,
                        "delta": piece,
                    }
            else:
                yield _added(index, {**item, "status": "in_progress", "arguments": ""})
                for piece in chunks(item["arguments"], 12):
                    yield {
                        "type": "response.function_call_arguments.delta",
                        "item_id": item["id"],
                        "output_index": index,
                        "delta": piece,
                    }
            yield {"type": "response.output_item.done", "output_index": index, "item": item}
        yield {"type": "response.completed", "response": done}

    def error_body(self, status: int) -> dict[str, Any]:
        kind = ERROR_TYPES.get(status, "server_error")
        return {"error": {"message": f"fake {kind}", "type": kind, "code": kind, "param": None}}


def _items(body: Any) -> list[dict[str, Any]]:
    items = body.get("input") if isinstance(body, dict) else None
    return [i for i in items or [] if isinstance(i, dict)]


def _output_text(output: Any) -> str:
    if isinstance(output, str):
        return output
    return "\n".join(texts_of(output, ("input_text", "output_text", "text")))


def _added(index: int, item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "response.output_item.added", "output_index": index, "item": item}


RESPONSES = Responses()
