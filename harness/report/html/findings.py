"""The structural and refs pages: totals, then every finding (file and line, rule, severity, message)
in a table filtered by severity and rule."""

from __future__ import annotations

from harness.model.findings import Finding
from harness.report import markdown as md
from harness.report.html.common import Mark, drawn, fields
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text
from harness.report.html.table import Row, cases_table, token

FIGURES = {
    "structural": ("skills", "datasets", "cases", "errors", "warnings", "known"),
    "refs": ("files", "internal", "urls", "broken", "errors", "warnings", "known"),
}


def head(report: dict) -> str:
    totals = report["totals"]
    figures = [(key, str(totals.get(key, 0))) for key in FIGURES[report["command"]]]  # known: optional
    errors = totals["errors"]
    gate = "no error finding" if report["passed"] else f"{errors} error finding(s); any error fails"
    return header(report, figures, gate)


def findings_table(report: dict) -> str:
    found = md.findings_of(report)
    if not found:
        return section("Findings", "<p>No finding.</p>")
    heads, cells = drawn(md.FINDINGS, found, MARKS)
    rows = [
        Row(shown, {"severity": token(f.severity), "rule": token(f.rule)})
        for f, shown in zip(found, cells, strict=True)
    ]
    inner = cases_table("findings", heads, rows, [("severity", "Severity"), ("rule", "Rule")])
    return section(f"Findings ({len(rows)})", inner)


def severity_mark(plain: str, found: Finding) -> str:
    return f'<span class="{"fail" if found.severity == "error" else "error"}">{text(plain)}</span>'


MARKS: dict[str, Mark] = {
    "severity": severity_mark,
    "what to fix": lambda plain, found: f'<span class="wrap">{text(plain)}</span>',
}


def headroom_table(report: dict) -> str:
    """structural: each skill's description headroom per agent, in the catalog and at the typical install."""
    room = report.get("headroom")  # optional: a refs report, or structural without listing figures
    if room is None:
        return ""
    rows = []
    for row in room["skills"]:
        chars = row["headroom"]
        said = "no limit" if chars is None else f"{'~' if row['approximate'] else ''}{chars:+,}"
        cut = ""
        if row["survives"] is not None:
            cut = f"…{row['survives']} | {row['cut_before'] or ''}"
        lost = "; ".join(c["text"] for c in row["clauses_lost"])
        agent = row["agent"] + (f" on {row['model']}" if row["model"] else "")
        rows.append([row["skill"], agent, *fields(row, ["scope", "state"]), said, cut, lost])
    install = room["install"]
    lead = (
        f"<p>Typical install: {text(install['given'])} ({text(install['skills'])} skills beside the "
        "catalog).</p>"
        if install is not None
        else "<p>The catalog alone (declare a typical install with --typical-install).</p>"
    )
    headers = [
        "skill",
        "agent",
        "scope",
        "listed",
        "headroom (characters)",
        "cut: last words | lost",
        "lost clause",
    ]
    return section("Description headroom", lead + simple_table(headers, rows, (4,)), "headroom")


def sections(report: dict, transcripts: object = None) -> list[str]:
    return [head(report), findings_table(report), headroom_table(report)]
