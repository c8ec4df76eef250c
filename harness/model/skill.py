"""Skill: a directory holding SKILL.md, read into frontmatter and body with line numbers."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from harness.files import UnreadableFile, read_text
from harness.memo import Memo

TYPE_CHECKING = False  # typing's flag without importing typing, which parsing a skill does not need
if TYPE_CHECKING:
    from typing import Any

BOM = "\ufeff"


@dataclass
class Skill:
    """A parsed SKILL.md. `problem` says why the frontmatter could not be read, if it could not.

    Parsing never raises: checks turn `problem` into findings, graders refuse to install.
    """

    name: str
    path: Path
    text: str = ""
    has_bom: bool = False
    frontmatter: object = None
    key_lines: dict[str, int] = field(default_factory=dict)
    body: str = ""
    body_line: int = 1
    problem: str | None = None
    problem_rule: str | None = None
    problem_line: int | None = None

    @cached_property
    def skill_md(self) -> Path:  # kept: several checks ask for it, a thousand skills at a time
        return self.path / "SKILL.md"

    @property
    def description(self) -> str:
        data = self.frontmatter if isinstance(self.frontmatter, dict) else {}
        value = data.get("description")
        return value if isinstance(value, str) else ""

    def line_of(self, key: str) -> int | None:
        return self.key_lines.get(key)


def load(name: str, path: Path, memo: Memo | None = None) -> Skill:
    """The skill's SKILL.md read into a Skill; the frontmatter's YAML comes from `memo` when the same
    text was read before (see `frontmatter`)."""
    skill = Skill(name=name, path=path)
    try:
        text = read_text(skill.skill_md)
    except UnreadableFile as exc:
        return _fail(skill, "skill-md-unreadable", f"SKILL.md cannot be read: {exc.reason}.", None)
    if text.startswith(BOM):
        skill.has_bom = True
        text = text[len(BOM) :]
    skill.text = text
    # Lines end at "\n" only (a CRLF's "\r" is stripped below), as agents read them: splitlines()
    # would also end them at a lone "\r", "\x0c" or "\u2028" and see a frontmatter agents do not.
    lines = [line.removesuffix("\r") for line in text.removesuffix("\n").split("\n")]
    if not text.strip():
        return _fail(
            skill,
            "skill-md-empty",
            "SKILL.md is empty; give it a `---` frontmatter block with `name` and `description`, "
            "then the instructions.",
            None,
        )
    if lines[0].rstrip() != "---":
        return _fail(
            skill,
            "frontmatter-missing",
            "SKILL.md must open with a `---` line starting a YAML frontmatter block; "
            "without it no agent sees a name or description, so the skill never loads.",
            1,
        )
    closing = next((i for i, line in enumerate(lines[1:], start=1) if line.rstrip() == "---"), None)
    if closing is None:
        return _fail(
            skill,
            "frontmatter-unclosed",
            "the frontmatter block is never closed; add a line holding only `---` after the last key.",
            1,
        )
    read = frontmatter("\n".join(lines[1:closing]), memo)
    if "problem" in read:
        message, line = read["problem"]
        line = line + 1 if line else 2
        rule = "frontmatter-alias" if "alias" in message else "frontmatter-yaml"
        return _fail(skill, rule, f"the frontmatter is not valid YAML: {message}.", line)
    skill.frontmatter = read["data"]
    skill.key_lines = {key: line + 1 for key, line in read["key_lines"].items()}
    skill.body = "\n".join(lines[closing + 1 :])
    skill.body_line = closing + 2
    return skill


def _fail(skill: Skill, rule: str, message: str, line: int | None) -> Skill:
    skill.problem, skill.problem_rule, skill.problem_line = message, rule, line
    return skill


def frontmatter(text: str, memo: Memo | None) -> dict[str, Any]:
    """{"data", "key_lines"} or {"problem": [message, line]} for a frontmatter's YAML. Kept in `memo` only
    when JSON gives back exactly what PyYAML made (a date or a non-string key stays unmemoized), so a
    memoized read and a fresh one are the same."""
    key = memo.key(text) if memo is not None else ""
    known = memo.get(key) if memo is not None else None
    if isinstance(known, dict):
        return known
    from harness import yamlsafe  # on a memo miss only: most commits change no frontmatter

    read: dict[str, Any]
    try:
        document = yamlsafe.load(text)
        read = {"data": document.data, "key_lines": document.key_lines}
    except yamlsafe.YamlProblem as exc:
        read = {"problem": [exc.message, exc.line]}
    if memo is not None and same_through_json(read):
        memo.put(key, read)
    return read


def same_through_json(value: object) -> bool:
    """JSON gives `value` back unchanged: only str, int, bool, finite float and None, in lists and in
    dicts with string keys (a date, a set or an int key would come back as something else)."""
    # type(...) is, not isinstance: a subclass (numpy's float64, an OrderedDict) comes back as its base.
    if value is None or type(value) in (str, int, bool):
        return True
    if type(value) is float:
        return math.isfinite(value)
    if type(value) is list:
        return all(same_through_json(item) for item in value)
    if type(value) is dict:
        return all(type(key) is str and same_through_json(item) for key, item in value.items())
    return False
