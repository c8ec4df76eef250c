"""The behavioral page's sections: headline, per skill, and the case table whose details hold each
check (a scorer's or a judge's statement) with its evidence or the judge's reason, and a blocked
case's reason."""

from __future__ import annotations

from harness.jsonfields import array_at, object_at, objects_at
from harness.report.format import DASH, dollars
from harness.report.html.common import (
    PLACE_HEADS,
    Transcripts,
    case_details,
    error_line,
    fields,
    place_cells,
    word,
)
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text
from harness.report.html.table import Row, cases_table, pre, token

JUDGED = ("expected_behavior", "unexpected_behavior")
BLOCKED_WHY = {"outside-workspace": "its agent worked outside its workspace, so its run is no evidence"}


def run_spent(report: dict) -> float | None:
    """What a behavioral run spent now, its agent's runs and its judge's; None when neither said."""
    return spent(object_at(report, "totals"))


def head(report: dict) -> str:
    totals = object_at(report, "totals")
    cost = run_spent(report)
    figures = [
        ("cases passed", f"{totals.get('passed', 0)}/{totals.get('cases', 0)}"),
        ("failed", str(totals.get("failed", 0))),
        ("errors", str(totals.get("errors", 0))),
        ("blocked", str(totals.get("blocked", 0))),
        ("checks met", f"{totals.get('checks_passed', 0)}/{totals.get('checks', 0)}"),
    ]
    counts = object_at(report, "counts")
    gate = (
        "every case passed"
        if report.get("passed")
        else f"{counts.get('pass', 0)} of {counts.get('total', 0)} case(s) passed; every case must"
    )
    cached = totals.get("cached")
    cached_text = f"{cached} of {totals.get('cases', 0)} cases" if isinstance(cached, int) else None
    return header(report, figures, gate, cost, cached_text)


def checks_table(case: dict) -> str:
    rows = []
    for check in objects_at(case, "checks"):
        who = "judge" if check.get("kind") in JUDGED else "scorer"
        rows.append(
            "<tr>"
            f"<td>{text(who)}</td><td>{text(check.get('kind', ''))}</td>"
            f'<td class="wrap">{text(check.get("expectation", ""))}</td>'
            f"<td>{word('pass' if check.get('passed') else 'fail')}{uncited_mark(check)}</td>"
            f'<td class="wrap">{text(check.get("detail", ""))}</td></tr>'
        )
    if not rows:
        return '<p class="muted">No check ran.</p>'
    head = "".join(
        f'<th scope="col">{h}</th>' for h in ("by", "kind", "statement", "met", "evidence or reason")
    )
    return f"<h3>Checks</h3><table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def uncited_mark(check: dict) -> str:
    """A MUST statement the judge passed without citing evidence, marked beside its pass."""
    if check.get("no_evidence") is not True:
        return ""
    return ' <span class="muted" title="the judge cited no evidence for this pass">no evidence cited</span>'


def blocked_block(case: dict) -> str:
    reason = case.get("blocked")
    if not reason:
        return ""
    lines = [
        f"call {o.get('call')}: {o.get('tool')} {o.get('kind')} {o.get('path')}"
        for o in objects_at(case, "isolation")
    ]
    why = BLOCKED_WHY.get(str(reason), str(reason))
    listed = pre(lines) if lines else ""
    return f'<p class="blocked">Blocked ({text(reason)}): {text(why)}.</p>{listed}'


def spent(case: dict) -> float | None:
    """What a case (or the run's totals) spent: its agent's and its judge's; None when neither said."""
    values = [object_at(case, side).get("cost_usd") for side in ("agent", "judge")]
    numbers = [v for v in values if isinstance(v, (int, float))]
    return sum(numbers) if numbers else None


def case_row(case: dict, transcripts: Transcripts) -> Row:
    checks = objects_at(case, "checks")
    met = sum(1 for c in checks if c.get("passed"))
    ident = text(case.get("id", "?")) + (' <span class="muted">(cached)</span>' if case.get("cached") else "")
    cells = [
        ident,
        text(case.get("skill", "")),
        word(case.get("status")),
        text(f"{met}/{len(checks)}"),
        dollars(spent(case), DASH),
        *place_cells(case),
    ]
    more = [blocked_block(case), error_line(case), checks_table(case)]
    files = object_at(case, "files")
    touched = [
        f"{kind}: {', '.join(map(str, array_at(files, kind)))}"
        for kind in ("created", "changed", "removed")
        if array_at(files, kind)
    ]
    if touched:
        more.append("<h3>Workspace</h3>" + pre(touched))
    notes = [str(n) for n in array_at(case, "notes")]
    if notes:
        more.append("<h3>Notes</h3>" + pre(notes))
    keys = {"status": token(str(case.get("status"))), "skill": token(str(case.get("skill")))}
    return Row(cells, keys, case_details(case, transcripts, more, "checks and details"))


def case_table(report: dict, transcripts: Transcripts, table_id: str = "cases") -> str:
    order = {"fail": 0, "error": 1, "blocked": 2, "not-run": 3, "pass": 4}
    cases = sorted(objects_at(report, "cases"), key=lambda c: order.get(str(c.get("status")), 1))
    rows = [case_row(c, transcripts) for c in cases]
    headers = ["case", "skill", "outcome", "checks met", "cost", *PLACE_HEADS]
    filters = [("status", "Outcome"), ("skill", "Skill")]
    inner = cases_table(table_id, headers, rows, filters, numeric=(3, 4))
    return section(f"Cases ({len(rows)}; failures first)", inner, anchor=f"{table_id}-section")


def per_skill(report: dict) -> str:
    rows = [
        [
            name,
            *fields(r, ("cases", "passed", "failed", "errors", "blocked")),
            f"{r.get('checks_passed', 0)}/{r.get('checks', 0)}",
        ]
        for name, r in object_at(report, "per_skill").items()
        if isinstance(r, dict)
    ]
    headers = ["skill", "cases", "passed", "failed", "errors", "blocked", "checks met"]
    return section("Per skill", simple_table(headers, rows, range(1, 7))) if rows else ""


def sections(report: dict, transcripts: Transcripts, table_id: str = "cases") -> list[str]:
    return [head(report), per_skill(report), case_table(report, transcripts, table_id)]
