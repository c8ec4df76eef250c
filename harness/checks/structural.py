"""The structural gate: every offline check, in a plain registry, over the selected skills."""

from __future__ import annotations

from harness import findings
from harness.catalog import Catalog
from harness.checks import Check, CheckOptions, datasets, machine, policy, references, skill_md
from harness.findings import Finding

CHECKS: dict[str, Check] = {
    "skill-md": skill_md.check,
    "policy": policy.check,
    "datasets": datasets.check,
    "machine": machine.check,
    "references": references.check,
}


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    out = list(catalog.repo.problems)
    if not catalog.skills and not options.docs:
        out.append(no_skill(catalog))
    for run in CHECKS.values():
        out.extend(run(catalog, options))
    return findings.ordered(out)


def no_skill(catalog: Catalog) -> Finding:
    """A run that graded nothing must not look green."""
    globs = ", ".join(catalog.repo.globs) or "(none)"
    return findings.error(
        "no-skill", ".", f"no skill found: no directory matched by --skills-dir {globs} holds a SKILL.md; "
        "pass the globs naming your skill folders, such as --skills-dir 'skills/*'.")
