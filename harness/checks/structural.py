"""The structural gate: every offline check, in a plain registry, over the selected skills."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial

from harness.checks import (
    Check,
    CheckOptions,
    collisions,
    datasets,
    leftovers,
    machine,
    policy,
    portable_names,
    quarantine,
    references,
    security_memo,
    skill_md,
    symlinks,
)
from harness.model import findings
from harness.model.catalog import Catalog
from harness.model.findings import Finding
from harness.workers import Prefetch


def optional(module: str, wanted: Callable[[CheckOptions], bool]) -> Check:
    """A check that finds nothing unless `wanted(options)`, its module imported only then: the default
    options (a paid run's gate) turn it off, and its models (listing rules, package manifests) cost a
    gate's start-up more than its checks. `wanted` is the check's one switch: the module's own check
    runs on whatever options reach it, so the condition lives here and nowhere else."""

    def run(catalog: Catalog, options: CheckOptions) -> list[Finding]:
        if not wanted(options):
            return []
        found: list[Finding] = importlib.import_module(module).check(catalog, options)
        return found

    return run


CHECKS: dict[str, Check] = {
    "skill-md": skill_md.check,
    "policy": policy.check,
    "datasets": datasets.check,
    "leftovers": leftovers.check,
    "machine": machine.check,
    "references": references.check,
    "collisions": collisions.check,
    "listing-budget": optional("harness.checks.listing_budget", lambda o: bool(o.listing_agents)),
    "headroom": optional("harness.checks.headroom", lambda o: bool(o.listing_agents)),
    "portable-names": portable_names.check,
    "symlinks": symlinks.check,
    "quarantine": quarantine.check,
    "packaging": optional("harness.checks.packaging", lambda o: o.packaging),
    "security": security_memo.check,
}


def check(catalog: Catalog, options: CheckOptions, ahead: Prefetch | None = None) -> list[Finding]:
    out = list(catalog.repo.problems)
    if not catalog.skills and not options.docs:
        out.append(no_skill(catalog))
    checks = {**CHECKS, "references": partial(references.check, ahead=ahead)} if ahead else CHECKS
    for run in checks.values():
        out.extend(run(catalog, options))
    return findings.ordered(one_unreadable_per_file(out))


def one_unreadable_per_file(found: list[Finding]) -> list[Finding]:
    """Several checks read the same file (skill-card.md is policy's and references'); when it cannot be
    read, the author needs one finding, and the first check's (the more specific rule) is kept."""
    seen: set[str] = set()
    out = []
    for finding in found:
        if finding.rule.endswith("-unreadable"):
            if finding.path in seen:
                continue
            seen.add(finding.path)
        out.append(finding)
    return out


def no_skill(catalog: Catalog) -> Finding:
    """A run that graded nothing must not look green."""
    globs = ", ".join(catalog.repo.globs) or "(none)"
    return findings.error(
        "no-skill",
        ".",
        f"no skill found: no directory matched by --skills-dir {globs} holds a SKILL.md; "
        f"{catalog.repo.where_to_look()} (or set SKILLSCOPE_SKILLS, or skills-dir in skillscope.toml or "
        "pyproject.toml's [tool.skillscope]: `skillscope init` writes it there).",
    )
