"""The reference check's reports, from its JSON report: markdown, the headline and statuses of the text
format, located findings (annotations, text, SARIF) and JUnit."""

from __future__ import annotations

from dataclasses import replace

from harness.model.envelope import FAIL, PASS
from harness.model.findings import Finding
from harness.report import markdown as md
from harness.report.junit import JUnitCase, findings_cases

USES_SHOWN = 5
URL_RULES = ("ref-unreachable", "ref-unchecked")
FAILING = ("broken", "unchecked")  # a URL's outcomes that are findings
FETCHED_FINE = ("ok", "cached")


def markdown(report: dict) -> str:
    totals = report["totals"]
    if report["external_checked"]:
        said = [
            f"External: {totals['urls']} distinct URL(s): {totals['reachable']} reachable, "
            f"{totals['cached']} from the cache, {totals['excluded']} excluded, "
            f"{totals['broken'] + totals['unchecked']} failing.",
            "",
        ]
    else:
        said = [f"External URLs were not checked (`--no-external`): {skipped(report)}.", ""]
    urls = [(u["url"], u["detail"], used_at(u["uses"])) for u in failing_urls(report)]
    failing = md.section("Failing URLs", ["URL", "why", "used at"], urls)
    return md.findings_page(
        "Reference check", report, headline(report), said, "Every reference resolves.", failing
    )


def headline(report: dict) -> str:
    totals = report["totals"]
    external = (
        f"{totals['internal']} internal and {totals['external']} external reference(s)"
        if report["external_checked"]
        else f"{totals['internal']} internal reference(s), {skipped(report)} (--no-external)"
    )
    return (
        f"{totals['files']} markdown file(s), {external}; {totals['errors']} error(s), "
        f"{totals['warnings']} warning(s)"
    ) + md.adoption_counts(report)


def skipped(report: dict) -> str:
    return f"{report['totals']['not_checked']} external reference(s) not checked"


def next_step(report: dict) -> str:
    """The line the text format prints under its summary: how to adopt, on a failed first run."""
    return md.adoption_hint(report)


def failing_urls(report: dict) -> list[dict]:
    return [u for u in report["urls"] if u["outcome"] in FAILING]


def statuses(report: dict) -> dict[str, str]:
    """Each external URL fetched: the scan counts markdown files without naming them."""
    return {
        u["url"]: PASS if u["outcome"] in FETCHED_FINE else FAIL
        for u in report["urls"]
        if u["outcome"] != "excluded"
    }


def used_at(uses: list[dict]) -> str:
    shown = ", ".join(f"{u['path']}:{u['line']}" for u in uses[:USES_SHOWN])
    return shown + (f" and {len(uses) - USES_SHOWN} more" if len(uses) > USES_SHOWN else "")


def findings(report: dict) -> list[Finding]:
    """An unreachable URL located at every line that uses it, not only at its finding's first."""
    found = md.findings_of(report)
    located = [f for f in found if f.rule not in URL_RULES]
    for item in failing_urls(report):
        named = f"`{item['url']}`"
        first = next((f for f in found if f.rule in URL_RULES and f.message.startswith(named)), None)
        if first is not None:
            located.extend(replace(first, path=use["path"], line=use.get("line")) for use in item["uses"])
    return located


def junit(report: dict) -> list[JUnitCase]:
    """One test case per file holding a finding; a clean run is one passing case."""
    located = findings(report)
    files = {f.path: f.path for f in located if f.path != "."}
    return findings_cases("refs", files, located)
