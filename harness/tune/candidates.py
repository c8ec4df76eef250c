"""Candidate descriptions: read from a --candidates file, written into a copy of the skill, and screened
by structural's own SKILL.md rules before any token is spent on them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from harness import jsonsafe
from harness.agent.workspace import ANSWER_KEY_DIR, WorkspaceError, copy_tree
from harness.checks.skill_md import check_skill
from harness.errors import UsageError
from harness.files import UnreadableFile, read_text
from harness.json_positions import element_lines
from harness.model import skill as skill_model
from harness.model.skill import Skill

CURRENT, FILE, PROPOSED = "current", "file", "proposed"


@dataclass
class Candidate:
    """One description tried for the skill; `label` names it in every report."""

    label: str
    text: str
    origin: str  # CURRENT, FILE or PROPOSED
    round: int = 0  # 0: the current description and the file's candidates
    rejected: list[dict] = field(default_factory=list)  # structural findings that kept it from running
    folder: Path | None = None  # the skill's copy holding this description, once staged

    def to_json(self) -> dict:
        return {
            "label": self.label,
            "origin": self.origin,
            "round": self.round,
            "description": self.text,
            "rejected": self.rejected,
        }


def read_file(path: Path, shown: str) -> list[str]:
    """The candidates of a --candidates file: a JSON list of strings. Bad input is one sentence naming
    the file, and the line where there is one."""
    try:
        text = read_text(path)
    except UnreadableFile as exc:
        raise UsageError(
            f"--candidates {shown}: cannot read it ({exc.reason}); give a readable file."
        ) from None
    try:
        data = jsonsafe.loads(text, f"--candidates {shown}")
    except jsonsafe.JsonProblem as exc:
        raise UsageError(f"{exc}; write a JSON list of description strings.") from None
    if not isinstance(data, list) or not data:
        raise UsageError(
            f"--candidates {shown}:1: expected a non-empty JSON list of description strings, "
            f"found {type(data).__name__ if data != [] else 'an empty list'}."
        )
    lines = element_lines('{"x": ' + text + "}", "x")
    for index, item in enumerate(data):
        if not isinstance(item, str):
            line = lines[index] if index < len(lines) else 1
            raise UsageError(
                f"--candidates {shown}:{line}: item {index + 1} is {type(item).__name__}, not a string; "
                "each candidate is one description, written as a JSON string."
            )
    return data


def description_span(skill: Skill) -> tuple[int, int]:
    """The 0-based lines [start, end) of SKILL.md's text holding the `description` key and its value
    (a folded or multi-line value runs on until the next unindented line)."""
    lines = skill.text.split("\n")
    start = (skill.line_of("description") or 0) - 1
    if start < 1:
        raise UsageError(f"{skill.name}/SKILL.md has no `description` key to tune; add one first.")
    end = start + 1
    while end < len(lines) and lines[end].rstrip() != "---" and (not lines[end] or lines[end][0] in " \t#"):
        end += 1
    while end - 1 > start and not lines[end - 1].strip():  # blank lines before the next key stay
        end -= 1
    return start, end


def with_description(skill: Skill, text: str) -> str:
    """SKILL.md's text with its description replaced by `text`, every other byte as it was."""
    start, end = description_span(skill)
    lines = skill.text.split("\n")
    line = yaml.safe_dump({"description": text}, allow_unicode=True, width=float("inf")).rstrip("\n")
    return "\n".join([*lines[:start], *line.split("\n"), *lines[end:]])


def stage(skill: Skill, candidate: Candidate, under: Path) -> Candidate:
    """A copy of the skill (without its answer key) under `under/<label>/<name>/` holding the candidate's
    description, screened by structural's SKILL.md rules: errors reject it, with their rules."""
    folder = under / candidate.label / skill.name
    try:  # as the workspace copies it: a pipe or device is refused, never waited on
        copy_tree(skill.path, folder, skip_top=(ANSWER_KEY_DIR,))
    except WorkspaceError as exc:
        raise UsageError(f"cannot stage a candidate of {skill.name}: {exc}.") from None
    (folder / "SKILL.md").write_text(with_description(skill, candidate.text), encoding="utf-8")
    staged = skill_model.load(skill.name, folder)
    rel = f"{skill.name}/SKILL.md"
    # Only what the candidate broke: a finding the skill already had is the gate's business, not its.
    known = {f.rule for f in check_skill(skill, rel)}
    errors = [f for f in check_skill(staged, rel) if f.fails and f.rule not in known]
    candidate.rejected = [{"rule": f.rule, "message": f.message} for f in errors]
    if staged.description != candidate.text and not errors:
        candidate.rejected = [
            {"rule": "description-unreadable", "message": "the description does not read back as written"}
        ]
    candidate.folder = None if candidate.rejected else folder
    return candidate
