"""Scaffolds nobody finished: text still as `skillscope template` or `skillscope new` wrote it, and
`logs_contain` asserting what the activation itself leaves in the evidence (the skill call's input and
its launch line, which hold the name): any run where the skill fires satisfies it. The SKILL.md text
the activation injects is kept out of the evidence, so a script the instructions name is a fair needle."""

from __future__ import annotations

import json

from harness.checks import CheckOptions
from harness.files import UnreadableFile, packaged_text, present, read_text
from harness.model import findings
from harness.model.catalog import Catalog
from harness.model.dataset import Case
from harness.model.findings import Finding
from harness.model.skill import Skill

# Fields whose template text is a placeholder; a sample file name such as report.md is not.
PLACEHOLDER_FIELDS = ("prompt", "note", "expected_behavior", "unexpected_behavior", "logs_contain")
OWN_NAME_ADVICE = (
    "the evals guide says: never assert your own skill's name in logs_contain; triggering is "
    "already graded properly"
)


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    out: list[Finding] = []
    placeholders = dataset_placeholders()
    skill_lines = skill_placeholders()
    for name, skill in catalog.skills.items():
        out.extend(_policy_leftovers(catalog, skill, options.skill_files))
        rel = catalog.repo.rel(skill.skill_md)
        if skill.description.strip() in skill_lines:
            out.append(_scaffold(rel, skill.key_lines.get("description"), "the description"))
        lines = skill.body.splitlines()
        if not skill_lines.isdisjoint(map(str.strip, lines)):  # most skills: no line to point at
            for offset, line in enumerate(lines):
                if line.strip() in skill_lines:
                    out.append(_scaffold(rel, skill.body_line + offset, "this line of the instructions"))
        for data in catalog.datasets.get(name, []):
            for case in data.cases:
                out.extend(_case_leftovers(case, placeholders))
                out.extend(_activation_echo(case, skill))
    return out


def _policy_leftovers(catalog: Catalog, skill: Skill, wanted: tuple[str, ...]) -> list[Finding]:
    """A policy file (--skill-files) still holding the placeholder `skillscope new` wrote in it."""
    placeholder = packaged_text("data", "POLICY.template.txt").strip()
    out = []
    for name in wanted:
        path = skill.path / name
        try:
            lines = read_text(path).splitlines() if present(path) else []
        except UnreadableFile:
            continue  # the policy check names a file it cannot read
        for number, line in enumerate(lines, 1):
            if line.strip() == placeholder:
                out.append(_scaffold(catalog.repo.rel(path), number, f"this line of {name}"))
    return out


def _case_leftovers(case: Case, placeholders: frozenset[str]) -> list[Finding]:
    out = []
    for field in PLACEHOLDER_FIELDS:
        value = getattr(case, field)  # a Case holds str, None or a list of str here
        texts = [value] if isinstance(value, str) else value or ()
        if not placeholders.isdisjoint(text.strip() for text in texts):
            out.append(
                findings.error(
                    "template-leftover",
                    case.source,
                    f"case `{case.id}` still has the template's {field}; replace it with one written "
                    "for this skill (a scaffold nobody edited grades nothing real).",
                    case.line,
                )
            )
    return out


def _activation_echo(case: Case, skill: Skill) -> list[Finding]:
    """A `logs_contain` needle the activation leaves in the evidence whatever the agent then does: matched
    as the scorer matches (case-insensitive substring) against the name and the launch line."""
    out = []
    for needle in case.logs_contain:
        where = activation_text_holding(needle, skill)
        if where is not None:
            out.append(
                findings.warning(
                    "logs-contain-own-name",
                    case.source,
                    f"case `{case.id}` expects `{needle}` in logs_contain, which {where} holds: the skill "
                    f"call itself prints it whatever the agent then does, so it proves nothing; assert what "
                    f"the skill makes the agent do ({OWN_NAME_ADVICE}).",
                    case.line,
                )
            )
    return out


def activation_text_holding(needle: str, skill: Skill) -> str | None:
    """Which text an activation of `skill` leaves in the evidence holds `needle`, or None."""
    wanted = needle.casefold().strip()
    if not wanted:
        return None
    if wanted in skill.name.casefold():
        return "the skill's own name"
    if wanted in f"launching skill: {skill.name}".casefold():
        return "the activation line"
    return None


def _scaffold(rel: str, line: int | None, what: str) -> Finding:
    return findings.error(
        "template-leftover",
        rel,
        f"{what} is still the scaffold's placeholder; write what this skill does and when to use it.",
        line,
    )


def dataset_placeholders() -> frozenset[str]:
    """Every placeholder string of the dataset template, stripped."""
    data = json.loads(packaged_text("data", "TEMPLATE.json"))
    found: set[str] = set()
    for case in data["evaluations"]:
        for field in PLACEHOLDER_FIELDS:
            value = case.get(field)
            found.update(
                v.strip() for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)
            )
    return frozenset(found)


def skill_placeholders() -> frozenset[str]:
    """The scaffold's placeholder text: its description and each line of its instructions."""
    text = packaged_text("data", "SKILL.template.md")
    _, front, body = text.split("---\n", 2)
    described = {
        line.split(":", 1)[1].strip() for line in front.splitlines() if line.startswith("description:")
    }
    written = {line.strip() for line in body.splitlines() if line.strip() and not line.startswith("#")}
    return frozenset(described | written)
