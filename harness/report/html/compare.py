"""The compare page: each side's pass rate with its interval and cost, then the cases, side by side."""

from __future__ import annotations

from harness.jsonfields import object_at, objects_at
from harness.report.format import DASH, dollars, number
from harness.report.html import common
from harness.report.html.common import PLACE_HEADS, Transcripts, interval
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text
from harness.report.html.table import Row, pre

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
            (f"pass rate {name}", f"{interval(side.get('pass_rate'))} ({span(side.get('pass_rate_ci95'))})")
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
    costs = [object_at(object_at(report, "totals"), side).get("cost_usd") for side in SIDES]
    return common.known_sum([*costs, object_at(report, "meta").get("canary_cost_usd")])


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
    rate = [interval(side.get("pass_rate")), span(side.get("pass_rate_ci95"))]
    tokens = f"{side.get('input_tokens', 0)} / {side.get('output_tokens', 0)}"
    spent = [tokens, dollars(side.get("cost_usd"), DASH)]
    if not counted:
        return [name, "", *rate, "", "", *spent]
    passed, errors, runs = common.fields(side, ("passed/graded", "errors", "runs"))
    return [name, passed, *rate, errors, runs, *spent]


def side_cell(side: dict) -> str:
    runs, passes = side.get("runs", 0), side.get("passes", 0)
    outcome = side.get("outcome")
    shown = f"{common.word(side.get('status'))} {text(f'{passes}/{runs}')}"
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
        common.word(case.get("label", "")),
        side_cell(before),
        side_cell(after),
        text(f"{interval(delta.get('rate'))} ({span(delta.get('rate_ci95'))})"),
        text(f"{dollars(before.get('cost_usd'), DASH)} / {dollars(after.get('cost_usd'), DASH)}"),
        *common.place_cells(case),
    ]
    lines = [
        f"{name}: {s.get('status')} {s.get('passes', 0)}/{s.get('runs', 0)}, outcome {s.get('outcome')}, "
        f"{s.get('input_tokens', 0)} in / {s.get('output_tokens', 0)} out tokens, "
        f"{dollars(s.get('cost_usd'), DASH)}, {s.get('elapsed_s', 0)} s"
        + (f", error {s['error']}" if s.get("error") else "")
        for name, s in zip(names, (before, after), strict=True)
    ]
    keys = common.filter_keys(case, ("label", "skill", "mode"))
    return Row(cells, keys, common.case_details(case, transcripts, [pre(lines)]))


def case_table(report: dict, transcripts: Transcripts, table_id: str = "cases") -> str:
    names = side_names(report)
    cases = common.ranked(objects_at(report, "cases"), "label", LABEL_ORDER, "regression")
    rows = [case_row(c, names, transcripts) for c in cases]
    headers = ["case", "mode", "label", *names, "rate difference (95 %)", "cost each side", *PLACE_HEADS]
    filters = [("label", "Label"), ("skill", "Skill"), ("mode", "Mode")]
    return common.case_section(table_id, "regressions", headers, rows, filters)


def sections(report: dict, transcripts: Transcripts, table_id: str = "cases") -> list[str]:
    return [head(report), totals_table(report), case_table(report, transcripts, table_id)]
