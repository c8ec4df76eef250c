"""A sweep's reports: markdown (per agent the curve, its knee, each skill that degrades), the headline,
statuses, located findings and JUnit."""

from __future__ import annotations

from harness.report import columns
from harness.report.columns import Column, field
from harness.report.format import dollars, number, percent
from harness.report.junit import JUnitCase
from harness.report.markdown import findings_of, findings_table, table, verdict_head

DEGRADED_HEADS = ["skill", "degrades from", "accuracy", "fewest characters shown there", "listed as"]
NONE_DEGRADES = "No skill degrades beyond noise within the sizes tried."


def accuracy_words(point: dict) -> str:
    """A size's accuracy and its Wilson interval, as the markdown and the page show it."""
    if point["accuracy"] is None:
        return "-"
    return f"{point['accuracy']:.2f} [{number(point['low'], '.2f')}, {number(point['high'], '.2f')}]"


def drop(point: dict) -> str:
    """A size against the first: the cases it lost and won, the test's p, and whether beyond noise."""
    if point["p"] is None:
        return "(compared with)"
    p = "p < 0.0001" if point["p"] < 0.0001 else f"p {point['p']:.3g}"
    said = f"-{point['worse']} +{point['better']}, {p}"
    return f"{said}, beyond noise" if point["degraded"] else said


def _errors(point: dict) -> str:
    errors = point.get("errors") or 0  # optional in the schema: a size that errored nowhere may omit it
    return f" ({errors} errored, graded on neither side)" if errors else ""


# The curve's table and the table of the skills that degrade, in the markdown and on the page.
CURVE: list[Column] = [
    ("skills", field("size")),
    ("passed", lambda point: f"{point['passed']}/{point['graded']}" + _errors(point)),
    ("accuracy [95 % Wilson]", accuracy_words),
    ("against the first size", drop),
]


def engine_sentence(data: dict) -> str:
    """What graded the sizes: the lexical estimate, or the agents (what they started and spent)."""
    usage = f" claude's listing ranked by the usage profile {data['usage']}." if data.get("usage") else ""
    if data["engine"] != "agent":
        return "Engine: lexical (free; it approximates how an agent routes)." + usage
    run = data.get("run") or {}
    cost = dollars(run.get("cost_usd", 0))
    said = (
        f"Engine: agent (each size installed in the agent CLI, which listed it itself): "
        f"{run.get('agent_starts', 0)} agent start(s), {run.get('cached_samples', 0)} sample(s) replayed "
        f"from the result cache, {cost} spent, {run.get('errors', 0)} case run(s) errored."
    )
    halt = f" {run['halt']}" if run.get("halt") else ""
    return said + halt + usage


def label(leg: dict) -> str:
    return leg["agent"] + (f" on {leg['model']}" if leg["model"] else "")


def markdown(data: dict) -> str:
    lines = verdict_head("Catalog-size sweep", data, headline(data))
    ballast = data["ballast"]
    lines += [
        engine_sentence(data) + " "
        f"Sizes {', '.join(map(str, data['sizes']))}; "
        f"{data['repeats']} seeded orderings of the ballast ({ballast['source']}, {ballast['available']:,} "
        f"skills), seed {data['seed']}; {data['cases']} case(s) at every size. A size is compared with the "
        "first case by case (exact McNemar test, corrected for the sizes tried).",
        "",
    ]
    for leg in data["agents"]:
        lines += [f"### {label(leg)} {leg['measured_on']}", "", f"Knee: {leg['knee']['says']}.", ""]
        lines += [table(columns.heads(CURVE), columns.rows(CURVE, leg["curve"])), ""]
        degraded = degraded_rows(leg)
        lines += [table(DEGRADED_HEADS, degraded) if degraded else NONE_DEGRADES, ""]
        blind = ", ".join(f"`{s['skill']}`" for s in leg["skills"] if not s["detectable"])
        lines += (
            [f"Too few cases to tell a drop from noise for: {blind} (add cases or --repeat).", ""]
            if blind
            else []
        )
    lines += separate_lines(data["separate"])
    lines.append(findings_table(findings(data), NONE_DEGRADES))
    return "\n".join(lines) + "\n"


