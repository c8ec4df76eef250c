"""The page of a behavioral run over several models: each model's pass rate and judge, each model
against its agent's first (the difference with its interval), the cases by model, then each model's
own behavioral sections."""

from __future__ import annotations

from harness.jsonfields import array_at, object_at
from harness.report.html import behavioral, routing
from harness.report.html.common import Transcripts
from harness.report.html.header import header, legs_cost
from harness.report.html.routing_matrix import between_models, leg_costs, leg_sections
from harness.report.html.shell import section, simple_table


def legs(report: dict) -> list[dict]:
    return [leg for leg in array_at(report, "legs") if isinstance(leg, dict)]


def head(report: dict) -> str:
    shown = legs(report)
    figures = [(f"{leg.get('leg')} pass rate", routing.fmt(leg.get("pass_rate"))) for leg in shown]
    judges = "; ".join(
        f"{leg.get('leg')}: judged by {leg.get('judge_model') or 'its default model'} "
        f"on {leg.get('judge_agent')}"
        for leg in shown
    )
    cost = legs_cost(leg_costs(report, [str(leg.get("leg")) for leg in shown], behavioral.run_spent))
    return header(report, figures, judges, cost)


def cases(report: dict) -> str:
    names = [str(leg.get("leg")) for leg in legs(report)]
    rows = [
        [str(case.get("id")), str(case.get("skill"))] + [str(object_at(case, "by_leg").get(n)) for n in names]
        for case in array_at(report, "cases")
        if isinstance(case, dict)
    ]
    return section("Cases by model", simple_table(["case", "skill", *names], rows))


def sections(report: dict, transcripts: Transcripts) -> list[str]:
    parts = [head(report), between_models(report, "pass rate"), cases(report)]
    names = [str(leg.get("leg")) for leg in legs(report)]
    return parts + leg_sections(report, transcripts, names, "Model", "behavioral", behavioral.sections)
