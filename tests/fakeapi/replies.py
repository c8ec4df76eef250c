"""What the fake model answers: scripted replies and their wire encodings."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

DEFAULT_USAGE = {
    "input_tokens": 100,
    "output_tokens": 20,
    "cache_creation_input_tokens": 0,
    "cache_read_input_tokens": 0,
}

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

_ids = itertools.count(1)  # unique ids only need to differ, not to be secret


@dataclass(frozen=True)
class ToolUse:
    name: str
    input: dict[str, Any]
    id: str = field(default_factory=lambda: f"toolu_fake{next(_ids):06d}")


@dataclass(frozen=True)
class Reply:
    """One model turn, or one fault in place of it."""

    text: str | None = None
    tool_uses: tuple[ToolUse, ...] = ()
    usage: dict[str, int] | None = None
    status: int | None = None  # answer with this HTTP error instead of a message
    delay_s: float = 0.0  # wait before the first byte
    hang: bool = False  # never answer (until the server stops)
    malformed: bool = False  # break the SSE stream after the first event
    model: str | None = None

    @property
    def stop_reason(self) -> str:
        return "tool_use" if self.tool_uses else "end_turn"

    def with_cwd(self, cwd: str | None) -> Reply:
        """Replace `{{cwd}}` in tool inputs: the Write tool wants absolute paths."""
        if cwd is None or not self.tool_uses:
            return self
        uses = tuple(ToolUse(u.name, _template(u.input, cwd), u.id) for u in self.tool_uses)
        return Reply(
            text=self.text,
            tool_uses=uses,
            usage=self.usage,
            status=self.status,
            delay_s=self.delay_s,
            hang=self.hang,
            malformed=self.malformed,
            model=self.model,
        )


def _template(value: Any, cwd: str) -> Any:
    if isinstance(value, str):
        return value.replace("{{cwd}}", cwd)
    if isinstance(value, dict):
        return {k: _template(v, cwd) for k, v in value.items()}
    if isinstance(value, list):
        return [_template(v, cwd) for v in value]
    return value


# --- constructors used by scripts -------------------------------------------------


def text(message: str, **kw: Any) -> Reply:
    return Reply(text=message, **kw)


def tool_use(name: str, input: dict[str, Any], *, text: str | None = None, **kw: Any) -> Reply:
    return Reply(text=text, tool_uses=(ToolUse(name, input),), **kw)


def skill(name: str, args: str | None = None, **kw: Any) -> Reply:
    payload: dict[str, Any] = {"skill": name}
    if args is not None:
        payload["args"] = args
    return tool_use("Skill", payload, **kw)


def error(status: int, **kw: Any) -> Reply:
    return Reply(status=status, **kw)


def hang() -> Reply:
    return Reply(hang=True)


def malformed() -> Reply:
    return Reply(text="this stream breaks", malformed=True)


DONE = Reply(text="done.")


def as_reply(value: Reply | str | dict[str, Any]) -> Reply:
    """Scripts may use plain strings (text) or dicts (Reply fields)."""
    if isinstance(value, Reply):
        return value
    if isinstance(value, str):
        return Reply(text=value)
    fields = dict(value)
    uses = fields.pop("tool_uses", ())
    if "tool_use" in fields:
        uses = [fields.pop("tool_use")]
    fields["tool_uses"] = tuple(
        u if isinstance(u, ToolUse) else ToolUse(u["name"], u.get("input", {})) for u in uses
    )
    return Reply(**fields)


# --- wire encodings ---------------------------------------------------------------


def error_body(status: int) -> dict[str, Any]:
    kind = ERROR_TYPES.get(status, "api_error")
    message = {529: "Overloaded", 401: "invalid x-api-key"}.get(status, f"fake {kind}")
    return {
        "type": "error",
        "error": {"type": kind, "message": message},
        "request_id": f"req_fake{next(_ids):06d}",
    }


def _usage(reply: Reply) -> dict[str, int]:
    return {**DEFAULT_USAGE, **(reply.usage or {})}


def message_json(reply: Reply, model: str) -> dict[str, Any]:
    """The non-streaming form of a reply."""
    content: list[dict[str, Any]] = []
    if reply.text is not None:
        content.append({"type": "text", "text": reply.text})
    for use in reply.tool_uses:
        content.append({"type": "tool_use", "id": use.id, "name": use.name, "input": use.input})
    return {
        "id": f"msg_fake{next(_ids):06d}",
        "type": "message",
        "role": "assistant",
        "model": reply.model or model,
        "content": content,
        "stop_reason": reply.stop_reason,
        "stop_sequence": None,
        "usage": _usage(reply),
    }


def sse_events(reply: Reply, model: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(event name, data) pairs of a streamed reply, in the API's order."""
    message = message_json(reply, model)
    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    yield "message_start", {"type": "message_start", "message": start}
    yield "ping", {"type": "ping"}
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            yield "content_block_start", _block_start(index, {"type": "text", "text": ""})
            for piece in _chunks(block["text"], 16):
                yield "content_block_delta", _delta(index, {"type": "text_delta", "text": piece})
        else:
            yield "content_block_start", _block_start(index, {**block, "input": {}})
            for piece in _chunks(json.dumps(block["input"]), 12):
                delta = {"type": "input_json_delta", "partial_json": piece}
                yield "content_block_delta", _delta(index, delta)
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": reply.stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": usage["output_tokens"]},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def _block_start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def _delta(index: int, delta: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": delta}


def _chunks(value: str, size: int) -> list[str]:
    # Split like a real stream does, so the client must reassemble pieces.
    return [value[i : i + size] for i in range(0, len(value), size)] or [""]


def sse_frame(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()
