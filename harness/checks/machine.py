"""evals/machine.yml: a mapping of os, labels and runner_type, as machine.schema.json says."""

from __future__ import annotations

from harness.checks import CheckOptions
from harness.model.catalog import Catalog
from harness.model.findings import Finding


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    return [problem for plan in catalog.machines.values() for problem in plan.problems]
