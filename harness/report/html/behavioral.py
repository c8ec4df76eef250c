"""The behavioral page: headline, per skill, and the cases, each check with its evidence in their details."""

from __future__ import annotations

from harness.report import columns
from harness.report.behavioral import CASES, PER_SKILL, spent
from harness.report.html import common
from harness.report.html.common import Transcripts
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text
from harness.report.html.table import Row, pre

JUDGED = ("expected_behavior", "unexpected_behavior")
BLOCKED_WHY = {"outside-workspace": "its agent worked outside its workspace, so its run is no evidence"}
FIGURES = {
    "cases passed": "passed/cases",
    "failed": "failed",
    "errored": "errors",
    "blocked": "blocked",
    "expectations met": "checks_passed/checks",
}
FAILURES_FIRST = ("fail", "error", "blocked", "not-run", "pass")


def run_spent(report: dict) -> float | None:
    """What a behavioral run spent now, its agent's runs and its judge's; None when neither said."""
    return spent(report["totals"])


def head(report: dict) -> str:
    totals, counts = report["totals"], report["counts"]
    gate = (
        "every case passed"
        if report["passed"]
        else f"{counts['pass']} of {counts['total']} case(s) passed; every case must"
    )
    cached = common.of_total(totals["cached"], totals["cases"], "cases")
    return header(report, common.tiles(totals, FIGURES), gate, run_spent(report), cached)


def checks_table(case: dict) -> str:
    rows = []
    for check in case["checks"]:
        who = "judge" if check["kind"] in JUDGED else "scorer"
        rows.append(
            "<tr>"
            f"<td>{text(who)}</td><td>{text(check['kind'])}</td>"
            f'<td class="wrap">{text(check["expectation"])}</td>'
            f"<td>{common.word('pass' if check['passed'] else 'fail')}{uncited_mark(check)}</td>"
            f'<td class="wrap">{text(check["detail"])}</td></tr>'
        )
    if not rows:
        return '<p class="muted">No check ran.</p>'
    head = "".join(
        f'<th scope="col">{h}</th>' for h in ("by", "kind", "statement", "met", "evidence or reason")
    )
    return f"<h3>Checks</h3><table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def uncited_mark(check: dict) -> str:
    """A MUST statement the judge passed without citing evidence, marked beside its pass."""
    if check.get("no_evidence") is not True:  # optional: only a judged MUST statement carries it
        return ""
    return ' <span class="muted" title="the judge cited no evidence for this pass">no evidence cited</span>'


def blocked_block(case: dict) -> str:
    reason = case["blocked"]
    if not reason:
        return ""
    lines = [f"call {o['call']}: {o['tool']} {o['kind']} {o['path']}" for o in case["isolation"]]
    why = BLOCKED_WHY.get(reason, reason)
    listed = pre(lines) if lines else ""
    return f'<p class="blocked">Blocked ({text(reason)}): {text(why)}.</p>{listed}'


def cached_mark(plain: str, case: dict) -> str:
    return text(plain) + (' <span class="muted">(cached)</span>' if case["cached"] else "")


def case_row(case: dict, cells: list[str], transcripts: Transcripts) -> Row:
    more = [blocked_block(case), common.error_line(case), checks_table(case)]
    files = case["files"] or {}  # null: the workspace was not read
    touched = [
        f"{kind}: {', '.join(files[kind])}" for kind in ("created", "changed", "removed") if files.get(kind)
    ]
    if touched:
        more.append("<h3>Workspace</h3>" + pre(touched))
    if case["notes"]:
        more.append("<h3>Notes</h3>" + pre(case["notes"]))
    keys = common.filter_keys(case, ("status", "skill"))
    return Row(cells, keys, common.case_details(case, transcripts, more, "checks and details"))


def case_table(report: dict, transcripts: Transcripts, table_id: str = "cases") -> str:
    cases = common.ranked(report["cases"], "status", FAILURES_FIRST)
    heads, cells = common.drawn(CASES, cases, {"case": cached_mark})
    rows = [case_row(c, shown, transcripts) for c, shown in zip(cases, cells, strict=True)]
    filters = [("status", "Status"), ("skill", "Skill")]
    numeric = common.indexes(heads, ("expectations met", "time", "cost"))
    return common.case_section(table_id, "failures", heads, rows, filters, numeric=numeric)


def per_skill(report: dict) -> str:
    rows = columns.rows(PER_SKILL, columns.named(report["per_skill"], "skill"))
    return section("Per skill", simple_table(columns.heads(PER_SKILL), rows, range(1, 7))) if rows else ""


def sections(report: dict, transcripts: Transcripts, table_id: str = "cases") -> list[str]:
    return [head(report), per_skill(report), case_table(report, transcripts, table_id)]
