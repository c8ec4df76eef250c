"""`skillscope history` as text and markdown, from its JSON report: the headline, every case that is not
stable with its timeline and why, and each skill's accuracy run by run."""

from __future__ import annotations

from harness.printable import clip, escaped
from harness.report.format import percent as rate
from harness.report.markdown import table

STABLE = "stable"
STATES = ("regressed", "flaky", "improved", STABLE, "ungraded")  # the order reports list them in

# One letter per run in a timeline: what a person scans for a changed verdict.
MARKS = {"pass": "P", "fail": "F", "error": "E", "blocked": "B", "not-run": "-"}
TIMELINE_WIDTH = 40  # runs shown in a timeline; older ones are summed up as "…"
REASON_WIDTH = 160


def marks(line: dict) -> str:
    """`PPFP`: the case's status in each run, oldest first."""
    statuses = line["timeline"]["status"]
    shown = "".join(MARKS.get(status, "?") for status in statuses[-TIMELINE_WIDTH:])
    return ("…" if len(statuses) > TIMELINE_WIDTH else "") + shown


def named(line: dict) -> str:
    agent = f" on {line['agent']}" if line["command"] == "routing" and line["agent"] else ""
    return f"{line['command']} {line['id']}" + (f" ({line['skill']})" if line["skill"] else "") + agent


def counted(report: dict) -> list[dict]:
    """The timelines the headline counts: with --against, those this branch's runs added to."""
    if report["against"] is None:
        return report["cases"]
    runs = report["runs"]
    return [line for line in report["cases"] if not runs[line["timeline"]["run"][-1]]["base"]]


def ordered(report: dict) -> list[dict]:
    """The cases worth a look first: regressed, flaky, improved, then the rest."""
    rank = {state: i for i, state in enumerate(STATES)}
    return sorted(counted(report), key=lambda line: rank[line["state"]])


def percent(value: float | None) -> str:
    return rate(value, 0, "-")


def text(report: dict, warnings: bool = True) -> str:
    """The text report; `warnings=False` leaves out the ledger's problems, for the run that said them
    on stderr already (a saved report shown again has no other place for them)."""
    lines = [f"history: {report['headline']}"]
    lines += [f"warning: {problem}" for problem in report["problems"]] if warnings else []
    for line in ordered(report):
        if line["state"] == STABLE:
            continue
        held = " [quarantined]" if line["quarantined"] else ""
        why = clip(line["reason"], REASON_WIDTH)
        lines.append(f"  {line['state'].upper():<9} {named(line)}{held}: {marks(line)}  {why}")
    stable = sum(1 for line in counted(report) if line["state"] == STABLE)
    if stable:
        lines.append(f"  {stable} stable case(s) not listed (--format json lists every timeline)")
    for key, points in report["accuracy"].items():
        figures = " ".join(percent(p["accuracy"]) for p in points[-TIMELINE_WIDTH:])
        lines.append(f"  accuracy {key}: {figures}")
    return "".join(escaped(line) + "\n" for line in lines)


def markdown(report: dict) -> str:
    parts = [f"## skillscope history: {report['headline']}", ""]
    read = ", ".join(f"`{f}`" for f in report["read"])
    base = f"; the base's history first ({report['against']})" if report["against"] else ""
    parts += [f"{len(report['runs'])} graded run(s) read from {read}{base}.", ""]
    for problem in report["problems"]:
        parts.append(f"- warning: {problem}")
    if report["problems"]:
        parts.append("")
    rows = [
        (
            line["state"] + (" (quarantined)" if line["quarantined"] else ""),
            named(line),
            marks(line),
            clip(line["reason"], REASON_WIDTH),
        )
        for line in ordered(report)
        if line["state"] != STABLE
    ]
    if rows:
        parts += [table(["state", "case", "timeline (oldest first)", "why"], rows), ""]
    else:
        parts += ["Every case is stable." if counted(report) else "No case was graded.", ""]
    trend = report["accuracy"]
    if trend:
        trend_rows = [
            (
                key,
                len(points),
                percent(points[0]["accuracy"]),
                percent(points[-1]["accuracy"]),
                " ".join(percent(p["accuracy"]) for p in points[-12:]),
            )
            for key, points in trend.items()
        ]
        parts += [
            "### Accuracy per skill",
            "",
            table(["skill", "runs", "first", "latest", "recent runs"], trend_rows),
            "",
        ]
    return "\n".join(parts)
