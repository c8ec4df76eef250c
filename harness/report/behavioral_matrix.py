"""The reports of behavioral on several models: a row per leg (its judge said), each model's pass rate
against the agent's first with its interval, then the cases whose status differs first."""

from __future__ import annotations

from dataclasses import replace

from harness.model.findings import Finding
from harness.report import behavioral
from harness.report.junit import JUnitCase
from harness.report.markdown import table
from harness.report.matrix import difference_line, leg_lines, legs
from harness.report.text import halt_note


def markdown(report: dict) -> str:
    labels = [row["leg"] for row in report["legs"]]
    judges = [run["meta"] for run in report["runs"]]
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
                    behavioral.judge_words(judged),
                )
                for leg, judged in zip(report["legs"], judges, strict=True)
            ],
        )
    )
    lines += leg_lines(report)
    if report["differences"]:
        lines += ["", "### Between models", ""]
        lines += [f"- {difference_line(row, 'pass rate')}" for row in report["differences"]]
    differing = [row for row in report["cases"] if row["differs"]]
    lines += ["", f"### Cases ({len(differing)} differ between models, listed first)", ""]
    lines.append(
        table(
            ["case", "skill", *labels],
            [
                (
                    ("**differs** " if row["differs"] else "") + row["id"],
                    row["skill"],
                    *row["by_leg"].values(),
                )
                for row in report["cases"]
            ],
        )
    )
    lines += ["", f"Overall: **{'passed' if report['passed'] else 'failed'}** (every model must pass)."]
    return "\n".join(lines)


def headline(report: dict) -> str:
    parts = []
    for name, run in legs(report):
        counts = run["totals"]
        parts.append(f"{name} {counts['passed']}/{counts['cases']} passed{halt_note(run['meta'])}")
    parts += [difference_line(row, "pass rate") for row in report["differences"]]
    parts.append(f"judged by {behavioral.judge_words(report['runs'][0]['meta'])}")
    return "; ".join(parts)


def statuses(report: dict) -> dict[str, str]:
    """`<leg>:<case id>` -> that leg's status for the case."""
    return {
        f"{name}:{case_id}": word
        for name, run in legs(report)
        for case_id, word in behavioral.statuses(run).items()
    }


def findings(report: dict) -> list[Finding]:
    return [
        replace(f, message=f"{name}: {f.message}")
        for name, run in legs(report)
        for f in behavioral.findings(run)
    ]


def junit(report: dict) -> list[JUnitCase]:
    return [
        replace(case, classname=f"{name}.{case.classname}")
        for name, run in legs(report)
        for case in behavioral.junit(run)
    ]
