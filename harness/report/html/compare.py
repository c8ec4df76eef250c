"""The compare page's sections: each side's pass rate with its interval and what it cost, then the
case table with both sides side by side, the case's label and the interval of the difference."""

from __future__ import annotations

from harness.jsonfields import object_at, objects_at
from harness.report.format import DASH, dollars, number
from harness.report.html.common import PLACE_HEADS, Transcripts, case_details, fields, place_cells, word
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text
from harness.report.html.table import Row, cases_table, pre, token

SIDES = ("baseline", "candidate")
LABEL_ORDER = ("regression", "error", "changed", "improvement", "same-fail", "same-pass")


def side_names(report: dict) -> tuple[str, str]:
    """What each side is, in words: with and without the skill when the baseline is none."""
    meta = object_at(report, "meta")
    if meta.get("baseline") == "none":
        return "without the skill", "with the skill"
    return f"baseline ({meta.get('baseline', '?')})", f"candidate ({meta.get('candidate', '?')})"


def span(bounds: object) -> str:
    if isinstance(bounds, (list, tuple)) and len(bounds) == 2:
        low, high = bounds
        if isinstance(low, (int, float)) and low < 0:
            return f"{number(low, '+.2f', '?')} to {number(high, '+.2f', '?')}"
        return f"{number(low, '.2f', '?')}–{number(high, '.2f', '?')}"
    return "—"


def head(report: dict) -> str:
    labels, totals, meta = object_at(report, "labels"), object_at(report, "totals"), object_at(report, "meta")
    before, after = (object_at(totals, side) for side in SIDES)
    names = side_names(report)
    figures = [
        (f"{label}s" if not label.startswith("same") else label, str(labels.get(label, 0)))
        for label in LABEL_ORDER
        if labels.get(label)
    ]
    for name, side in zip(names, (before, after), strict=True):
        figures.append(
            (f"pass rate {name}", f"{num(side.get('pass_rate'))} ({span(side.get('pass_rate_ci95'))})")
        )
    gate = (
        f"{labels.get('regression', 0)} regression(s)"
        + (" allowed (--allow-regressions)" if meta.get("allow_regressions") else "")
        + f"; {'passed' if report.get('passed') else 'failed'}"
    )
    return header(report, figures, gate, run_spent(report), cached_runs([before, after]))


def cached_runs(sides: list[dict]) -> str:
    """How many of the sides' runs came from the result cache, in words."""
    cached = sum(n for side in sides if isinstance(n := side.get("cached_runs"), int))
    return f"{cached} of {sum(n for side in sides if isinstance(n := side.get('runs'), int))} runs"


def run_spent(report: dict) -> float | None:
    """What a compare spent now: both sides' runs and the canaries' own; None when none said."""
    totals = object_at(report, "totals")
    costs = [object_at(totals, side).get("cost_usd") for side in SIDES]
    costs.append(object_at(report, "meta").get("canary_cost_usd"))
    known = [v for v in costs if isinstance(v, (int, float))]
    return sum(known) if known else None


def num(value: object) -> str:
    return f"{value:.3f}" if isinstance(value, (int, float)) else "—"


def totals_table(report: dict) -> str:
    totals = object_at(report, "totals")
    names = side_names(report)
    rows = [totals_row(name, object_at(totals, key)) for name, key in zip(names, SIDES, strict=True)]
    rows.append(totals_row("difference", object_at(totals, "delta"), counted=False))
    headers = ["side", "passed", "pass rate", "95 %", "errors", "runs", "tokens in / out", "cost"]
    rule = object_at(report, "meta").get("rule")
    note = f'<p class="muted">{text(rule)}</p>' if isinstance(rule, str) else ""
    return section("Both sides", simple_table(headers, rows, range(1, 8)) + note)


def totals_row(name: str, side: dict, counted: bool = True) -> list[str]:
    """A side's totals, or their difference (`counted` False: no passes, errors or runs of its own)."""
    rate = [num(side.get("pass_rate")), span(side.get("pass_rate_ci95"))]
    tokens = f"{side.get('input_tokens', 0)} / {side.get('output_tokens', 0)}"
    spent = [tokens, dollars(side.get("cost_usd"), DASH)]
    if not counted:
        return [name, "", *rate, "", "", *spent]
    passed = f"{side.get('passed', 0)}/{side.get('graded', 0)}"
    return [name, passed, *rate, *fields(side, ("errors", "runs")), *spent]


def side_cell(side: dict) -> str:
    runs, passes = side.get("runs", 0), side.get("passes", 0)
    outcome = side.get("outcome")
    shown = f"{word(side.get('status'))} {text(f'{passes}/{runs}')}"
    if outcome is not None:
        shown += f' <span class="muted">{text(outcome)}</span>'
    if side.get("error"):
        shown += f' <span class="error">{text(side["error"])}</span>'
    return shown


def case_row(case: dict, names: tuple[str, str], transcripts: Transcripts) -> Row:
    before, after, delta = (object_at(case, key) for key in (*SIDES, "delta"))
    cells = [
        text(case.get("id", "?")),
        text(case.get("mode", "")),
        word(case.get("label", "")),
        side_cell(before),
        side_cell(after),
        text(f"{num(delta.get('rate'))} ({span(delta.get('rate_ci95'))})"),
        text(f"{dollars(before.get('cost_usd'), DASH)} / {dollars(after.get('cost_usd'), DASH)}"),
        *place_cells(case),
    ]
    lines = [
        f"{name}: {s.get('status')} {s.get('passes', 0)}/{s.get('runs', 0)}, outcome {s.get('outcome')}, "
        f"{s.get('input_tokens', 0)} in / {s.get('output_tokens', 0)} out tokens, "
        f"{dollars(s.get('cost_usd'), DASH)}, {s.get('elapsed_s', 0)} s"
        + (f", error {s['error']}" if s.get("error") else "")
        for name, s in zip(names, (before, after), strict=True)
    ]
    keys = {
        "label": token(str(case.get("label"))),
        "skill": token(str(case.get("skill"))),
        "mode": token(str(case.get("mode"))),
    }
    return Row(cells, keys, case_details(case, transcripts, [pre(lines)]))


def case_table(report: dict, transcripts: Transcripts, table_id: str = "cases") -> str:
    names = side_names(report)
    order = {label: i for i, label in enumerate(LABEL_ORDER)}
    cases = sorted(objects_at(report, "cases"), key=lambda c: order.get(str(c.get("label")), 0))
    rows = [case_row(c, names, transcripts) for c in cases]
    headers = ["case", "mode", "label", *names, "rate difference (95 %)", "cost each side", *PLACE_HEADS]
    filters = [("label", "Label"), ("skill", "Skill"), ("mode", "Mode")]
    inner = cases_table(table_id, headers, rows, filters)
    return section(f"Cases ({len(rows)}; regressions first)", inner, anchor=f"{table_id}-section")


def sections(report: dict, transcripts: Transcripts, table_id: str = "cases") -> list[str]:
    return [head(report), totals_table(report), case_table(report, transcripts, table_id)]
