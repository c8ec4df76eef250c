"""A logged request, plus readers for what the CLI showed the model in it.

The readers ask the request's wire protocol where things are, so one router
works for every agent CLI: prompt, system text, skill listing, tool results.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .wires import ANTHROPIC, Wire, wire_for

LISTING_HEADER = "The following skills are available for use with the Skill tool:"
# Where each CLI states its working directory: claude, Codex, Copilot, OpenCode, Gemini.
_CWDS = (
    re.compile(r"Primary working directory: (.+)"),
    re.compile(r"<cwd>([^<]+)</cwd>"),
    re.compile(r"Current working directory: (.+)"),
    re.compile(r"Working directory: (.+)"),
    re.compile(r"Workspace Directories:\*\*\n\s*- (.+)"),
)
# "- name: description" or "- dir (front-name): description"
_LISTING_LINE = re.compile(r"^- (?P<name>[^\s:()]+(?::[^\s:()]+)?)(?: \((?P<alias>[^)]*)\))?: ")
# Copilot, Gemini and OpenCode: <skill><name>..</name><description>..</description><location>..</location>
_XML_SKILL = re.compile(
    r"<skill>\s*<name>(?P<name>[^<]*)</name>\s*<description>(?P<desc>.*?)</description>"
    r"(?:\s*<location>(?P<location>[^<]*)</location>)?",
    re.S,
)
# Codex: "- name: description (file: r3/name/SKILL.md)" under "### Available skills", with root aliases.
_CODEX_ROOT = re.compile(r"^- `(?P<alias>r\d+)` = `(?P<path>[^`]+)`", re.M)
# A plugin's skill is listed `<plugin>:<skill>`: the name ends at the first `: `.
_CODEX_SKILL = re.compile(r"^- (?P<name>[^\s:]+(?::[^\s:]+)?): (?P<desc>.*) \(file: (?P<file>[^)]+)\)$", re.M)


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
    def wire(self) -> Wire:
        return wire_for(self.path) or ANTHROPIC

    @property
    def route(self) -> str:
        return self.path.split("?")[0]

    @property
    def model(self) -> str | None:
        """The model id the CLI asked for (in the body, or Gemini's path)."""
        return self.wire.model_of(self.path, self.body)

    @property
    def session_id(self) -> str | None:
        return self.wire.session_id(self.headers)

    @property
    def is_agent_turn(self) -> bool:
        """A main-loop model call: every CLI offers its tools there and not in side calls."""
        wire = wire_for(self.path)
        return (
            self.method == "POST"
            and wire is not None
            and wire.is_model_call(self.route)
            and wire.is_agent_turn(self.body)
        )

    @property
    def messages(self) -> list[dict[str, Any]]:
        if isinstance(self.body, dict):
            return list(
                self.body.get("messages") or self.body.get("input") or self.body.get("contents") or []
            )
        return []

    @property
    def prompt(self) -> str:
        """The user's prompt, without what the CLI adds around it (reminders, context)."""
        return self.wire.prompt(self.body)

    @property
    def system_text(self) -> str:
        """What the CLI told the model as system or developer instructions."""
        return self.wire.system_text(self.body)

    @property
    def cwd(self) -> str | None:
        for text in (self.system_text, _all_text(self.body)):
            for pattern in _CWDS:
                match = pattern.search(text)
                if match:
                    return match.group(1).strip()
        return None

    @property
    def skill_listing(self) -> dict[str, str]:
        """Skill name -> description, in whichever form this CLI lists skills."""
        text = self.system_text
        return parse_skill_listing(text) or xml_listing(text) or codex_listing(text)

    @property
    def skill_files(self) -> dict[str, str]:
        """Skill name -> the SKILL.md path the listing gives, where it gives one."""
        text = self.system_text
        return {name: path for name, (_desc, path) in (_xml(text) or _codex(text)).items() if path}

    @property
    def tool_results(self) -> list[dict[str, Any]]:
        """Every tool result sent back so far, oldest first: tool_use_id, is_error, text."""
        return self.wire.tool_results(self.body)

    @property
    def tool_names(self) -> list[str]:
        return self.wire.tool_names(self.body)


def parse_skill_listing(text: str) -> dict[str, str]:
    """Skill id (the directory name) -> description, from claude's listing block."""
    return {name: desc for name, (_alias, desc) in _parse(text).items()}


def listing_aliases(text: str) -> dict[str, str]:
    """Skill id -> frontmatter name, for entries whose frontmatter name differs."""
    return {name: alias for name, (alias, _desc) in _parse(text).items() if alias}


def xml_listing(text: str) -> dict[str, str]:
    """Name -> description from an `<available_skills>` block (Copilot, Gemini, OpenCode)."""
    return {name: desc for name, (desc, _path) in _xml(text).items()}


def codex_listing(text: str) -> dict[str, str]:
    """Name -> description from Codex's `### Available skills` list."""
    return {name: desc for name, (desc, _path) in _codex(text).items()}


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


def _xml(text: str) -> dict[str, tuple[str, str | None]]:
    start = text.find("<available_skills>")
    if start < 0:
        return {}
    end = text.find("</available_skills>", start)
    block = text[start : end if end >= 0 else len(text)]
    found = {}
    for match in _XML_SKILL.finditer(block):
        location = (match.group("location") or "").strip()
        found[match.group("name").strip()] = (
            " ".join(match.group("desc").split()),
            location if location.startswith("/") else None,
        )
    return found


def _codex(text: str) -> dict[str, tuple[str, str | None]]:
    start = text.find("### Available skills")
    if start < 0:
        return {}
    roots = {m.group("alias"): m.group("path") for m in _CODEX_ROOT.finditer(text)}
    found = {}
    for match in _CODEX_SKILL.finditer(text[start:]):
        alias, _, rest = match.group("file").partition("/")
        path = f"{roots[alias]}/{rest}" if alias in roots else match.group("file")
        found[match.group("name").strip()] = (match.group("desc").strip(), path)
    return found


def _all_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(_all_text(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(_all_text(v) for v in value)
    return ""
