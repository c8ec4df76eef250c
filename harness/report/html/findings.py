"""The structural and refs pages: totals, then every finding (file and line, rule, severity, message)
in a table filtered by severity and rule."""

from __future__ import annotations

from harness.jsonfields import array_at, object_at
from harness.report.html.header import header
from harness.report.html.shell import section, text
from harness.report.html.table import Row, cases_table, token

FIGURES = {
    "structural": ("skills", "datasets", "cases", "errors", "warnings", "known"),
    "refs": ("files", "internal", "urls", "broken", "errors", "warnings", "known"),
}


def head(report: dict) -> str:
    totals = object_at(report, "totals")
    keys = FIGURES.get(str(report.get("command")), ())
    figures = [(key, str(totals.get(key, 0))) for key in keys]
    errors = totals.get("errors", 0)
    gate = "no error finding" if report.get("passed") else f"{errors} error finding(s); any error fails"
    return header(report, figures, gate)


def findings_table(report: dict) -> str:
    rows = []
    for f in array_at(report, "findings"):
        if not isinstance(f, dict):
            continue
        where = f"{f.get('path', '')}:{f.get('line')}" if f.get("line") else str(f.get("path", ""))
        severity = str(f.get("severity", ""))
        cells = [
            text(where),
            text(f.get("rule", "")),
            f'<span class="{"fail" if severity == "error" else "error"}">{text(severity)}</span>',
            f'<span class="wrap">{text(f.get("message", ""))}</span>',
        ]
        rows.append(Row(cells, {"severity": token(severity), "rule": token(str(f.get("rule", "")))}))
    if not rows:
        return section("Findings", "<p>No finding.</p>")
    inner = cases_table(
        "findings",
        ["where", "rule", "severity", "message"],
        rows,
        [("severity", "Severity"), ("rule", "Rule")],
    )
    return section(f"Findings ({len(rows)})", inner)


def sections(report: dict, transcripts: object = None) -> list[str]:
    return [head(report), findings_table(report)]
