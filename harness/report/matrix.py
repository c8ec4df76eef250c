"""Markdown for routing on several agents: skills x agents, then the cases that differ first."""

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


def markdown(result: RoutingMatrix) -> str:
    data = result.to_json()
    agents = result.agents
    lines = ["## Skill routing across agents", ""]
    lines.append(
        table(
            ["agent", "version", "correct", "errors", "gate"],
            [
                (
                    a["agent"],
                    a["agent_version"],
                    f"{a['totals']['passed']}/{a['totals']['graded']}",
                    a["totals"]["errors"],
                    ("passed" if a["passed"] else "failed") + f": {a['gate']['reason']}",
                )
                for a in data["agents"]
            ],
        )
    )
    for r in result.results:
        said = ([halted] if (halted := r.meta.halt.sentence()) else []) + r.meta.notes
        said += [r.meta.canary.line()] if r.meta.canary else []
        said += [f"{from_cache}."] if (from_cache := routing.replayed(r)) else []
        if said:
            lines += ["", *(f"- {r.meta.agent}: {line}" for line in said)]
    lines += ["", "### Trigger accuracy, skills x agents", ""]
    lines.append(
        table(
            ["skill", *agents],
            [(skill, *(_cell(row.get(a)) for a in agents)) for skill, row in data["matrix"].items()],
        )
    )
    differing = [row for row in data["cases"] if row["differs"]]
    lines += ["", f"### Cases ({len(differing)} differ between agents, listed first)", ""]
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
    lines += ["", f"Overall: **{'passed' if result.passed else 'failed'}** (every agent must pass its gate)."]
    return "\n".join(lines)


def headline(result: RoutingMatrix) -> str:
    """One clause per agent: its correct/graded and whether it passed its gate."""
    parts = []
    for r in result.results:
        totals = r.totals()
        gate = "passed" if r.passed else "failed"
        from_cache = f" ({said})" if (said := routing.replayed(r)) else ""
        parts.append(
            f"{r.meta.agent} {totals['passed']}/{totals['graded']} {gate}{from_cache}{halt_note(r.meta.halt)}"
        )
    return "; ".join(parts)


def statuses(result: RoutingMatrix) -> dict[str, str]:
    return result.statuses()


def findings(result: RoutingMatrix) -> list[Finding]:
    """Every agent's routing findings, each message naming its agent."""
    return [
        replace(f, message=f"{r.meta.agent}: {f.message}")
        for r in result.results
        for f in routing.findings(r)
    ]


def junit(result: RoutingMatrix) -> list[JUnitCase]:
    return [
        replace(case, classname=f"{r.meta.agent}.{case.classname}")
        for r in result.results
        for case in routing.junit(r)
    ]
