"""Markdown for the structural check."""

from __future__ import annotations

from harness.report.markdown import register, table
from harness.results import StructuralResult


@register("structural")
def render(result: StructuralResult) -> str:
    totals = result.totals()
    verdict = "passed" if result.passed else "failed"
    lines = [
        "## Structural check",
        "",
        f"**{verdict}**: {totals['skills']} skill(s), {totals['datasets']} dataset(s), "
        f"{totals['cases']} case(s); {totals['errors']} error(s), {totals['warnings']} warning(s).",
        "",
    ]
    if result.findings:
        lines.append(table(["severity", "where", "rule", "what to fix"],
                           [(f.severity, f.location, f.rule, f.message) for f in result.findings]))
    else:
        lines.append("Every skill is in shape.")
    return "\n".join(lines) + "\n"
