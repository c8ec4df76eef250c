"""Markdown for the structural check."""

from __future__ import annotations

from harness.report.markdown import findings_table, register
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
    lines.append(findings_table(result.findings, "Every skill is in shape."))
    return "\n".join(lines) + "\n"
