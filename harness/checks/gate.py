"""The structural gate a command passes before it ranks or runs anything: no agent is known here, so
the free lexical engine can use it without importing the agent machinery."""

from __future__ import annotations

from harness.checks import CheckOptions
from harness.checks import structural as structural_checks
from harness.context import Context
from harness.errors import HarnessError
from harness.model.baseline import Adoption, first_run_hint
from harness.model.catalog import Catalog
from harness.model.findings import errors_in


def require_well_formed(
    loaded: Catalog, ctx: Context, subject: str, adoption: Adoption, before: str = "spending tokens"
) -> None:
    """Print every structural error of `loaded` and stop; `subject` says which skills they are, `before`
    what the run would do next. The repo's baseline and --warn apply as in `skillscope structural`."""
    problems = errors_in(adoption.apply(structural_checks.check(loaded, CheckOptions())).findings)
    if problems:
        for finding in problems:
            ctx.err(f"  {finding.location}: {finding.message}")
        adopt = "" if adoption.baseline.path else f" {first_run_hint(problems)}"
        raise HarnessError(
            f"{len(problems)} structural error(s) in {subject}; fix them (see "
            f"`skillscope structural`) before {before}.{adopt}"
        )
