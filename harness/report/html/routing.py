"""The routing page (agent and lexical engines): headline, confusion matrix, per skill, by category, cases."""

from __future__ import annotations

from collections.abc import Mapping

from harness.jsonfields import object_at
from harness.report import columns, routing, routing_lexical
from harness.report.format import percent
from harness.report.html import common, matrix
from harness.report.html.common import Transcripts
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text
from harness.report.html.table import Row, collapsed, pre, token


def head(report: dict) -> str:
    totals = report["totals"]
    figures = [
        ("correct of graded", f"{totals['passed']}/{totals['graded']}"),
        ("accuracy", f"{percent(totals['accuracy'])}, bar {percent(report['meta']['min_accuracy'])}"),
        ("errors (not graded)", str(totals["errors"])),
        ("activations / expected", f"{totals['activations']}/{totals['activations_expected']}"),
    ]
    cached = None
    if report["engine"] != "lexical":
        figures.append(("flaky cases", str(totals["flaky"])))
        figures.append(("samples", str(totals["samples"])))
        cached = common.of_total(totals["cached_samples"], totals["samples"], "samples")
    else:
        rank1 = totals["rank1"]
        figures.append(("rank 1 of positives", f"{rank1['rank1']}/{rank1['positives']}"))
    return header(report, figures, report["gate"]["reason"], run_spent(report), cached)


def run_spent(report: dict) -> float | None:
    """What an agent routing run spent now, its canary's run included: $0 when nothing ran now (every
    sample replayed or never started, the canary replayed or skipped); None when its CLI reported no cost
    (and for a lexical run, which runs no agent)."""
    totals = report["totals"]
    if report["engine"] == "lexical":
        return None
    if totals["cost_usd"] is not None:
        return totals["cost_usd"]
    planted = report["meta"].get("canary")
    canary_ran = planted is not None and planted["stop_reason"] is not None and not planted["cached_from"]
    return 0.0 if totals["samples_run"] == 0 and not canary_ran else None


def observed_key(case: Mapping) -> str:
    if case["status"] in ("error", "not-run"):
        return matrix.ERROR
    observed = case["observed"]
    return observed if isinstance(observed, str) and observed else matrix.NONE


def expected_key(case: Mapping) -> str:
    expect = case["expect"]
    return expect if isinstance(expect, str) and expect else matrix.NONE


def confusion(report: dict, table_id: str) -> str:
    pairs = [(expected_key(c), observed_key(c)) for c in report["cases"]]
    room = report["meta"]["room"]
    if not pairs:
        return ""
    intro = (
        '<p class="muted">Rows: the skill a case expects (or none); columns: the skill the agent '
        "used, none, or error (no decision). Select a cell to list its cases.</p>"
    )
    return section("Confusion matrix", intro + matrix.svg(pairs, room, table_id))


def per_skill(report: dict) -> str:
    lexical = report["engine"] == "lexical"
    spec = routing_lexical.PER_SKILL if lexical else routing.PER_SKILL
    rows, idle = [], []
    for row in columns.named(report["per_skill"], "skill"):
        touched = row["expected"] or row["fired_total"] or row["fired_when_not_expected"] or row["missed"]
        if not (lexical or touched):
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
    rows = columns.rows(routing.BY_CATEGORY, columns.named(report["by_category"], "category"))
    listed = simple_table(columns.heads(routing.BY_CATEGORY), rows, (1, 2, 3))
    return section(
        "By prompt category", f'<p class="muted">{text(routing.KINDS.replace("`", ""))}</p>{listed}'
    )


def flaky_mark(plain: str, case: dict) -> str:
    return text(plain) + (
        ' <span class="flaky" title="its samples disagreed">flaky</span>' if case.get("flaky") else ""
    )


def verdict_mark(plain: str, case: dict) -> str:
    return f'<span class="{text(case["status"])}">{text(plain)}</span>'


def case_row(case: dict, cells: list[str], transcripts: Transcripts, lexical: bool) -> Row:
    samples = [] if lexical else case["samples"]  # a lexical case ranks once
    more = [common.error_line(case)]
    if len(samples) > 1:
        lines = [
            f"{i}. {s['verdict']}: observed {s['observed'] or 'no skill'}"
            + (f"; error {s['error']}" if s["error"] else "")
            + (f"; cached from {object_at(s, 'cached_from').get('started_at')}" if s["cached"] else "")
            for i, s in enumerate(samples, 1)
        ]
        more.append(collapsed(f"{len(samples)} samples", pre(lines)))
    if lexical:
        tops = [
            f"{t['skill']}: {t['score']} (shares {', '.join(map(str, t['shared']))})" for t in case["top"]
        ]
        if tops:
            more.append(collapsed("top-ranked skills", pre(tops)))
    flaky = "flaky" if case.get("flaky") else ""
    verdicts = " ".join(filter(None, [token(case["verdict"]), flaky]))
    keys = {"verdict": verdicts, **common.filter_keys(case, ("status", "skill"))}
    keys.update(expect=token(expected_key(case)), observed=token(observed_key(case)))
    return Row(cells, keys, common.case_details(case, transcripts, more))


# Each case column's width on the page, by its head (the prompt takes what is left).
WIDTHS = {"case": "12%", "category": "8%", "expected": "8%", "observed": "8%", "verdict": "10%"}
WIDTHS |= {"stop": "5%", "time": "5%", "trigger rate [95%]": "9%", "cost": "6%", "where": "12%"}
WIDTHS |= {"rank": "5%", routing_lexical.TOP: "20%"}


def failures_first(cases: list[dict]) -> list[dict]:
    order = {"fail": 0, "error": 1, "not-run": 2, "pass": 3}
    return sorted(cases, key=lambda c: (order[c["status"]], not c.get("flaky")))  # a lexical case has none


def case_table(report: dict, transcripts: Transcripts, table_id: str = "cases") -> str:
    lexical = report["engine"] == "lexical"
    cases = failures_first(report["cases"])
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
    lexical = report["engine"] == "lexical"
    note = f'<p class="muted">{text(report["approximation"])}</p>' if lexical else ""
    tables = [confusion(report, table_id), per_skill(report), by_category(report)]
    return [head(report), note, *tables, case_table(report, transcripts, table_id)]
