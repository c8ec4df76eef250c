"""The compare page: each side's pass rate with its interval and cost, then the cases, side by side."""

from __future__ import annotations

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
    meta = report["meta"]
    if meta["baseline"] == "none":
        return "without the skill", "with the skill"
    return f"baseline ({meta['baseline']})", f"candidate ({meta['candidate']})"


def head(report: dict) -> str:
    labels = report["labels"]
    before, after = (report["totals"][side] for side in SIDES)
    names = side_names(report)
    figures = [
        (f"{label}s" if not label.startswith("same") else label, str(labels[label]))
        for label in LABEL_ORDER
        if labels[label]
    ]
    for name, side in zip(names, (before, after), strict=True):
        figures.append((f"pass rate {name}", ranged(side["pass_rate"], side["pass_rate_ci95"])))
    gate = (
        f"{labels['regression']} regression(s)"
        + (" allowed (--allow-regressions)" if report["meta"]["allow_regressions"] else "")
        + f"; {'passed' if report['passed'] else 'failed'}"
    )
    return header(report, figures, gate, run_spent(report), cached_runs([before, after]))


def cached_runs(sides: list[dict]) -> str:
    """How many of the sides' runs came from the result cache, in words."""
    return f"{sum(side['cached_runs'] for side in sides)} of {sum(side['runs'] for side in sides)} runs"


def run_spent(report: dict) -> float | None:
    """What a compare spent now: both sides' runs and the canaries' own; None when none said."""
    costs = [report["totals"][side]["cost_usd"] for side in SIDES]
    return total([*costs, report["meta"].get("canary_cost_usd")])  # no canary: none in the meta


def totals_table(report: dict) -> str:
    note = f'<p class="muted">{text(report["meta"]["rule"])}</p>'
    parts = compare.totals_parts(report)
    return "".join(
        section(heading, simple_table(compare.TOTALS_HEADS, compare.totals_rows(part), range(1, 4)) + said)
        for (heading, part), said in zip(parts, [""] * (len(parts) - 1) + [note], strict=True)
    )


def side_mark(side: str) -> common.Mark:
    """A side's cell with its status word marked as the page marks every status."""

    def mark(plain: str, case: dict) -> str:
        status = case[side]["status"]
        if not plain.startswith(status):
            return text(plain)
        return common.word(status) + text(plain[len(status) :])

    return mark


def case_row(case: dict, cells: list[str], names: tuple[str, str], transcripts: Transcripts) -> Row:
    lines = [
        f"{name}: {s['status']} {s['passes']}/{s['runs']}, outcome {s['outcome']}, "
        f"{s['input_tokens']} in / {s['output_tokens']} out tokens, "
        f"{dollars(s['cost_usd'], DASH)}, {s['elapsed_s']} s"
        + (f", error {s['error']}" if s["error"] else "")
        for name, s in zip(names, (case[key] for key in SIDES), strict=True)
    ]
    keys = common.filter_keys(case, ("label", "skill", "mode"))
    return Row(cells, keys, common.case_details(case, transcripts, [pre(lines)]))


def case_table(report: dict, transcripts: Transcripts, table_id: str = "cases") -> str:
    names = side_names(report)
    cases = common.ranked(report["cases"], "label", LABEL_ORDER)
    marks = {side: side_mark(side) for side in SIDES}
    heads, cells = common.drawn(compare.CASES, compare.side_by_side({**report, "cases": cases}), marks)
    rows = [case_row(c, shown, names, transcripts) for c, shown in zip(cases, cells, strict=True)]
    filters = [("label", "Label"), ("skill", "Skill"), ("mode", "Mode")]
    return common.case_section(table_id, "regressions", heads, rows, filters)


def sections(report: dict, transcripts: Transcripts, table_id: str = "cases") -> list[str]:
    return [head(report), totals_table(report), case_table(report, transcripts, table_id)]
