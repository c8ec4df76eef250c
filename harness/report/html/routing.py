"""The routing page (agent and lexical engines): headline, confusion matrix, per skill, by category, cases."""

from __future__ import annotations

from collections.abc import Mapping

from harness.jsonfields import array_at, object_at, objects_at
from harness.report import columns, routing, routing_lexical
from harness.report.format import percent
from harness.report.html import common, matrix
from harness.report.html.common import Transcripts
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text
from harness.report.html.table import Row, collapsed, pre, token


def head(report: dict) -> str:
    totals, meta, gate = object_at(report, "totals"), object_at(report, "meta"), object_at(report, "gate")
    figures = [
        ("correct of graded", f"{totals.get('passed', 0)}/{totals.get('graded', 0)}"),
        ("accuracy", f"{percent(totals.get('accuracy'))}, bar {percent(meta.get('min_accuracy'))}"),
        ("errors (not graded)", str(totals.get("errors", 0))),
        ("activations / expected", f"{totals.get('activations', 0)}/{totals.get('activations_expected', 0)}"),
    ]
    if report.get("engine") != "lexical":
        figures.append(("flaky cases", str(totals.get("flaky", 0))))
        figures.append(("samples", str(totals.get("samples", 0))))
    else:
        rank1 = object_at(totals, "rank1")
        figures.append(("rank 1 of positives", f"{rank1.get('rank1', 0)}/{rank1.get('positives', 0)}"))
    cached = common.of_total(totals.get("cached_samples"), totals.get("samples", 0), "samples")
    return header(report, figures, gate.get("reason"), run_spent(report), cached)


def run_spent(report: dict) -> float | None:
    """What an agent routing run spent now, its canary's run included: $0 when nothing ran now (every
    sample replayed or never started, the canary replayed or skipped); None when its CLI reported no cost."""
    totals = object_at(report, "totals")
    cost = totals.get("cost_usd")
    if isinstance(cost, (int, float)):
        return cost
    planted = object_at(report, "meta").get("canary")
    canary_ran = (
        isinstance(planted, dict)
        and planted.get("stop_reason") is not None
        and not planted.get("cached_from")
    )
    return 0.0 if totals.get("samples_run") == 0 and not canary_ran else None


def observed_key(case: Mapping) -> str:
    if case.get("status") in ("error", "not-run"):
        return matrix.ERROR
    observed = case.get("observed")
    return observed if isinstance(observed, str) and observed else matrix.NONE


def expected_key(case: Mapping) -> str:
    expect = case.get("expect")
    return expect if isinstance(expect, str) and expect else matrix.NONE


def confusion(report: dict, table_id: str) -> str:
    cases = objects_at(report, "cases")
    pairs = [(expected_key(c), observed_key(c)) for c in cases]
    room = [s for s in array_at(object_at(report, "meta"), "room") if isinstance(s, str)]
    if not pairs:
        return ""
    intro = (
        '<p class="muted">Rows: the skill a case expects (or none); columns: the skill the agent '
        "used, none, or error (no decision). Select a cell to list its cases.</p>"
    )
    return section("Confusion matrix", intro + matrix.svg(pairs, room, table_id))


def per_skill(report: dict) -> str:
    lexical = report.get("engine") == "lexical"
    spec = routing_lexical.PER_SKILL if lexical else routing.PER_SKILL
    rows, idle = [], []
    for row in columns.named(object_at(report, "per_skill"), "skill"):
        wanted, fired = row.get("expected", 0), row.get("fired_total", 0)
        if not (lexical or wanted or fired or row.get("fired_when_not_expected") or row.get("missed")):
            idle.append(row["skill"])  # a room member no case expected and none fired: a row of zeros
            continue
        rows.append(columns.cells(spec, row))
    left_out = (
        f'<p class="muted">Not shown: {len(idle)} room skill(s) no case expected and none fired '
        f"({text(', '.join(idle))}).</p>"
        if idle
        else ""
    )
    if not rows:
        return section("Per skill", left_out) if idle else ""
    note = "" if lexical else f'<p class="muted">{text(routing.INTERVALS)}</p>'
    listed = simple_table(columns.heads(spec), rows, numeric=range(1, len(spec)))
    return section("Per skill", listed + note + left_out)


