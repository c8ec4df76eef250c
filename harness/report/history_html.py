"""`skillscope history --html PAGE`: in the report page's shell, each skill's accuracy over the runs as an
SVG line and every case's timeline, a coloured cell per run titled with the run and its verdict."""

from __future__ import annotations

from harness.report.history import STABLE, named, ordered, percent
from harness.report.html import shell
from harness.report.html.shell import text

CHART_W, CHART_H, PAD = BOX = (320, 80, 6)


def page(report: dict) -> str:
    """The page of a history report (the JSON `history --format json` writes)."""
    title = f"skillscope history: {report['headline']}"
    problems = "".join(f"<li>{text(p)}</li>" for p in report["problems"])
    runs = report["runs"]
    trends = (
        '<div class="trends">'
        + "".join(trend(key, points, runs) for key, points in report["accuracy"].items())
        + "</div>"
        if report["accuracy"]
        else "<p>No graded case yet.</p>"
    )
    sections = [
        f"<header><h1>{text(title)}</h1>"
        f'<p class="muted">{len(runs)} graded run(s) read from '
        f"{text(', '.join(report['read']))}.</p></header>",
        shell.section("Files left out", f"<ul>{problems}</ul>") if problems else "",
        shell.section("Accuracy per skill", trends, "trends"),
        shell.section("Cases", cases_table(ordered(report), runs), "timelines"),
    ]
    return shell.page(title, [part for part in sections if part], filters=False)


def trend(key: str, points: list[dict], runs: list[dict]) -> str:
    """One skill's accuracy per run as a line over 0..100%; a run that graded none of it leaves a gap."""
    xs = len(points)
    step = (CHART_W - 2 * PAD) / max(1, xs - 1)
    coords = [
        (round(PAD + i * step, 1), shell.level(BOX, p["accuracy"]))
        for i, p in enumerate(points)
        if p["accuracy"] is not None
    ]
    line = " ".join(f"{x},{yy}" for x, yy in coords)
    dots = "".join(
        f'<circle class="dot" cx="{x}" cy="{yy}" r="3"><title>{text(label(p, runs))}</title></circle>'
        for (x, yy), p in zip(coords, [p for p in points if p["accuracy"] is not None], strict=True)
    )
    latest = percent(points[-1]["accuracy"]) if points else "-"
    inner = f'<polyline class="trend" points="{line}"/>{dots}'
    drawn = shell.chart(f"{key} accuracy over {xs} run(s)", BOX, inner)
    caption = f'{text(key)} <span class="muted">latest {text(latest)}</span>'
    return f"<figure><figcaption>{caption}</figcaption>{drawn}</figure>"


def label(point: dict, runs: list[dict]) -> str:
    started = runs[point["run"]]["started_at"]
    return f"{started}: {point['passed']}/{point['graded']} ({percent(point['accuracy'])})"


def cases_table(lines: list[dict], runs: list[dict]) -> str:
    if not lines:
        return "<p>No case in the ledger.</p>"
    rows = "\n".join(
        f'<tr><td class="state-{text(line["state"])}">{text(line["state"])}'
        + (' <span class="muted">(quarantined)</span>' if line["quarantined"] else "")
        + f"</td><td>{text(named(line))}</td>"
        f'<td><div class="runs">{cells(line["timeline"], runs)}</div></td>'
        f"<td{' class=muted' if line['state'] == STABLE else ''}>{text(line['reason'])}</td></tr>"
        for line in lines
    )
    return (
        "<table><thead><tr><th>state</th><th>case</th><th>runs (oldest first)</th><th>why</th></tr></thead>"
        f"<tbody>\n{rows}\n</tbody></table>"
    )


def cells(timeline: dict, runs: list[dict]) -> str:
    """One coloured cell a run, oldest first, titled with the run and its verdict."""
    return "".join(
        cell(runs[run], status, verdict)
        for run, status, verdict in zip(timeline["run"], timeline["status"], timeline["verdict"], strict=True)
    )


def cell(run: dict, status: str, verdict: str) -> str:
    tip = f"{run['started_at']} {run['file']}: {verdict}"
    return f'<span class="run {text(status)}" tabindex="0" title="{text(tip)}"></span>'
