"""The page of a compare over several models: each model's regressions and both sides' pass rates with
the interval of the candidate's difference, each model's candidate against its agent's first, the
cases' labels by model, then each model's own compare sections."""

from __future__ import annotations

from harness.jsonfields import array_at, object_at
from harness.report.format import signed_percent
from harness.report.html import compare, routing
from harness.report.html.common import Transcripts
from harness.report.html.header import header, legs_cost
from harness.report.html.routing_matrix import between_models, leg_costs, leg_sections
from harness.report.html.shell import section, simple_table


def legs(report: dict) -> list[dict]:
    return [leg for leg in array_at(report, "legs") if isinstance(leg, dict)]


def change(side: dict) -> str:
    rates = f"{routing.fmt(side.get('baseline_rate'))} → {routing.fmt(side.get('candidate_rate'))}"
    if side.get("difference") is None:
        return f"{rates} (a side graded no case)"
    noise = "beyond noise" if side.get("beyond_noise") else "within noise"
    return (
        f"{rates}, {signed_percent(side.get('difference'))} "
        f"({signed_percent(side.get('low'))} to {signed_percent(side.get('high'))}, {noise})"
    )


def head(report: dict) -> str:
    shown = legs(report)
    figures = []
    for leg in shown:
        labels = object_at(leg, "labels")
        figures += [
            (f"{leg.get('leg')} regressions", str(labels.get("regression", 0))),
            (f"{leg.get('leg')} improvements", str(labels.get("improvement", 0))),
        ]
    sides = [
        object_at(object_at(run, "totals"), side)
        for run in array_at(report, "runs")
        if isinstance(run, dict)
        for side in compare.SIDES
    ]
    cached = sum(n for s in sides if isinstance(n := s.get("cached_runs"), int))
    runs = sum(n for s in sides if isinstance(n := s.get("runs"), int))
    gate = "; ".join(f"{leg.get('leg')} {'passed' if leg.get('passed') else 'failed'}" for leg in shown)
    return header(
        report,
        figures,
        f"every model must pass: {gate}",
        legs_cost(leg_costs(report, [str(leg.get("leg")) for leg in shown], compare.run_spent)),
        f"{cached} of {runs} runs",
    )


def by_model(report: dict) -> str:
    rows = [
        [
            str(leg.get("leg")),
            str(mode),
            str(object_at(leg, "labels").get("regression", 0)),
            str(object_at(leg, "labels").get("improvement", 0)),
            str(object_at(leg, "labels").get("error", 0)),
            change(side) if isinstance(side, dict) else "—",
        ]
        for leg in legs(report)
        for mode, side in object_at(leg, "by_mode").items()
    ]
    heads = ["leg", "mode", "regressions", "improvements", "errors", "pass rate: baseline → candidate (95 %)"]
    return section("Each model", simple_table(heads, rows, range(2, 5)))


def cases(report: dict) -> str:
    names = [str(leg.get("leg")) for leg in legs(report)]
    rows = [
        [str(case.get("id")), str(case.get("mode")), str(case.get("skill") or "shared")]
        + [str(object_at(case, "by_leg").get(n)) for n in names]
        for case in array_at(report, "cases")
        if isinstance(case, dict)
    ]
    return section("Labels by model", simple_table(["case", "mode", "skill", *names], rows))


def sections(report: dict, transcripts: Transcripts) -> list[str]:
    parts = [head(report), by_model(report), between_models(report, "candidate's pass rate"), cases(report)]
    names = [str(leg.get("leg")) for leg in legs(report)]
    return parts + leg_sections(report, transcripts, names, "Model", "compare", compare.sections)
