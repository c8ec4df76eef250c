"""The plan's reports, from its JSON report: one line of JSON on stdout (what a CI matrix reads), a
markdown summary, and the headline `show --format text` prints."""

from __future__ import annotations

import json

from harness.model.findings import Finding
from harness.report.junit import JUnitCase


def line(report: dict) -> str:
    """The whole report as one line: a workflow step captures stdout as a single output."""
    return json.dumps(report, separators=(",", ":"))


def markdown(report: dict) -> str:
    lines = [
        "## skillscope plan",
        "",
        f"- harness version: `{report['version']}`",
        f"- routing: {'yes' if report['routing'] else 'no'}",
    ]
    for leg in [*report["default"], *report["scoped"]]:
        lines.append(f"- behavioral: `{leg['skill']}` on {leg['os']} (`{leg['runner']}`)")
    for skip in report["skipped"]:
        lines.append(f"- skipped: `{skip['skill']}` on {skip['os']}, waiting for the label `{skip['gate']}`")
    if report["no_behavior"]:
        lines.append(f"- no behavioral case: {', '.join(report['no_behavior'])}")
    return "\n".join(lines) + "\n"


def headline(report: dict) -> str:
    legs = len(report["default"]) + len(report["scoped"])
    return (
        f"routing {'yes' if report['routing'] else 'no'}; {legs} behavioral leg(s), "
        f"{len(report['skipped'])} waiting for a label"
    )


def statuses(report: dict) -> dict[str, str]:
    return {}  # a plan grades nothing


def findings(report: dict) -> list[Finding]:
    return []  # a plan locates nothing in the repo: it grades nothing


def junit(report: dict) -> list[JUnitCase]:
    return []
