"""`skillscope history` as text for a terminal and as markdown for a step summary: the headline, every
case that is not stable with its timeline and why, and each skill's accuracy run by run."""

from __future__ import annotations

from harness.history.result import History
from harness.history.states import STABLE, STATES, Timeline
from harness.printable import escaped
from harness.report.markdown import clip, table

# One letter per run in a timeline: what a person scans for a changed verdict.
MARKS = {"pass": "P", "fail": "F", "error": "E", "blocked": "B", "not-run": "-"}
TIMELINE_WIDTH = 40  # runs shown in a timeline; older ones are summed up as "…"
REASON_WIDTH = 160


def marks(line: Timeline) -> str:
    """`PPFP`: the case's status in each run, oldest first; quarantined runs in brackets are not marked."""
    statuses = line.statuses
    shown = "".join(MARKS.get(status, "?") for status in statuses[-TIMELINE_WIDTH:])
    return ("…" if len(statuses) > TIMELINE_WIDTH else "") + shown


def named(line: Timeline) -> str:
    agent = f" on {line.agent}" if line.command == "routing" and line.agent else ""
    return f"{line.command} {line.case}" + (f" ({line.skill})" if line.skill else "") + agent


def ordered(history: History) -> list[Timeline]:
    """The cases worth a look first: regressed, flaky, improved, then the rest."""
    rank = {state: i for i, state in enumerate(STATES)}
    return sorted(history.counted, key=lambda t: rank[t.state])


def percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def text(history: History) -> str:
    lines = [f"history: {history.headline()}"]
    lines += [f"warning: {problem}" for problem in history.ledger.problems]
    for line in ordered(history):
        if line.state == STABLE:
            continue
        held = " [quarantined]" if line.quarantined else ""
        why = clip(line.reason(), REASON_WIDTH)
        lines.append(f"  {line.state.upper():<9} {named(line)}{held}: {marks(line)}  {why}")
    stable = sum(1 for line in history.counted if line.state == STABLE)
    if stable:
        lines.append(f"  {stable} stable case(s) not listed (--format json lists every timeline)")
    for key, points in history.trend.items():
        figures = " ".join(percent(p.accuracy) for p in points[-TIMELINE_WIDTH:])
        lines.append(f"  accuracy {key}: {figures}")
    return "".join(escaped(line) + "\n" for line in lines)


def markdown(history: History) -> str:
    parts = [f"## skillscope history: {history.headline()}", ""]
    read = ", ".join(f"`{f}`" for f in history.folders)
    base = f"; the base's history first ({history.against})" if history.against else ""
    parts += [f"{len(history.ledger.runs)} graded run(s) read from {read}{base}.", ""]
    for problem in history.ledger.problems:
        parts.append(f"- warning: {problem}")
    if history.ledger.problems:
        parts.append("")
    rows = [
        (
            line.state + (" (quarantined)" if line.quarantined else ""),
            named(line),
            marks(line),
            clip(line.reason(), REASON_WIDTH),
        )
        for line in ordered(history)
        if line.state != STABLE
    ]
    if rows:
        parts += [table(["state", "case", "timeline (oldest first)", "why"], rows), ""]
    else:
        parts += ["Every case is stable." if history.counted else "No case was graded.", ""]
    if history.trend:
        trend_rows = [
            (
                key,
                len(points),
                percent(points[0].accuracy),
                percent(points[-1].accuracy),
                " ".join(percent(p.accuracy) for p in points[-12:]),
            )
            for key, points in history.trend.items()
        ]
        parts += [
            "### Accuracy per skill",
            "",
            table(["skill", "runs", "first", "latest", "recent runs"], trend_rows),
            "",
        ]
    return "\n".join(parts)
