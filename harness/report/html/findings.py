"""The structural and refs pages: totals, then every finding (file and line, rule, severity, message)
in a table filtered by severity and rule."""

from __future__ import annotations

from harness.jsonfields import object_at, objects_at
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
    totals = object_at(report, "totals")
    keys = FIGURES.get(str(report.get("command")), ())
    figures = [(key, str(totals.get(key, 0))) for key in keys]
    errors = totals.get("errors", 0)
    gate = "no error finding" if report.get("passed") else f"{errors} error finding(s); any error fails"
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
    room = report.get("headroom")
    if not isinstance(room, dict):
        return ""
    rows = []
    for row in objects_at(room, "skills"):
        chars = row.get("headroom")
        said = "no limit" if chars is None else f"{'~' if row.get('approximate') else ''}{chars:+,}"
        cut = ""
        if row.get("survives") is not None:
            cut = f"…{row['survives']} | {row.get('cut_before') or ''}"
        lost = "; ".join(str(c.get("text", "")) for c in objects_at(row, "clauses_lost"))
        agent = str(row.get("agent", "")) + (f" on {row['model']}" if row.get("model") else "")
        rows.append(
            [*fields(row, ["skill"], ""), agent, *fields(row, ["scope", "state"], ""), said, cut, lost]
        )
    install = room.get("install")
    lead = (
        f"<p>Typical install: {text(install.get('given'))} ({text(install.get('skills'))} skills beside the "
        "catalog).</p>"
        if isinstance(install, dict)
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
