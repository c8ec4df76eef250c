"""evals/machine.yml: a mapping of os, labels and runner_type, as machine.schema.json says."""

from __future__ import annotations

from harness.catalog import Catalog
from harness.checks import CheckOptions
from harness.findings import Finding


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    return [problem for plan in catalog.machines.values() for problem in plan.problems]
