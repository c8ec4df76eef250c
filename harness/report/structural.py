"""The structural check's reports: markdown, the headline and statuses of the text format, located findings
(annotations, text, SARIF) and JUnit."""

from __future__ import annotations

from harness.checks import packaging
from harness.checks.result import StructuralResult
from harness.model.findings import Finding
from harness.report import markdown as md
from harness.report.junit import JUnitCase, findings_cases


def markdown(result: StructuralResult) -> str:
    verdict = "passed" if result.passed else "failed"
    lines = ["## Structural check", "", f"**{verdict}**: {headline(result)}.", ""]
    if result.packaging:
        lines += [packaging_line(result), ""]
    lines += md.adoption_lines(result)
    hint = md.adoption_hint(result)
    lines += [hint, ""] if hint else []
    lines.append(md.findings_table(result.findings, "Every skill is in shape."))
    return "\n".join(lines) + "\n"


def headline(result: StructuralResult) -> str:
    totals = result.totals()
    return (
        f"{totals['skills']} skill(s), {totals['datasets']} dataset(s), {totals['cases']} case(s); "
        f"{totals['errors']} error(s), {totals['warnings']} warning(s)"
    ) + md.adoption_counts(result)


def next_step(result: StructuralResult) -> str:
    """The lines the text format prints under its summary: each host's packaging verdict, when the repo
    has a manifest, and how to adopt, on a failed first run."""
    return "\n".join(line for line in (packaging_line(result), md.adoption_hint(result)) if line)


def packaging_line(result: StructuralResult) -> str:
    """`packaging: claude ✓, codex ✗ (manifest in the wrong folder), copilot – (no manifest)`."""
    return packaging.line(result.packaging)


def statuses(result: StructuralResult) -> dict[str, str]:
    return result.statuses()


def findings(result: StructuralResult) -> list[Finding]:
    return list(result.findings)


def junit(result: StructuralResult) -> list[JUnitCase]:
    """One test case per skill, failed by the errors in its folder; findings elsewhere get their own."""
    return findings_cases("structural", result.units(), result.findings)
