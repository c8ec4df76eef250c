"""The reports of behavioral on several models: a row per leg (its judge said), each model's pass rate
against the agent's first with its interval, then the cases whose status differs first."""

from __future__ import annotations

from dataclasses import replace

from harness.behavioral.matrix import BehavioralMatrix
from harness.model.findings import Finding
from harness.report import behavioral
from harness.report.junit import JUnitCase
from harness.report.markdown import table
from harness.report.matrix import difference_line
from harness.report.text import halt_note


def markdown(result: BehavioralMatrix) -> str:
    data = result.to_json()
    lines = ["## Behavioral across models", ""]
    lines.append(
        table(
            ["leg", "model", "version", "passed", "failed", "errors", "judge"],
            [
                (
                    leg["leg"],
                    leg["model"] or "default",
                    leg["agent_version"],
                    f"{leg['counts']['passed']}/{leg['counts']['cases']}",
                    leg["counts"]["failed"],
                    leg["counts"]["errors"],
                    behavioral.judge_words(leg["judge_agent"], leg["judge_model"]),
                )
                for leg in data["legs"]
            ],
        )
    )
    for name, r in result.legs():
        said = ([halted] if (halted := r.meta.halt.sentence()) else []) + r.meta.notes
        if said:
            lines += ["", *(f"- {name}: {line}" for line in said)]
    if data["differences"]:
        lines += ["", "### Between models", ""]
        lines += [f"- {difference_line(row, 'pass rate')}" for row in data["differences"]]
    differing = [row for row in data["cases"] if row["differs"]]
    lines += ["", f"### Cases ({len(differing)} differ between models, listed first)", ""]
    lines.append(
        table(
            ["case", "skill", *result.labels],
            [
                (
                    ("**differs** " if row["differs"] else "") + row["id"],
                    row["skill"],
                    *row["by_leg"].values(),
                )
                for row in data["cases"]
            ],
        )
    )
    lines += ["", f"Overall: **{'passed' if result.passed else 'failed'}** (every model must pass)."]
    return "\n".join(lines)


def headline(result: BehavioralMatrix) -> str:
    parts = []
    for name, r in result.legs():
        counts = r.counts()
        parts.append(f"{name} {counts['passed']}/{counts['cases']} passed{halt_note(r.meta.halt)}")
    parts += [difference_line(row, "pass rate") for row in result.differences()]
    judged = result.results[0].meta
    parts.append(f"judged by {behavioral.judge_words(judged.judge_agent, judged.judge_model)}")
    return "; ".join(parts)


def statuses(result: BehavioralMatrix) -> dict[str, str]:
    return result.statuses()


def findings(result: BehavioralMatrix) -> list[Finding]:
    return [
        replace(f, message=f"{name}: {f.message}")
        for name, r in result.legs()
        for f in behavioral.findings(r)
    ]


def junit(result: BehavioralMatrix) -> list[JUnitCase]:
    return [
        replace(case, classname=f"{name}.{case.classname}")
        for name, r in result.legs()
        for case in behavioral.junit(r)
    ]
