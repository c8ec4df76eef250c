"""The reports of compare on several models: a row per leg with each mode's pass rate on both sides
and the difference's interval, each model's candidate against the agent's first, then the cases whose
label differs between models first."""

from __future__ import annotations

from dataclasses import replace

from harness.model.findings import Finding
from harness.report import compare
from harness.report.junit import JUnitCase
from harness.report.markdown import table
from harness.report.matrix import difference_line, leg_lines, legs, percent, signed
from harness.report.text import halt_note


def change_words(side: dict) -> str:
    """One mode's two pass rates on one leg and the candidate's difference with its interval."""
    rates = f"{percent(side['baseline_rate'])} → {percent(side['candidate_rate'])}"
    if side["difference"] is None:
        return f"{rates} (no difference to give: a side graded no case)"
    noise = "beyond noise" if side["beyond_noise"] else "within noise"
    return (
        f"{rates}, {signed(side['difference'])} "
        f"(95% interval {signed(side['low'])} to {signed(side['high'])}, {noise})"
    )


def markdown(report: dict) -> str:
    first = report["runs"][0]["meta"]
    labels = [row["leg"] for row in report["legs"]]
    lines = ["## Skill compare across models", ""]
    lines.append(
        f"Baseline `{first['baseline']}` against candidate `{first['candidate']}` on each model"
        f"{compare.repeats(first)}."
    )
    lines.append("")
    rows = []
    for leg in report["legs"]:
        counted = leg["labels"]
        for mode, side in list(leg["by_mode"].items()) or [("-", None)]:
            rows.append(
                (
                    leg["leg"],
                    leg["model"] or "default",
                    mode,
                    counted["regression"],
                    counted["improvement"],
                    counted["error"],
                    change_words(side) if side else "nothing compared",
                    "passed" if leg["passed"] else "failed",
                )
            )
    heads = ["leg", "model", "mode", "regressions", "improvements", "errors", "pass rate", "result"]
    lines.append(table(heads, rows))
    lines += leg_lines(report)
    if report["differences"]:
        lines += ["", "### Between models (the candidate's pass rate)", ""]
        lines += [f"- {row['mode']}: {difference_line(row, 'pass rate')}" for row in report["differences"]]
    differing = [row for row in report["cases"] if row["differs"]]
    lines += ["", f"### Cases ({len(differing)} labelled differently between models, listed first)", ""]
    lines.append(
        table(
            ["case", "mode", "skill", *labels],
            [
                (
                    ("**differs** " if row["differs"] else "") + row["id"],
                    row["mode"],
                    row["skill"] or "shared",
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
    for leg, (name, run) in zip(report["legs"], legs(report), strict=True):
        rates = "; ".join(f"{mode} {change_words(side)}" for mode, side in leg["by_mode"].items())
        parts.append(
            f"{name}: {len(compare.regressions(run))} regression(s) in {len(compare.compared(run))} compared "
            "case(s)" + (f", {rates}" if rates else "") + halt_note(run["meta"])
        )
    return "; ".join(parts)


def statuses(report: dict) -> dict[str, str]:
    """`<leg>:<case name>` -> fail for a regression, error for a case a side graded nothing of, else
    pass: the words every compare report gates on."""
    return {
        f"{name}:{case}": word for name, run in legs(report) for case, word in compare.statuses(run).items()
    }


def findings(report: dict) -> list[Finding]:
    return [
        replace(f, message=f"{name}: {f.message}")
        for name, run in legs(report)
        for f in compare.findings(run)
    ]


def junit(report: dict) -> list[JUnitCase]:
    return [
        replace(case, classname=f"{name}.{case.classname}")
        for name, run in legs(report)
        for case in compare.junit(run)
    ]
