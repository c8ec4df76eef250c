"""The security rule pack's registry: each rule id and the module reading for it, and the scan that
runs them all over a skill."""

from __future__ import annotations

from collections.abc import Callable

from harness.checks import CheckOptions
from harness.checks.security import (
    content,
    credentials,
    encoded,
    exfiltration,
    fetch_execute,
    hidden_directive,
    hidden_unicode,
    mismatch,
    opaque,
    override,
    padding,
    permissions,
)
from harness.model.catalog import Catalog
from harness.model.findings import Finding
from harness.model.skill import Skill
from harness.model.skill_tree import SkillTree

Rule = Callable[[content.SkillContent], list[Finding]]
# rule id -> the module reading for it (opaque reports two ids: opaque-file and not-scanned).
RULES: dict[str, Rule] = {
    hidden_unicode.RULE: hidden_unicode.scan,
    hidden_directive.RULE: hidden_directive.scan,
    override.RULE: override.scan,
    fetch_execute.RULE: fetch_execute.scan,
    exfiltration.RULE: exfiltration.scan,
    credentials.RULE: credentials.scan,
    encoded.RULE: encoded.scan,
    padding.RULE: padding.scan,
    opaque.OPAQUE: opaque.scan,
    permissions.RULE: permissions.scan,
    mismatch.RULE: mismatch.scan,
}
RULE_IDS = (*RULES, opaque.NOT_SCANNED)


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    out: list[Finding] = []
    searches = content.Seen()  # a file shipped by several skills is searched once
    for name, skill in catalog.skills.items():
        out.extend(scan_skill(skill, catalog.repo.rel, searches, catalog.tree(name)))
    return out


def scan_skill(
    skill: Skill,
    rel: Callable[..., str],
    searches: content.Seen | None = None,
    tree: SkillTree | None = None,
) -> list[Finding]:
    """Every rule of the pack over one skill's files (`searches`: the run's store of pattern searches;
    `tree`: the run's listing of the folder)."""
    return scan_content(content.load(skill, rel, searches, tree))


def scan_content(read: content.SkillContent) -> list[Finding]:
    """Every rule of the pack over one skill's files as `content.load` read them."""
    return [finding for rule in RULES.values() for finding in rule(read)]
