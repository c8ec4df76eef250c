"""`skillscope history --html PAGE`: one self-contained page (no script, no external asset, opens from
a CI artifact or file://): the headline, each skill's accuracy over the runs as an inline SVG line, and
every case's timeline, one coloured cell per run. Its own small shell for now; the report page's
shell may take it in later."""

from __future__ import annotations

from html import escape

from harness.history.ledger import Entry
from harness.history.result import History
from harness.history.states import STABLE, Point, Timeline
from harness.printable import escaped
from harness.report.history import named, ordered, percent

CHART_W, CHART_H, PAD = 320, 80, 6
STYLE = """
:root { color-scheme: light dark; --fg: #1f2328; --bg: #fff; --muted: #656d76; --line: #d0d7de;
  --pass: #1a7f37; --fail: #cf222e; --error: #9a6700; --none: #8c959f; --accent: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #8d96a0;
  --line: #30363d; --pass: #3fb950; --fail: #f85149; --error: #d29922; --none: #6e7681; --accent: #4493f8; } }
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em;
  color: var(--fg); background: var(--bg); }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: .3em .6em; text-align: left; vertical-align: top; }
.muted { color: var(--muted); } .state-regressed, .state-flaky { font-weight: 600; }
.state-regressed { color: var(--fail); } .state-flaky { color: var(--error); }
.state-improved { color: var(--pass); } .runs { display: flex; gap: 2px; }
.run { width: .8em; height: 1.2em; border-radius: 2px; background: var(--none); }
.run.pass { background: var(--pass); } .run.fail { background: var(--fail); }
.run.error, .run.blocked { background: var(--error); }
.trends { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 1em; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: .6em; }
figcaption { font-weight: 600; } svg .trend { fill: none; stroke: var(--accent); stroke-width: 2; }
svg .dot { fill: var(--accent); } svg .axis { stroke: var(--line); }
"""


def text(value: object) -> str:
    """Markup-safe and terminal-safe."""
    return escape(escaped(str(value)), quote=True)


def page(history: History) -> str:
    title = f"skillscope history: {history.headline()}"
    problems = "".join(f"<li>{text(p)}</li>" for p in history.ledger.problems)
    body = [
        f"<h1>{text(title)}</h1>",
        f'<p class="muted">{len(history.ledger.runs)} graded run(s) read from '
        f"{text(', '.join(history.folders))}.</p>",
        f"<h2>Files left out</h2><ul>{problems}</ul>" if problems else "",
        "<h2>Accuracy per skill</h2>",
        '<div class="trends">'
        + "".join(trend(key, points) for key, points in history.trend.items())
        + "</div>"
        if history.trend
        else "<p>No graded case yet.</p>",
        "<h2>Cases</h2>",
        cases_table(ordered(history)),
    ]
    return (
        "<!doctype html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        f"<title>{text(title)}</title><style>{STYLE}</style></head>\n<body>\n"
        + "\n".join(part for part in body if part)
        + "\n</body></html>\n"
    )


def trend(key: str, points: list[Point]) -> str:
    """One skill's accuracy per run as a line over 0..100%; a run that graded none of it leaves a gap."""
    xs = len(points)
    step = (CHART_W - 2 * PAD) / max(1, xs - 1)

    def y(accuracy: float) -> float:
        return round(CHART_H - PAD - accuracy * (CHART_H - 2 * PAD), 1)

    coords = [
        (round(PAD + i * step, 1), y(p.accuracy)) for i, p in enumerate(points) if p.accuracy is not None
    ]
    line = " ".join(f"{x},{yy}" for x, yy in coords)
    dots = "".join(
        f'<circle class="dot" cx="{x}" cy="{yy}" r="3"><title>{text(label(p))}</title></circle>'
        for (x, yy), p in zip(coords, [p for p in points if p.accuracy is not None], strict=True)
    )
    latest = percent(points[-1].accuracy) if points else "-"
    return (
        f'<figure><figcaption>{text(key)} <span class="muted">latest {text(latest)}</span></figcaption>'
        f'<svg role="img" aria-label="{text(key)} accuracy over {xs} run(s)" '
        f'viewBox="0 0 {CHART_W} {CHART_H}" width="{CHART_W}" height="{CHART_H}">'
        f'<line class="axis" x1="{PAD}" y1="{y(0)}" x2="{CHART_W - PAD}" y2="{y(0)}"/>'
        f'<line class="axis" x1="{PAD}" y1="{y(1)}" x2="{CHART_W - PAD}" y2="{y(1)}"/>'
        f'<polyline class="trend" points="{line}"/>{dots}</svg></figure>'
    )


def label(point: Point) -> str:
    return f"{point.run.started_at}: {point.passed}/{point.graded} ({percent(point.accuracy)})"


def cases_table(lines: list[Timeline]) -> str:
    if not lines:
        return "<p>No case in the ledger.</p>"
    rows = "\n".join(
        f'<tr><td class="state-{text(line.state)}">{text(line.state)}'
        + (' <span class="muted">(quarantined)</span>' if line.quarantined else "")
        + f"</td><td>{text(named(line))}</td>"
        f'<td><div class="runs">{"".join(cell(e) for e in line.entries)}</div></td>'
        f"<td{' class=muted' if line.state == STABLE else ''}>{text(line.reason())}</td></tr>"
        for line in lines
    )
    return (
        "<table><thead><tr><th>state</th><th>case</th><th>runs (oldest first)</th><th>why</th></tr></thead>"
        f"<tbody>\n{rows}\n</tbody></table>"
    )


def cell(entry: Entry) -> str:
    tip = f"{entry.run.started_at} {entry.run.file}: {entry.verdict}"
    return f'<span class="run {text(entry.status)}" title="{text(tip)}"></span>'
