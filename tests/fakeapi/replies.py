"""What the fake model answers: scripted replies, whatever wire protocol carries them."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

DEFAULT_USAGE = {
    "input_tokens": 100,
    "output_tokens": 20,
    "cache_creation_input_tokens": 0,
    "cache_read_input_tokens": 0,
}

_ids = itertools.count(1)  # unique ids only need to differ, not to be secret


def next_id() -> str:
    return f"{next(_ids):06d}"


@dataclass(frozen=True)
class ToolUse:
    name: str
    input: dict[str, Any]
    id: str = field(default_factory=lambda: f"toolu_fake{next_id()}")


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
    cut_short: bool = False  # end the stream after its first event, as an overloaded server may
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
            cut_short=self.cut_short,
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


def skill_for(agent: str, name: str, **kw: Any) -> Reply:
    """The call by which `agent`'s model picks the skill `name`, in that CLI's own tool.

    Codex has no skill tool: its model reads the listed SKILL.md with a shell command.
    """
    if agent == "claude":
        return skill(name, **kw)
    if agent == "codex":
        path = f"{{{{cwd}}}}/.agents/skills/{name}/SKILL.md"
        return tool_use("exec_command", {"cmd": f"cat {path}"}, **kw)
    tool, key = SKILL_TOOLS[agent]
    return tool_use(tool, {key: name}, **kw)


# The skill tool and its name argument, per agent CLI that has one.
SKILL_TOOLS = {
    "claude": ("Skill", "skill"),
    "copilot": ("skill", "skill"),
    "gemini": ("activate_skill", "name"),
    "opencode": ("skill", "name"),
}


def error(status: int, **kw: Any) -> Reply:
    return Reply(status=status, **kw)


def hang() -> Reply:
    return Reply(hang=True)


def malformed() -> Reply:
    return Reply(text="this stream breaks", malformed=True)


def cut_short() -> Reply:
    """A reply whose stream stops after its first piece: no closing frame, no finish reason."""
    return Reply(text="this answer is cut short before it ends", cut_short=True)


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


def by_model(table: dict[str, Any], default: Any = None) -> Any:
    """A router answering by the model id the request names: `{model id: reply, or a function of the
    request giving one}`; another model gets `default` (None: the script's fallback)."""

    def answer(request: Any) -> Any:
        value = table.get(request.model, default)
        return value(request) if callable(value) else value

    return answer
