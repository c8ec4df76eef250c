"""OpenAI Chat Completions (`POST /v1/chat/completions`, SSE): OpenCode, and Copilot CLI's
default provider type."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from typing import Any

from ..replies import Reply, next_id
from .base import Wire, chunks, texts_of, usage_of

DONE_FRAME = b"data: [DONE]\n\n"


class Chat(Wire):
    name = "chat"

    def serves(self, route: str) -> bool:
        return route in ("/v1/chat/completions", "/chat/completions")

    def session_id(self, headers: Mapping[str, str]) -> str | None:
        return headers.get("x-session-id")

    def prompt(self, body: Any) -> str:
        """The first user message."""
        for message in _messages(body):
            if message.get("role") == "user":
                return "\n".join(texts_of(message.get("content")))
        return ""

    def system_text(self, body: Any) -> str:
        return "\n".join(
            t
            for m in _messages(body)
            if m.get("role") in ("system", "developer")
            for t in texts_of(m.get("content"))
        )

    def tool_results(self, body: Any) -> list[dict[str, Any]]:
        return [
            {
                "tool_use_id": m.get("tool_call_id"),
                "is_error": False,
                "text": "\n".join(texts_of(m.get("content"))),
            }
            for m in _messages(body)
            if m.get("role") == "tool"
        ]

    def tool_names(self, body: Any) -> list[str]:
        tools = body.get("tools") if isinstance(body, dict) else None
        return [str((t.get("function") or {}).get("name", "")) for t in tools or [] if isinstance(t, dict)]

    def message(self, reply: Reply, model: str) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.text}
        if reply.tool_uses:
            message["tool_calls"] = [
                {
                    "id": use.id,
                    "type": "function",
                    "function": {"name": use.name, "arguments": json.dumps(use.input)},
                }
                for use in reply.tool_uses
            ]
        return {
            "id": f"chatcmpl-fake{next_id()}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": reply.model or model,
            "choices": [{"index": 0, "message": message, "finish_reason": _finish(reply)}],
            "usage": _usage(reply),
        }

    def frames(self, reply: Reply, model: str) -> Iterator[bytes]:
        for data in self.events(reply, model):
            yield f"data: {json.dumps(data)}\n\n".encode()
        yield DONE_FRAME

    def events(self, reply: Reply, model: str) -> Iterator[dict[str, Any]]:
        head = {
            "id": f"chatcmpl-fake{next_id()}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": reply.model or model,
        }

        def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
            return {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

        yield chunk({"role": "assistant", "content": ""})
        for piece in chunks(reply.text, 16) if reply.text is not None else []:
            yield chunk({"content": piece})
        for index, use in enumerate(reply.tool_uses):
            start = {
                "index": index,
                "id": use.id,
                "type": "function",
                "function": {"name": use.name, "arguments": ""},
            }
            yield chunk({"tool_calls": [start]})
            for piece in chunks(json.dumps(use.input), 12):
                yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
        yield chunk({}, _finish(reply))
        yield {**head, "choices": [], "usage": _usage(reply)}

    def error_body(self, status: int) -> dict[str, Any]:
        kind = {400: "invalid_request_error", 401: "invalid_api_key", 429: "rate_limit_exceeded"}.get(
            status, "server_error"
        )
        return {"error": {"message": f"fake {kind}", "type": kind, "code": kind, "param": None}}


def _messages(body: Any) -> list[dict[str, Any]]:
    messages = body.get("messages") if isinstance(body, dict) else None
    return [m for m in messages or [] if isinstance(m, dict)]


def _finish(reply: Reply) -> str:
    return "tool_calls" if reply.tool_uses else "stop"


def _usage(reply: Reply) -> dict[str, Any]:
    usage = usage_of(reply)
    return {
        "prompt_tokens": usage["input_tokens"],
        "completion_tokens": usage["output_tokens"],
        "total_tokens": usage["input_tokens"] + usage["output_tokens"],
        "prompt_tokens_details": {"cached_tokens": usage["cache_read_input_tokens"]},
    }


CHAT = Chat()