def degraded_rows(leg: dict) -> list[list[str]]:
    """Each skill that degrades, at its first size beyond noise: its accuracy from the first size to there,
    and how it was listed; in the markdown and on the page."""
    rows = []
    for skill in leg["skills"]:
        at = next((p for p in skill["curve"] if p["size"] == skill["first_degraded"]), None)
        if at is None:
            continue
        states = ", ".join(f"{state} {count}" for state, count in at["states"].items()) or "-"
        shown = at["shown_chars_min"]
        accuracy = f"{accuracy_words(skill['curve'][0])} → {accuracy_words(at)}"
        rows.append([skill["skill"], str(at["size"]), accuracy, "-" if shown is None else str(shown), states])
    return rows


def separate_lines(separate: dict | None) -> list[str]:
    """--confusion: the skills that take each other's prompts in agent runs, and scopes keeping them apart."""
    if separate is None:
        return []
    lines = ["### Skills to keep apart (from agent routing runs)", ""]
    if not separate["pairs"]:
        share = percent(separate["share"], 0)
        return [*lines, f"No two skills take each other's prompts in {share} of their cases or more.", ""]
    rows = [
        (
            f"`{p['skills'][0]}` / `{p['skills'][1]}`",
            f"{p['taken'][0]} / {p['taken'][1]}",
            p["cases"],
            percent(p["share"], 0),
        )
        for p in separate["pairs"]
    ]
    lines += [table(["skills", "prompts taken (each way)", "their cases", "share"], rows), ""]
    scopes = "; ".join(
        f"scope {n + 1}: " + ", ".join(f"`{s}`" for s in scope) for n, scope in enumerate(separate["scopes"])
    )
    lines += [f"Put them in separate plugins or subagents: {scopes}.", ""]
    return lines


def headline(report: dict) -> str:
    knees = []
    for leg in report["agents"]:
        knee = leg["knee"]
        word = (
            "graded no case: every run errored"
            if not any(point["graded"] for point in leg["curve"])
            else f"knee at {knee['size']:,}"
            if knee["size"] is not None
            else "no knee"
            if knee["verdict"] == "none"
            else "knee cannot be told from noise"
        )
        knees.append(f"{label(leg)} {word}")
    degraded = len({f["message"].split("`")[1] for f in report["findings"] if "`" in f["message"]})
    sizes = report["sizes"]
    return (
        f"{len(report['catalog'])} skill(s), {report['cases']} case(s), "
        f"sizes {sizes[0]:,}-{sizes[-1]:,} "
        f"x {report['repeats']} repeat(s); {''.join(k + '; ' for k in knees)}{degraded} skill(s) degrade"
    )


def failing(report: dict, leg: dict) -> bool:
    """Whether a leg's knee falls at or below --min-knee."""
    size = leg["knee"]["size"]
    return bool(report["min_knee"]) and size is not None and size <= report["min_knee"]


def statuses(report: dict) -> dict[str, str]:
    """Each catalog skill: `fail` when it degrades at or below --min-knee on any agent, `error` when its
    cases were run and none was graded (every run errored)."""
    bar = report["min_knee"]
    out = {}
    for name in report["catalog"]:
        curves = [curve for leg in report["agents"] for curve in leg["skills"] if curve["skill"] == name]
        if curves and not any(point["graded"] for curve in curves for point in curve["curve"]):
            out[name] = "error"
            continue
        degraded = [
            curve["first_degraded"]
            for leg in report["agents"]
            for curve in leg["skills"]
            if curve["skill"] == name and curve["first_degraded"] is not None
        ]
        out[name] = "fail" if bar and any(size <= bar for size in degraded) else "pass"
    return out


findings = findings_of


def junit(report: dict) -> list[JUnitCase]:
    """One case per agent: failed when its knee is at or below --min-knee, the knee said as output."""
    cases = []
    for leg in report["agents"]:
        said = leg["knee"]["says"]
        cases.append(
            JUnitCase(
                "sweep",
                label(leg),
                failure=f"knee at {leg['knee']['size']} skills, at or below --min-knee {report['min_knee']}: "
                f"{said}"
                if failing(report, leg)
                else None,
                output=said,
            )
        )
    return cases
