"""Markdown for routing on several legs (agents, models): skills x legs, each model's difference from
the agent's first with its interval, then the cases that differ first."""

from __future__ import annotations

from dataclasses import replace

from harness.model.findings import Finding
from harness.report import routing
from harness.report.junit import JUnitCase
from harness.report.markdown import clip, table
from harness.report.text import halt_note
from harness.routing.matrix import RoutingMatrix


def _cell(cell: dict | None) -> str:
    if not cell or not cell["graded"]:
        return "n/a"
    return f"{cell['passed']}/{cell['graded']} ({cell['accuracy'] * 100:.0f}%)"


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.0f}%"


def signed(value: float) -> str:
    return f"{value * 100:+.0f}%"


def difference_line(row: dict, figure: str = "accuracy") -> str:
    """One model against the agent's first: the figure of each, the difference and its interval."""
    rates = f"{row['b']} {percent(row['rate_b'])} vs {row['a']} {percent(row['rate_a'])}"
    if row["difference"] is None:
        return f"{rates}: no difference to give (a side graded no case)"
    noise = "beyond noise" if row["beyond_noise"] else "within noise"
    return (
        f"{rates}: {figure} {signed(row['difference'])} "
        f"(95% interval {signed(row['low'])} to {signed(row['high'])}, {noise})"
    )


def markdown(result: RoutingMatrix) -> str:
    data = result.to_json()
    agents = result.agents
    lines = ["## Skill routing across agents and models", ""]
    lines.append(
        table(
            ["leg", "agent", "model", "version", "correct", "errors", "gate"],
            [
                (
                    a["leg"],
                    a["agent"],
                    a["model"] or "default",
                    a["agent_version"],
                    f"{a['totals']['passed']}/{a['totals']['graded']}",
                    a["totals"]["errors"],
                    ("passed" if a["passed"] else "failed") + f": {a['gate']['reason']}",
                )
                for a in data["agents"]
            ],
        )
    )
    for name, r in result.legs():
        said = ([halted] if (halted := r.meta.halt.sentence()) else []) + r.meta.notes
        said += [r.meta.canary.line()] if r.meta.canary else []
        said += [f"{from_cache}."] if (from_cache := routing.replayed(r)) else []
        if said:
            lines += ["", *(f"- {name}: {line}" for line in said)]
    if data["differences"]:
        lines += ["", "### Between models", ""]
        lines += [f"- {difference_line(row)}" for row in data["differences"]]
    if data["skill_differences"]:
        lines += ["", "### Per skill between models (beyond noise first, then the largest drops)", ""]
        lines.append(
            table(
                ["skill", "models", "accuracy", "difference", "95% interval", "reading"],
                [
                    (
                        row["skill"],
                        f"{row['b']} vs {row['a']}",
                        f"{percent(row['rate_b'])} vs {percent(row['rate_a'])}",
                        signed(row["difference"]),
                        f"{signed(row['low'])} to {signed(row['high'])}",
                        "**beyond noise**" if row["beyond_noise"] else "within noise",
                    )
                    for row in data["skill_differences"]
                ],
            )
        )
    lines += ["", "### Trigger accuracy, skills x legs", ""]
    lines.append(
        table(
            ["skill", *agents],
            [(skill, *(_cell(row.get(a)) for a in agents)) for skill, row in data["matrix"].items()],
        )
    )
    differing = [row for row in data["cases"] if row["differs"]]
    lines += ["", f"### Cases ({len(differing)} differ between legs, listed first)", ""]
    lines.append(
        table(
            ["case", "expected", *agents],
            [
                (
                    ("**differs** " if row["differs"] else "") + row["id"],
                    row["expect"] or "no skill",
                    *(
                        clip(f"{routing.observation(v)} ({v['verdict']})", 60)
                        for v in (row["by_agent"][a] for a in agents)
                    ),
                )
                for row in data["cases"]
            ],
        )
    )
    lines += ["", f"Overall: **{'passed' if result.passed else 'failed'}** (every leg must pass its gate)."]
    return "\n".join(lines)


def headline(result: RoutingMatrix) -> str:
    """One clause per leg: its correct/graded and whether it passed its gate; then each model's
    difference from its agent's first."""
    parts = []
    for name, r in result.legs():
        tally = r.tally()
        gate = "passed" if r.passed else "failed"
        if tally.left_out():  # the gate's own count, named, when it differs from the leg's
            gate += f" ({tally.counted_passed}/{tally.counted} counted: {tally.left_out()})"
        from_cache = f" ({said})" if (said := routing.replayed(r)) else ""
        parts.append(f"{name} {tally.passed}/{tally.graded} {gate}{from_cache}{halt_note(r.meta.halt)}")
    parts += [difference_line(row) for row in result.differences()]
    moved = [row for row in result.skill_differences() if row["beyond_noise"]]
    if moved:
        named = ", ".join(f"{row['skill']} {signed(row['difference'])} on {row['b']}" for row in moved)
        parts.append(f"{len(moved)} skill(s) beyond noise between models: {named}")
    return "; ".join(parts)


def statuses(result: RoutingMatrix) -> dict[str, str]:
    return result.statuses()


def findings(result: RoutingMatrix) -> list[Finding]:
    """Every leg's routing findings, each message naming its leg."""
    return [
        replace(f, message=f"{name}: {f.message}") for name, r in result.legs() for f in routing.findings(r)
    ]


def junit(result: RoutingMatrix) -> list[JUnitCase]:
    return [
        replace(case, classname=f"{name}.{case.classname}")
        for name, r in result.legs()
        for case in routing.junit(r)
    ]
