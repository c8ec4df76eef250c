"""evals/machine.yml: the hardware a skill's behavioral run needs."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from harness import schemas
from harness.files import UnreadableFile, present, read_text
from harness.memo import Memo
from harness.model import findings

TYPE_CHECKING = False  # typing's flag without importing typing, which reading a machine.yml does not need
if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

FILENAME = "machine.yml"


@dataclass
class MachinePlan:
    """What a skill's evals/machine.yml asks of the runner of its behavioral legs."""

    os: list[str] | None = None
    labels: list[str] = field(default_factory=list)
    runner_type: str | None = None
    agents: list[str] | None = None  # the agent CLIs this skill's behavioral legs run on
    problems: list[findings.Finding] = field(default_factory=list)

    @property
    def scoped(self) -> bool:
        return bool(self.labels)


def load(path: Path, rel: str, memo: Memo | None = None) -> MachinePlan:
    """A missing file means the defaults; a broken one is findings, never an exception. A valid plan is
    kept in `memo` by its text, so an unchanged machine.yml costs neither PyYAML nor the schema."""
    plan = MachinePlan()
    if not present(path):
        return plan
    try:
        text = read_text(path)
    except UnreadableFile as exc:
        plan.problems.append(findings.error("machine-unreadable", rel, f"cannot be read: {exc.reason}."))
        return plan
    key = memo.key(FILENAME, text) if memo is not None else ""
    known = memo.get(key) if memo is not None else None
    if isinstance(known, dict):
        return MachinePlan(**known)
    read(text, rel, plan)
    if memo is not None and not plan.problems:
        memo.put(key, {name: getattr(plan, name) for name in KEPT})
    return plan


# The fields of a valid plan, as the memo keeps them.
KEPT = ("os", "labels", "runner_type", "agents")


def read(text: str, rel: str, plan: MachinePlan) -> None:
    """Fill `plan` from a machine.yml's text, or add the findings that say why it cannot be."""
    from harness import yamlsafe  # PyYAML only for a repo that has a machine.yml (or a new frontmatter)

    try:
        document = yamlsafe.load(text)
    except yamlsafe.YamlProblem as exc:
        plan.problems.append(
            findings.error("machine-yaml", rel, f"is not valid YAML: {exc.message}.", exc.line)
        )
        return
    data = document.data
    if not isinstance(data, dict):
        plan.problems.append(
            findings.error(
                "machine-schema",
                rel,
                "must be a YAML mapping with any of `os`, `labels`, `runner_type`, `agents`.",
                1,
            )
        )
        return
    for error in schemas.errors("machine", data):
        key = str(error.absolute_path[0]) if error.absolute_path else _first_unknown(error)
        plan.problems.append(
            findings.error(
                "machine-schema", rel, _explain(error, key), document.key_lines.get(key) if key else None
            )
        )
    if plan.problems:
        return
    plan.os = data.get("os")
    plan.labels = data.get("labels") or []
    plan.runner_type = data.get("runner_type")
    plan.agents = list(dict.fromkeys(data["agents"])) if data.get("agents") else None


def _first_unknown(error: ValidationError) -> str | None:
    if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
        return None
    return next((str(k) for k in error.instance if k not in schemas.declared_properties(error)), None)


def _explain(error: ValidationError, key: str | None) -> str:
    if error.validator == "additionalProperties":
        # YAML keys may be numbers, dates or null: named as text, so they sort and join.
        instance = error.instance if isinstance(error.instance, dict) else {}  # always an object here
        extra = sorted({str(k) for k in instance} - set(schemas.declared_properties(error)))
        known = "os, labels, runner_type and agents"
        return f"has unknown key(s) {', '.join(extra)}; a machine.yml holds only {known}."
    if key in ("os", "labels"):
        return f"`{key}` must be a non-empty list of non-empty strings, such as [Linux]."
    if key == "agents":
        return "`agents` must be a non-empty list of claude, copilot, codex, gemini or opencode."
    if key == "runner_type":
        return "`runner_type` must be a non-empty string naming a kind of machine the repo defines."
    return f"is invalid: {error.message}."
