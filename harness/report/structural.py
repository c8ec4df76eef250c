"""The structural check's reports, from its JSON report: markdown, the headline and statuses of the text
format, located findings (annotations, text, SARIF) and JUnit."""

from __future__ import annotations

from harness.model.envelope import FAIL, PASS
from harness.model.findings import lies_in
from harness.report import markdown as md

TYPE_CHECKING = False  # typing's flag without importing it
if TYPE_CHECKING:
    from harness.report.junit import JUnitCase


def markdown(report: dict) -> str:
    said = [packaging_line(report), ""] if report.get("packaging") else []
    return md.findings_page(
        "Structural check", report, headline(report), said, "Every skill is in shape.", []
    )


def headline(report: dict) -> str:
    totals = report["totals"]
    return (
        f"{totals['skills']} skill(s), {totals['datasets']} dataset(s), {totals['cases']} case(s); "
        f"{totals['errors']} error(s), {totals['warnings']} warning(s)"
    ) + md.adoption_counts(report)


def next_step(report: dict) -> str:
    """The lines under the text summary: the packaging verdicts, and how to adopt on a failed first run."""
    return "\n".join(line for line in (packaging_line(report), md.adoption_hint(report)) if line)


def packaging_line(report: dict) -> str:
    """`packaging: claude ✓, codex ✗ (manifest in the wrong folder), copilot – (no manifest)`; empty
    when the repo has no manifest."""
    hosts = report.get("packaging") or {}
    return "packaging: " + ", ".join(host_text(host, v) for host, v in hosts.items()) if hosts else ""


def host_text(host: str, verdict: dict) -> str:
    if verdict["status"] == "none":
        return f"{host} – (no manifest)"
    mark = "✓" if verdict["status"] == "pass" else "✗"
    return f"{host} {mark}" + (f" ({verdict['reason']})" if verdict["reason"] else "")


def units(report: dict) -> dict[str, str]:
    """Each skill's root-relative folder (a skill `folders` does not name is the folder of its name)."""
    return {name: report["folders"].get(name, name) for name in report["skills"]}


def statuses(report: dict) -> dict[str, str]:
    """Each skill's status word: `fail` when an error finding lies in its folder."""
    broken = [f for f in md.findings_of(report) if f.fails]
    return {
        name: FAIL if any(lies_in(f, folder) for f in broken) else PASS
        for name, folder in units(report).items()
    }


findings = md.findings_of


def junit(report: dict) -> list[JUnitCase]:
    """One test case per skill, failed by the errors in its folder; findings elsewhere get their own."""
    from harness.report.junit import findings_cases  # with --junit or --format junit only

    return findings_cases("structural", units(report), md.findings_of(report))
