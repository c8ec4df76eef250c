"""The reports of compare on several models: a row per leg with each mode's pass rate on both sides
and the difference's interval, each model's candidate against the agent's first, then the cases whose
label differs between models first."""

from __future__ import annotations

from dataclasses import replace

from harness.compare.matrix import CompareMatrix
from harness.model.findings import Finding
from harness.report import compare
from harness.report.junit import JUnitCase
from harness.report.markdown import table
from harness.report.matrix import difference_line, percent, signed
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


def markdown(result: CompareMatrix) -> str:
    data = result.to_json()
    first = result.results[0].meta
    lines = ["## Skill compare across models", ""]
    lines.append(
        f"Baseline `{first.baseline}` against candidate `{first.candidate}` on each model"
        f"{f', {first.repeat} run(s) a side' if first.repeat > 1 else ''}."
    )
    lines.append("")
    rows = []
    for leg in data["legs"]:
        labels = leg["labels"]
        for mode, side in list(leg["by_mode"].items()) or [("-", None)]:
            rows.append(
                (
                    leg["leg"],
                    leg["model"] or "default",
                    mode,
                    labels["regression"],
                    labels["improvement"],
                    labels["error"],
                    change_words(side) if side else "nothing compared",
                    "passed" if leg["passed"] else "failed",
                )
            )
    heads = ["leg", "model", "mode", "regressions", "improvements", "errors", "pass rate", "result"]
    lines.append(table(heads, rows))
    for name, r in result.legs():
        said = ([halted] if (halted := r.meta.halt.sentence()) else []) + r.meta.notes
        if said:
            lines += ["", *(f"- {name}: {line}" for line in said)]
    if data["differences"]:
        lines += ["", "### Between models (the candidate's pass rate)", ""]
        lines += [f"- {row['mode']}: {difference_line(row, 'pass rate')}" for row in data["differences"]]
    differing = [row for row in data["cases"] if row["differs"]]
    lines += ["", f"### Cases ({len(differing)} labelled differently between models, listed first)", ""]
    lines.append(
        table(
            ["case", "mode", "skill", *result.labels],
            [
                (
                    ("**differs** " if row["differs"] else "") + row["id"],
                    row["mode"],
                    row["skill"] or "shared",
                    *row["by_leg"].values(),
                )
                for row in data["cases"]
            ],
        )
    )
    lines += ["", f"Overall: **{'passed' if result.passed else 'failed'}** (every model must pass)."]
    return "\n".join(lines)


def headline(result: CompareMatrix) -> str:
    parts = []
    for name, r in result.legs():
        sides = result.sides(r)
        rates = "; ".join(f"{mode} {change_words(side)}" for mode, side in sides.items())
        parts.append(
            f"{name}: {len(r.regressions)} regression(s) in {len(r.compared)} compared case(s)"
            + (f", {rates}" if rates else "")
            + halt_note(r.meta.halt)
        )
    return "; ".join(parts)


def statuses(result: CompareMatrix) -> dict[str, str]:
    return result.statuses()


def findings(result: CompareMatrix) -> list[Finding]:
    return [
        replace(f, message=f"{name}: {f.message}") for name, r in result.legs() for f in compare.findings(r)
    ]


def junit(result: CompareMatrix) -> list[JUnitCase]:
    return [
        replace(case, classname=f"{name}.{case.classname}")
        for name, r in result.legs()
        for case in compare.junit(r)
    ]
