"""The reference check's reports: markdown, the headline and statuses of the text format, located findings
(annotations, text, SARIF) and JUnit."""

from __future__ import annotations

from harness.checks.external import CACHED, EXCLUDED, OK, failure
from harness.checks.result import RefsResult
from harness.model.envelope import FAIL, PASS
from harness.model.findings import Finding
from harness.report import markdown as md
from harness.report.junit import JUnitCase, findings_cases
from harness.report.markdown import adoption_lines, findings_table, table

USES_SHOWN = 5
URL_RULES = ("ref-unreachable", "ref-unchecked")


def markdown(result: RefsResult) -> str:
    totals = result.totals()
    verdict = "passed" if result.passed else "failed"
    lines = ["## Reference check", "", f"**{verdict}**: {headline(result)}.", ""]
    if result.external_checked:
        lines += [
            f"External: {totals['urls']} distinct URL(s): {totals['reachable']} reachable, "
            f"{totals['cached']} from the cache, {totals['excluded']} excluded, "
            f"{totals['broken'] + totals['unchecked']} failing.",
            "",
        ]
    else:
        lines += [f"External URLs were not checked (`--no-external`): {skipped(result)}.", ""]
    lines += adoption_lines(result)
    hint = md.adoption_hint(result)
    lines += [hint, ""] if hint else []
    lines.append(findings_table(result.findings, "Every reference resolves."))
    if result.broken:
        lines += [
            "",
            "### Failing URLs",
            "",
            table(["URL", "why", "used at"], [(u.url, u.detail, used_at(u.uses)) for u in result.broken]),
        ]
    return "\n".join(lines) + "\n"


def headline(result: RefsResult) -> str:
    totals = result.totals()
    external = (
        f"{totals['internal']} internal and {totals['external']} external reference(s)"
        if result.external_checked
        else f"{totals['internal']} internal reference(s), {skipped(result)} (--no-external)"
    )
    return (
        f"{totals['files']} markdown file(s), {external}; {totals['errors']} error(s), "
        f"{totals['warnings']} warning(s)"
    ) + md.adoption_counts(result)


def skipped(result: RefsResult) -> str:
    return f"{result.external_skipped} external reference(s) not checked"


def next_step(result: RefsResult) -> str:
    """The line the text format prints under its summary: how to adopt, on a failed first run."""
    return md.adoption_hint(result)


def statuses(result: RefsResult) -> dict[str, str]:
    """Each external URL fetched: the scan counts markdown files without naming them."""
    return {u.url: PASS if u.outcome in (OK, CACHED) else FAIL for u in result.urls if u.outcome != EXCLUDED}


def used_at(uses) -> str:
    shown = ", ".join(str(u) for u in uses[:USES_SHOWN])
    return shown + (f" and {len(uses) - USES_SHOWN} more" if len(uses) > USES_SHOWN else "")


def findings(result: RefsResult) -> list[Finding]:
    """An unreachable URL is located at every line that uses it, not only the first."""
    located = [f for f in result.findings if f.rule not in URL_RULES]
    for item in result.broken:
        first = failure(item)
        located.extend(
            Finding(
                path=use.path, line=use.line, rule=first.rule, severity=first.severity, message=first.message
            )
            for use in item.uses
        )
    return located


def junit(result: RefsResult) -> list[JUnitCase]:
    """One test case per file holding a finding; a clean run is one passing case."""
    files = {f.path: f.path for f in findings(result) if f.path != "."}
    return findings_cases("refs", files, findings(result))
