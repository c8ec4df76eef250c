"""Gemini (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`): Gemini CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ..replies import Reply
from .base import Wire, chunks, usage_of

PREFIX = "/v1beta/models/"
STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
}


class Gemini(Wire):
    name = "gemini"
    garbage = b'data: {"candidates": [{"conte\x00\xff\r\n\r\n'

    def serves(self, route: str) -> bool:
        return route.startswith(PREFIX) and ":" in route

    def is_model_call(self, route: str) -> bool:
        return route.endswith((":streamGenerateContent", ":generateContent"))

    def streams(self, path: str, body: Any) -> bool:
        return ":streamGenerateContent" in path

    def model_of(self, path: str, body: Any) -> str | None:
        return path.split("?")[0][len(PREFIX) :].split(":")[0] or None

    def prompt(self, body: Any) -> str:
        """The first user turn's text parts, minus the CLI's session context."""
        for content in _contents(body):
            if content.get("role") == "user":
                texts = [p["text"] for p in content.get("parts") or [] if isinstance(p, dict) and "text" in p]
                return "\n".join(t for t in texts if not t.lstrip().startswith("<session_context>"))
        return ""

    def system_text(self, body: Any) -> str:
        system = body.get("systemInstruction") if isinstance(body, dict) else None
        parts = system.get("parts") if isinstance(system, dict) else None
        return "\n".join(str(p.get("text", "")) for p in parts or [] if isinstance(p, dict))

    def tool_results(self, body: Any) -> list[dict[str, Any]]:
        found = []
        for content in _contents(body):
            for part in content.get("parts") or []:
                response = part.get("functionResponse") if isinstance(part, dict) else None
                if isinstance(response, dict):
                    found.append(
                        {
                            "tool_use_id": response.get("id") or response.get("name"),
                            "is_error": False,
                            "text": json.dumps(response.get("response")),
                        }
                    )
        return found

    def tool_names(self, body: Any) -> list[str]:
        tools = body.get("tools") if isinstance(body, dict) else None
        return [
            str(d.get("name", ""))
            for t in tools or []
            if isinstance(t, dict)
            for d in t.get("functionDeclarations") or []
            if isinstance(d, dict)
        ]

    def extra_route(self, route: str, raw: bytes) -> dict[str, Any] | None:
        if route.endswith(":countTokens"):
            return {"totalTokens": max(1, len(raw) // 4)}
        return None

    def message(self, reply: Reply, model: str) -> dict[str, Any]:
        return self._response(self._parts(reply), reply, model)

    def frames(self, reply: Reply, model: str) -> Iterator[bytes]:
        parts = self._parts(reply)
        texts = [p for p in parts if "text" in p]
        calls = [p for p in parts if "functionCall" in p]
        pieces = [{"text": piece} for t in texts for piece in chunks(t["text"], 16)]
        for piece in pieces[:-1]:  # text streams in pieces; the last frame closes the turn
            yield _frame({"candidates": [{"content": {"role": "model", "parts": [piece]}, "index": 0}]})
        yield _frame(self._response(pieces[-1:] + calls, reply, model))

    def _parts(self, reply: Reply) -> list[dict[str, Any]]:
        parts: list[dict[str, Any]] = [{"text": reply.text}] if reply.text is not None else []
        parts += [{"functionCall": {"name": use.name, "args": use.input}} for use in reply.tool_uses]
        return parts

    def _response(self, parts: list[dict[str, Any]], reply: Reply, model: str) -> dict[str, Any]:
        usage = usage_of(reply)
        return {
            "candidates": [
                {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": {
                "promptTokenCount": usage["input_tokens"],
                "candidatesTokenCount": usage["output_tokens"],
                "totalTokenCount": usage["input_tokens"] + usage["output_tokens"],
                "cachedContentTokenCount": usage["cache_read_input_tokens"],
            },
            "modelVersion": reply.model or model,
        }

    def error_body(self, status: int) -> dict[str, Any]:
        return {
            "error": {
                "code": status,
                "message": f"fake error {status}",
                "status": STATUS_NAMES.get(status, "UNKNOWN"),
            }
        }


def _contents(body: Any) -> list[dict[str, Any]]:
    contents = body.get("contents") if isinstance(body, dict) else None
    return [c for c in contents or [] if isinstance(c, dict)]


def _frame(data: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(data)}\r\n\r\n".encode()


GEMINI = Gemini()
