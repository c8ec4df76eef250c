"""A logged request, plus readers for what the CLI showed the model in it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

LISTING_HEADER = "The following skills are available for use with the Skill tool:"
_CWD = re.compile(r"Primary working directory: (.+)")
# "- name: description" or "- dir (front-name): description"
_LISTING_LINE = re.compile(r"^- (?P<name>[^\s:()]+(?::[^\s:()]+)?)(?: \((?P<alias>[^)]*)\))?: ")


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    body: Any  # parsed JSON, or None
    started: float
    ended: float | None = None
    reply: Any = None  # the Reply that was sent, when scripted
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def session_id(self) -> str | None:
        return self.headers.get("x-claude-code-session-id")

    @property
    def is_agent_turn(self) -> bool:
        """A main-loop model call: the CLI always sends a `tools` key for those."""
        return (
            self.method == "POST"
            and self.path.split("?")[0] == "/v1/messages"
            and isinstance(self.body, dict)
            and "tools" in self.body
        )

    @property
    def messages(self) -> list[dict[str, Any]]:
        if isinstance(self.body, dict):
            return list(self.body.get("messages") or [])
        return []

    @property
    def prompt(self) -> str:
        """The user's prompt: the first user message minus system reminders."""
        for message in self.messages:
            if message.get("role") == "user":
                texts = _texts(message)
                return "\n".join(t for t in texts if not t.lstrip().startswith("<system-reminder>"))
        return ""

    @property
    def system_text(self) -> str:
        """Everything the CLI put in `role: system` messages inside `messages`."""
        return "\n".join(t for m in self.messages if m.get("role") == "system" for t in _texts(m))

    @property
    def cwd(self) -> str | None:
        match = _CWD.search(self.system_text) or _CWD.search(_all_text(self.body))
        return match.group(1).strip() if match else None

    @property
    def skill_listing(self) -> dict[str, str]:
        return parse_skill_listing(self.system_text)

    @property
    def tool_results(self) -> list[dict[str, Any]]:
        """Every tool_result block sent back so far, oldest first."""
        found = []
        for message in self.messages:
            content = message.get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    found.append(
                        {
                            "tool_use_id": block.get("tool_use_id"),
                            "is_error": bool(block.get("is_error")),
                            "text": _block_text(block.get("content")),
                        }
                    )
        return found

    @property
    def tool_names(self) -> list[str]:
        tools = self.body.get("tools") if isinstance(self.body, dict) else None
        return [t.get("name", "") for t in tools or [] if isinstance(t, dict)]


def parse_skill_listing(text: str) -> dict[str, str]:
    """Skill id (the directory name) -> description, from the CLI's listing block."""
    return {name: desc for name, (_alias, desc) in _parse(text).items()}


def listing_aliases(text: str) -> dict[str, str]:
    """Skill id -> frontmatter name, for entries whose frontmatter name differs."""
    return {name: alias for name, (alias, _desc) in _parse(text).items() if alias}


def _parse(text: str) -> dict[str, tuple[str | None, str]]:
    start = text.find(LISTING_HEADER)
    if start < 0:
        return {}
    entries: dict[str, tuple[str | None, str]] = {}
    current: str | None = None
    for line in text[start + len(LISTING_HEADER) :].splitlines():
        if not line.strip():
            if entries:
                break  # the block ends at the first blank line after its entries
            continue
        match = _LISTING_LINE.match(line)
        if match:
            current = match.group("name")
            entries[current] = (match.group("alias"), line[match.end() :].strip())
        elif current:
            alias, desc = entries[current]  # a description that wraps onto more lines
            entries[current] = (alias, f"{desc} {line.strip()}")
    return entries


def _texts(message: dict[str, Any]) -> list[str]:
    content = message.get("content")
    if isinstance(content, str):
        return [content]
    return [b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text"]


def _block_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
    return ""


def _all_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(_all_text(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(_all_text(v) for v in value)
    return ""
