"""The structural gate a command passes before it ranks or runs anything: no agent is known here, so
the free lexical engine can use it without importing the agent machinery."""

from __future__ import annotations

from harness.checks import CheckOptions
from harness.checks import structural as structural_checks
from harness.context import Context
from harness.errors import HarnessError
from harness.model.baseline import Adoption, first_run_hint
from harness.model.catalog import Catalog
from harness.model.findings import Finding, as_warnings, errors_in

# Reported, never blocking: a lexical collision is a guess at what the paid run itself measures.
REPORTED_ONLY = frozenset({"description-collision"})
# Not the run's concern: a room member without a dataset is installed and listed, and adds no case.
NOT_GATED = frozenset({"dataset-missing"})


def require_well_formed(
    loaded: Catalog, ctx: Context, subject: str, adoption: Adoption, before: str = "spending tokens"
) -> None:
    """Print every structural error of `loaded` and stop; `subject` says which skills they are, `before`
    what the run would do next. The repo's baseline and --warn apply as in `skillscope structural`.
    A description collision is printed as a warning and lets the run go on."""
    found = adoption.apply(structural_checks.check(loaded, CheckOptions())).findings
    problems, reported = gated(found)
    for finding in reported:
        ctx.err(f"  warning: {finding.location}: {finding.rule}: {finding.message}")
    if problems:
        for finding in problems:
            ctx.err(f"  {finding.location}: {finding.message}")
        adopt = "" if adoption.baseline.path else f" {first_run_hint(problems)}"
        raise HarnessError(
            f"{len(problems)} structural error(s) in {subject}; fix them (see "
            f"`skillscope structural`) before {before}.{adopt}"
        )


def gated(found: list[Finding]) -> tuple[list[Finding], list[Finding]]:
    """The errors that stop the run, and the collision errors reported as warnings instead."""
    errors = [f for f in errors_in(found) if f.rule not in NOT_GATED]
    blocking = [f for f in errors if f.rule not in REPORTED_ONLY]
    return blocking, as_warnings(f for f in errors if f.rule in REPORTED_ONLY)
