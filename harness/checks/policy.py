"""Repo policy: files every skill ships (--skill-files) and the sections they hold (--skill-sections)."""

from __future__ import annotations

from pathlib import PurePosixPath

from harness.checks import CheckOptions
from harness.files import UnreadableFile, present, read_text
from harness.markdown import budget
from harness.model import findings
from harness.model.catalog import Catalog
from harness.model.findings import Finding

MARKDOWN_SUFFIXES = (".md", ".markdown")


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    out: list[Finding] = []
    for skill in catalog.skills.values():
        for wanted in options.skill_files:
            path = skill.path / wanted
            rel = catalog.repo.rel(path)
            if not present(path):
                out.append(
                    findings.error(
                        "skill-file-missing",
                        catalog.repo.rel(skill.path),
                        f"no `{wanted}`, which every skill in this repo has to ship; add {rel}.",
                    )
                )
            elif options.skill_sections and PurePosixPath(wanted).suffix.lower() in MARKDOWN_SUFFIXES:
                out.extend(_sections(path, rel, options.skill_sections))
    return out


def _sections(path, rel: str, wanted: tuple[str, ...]) -> list[Finding]:
    from harness.markdown import sections  # only a repo asking for sections (--skill-sections) reads them

    try:
        text = read_text(path)
    except UnreadableFile as exc:
        return [findings.error("skill-file-unreadable", rel, f"cannot be read: {exc.reason}.")]
    try:
        found = {s.title.lower(): s for s in sections.sections(text) if s.level == 2}
    except budget.TooManyLinkMarks:
        return []  # a markdown file in the skill: the references check reports it, once

    out = []
    for title in wanted:
        section = found.get(title.strip().lower())
        if section is None:
            out.append(
                findings.error("section-missing", rel, f"no `## {title}` section; add one with its content.")
            )
        elif not section.has_content:
            out.append(
                findings.error(
                    "section-empty",
                    rel,
                    f"the `## {title}` section is empty; write something under it.",
                    section.line,
                )
            )
    return out
