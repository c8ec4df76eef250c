"""The sweep page's sections: per agent, the catalog's accuracy at each size as a curve with its Wilson
band and the knee marked, the table under it, and the skills that degrade."""

from __future__ import annotations

import math

from harness.report import columns, sweep
from harness.report.format import number
from harness.report.html.header import header
from harness.report.html.shell import chart, level, section, simple_table, text

CHART_W, CHART_H, PAD = BOX = (520, 180, 28)


def head(report: dict) -> str:
    figures = [("sizes", f"{report['sizes'][0]}-{report['sizes'][-1]}")]
    figures += [("repeats", str(report["repeats"])), ("cases", str(report["cases"]))]
    for leg in report["agents"]:
        knee = leg["knee"]
        figures.append((f"{leg['agent']} knee", str(knee["size"] or knee["verdict"])))
    bar = report["min_knee"]
    gate = f"a knee at or below {bar} skills fails" if bar else "reports only (no --min-knee)"
    return header(report, figures, gate)


def curve(leg: dict) -> str:
    """Accuracy against catalog size (log scale), the Wilson band shaded, the knee as a dashed line."""
    points = [p for p in leg["curve"] if p["accuracy"] is not None]
    if len(points) < 2:
        return ""
    first, last = math.log(points[0]["size"]), math.log(points[-1]["size"])

    def x(size: float) -> float:
        return round(PAD + (math.log(size) - first) / ((last - first) or 1) * (CHART_W - 2 * PAD), 1)

    def y(value: float) -> float:
        return level(BOX, value)

    line = " ".join(f"{x(p['size'])},{y(p['accuracy'])}" for p in points)
    band = " ".join(
        [f"{x(p['size'])},{y(p['high'])}" for p in points]
        + [f"{x(p['size'])},{y(p['low'])}" for p in reversed(points)]
    )
    dots = "".join(
        f'<circle class="dot" cx="{x(p["size"])}" cy="{y(p["accuracy"])}" r="3"><title>'
        f"{text(p['size'])} skills: {text(p['passed'])}/{text(p['graded'])} "
        f"[{number(p['low'], '.2f')}, {number(p['high'], '.2f')}]</title></circle>"
        for p in points
    )
    ticks = "".join(
        f'<text x="{x(p["size"])}" y="{CHART_H - 8}" text-anchor="middle">{text(p["size"])}</text>'
        for p in points
    )
    knee = leg["knee"]["size"]
    marker = (
        f'<line class="axis" stroke-dasharray="4 3" x1="{x(knee)}" y1="{y(0)}" x2="{x(knee)}" y2="{y(1)}"/>'
        if knee is not None
        else ""
    )
    label = f"{leg['agent']}: accuracy at {len(points)} catalog sizes"
    inner = (
        f'<text x="2" y="{y(1) + 4}">1</text><text x="2" y="{y(0) + 4}">0</text>'
        f'<polygon points="{band}" fill="currentColor" opacity="0.12"/>{marker}'
        f'<polyline class="trend" points="{line}"/>{dots}{ticks}'
    )
    return f"<figure><figcaption>{text(label)}</figcaption>{chart(label, BOX, inner)}</figure>"


def leg_section(leg: dict) -> str:
    rows = columns.rows(sweep.CURVE, leg["curve"])
    skills = sweep.degraded_rows(leg)
    inner = (
        f"<p>Knee: {text(leg['knee']['says'])}.</p>"
        + curve(leg)
        + simple_table(columns.heads(sweep.CURVE), rows, (0, 1))
        + (
            "<h3>Skills that degrade</h3>" + simple_table(sweep.DEGRADED_HEADS, skills, (1, 3))
            if skills
            else f"<p>{sweep.NONE_DEGRADES}</p>"
        )
    )
    title = f"{leg['agent']} {leg['measured_on']}" + (f" on {leg['model']}" if leg["model"] else "")
    return section(title, inner)


def sections(report: dict, transcripts: object = None) -> list[str]:
    return [head(report), *(leg_section(leg) for leg in report["agents"])]
