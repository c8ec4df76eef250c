"""What every wire protocol answers: how to read a request and how to encode a reply."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from ..replies import DEFAULT_USAGE, Reply


class Wire:
    """One wire protocol. Subclasses override the readers and encoders they need."""

    name = "wire"
    content_type = "text/event-stream"
    # Sent mid-stream by a `malformed` reply: truncated JSON with bytes that are not UTF-8.
    garbage = b'data: {"type": "brok\x00\xff\n\n'

    def serves(self, route: str) -> bool:
        raise NotImplementedError

    # --- reading a request ----------------------------------------------------------

    def streams(self, path: str, body: Any) -> bool:
        return bool(isinstance(body, dict) and body.get("stream"))

    def is_model_call(self, route: str) -> bool:
        """False for helper endpoints (token counts) the wire also serves."""
        return True

    def is_agent_turn(self, body: Any) -> bool:
        """A main-loop model call: every CLI offers its tools there, and not in side calls."""
        return isinstance(body, dict) and bool(body.get("tools"))

    def model_of(self, path: str, body: Any) -> str | None:
        return body.get("model") if isinstance(body, dict) else None

    def session_id(self, headers: Mapping[str, str]) -> str | None:
        return None

    def prompt(self, body: Any) -> str:
        return ""

    def system_text(self, body: Any) -> str:
        return ""

    def tool_results(self, body: Any) -> list[dict[str, Any]]:
        return []

    def tool_names(self, body: Any) -> list[str]:
        return []

    def extra_route(self, route: str, raw: bytes) -> dict[str, Any] | None:
        """A JSON answer for a helper endpoint of this wire (token counts), else None."""
        return None

    # --- encoding a reply -------------------------------------------------------------

    def frames(self, reply: Reply, model: str) -> Iterator[bytes]:
        raise NotImplementedError

    def message(self, reply: Reply, model: str) -> dict[str, Any]:
        raise NotImplementedError

    def error_body(self, status: int) -> dict[str, Any]:
        return {"error": {"code": status, "message": f"fake error {status}", "type": "api_error"}}


def usage_of(reply: Reply) -> dict[str, int]:
    return {**DEFAULT_USAGE, **(reply.usage or {})}


def chunks(value: str, size: int) -> list[str]:
    # Split like a real stream does, so the client must reassemble pieces.
    return [value[i : i + size] for i in range(0, len(value), size)] or [""]


def data_frame(data: Any, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()


def texts_of(content: Any, kinds: tuple[str, ...] = ("text",)) -> list[str]:
    """Text of a message's content: a string, or the text blocks of the given types."""
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") in kinds]