def by_category(report: dict) -> str:
    rows = columns.rows(routing.BY_CATEGORY, columns.named(object_at(report, "by_category"), "category"))
    listed = simple_table(columns.heads(routing.BY_CATEGORY), rows, (1, 2, 3))
    return section(
        "By prompt category", f'<p class="muted">{text(routing.KINDS.replace("`", ""))}</p>{listed}'
    )


def flaky_mark(plain: str, case: dict) -> str:
    return text(plain) + (
        ' <span class="flaky" title="its samples disagreed">flaky</span>' if case.get("flaky") else ""
    )


def verdict_mark(plain: str, case: dict) -> str:
    return f'<span class="{text(case.get("status", ""))}">{text(plain)}</span>'


def case_row(case: dict, cells: list[str], transcripts: Transcripts, lexical: bool) -> Row:
    samples = objects_at(case, "samples")
    more = [common.error_line(case)]
    if len(samples) > 1:
        lines = [
            f"{i}. {s.get('verdict')}: observed {s.get('observed') or 'no skill'}"
            + (f"; error {s['error']}" if s.get("error") else "")
            + (f"; cached from {object_at(s, 'cached_from').get('started_at')}" if s.get("cached") else "")
            for i, s in enumerate(samples, 1)
        ]
        more.append(collapsed(f"{len(samples)} samples", pre(lines)))
    if lexical:
        tops = [
            f"{t.get('skill')}: {t.get('score')} (shares {', '.join(map(str, t.get('shared', [])))})"
            for t in objects_at(case, "top")
        ]
        if tops:
            more.append(collapsed("top-ranked skills", pre(tops)))
    flaky = "flaky" if case.get("flaky") else ""
    verdicts = " ".join(filter(None, [token(str(case.get("verdict"))), flaky]))
    keys = {"verdict": verdicts, **common.filter_keys(case, ("status", "skill"))}
    keys.update(expect=token(expected_key(case)), observed=token(observed_key(case)))
    return Row(cells, keys, common.case_details(case, transcripts, more))


# Each case column's width on the page, by its head (the prompt takes what is left).
WIDTHS = {"case": "13%", "category": "7%", "expected": "8%", "observed": "8%", "verdict": "10%"}
WIDTHS |= {"stop": "5%", "time": "5%", "trigger rate [95%]": "9%", "cost": "6%", "where": "12%"}
WIDTHS |= {"rank": "5%", routing_lexical.TOP: "20%"}


def failures_first(cases: list[dict]) -> list[dict]:
    order = {"fail": 0, "error": 1, "not-run": 2, "pass": 3}
    return sorted(cases, key=lambda c: (order.get(str(c.get("status")), 1), not c.get("flaky")))


def case_table(report: dict, transcripts: Transcripts, table_id: str = "cases") -> str:
    lexical = report.get("engine") == "lexical"
    cases = failures_first(objects_at(report, "cases"))
    spec = routing_lexical.CASES if lexical else routing.CASES
    heads, cells = common.drawn(spec, cases, {"case": flaky_mark, "verdict": verdict_mark})
    rows = [case_row(c, shown, transcripts, lexical) for c, shown in zip(cases, cells, strict=True)]
    filters = [("status", "Status"), ("verdict", "Verdict"), ("skill", "Skill")]
    # Fixed columns: a thousand rows are laid out without measuring each cell first.
    widths = [WIDTHS.get(head, "auto") for head in heads]
    numeric = common.indexes(heads, ("time", "trigger rate [95%]", "cost", "rank"))
    shape = {"numeric": numeric, "cell_filter": True, "widths": widths}
    return common.case_section(table_id, "failures", heads, rows, filters, **shape)


def sections(report: dict, transcripts: Transcripts, table_id: str = "cases") -> list[str]:
    approximation = report.get("approximation") if report.get("engine") == "lexical" else None
    note = f'<p class="muted">{text(approximation)}</p>' if isinstance(approximation, str) else ""
    tables = [confusion(report, table_id), per_skill(report), by_category(report)]
    return [head(report), note, *tables, case_table(report, transcripts, table_id)]
