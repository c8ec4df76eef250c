"""The cost page's sections: one prompt run with the skill and without it, per side and per run, in
tokens, turns, tool calls and dollars."""

from __future__ import annotations

from harness.jsonfields import object_at
from harness.report import cost
from harness.report.format import DASH, dollars, signed_dollars
from harness.report.html.common import fields
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text

TOKENS = ("turns", "tool_calls", "input_tokens", "output_tokens")  # what one run used, a column each
HEADS = [label for label, key in cost.ROWS if key in TOKENS]  # named as the markdown's rows name them
SIDE_NAMES = {"with": "with the skill", "without": "without the skill"}


def head(report: dict) -> str:
    # Without --skill, a run has no `without` side.
    costs = {key: object_at(report["sides"], key).get("cost_usd") for key in SIDE_NAMES}
    figures = [(f"cost {name}", dollars(costs[key], DASH)) for key, name in SIDE_NAMES.items()]
    a, b = costs["with"], costs["without"]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        figures.append(("the skill adds", f"{signed_dollars(a - b)} a run"))
    gate = f"skill {report['meta']['skill']}: {'every run finished' if report['passed'] else 'a run failed'}"
    return header(report, figures, gate, spent(report))


def spent(report: dict) -> float:
    """What every run of the prompt cost, a run that said nothing counting as $0."""
    return sum(r["cost_usd"] or 0 for r in report["runs"])


def sides_table(report: dict) -> str:
    lead = f"<p>Prompt: <q>{text(report['meta']['prompt'])}</q></p>"
    heads, rows = cost.sides_table(report)
    said = "<p>Means over each side's finished runs.</p>"
    return section(
        "With and without the skill", lead + said + simple_table(heads, rows, range(1, len(heads)))
    )


def runs_table(report: dict) -> str:
    rows = [
        [
            SIDE_NAMES[r["side"]],
            r["status"],
            ", ".join(r["fired"]) or "none",
            *fields(r, TOKENS),
            dollars(r["cost_usd"], DASH),
            r["error"] or "",
        ]
        for r in report["runs"]
    ]
    headers = ["side", "outcome", "skills fired", *HEADS, "cost", "error"]
    foot = f"<p>Total spent: {text(dollars(spent(report), DASH))}</p>"
    return section(f"Runs ({len(rows)})", simple_table(headers, rows, range(3, 8)) + foot)


def sections(report: dict, transcripts: object = None) -> list[str]:
    return [head(report), sides_table(report), runs_table(report)]
