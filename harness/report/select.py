"""The plan's reports: one line of JSON on stdout (what a CI matrix reads) and a markdown summary."""

from __future__ import annotations

import json

from harness.model.findings import Finding
from harness.report.junit import JUnitCase
from harness.select.result import SelectResult


def line(result: SelectResult) -> str:
    """The whole report as one line: a workflow step captures stdout as a single output."""
    return json.dumps(result.to_json(), separators=(",", ":"))


def markdown(result: SelectResult) -> str:
    plan = result.plan
    lines = [
        "## skillscope plan",
        "",
        f"- harness version: `{plan.version}`",
        f"- routing: {'yes' if plan.routing else 'no'}",
    ]
    for leg in [*plan.default, *plan.scoped]:
        lines.append(f"- behavioral: `{leg.skill}` on {leg.os} (`{leg.runner}`)")
    for skip in plan.skipped:
        lines.append(f"- skipped: `{skip.skill}` on {skip.os}, waiting for the label `{skip.gate}`")
    if plan.no_behavior:
        lines.append(f"- no behavioral case: {', '.join(plan.no_behavior)}")
    return "\n".join(lines) + "\n"


def findings(result: SelectResult) -> list[Finding]:
    return []  # a plan locates nothing in the repo: it grades nothing


def junit(result: SelectResult) -> list[JUnitCase]:
    return []
