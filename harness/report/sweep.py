"""A sweep's reports: markdown (per agent the curve with its intervals and the knee, then each skill
that degrades), the text headline, statuses, located findings and JUnit."""

from __future__ import annotations

from harness.model.findings import Finding
from harness.report.junit import JUnitCase
from harness.report.markdown import findings_table, table
from harness.sweep.result import SweepResult


def _accuracy(point: dict) -> str:
    if point["accuracy"] is None:
        return "-"
    return f"{point['accuracy']:.2f} [{point['low']:.2f}, {point['high']:.2f}]"


def _drop(point: dict) -> str:
    if point["p"] is None:
        return "(compared with)"
    p = "p < 0.0001" if point["p"] < 0.0001 else f"p {point['p']:.3g}"
    said = f"-{point['worse']} +{point['better']}, {p}"
    return f"**{said}, beyond noise**" if point["degraded"] else said


def markdown(result: SweepResult) -> str:
    data = result.to_json()
    verdict = "passed" if result.passed else "failed"
    lines = ["## Catalog-size sweep", "", f"**{verdict}**: {headline(result)}.", ""]
    ballast = data["ballast"]
    lines += [
        "Engine: lexical (free; it approximates how an agent routes). "
        f"Sizes {', '.join(map(str, data['sizes']))}; "
        f"{data['repeats']} seeded orderings of the ballast ({ballast['source']}, {ballast['available']:,} "
        f"skills), seed {data['seed']}; {data['cases']} case(s) at every size. A size is compared with the "
        "first case by case (exact McNemar test, corrected for the sizes tried).",
        "",
    ]
    for leg in data["agents"]:
        label = leg["agent"] + (f" on {leg['model']}" if leg["model"] else "")
        lines += [f"### {label} {leg['measured_on']}", "", f"Knee: {leg['knee']['says']}.", ""]
        rows = [(p["size"], f"{p['passed']}/{p['graded']}", _accuracy(p), _drop(p)) for p in leg["curve"]]
        lines += [table(["skills", "passed", "accuracy [95 % Wilson]", "against the first size"], rows), ""]
        degraded = [s for s in leg["skills"] if s["first_degraded"] is not None]
        blind = [s["skill"] for s in leg["skills"] if not s["detectable"]]
        if degraded:
            skill_rows = []
            for skill in degraded:
                at = next(p for p in skill["curve"] if p["size"] == skill["first_degraded"])
                first = skill["curve"][0]
                skill_rows.append(
                    (
                        f"`{skill['skill']}`",
                        skill["first_degraded"],
                        f"{_accuracy(first)} → {_accuracy(at)}",
                        at["shown_chars_min"] if at["shown_chars_min"] is not None else "-",
                        ", ".join(f"{state} {count}" for state, count in at["states"].items()) or "-",
                    )
                )
            lines += [
                table(
                    ["skill", "degrades from", "accuracy", "fewest characters shown there", "listed as"],
                    skill_rows,
                ),
                "",
            ]
        else:
            lines += ["No skill degrades beyond noise within the sizes tried.", ""]
        if blind:
            lines += [
                f"Too few cases to tell a drop from noise for: {', '.join(f'`{n}`' for n in blind)} "
                "(add cases or --repeat).",
                "",
            ]
    lines += separate_lines(data["separate"])
    lines.append(findings_table(result.findings, "No skill degrades beyond noise within the sizes tried."))
    return "\n".join(lines) + "\n"


def separate_lines(separate: dict | None) -> list[str]:
    """--confusion: the skills that take each other's prompts in agent runs, and scopes keeping them apart."""
    if separate is None:
        return []
    lines = ["### Skills to keep apart (from agent routing runs)", ""]
    if not separate["pairs"]:
        share = f"{separate['share']:.0%}"
        return [*lines, f"No two skills take each other's prompts in {share} of their cases or more.", ""]
    rows = [
        (
            f"`{p['skills'][0]}` / `{p['skills'][1]}`",
            f"{p['taken'][0]} / {p['taken'][1]}",
            p["cases"],
            f"{p['share']:.0%}",
        )
        for p in separate["pairs"]
    ]
    lines += [table(["skills", "prompts taken (each way)", "their cases", "share"], rows), ""]
    scopes = "; ".join(
        f"scope {n + 1}: " + ", ".join(f"`{s}`" for s in scope) for n, scope in enumerate(separate["scopes"])
    )
    lines += [f"Put them in separate plugins or subagents: {scopes}.", ""]
    return lines


def headline(result: SweepResult) -> str:
    knees = []
    for leg in result.legs:
        size = leg.knee_size
        word = (
            f"knee at {size:,}"
            if size is not None
            else "no knee"
            if leg.knee.verdict == "none"
            else "knee cannot be told from noise"
        )
        knees.append(f"{leg.leg.label} {word}")
    degraded = len({f.message.split("`")[1] for f in result.findings if "`" in f.message})
    return (
        f"{len(result.catalog)} skill(s), {result.cases} case(s), "
        f"sizes {result.sizes[0]:,}-{result.sizes[-1]:,} "
        f"x {result.repeats} repeat(s); {'; '.join(knees)}; {degraded} skill(s) degrade"
    )


def statuses(result: SweepResult) -> dict[str, str]:
    return result.statuses()


def findings(result: SweepResult) -> list[Finding]:
    return list(result.findings)


def junit(result: SweepResult) -> list[JUnitCase]:
    """One case per agent: failed when its knee is at or below --min-knee, the knee said as output."""
    failing = {leg.leg for leg in result.failing_legs}
    cases = []
    for leg in result.legs:
        said = leg.knee_json()["says"]
        cases.append(
            JUnitCase(
                "sweep",
                leg.leg.label,
                failure=f"knee at {leg.knee_size} skills, at or below --min-knee {result.min_knee}: {said}"
                if leg.leg in failing
                else None,
                output=said,
            )
        )
    return cases
