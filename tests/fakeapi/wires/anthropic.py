"""Anthropic Messages (`POST /v1/messages`): the `claude` CLI, and Copilot CLI with an
Anthropic provider."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from ..replies import Reply, next_id
from .base import Wire, chunks, data_frame, texts_of, usage_of

# Anthropic error types per HTTP status, as the real API names them.
ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


class Anthropic(Wire):
    name = "anthropic"
    garbage = b'event: content_block_delta\ndata: {"type": "content_blo\x00\xff\n\n'

    def serves(self, route: str) -> bool:
        return route in ("/v1/messages", "/v1/messages/count_tokens")

    def is_model_call(self, route: str) -> bool:
        return route == "/v1/messages"

    def is_agent_turn(self, body: Any) -> bool:
        return isinstance(body, dict) and "tools" in body

    def session_id(self, headers: Mapping[str, str]) -> str | None:
        return headers.get("x-claude-code-session-id")

    def prompt(self, body: Any) -> str:
        """The first user message minus system reminders."""
        for message in _messages(body):
            if message.get("role") == "user":
                texts = texts_of(message.get("content"))
                return "\n".join(t for t in texts if not t.lstrip().startswith("<system-reminder>"))
        return ""

    def system_text(self, body: Any) -> str:
        """The `system` field and any `role: system` message (claude puts its listing there)."""
        system = body.get("system") if isinstance(body, dict) else None
        parts = texts_of(system)
        parts += [t for m in _messages(body) if m.get("role") == "system" for t in texts_of(m.get("content"))]
        return "\n".join(parts)

    def tool_results(self, body: Any) -> list[dict[str, Any]]:
        found = []
        for message in _messages(body):
            content = message.get("content")
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    found.append(
                        {
                            "tool_use_id": block.get("tool_use_id"),
                            "is_error": bool(block.get("is_error")),
                            "text": "\n".join(texts_of(block.get("content"))),
                        }
                    )
        return found

    def tool_names(self, body: Any) -> list[str]:
        tools = body.get("tools") if isinstance(body, dict) else None
        return [t.get("name", "") for t in tools or [] if isinstance(t, dict)]

    def extra_route(self, route: str, raw: bytes) -> dict[str, Any] | None:
        if route == "/v1/messages/count_tokens":
            return {"input_tokens": max(1, len(raw) // 4)}
        return None

    def message(self, reply: Reply, model: str) -> dict[str, Any]:
        content: list[dict[str, Any]] = []
        if reply.text is not None:
            content.append({"type": "text", "text": reply.text})
        for use in reply.tool_uses:
            content.append({"type": "tool_use", "id": use.id, "name": use.name, "input": use.input})
        return {
            "id": f"msg_fake{next_id()}",
            "type": "message",
            "role": "assistant",
            "model": reply.model or model,
            "content": content,
            "stop_reason": "tool_use" if reply.tool_uses else "end_turn",
            "stop_sequence": None,
            "usage": usage_of(reply),
        }

    def frames(self, reply: Reply, model: str) -> Iterator[bytes]:
        for event, data in self.events(reply, model):
            yield data_frame(data, event)

    def events(self, reply: Reply, model: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """(event name, data) pairs of a streamed reply, in the API's order."""
        message = self.message(reply, model)
        usage = message["usage"]
        start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
        yield "message_start", {"type": "message_start", "message": start}
        yield "ping", {"type": "ping"}
        for index, block in enumerate(message["content"]):
            if block["type"] == "text":
                yield "content_block_start", _block_start(index, {"type": "text", "text": ""})
                for piece in chunks(block["text"], 16):
                    yield "content_block_delta", _delta(index, {"type": "text_delta", "text": piece})
            else:
                yield "content_block_start", _block_start(index, {**block, "input": {}})
                for piece in chunks(json.dumps(block["input"]), 12):
                    yield (
                        "content_block_delta",
                        _delta(index, {"type": "input_json_delta", "partial_json": piece}),
                    )
            yield "content_block_stop", {"type": "content_block_stop", "index": index}
        delta = {"stop_reason": message["stop_reason"], "stop_sequence": None}
        yield (
            "message_delta",
            {"type": "message_delta", "delta": delta, "usage": {"output_tokens": usage["output_tokens"]}},
        )
        yield "message_stop", {"type": "message_stop"}

    def error_body(self, status: int) -> dict[str, Any]:
        kind = ERROR_TYPES.get(status, "api_error")
        message = {529: "Overloaded", 401: "invalid x-api-key"}.get(status, f"fake {kind}")
        return {
            "type": "error",
            "error": {"type": kind, "message": message},
            "request_id": f"req_fake{next_id()}",
        }


def _messages(body: Any) -> list[dict[str, Any]]:
    messages = body.get("messages") if isinstance(body, dict) else None
    return [m for m in messages or [] if isinstance(m, dict)]


def _block_start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def _delta(index: int, delta: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": delta}


ANTHROPIC = Anthropic()
