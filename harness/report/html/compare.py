"""The compare page: each side's pass rate with its interval and cost, then the cases, side by side."""

from __future__ import annotations

from harness.jsonfields import object_at, objects_at
from harness.report import compare
from harness.report.format import DASH, dollars, ranged, total
from harness.report.html import common
from harness.report.html.common import Transcripts
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text
from harness.report.html.table import Row, pre

SIDES = compare.SIDES
LABEL_ORDER = ("regression", "error", "changed", "improvement", "same-fail", "same-pass")


def side_names(report: dict) -> tuple[str, str]:
    """What each side is, in words: with and without the skill when the baseline is none."""
    meta = object_at(report, "meta")
    if meta.get("baseline") == "none":
        return "without the skill", "with the skill"
    return f"baseline ({meta.get('baseline', '?')})", f"candidate ({meta.get('candidate', '?')})"


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
        figures.append((f"pass rate {name}", ranged(side.get("pass_rate"), side.get("pass_rate_ci95"))))
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
    return total([*costs, object_at(report, "meta").get("canary_cost_usd")])


def totals_table(report: dict) -> str:
    rule = object_at(report, "meta").get("rule")
    note = f'<p class="muted">{text(rule)}</p>' if isinstance(rule, str) else ""
    parts = compare.totals_parts(report)
    return "".join(
        section(heading, simple_table(compare.TOTALS_HEADS, compare.totals_rows(part), range(1, 4)) + said)
        for (heading, part), said in zip(parts, [""] * (len(parts) - 1) + [note], strict=True)
    )


def side_mark(side: str) -> common.Mark:
    """A side's cell with its status word marked as the page marks every status."""

    def mark(plain: str, case: dict) -> str:
        status = str(object_at(case, side).get("status"))
        if not plain.startswith(status):
            return text(plain)
        return common.word(status) + text(plain[len(status) :])

    return mark


def case_row(case: dict, cells: list[str], names: tuple[str, str], transcripts: Transcripts) -> Row:
    before, after = (object_at(case, key) for key in SIDES)
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
    marks = {side: side_mark(side) for side in SIDES}
    heads, cells = common.drawn(compare.CASES, compare.side_by_side({**report, "cases": cases}), marks)
    rows = [case_row(c, shown, names, transcripts) for c, shown in zip(cases, cells, strict=True)]
    filters = [("label", "Label"), ("skill", "Skill"), ("mode", "Mode")]
    return common.case_section(table_id, "regressions", heads, rows, filters)


def sections(report: dict, transcripts: Transcripts, table_id: str = "cases") -> list[str]:
    return [head(report), totals_table(report), case_table(report, transcripts, table_id)]
