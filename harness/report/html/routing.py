"""The routing page (agent and lexical engines): headline, confusion matrix, per skill, by category, cases."""

from __future__ import annotations

from collections.abc import Mapping

from harness.jsonfields import array_at, object_at, objects_at
from harness.report.format import DASH, dollars
from harness.report.html import common, matrix
from harness.report.html.common import PLACE_HEADS, Transcripts
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text
from harness.report.html.table import Row, collapsed, pre, token


def head(report: dict) -> str:
    totals, meta, gate = object_at(report, "totals"), object_at(report, "meta"), object_at(report, "gate")
    figures = [
        ("correct of graded", f"{totals.get('passed', 0)}/{totals.get('graded', 0)}"),
        ("accuracy", f"{fmt(totals.get('accuracy'))}, bar {fmt(meta.get('min_accuracy'))}"),
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


def fmt(value: object) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") if isinstance(value, (int, float)) else "—"


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


# A skill's counts, a column each: the column's head and the report's field.
COUNTS = {
    "expected": "expected",
    "correct": "correct",
    "missed": "missed",
    "lost to another": "lost_to_other_skill",
    "fired unasked": "fired_when_not_expected",
}


def per_skill(report: dict) -> str:
    rows, idle = [], []
    for skill, row in object_at(report, "per_skill").items():
        if not isinstance(row, dict):
            continue
        wanted, fired = row.get("expected", 0), row.get("fired_total", 0)
        if not (wanted or fired or row.get("fired_when_not_expected") or row.get("missed")):
            idle.append(skill)  # a room member no case expected and none fired: a row of zeros and dashes
            continue
        shown = common.fields(row, COUNTS.values())
        recall = common.interval(row.get("recall"), row.get("recall_ci95"))
        rows.append([skill, *shown, recall, common.interval(row.get("precision"), row.get("precision_ci95"))])
    left_out = (
        f'<p class="muted">Not shown: {len(idle)} room skill(s) no case expected and none fired '
        f"({text(', '.join(idle))}).</p>"
        if idle
        else ""
    )
    if not rows:
        return section("Per skill", left_out) if idle else ""
    headers = ["skill", *COUNTS, "recall (95 %)", "precision (95 %)"]
    note = '<p class="muted">Intervals: Wilson score, 95 %, over the graded cases.</p>'
    return section("Per skill", simple_table(headers, rows, numeric=range(1, 8)) + note + left_out)


def by_category(report: dict) -> str:
    rows = [
        [name, *common.fields(row, ("graded", "passed")), fmt(row.get("accuracy"))]
        for name, row in object_at(report, "by_category").items()
        if isinstance(row, dict)
    ]
    return section("By category", simple_table(["category", "graded", "passed", "accuracy"], rows, (1, 2, 3)))


def trigger_counts(case: dict, samples: list[dict]) -> tuple[int, int]:
    """The report's own trigger counts (fired, graded samples); a report from before they were written
    has them counted here the same way: the expected skill fired (when none is expected: any skill)."""
    counts = case.get("trigger_counts")
    if isinstance(counts, dict) and all(isinstance(counts.get(key), int) for key in ("fired", "graded")):
        return counts["fired"], counts["graded"]
    graded = [s for s in samples if not s.get("error") and s.get("verdict") != "not-run"]
    expect = case.get("expect")
    fired = sum(1 for s in graded if (s.get("observed") == expect if expect else s.get("observed")))
    return fired, len(graded)


def case_row(case: dict, transcripts: Transcripts, lexical: bool) -> Row:
    samples = objects_at(case, "samples")
    fired, tried = trigger_counts(case, samples)
    flaky = bool(case.get("flaky"))
    ident = text(case.get("id", "?")) + (
        ' <span class="flaky" title="its samples disagreed">flaky</span>' if flaky else ""
    )
    expect, observed = expected_key(case), observed_key(case)
    cells = [
        ident,
        text(matrix.shown(expect)),
        text(matrix.shown(observed)),
        f'<span class="{text(case.get("status", ""))}">{text(case.get("verdict", "?"))}</span>',
    ]
    if lexical:
        cells += [text(case.get("rank") or "—"), text(case.get("score", "—"))]
    else:
        cells += [
            common.rate(fired, tried, case.get("trigger_rate_ci95")) if len(samples) > 1 else "",
            dollars(case.get("cost_usd"), DASH),
        ]
    cells += common.place_cells(case)
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
    verdicts = " ".join(filter(None, [token(str(case.get("verdict"))), "flaky" if flaky else ""]))
    keys = {"verdict": verdicts, **common.filter_keys(case, ("status", "skill"))}
    keys.update(expect=token(expect), observed=token(observed))
    return Row(cells, keys, common.case_details(case, transcripts, more))


def failures_first(cases: list[dict]) -> list[dict]:
    order = {"fail": 0, "error": 1, "not-run": 2, "pass": 3}
    return sorted(cases, key=lambda c: (order.get(str(c.get("status")), 1), not c.get("flaky")))


def case_table(report: dict, transcripts: Transcripts, table_id: str = "cases") -> str:
    lexical = report.get("engine") == "lexical"
    cases = failures_first(objects_at(report, "cases"))
    rows = [case_row(c, transcripts, lexical) for c in cases]
    headers = ["case", "expected", "observed", "verdict"]
    headers += ["rank", "score"] if lexical else ["trigger rate (95 %)", "cost"]
    headers += PLACE_HEADS
    filters = [("status", "Outcome"), ("verdict", "Verdict"), ("skill", "Skill")]
    # Fixed columns: a thousand rows are laid out without measuring each cell first.
    widths = ("15%", "9%", "9%", "12%", "11%", "7%", "16%", "auto")
    shape = {"numeric": (4, 5), "cell_filter": True, "widths": widths}
    return common.case_section(table_id, "failures", headers, rows, filters, **shape)


def sections(report: dict, transcripts: Transcripts, table_id: str = "cases") -> list[str]:
    approximation = report.get("approximation") if report.get("engine") == "lexical" else None
    note = f'<p class="muted">{text(approximation)}</p>' if isinstance(approximation, str) else ""
    tables = [confusion(report, table_id), per_skill(report), by_category(report)]
    return [head(report), note, *tables, case_table(report, transcripts, table_id)]
