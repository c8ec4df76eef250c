"""SKILL.md against the Agent Skills format: frontmatter, name, description, body length."""

from __future__ import annotations

import re

from harness.checks import CheckOptions
from harness.model import findings
from harness.model.catalog import Catalog
from harness.model.findings import Finding
from harness.model.skill import Skill

NAME_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
RESERVED_WORDS = ("anthropic", "claude")
MAX_NAME = 64
MAX_DESCRIPTION = 1024
MAX_COMPATIBILITY = 500
MAX_BODY_LINES = 500
STRING_FIELDS = {
    "license": "`Apache-2.0`",
    "allowed-tools": "`Bash Read` (space-separated)",
    "compatibility": "`Requires Python 3.10+`",
}
KNOWN_KEYS = ("name", "description", "license", "compatibility", "metadata", "allowed-tools")


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    out: list[Finding] = []
    for skill in catalog.skills.values():
        out.extend(check_skill(skill, catalog.repo.rel(skill.skill_md)))
    return out


def check_skill(skill: Skill, rel: str) -> list[Finding]:
    out: list[Finding] = []
    if skill.has_bom:
        out.append(
            findings.error(
                "frontmatter-bom",
                rel,
                "SKILL.md starts with a UTF-8 byte-order mark, which hides the "
                "opening `---` from agents; save the file as UTF-8 without BOM.",
                1,
            )
        )
    if skill.problem:
        out.append(
            findings.error(skill.problem_rule or "frontmatter", rel, skill.problem, skill.problem_line)
        )
        return out
    data = skill.frontmatter
    if not isinstance(data, dict):
        out.append(
            findings.error(
                "frontmatter-not-mapping",
                rel,
                "the frontmatter must be a YAML mapping holding at least `name` and `description`.",
                2,
            )
        )
        return out
    out += _name(skill, data.get("name"), rel)
    out += _description(skill, data.get("description"), rel)
    out += _optional_fields(skill, data, rel)
    out += _body(skill, rel)
    return out


def _name(skill: Skill, name: object, rel: str) -> list[Finding]:
    line = skill.line_of("name") or 2
    if not isinstance(name, str) or not name.strip():
        return [
            findings.error(
                "name-missing",
                rel,
                "frontmatter `name` is missing or not a non-empty "
                f"string; set it to the folder name, `{skill.name}`.",
                line,
            )
        ]
    out = []
    if len(name) > MAX_NAME:
        out.append(
            findings.error(
                "name-too-long",
                rel,
                f"`name` is {len(name)} characters; the format "
                f"allows {MAX_NAME}, so shorten it (and the folder).",
                line,
            )
        )
    if not NAME_PATTERN.match(name):
        shown = name if len(name) <= MAX_NAME else name[:MAX_NAME] + "..."
        out.append(
            findings.error(
                "name-format",
                rel,
                f"`name` is `{shown}`, which is not lowercase-with-"
                "hyphens; use letters a-z, digits and single hyphens between them.",
                line,
            )
        )
    for word in RESERVED_WORDS:
        if word in name.lower():
            out.append(
                findings.error(
                    "name-reserved",
                    rel,
                    f"`name` contains `{word}`, a word agent runtimes reserve; choose a name without it.",
                    line,
                )
            )
    if name != skill.name:
        out.append(
            findings.error(
                "name-mismatch",
                rel,
                f"`name` is `{name}` but the folder is "
                f"`{skill.name}`; the folder name is the skill's identity, so make "
                "the two agree.",
                line,
            )
        )
    return out


def _description(skill: Skill, description: object, rel: str) -> list[Finding]:
    line = skill.line_of("description") or 2
    if not isinstance(description, str) or not description.strip():
        return [
            findings.error(
                "description-missing",
                rel,
                "frontmatter `description` is missing or empty; "
                "it is all an agent sees when deciding whether to use the skill, so say "
                "what it does and when to use it.",
                line,
            )
        ]
    if len(description) > MAX_DESCRIPTION:
        return [
            findings.error(
                "description-too-long",
                rel,
                f"`description` is {len(description)} "
                f"characters; the format allows {MAX_DESCRIPTION}, so move detail into "
                "the body.",
                line,
            )
        ]
    return []


def _optional_fields(skill: Skill, data: dict, rel: str) -> list[Finding]:
    out = []
    for key, example in STRING_FIELDS.items():
        if key in data and not isinstance(data[key], str):
            out.append(
                findings.error(
                    "field-type",
                    rel,
                    f"`{key}` must be a string, such as {example}; quote it or write it on one line.",
                    skill.line_of(key),
                )
            )
    compatibility = data.get("compatibility")
    if isinstance(compatibility, str) and len(compatibility) > MAX_COMPATIBILITY:
        out.append(
            findings.error(
                "compatibility-too-long",
                rel,
                f"`compatibility` is {len(compatibility)} "
                f"characters; the format allows {MAX_COMPATIBILITY}, so keep it to the "
                "environment the skill needs.",
                skill.line_of("compatibility"),
            )
        )
    metadata = data.get("metadata")
    if "metadata" in data and not (
        isinstance(metadata, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items())
    ):
        out.append(
            findings.error(
                "field-type",
                rel,
                "`metadata` must be a mapping of string keys to string values; quote numbers and dates.",
                skill.line_of("metadata"),
            )
        )
    unknown = [str(key) for key in data if key not in KNOWN_KEYS]
    if unknown:
        out.append(
            findings.warning(
                "unknown-key",
                rel,
                f"frontmatter has key(s) the format does not define: "
                f"{', '.join(unknown)}; agents may ignore them.",
                skill.line_of(unknown[0]),
            )
        )
    return out


def _body(skill: Skill, rel: str) -> list[Finding]:
    lines = skill.body.splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    lines = lines[start:]
    if len(lines) > MAX_BODY_LINES:
        return [
            findings.warning(
                "body-too-long",
                rel,
                f"the body is {len(lines)} lines; the specification recommends at most "
                f"{MAX_BODY_LINES}, so move reference material into sibling files and link "
                "to them.",
                skill.body_line,
            )
        ]
    return []
