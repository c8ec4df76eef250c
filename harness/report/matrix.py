"""Markdown for routing on several legs (agents, models): skills x legs, each model's difference from
the agent's first with its interval, then the cases that differ first."""

from __future__ import annotations

from dataclasses import replace

from harness.model import notes
from harness.model.envelope import Halt
from harness.model.findings import Finding
from harness.printable import clip
from harness.report import routing
from harness.report.format import percent as rate
from harness.report.format import signed_percent
from harness.report.junit import JUnitCase
from harness.report.markdown import table
from harness.report.text import halt_note


def _cell(cell: dict | None) -> str:
    if not cell or not cell["graded"]:
        return "n/a"
    return f"{cell['passed']}/{cell['graded']} ({cell['accuracy'] * 100:.0f}%)"


def percent(value: float | None) -> str:
    """A matrix's rates read whole: `62%`."""
    return rate(value, 0)


signed = signed_percent


def legs(report: dict, key: str = "legs") -> list[tuple[str, dict]]:
    """Each leg's label (from the matrix's `key` rows) and its own run's report, in the legs' order."""
    return list(zip((row["leg"] for row in report[key]), report["runs"], strict=True))


def leg_lines(report: dict, key: str = "legs", canary: bool = False) -> list[str]:
    """What each leg's run said beyond its figures: why it halted, its notes (and its canary, its
    replays, for routing)."""
    lines = []
    for name, run in legs(report, key):
        meta = run["meta"]
        said = ([halted] if (halted := Halt.of(meta).sentence()) else []) + meta["notes"]
        if canary:
            said += [meta["canary"]["line"]] if meta.get("canary") else []
            said += [f"{from_cache}."] if (from_cache := routing.replayed(run)) else []
        if said:
            lines += ["", *(f"- {name}: {line}" for line in said)]
    return lines


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


def markdown(report: dict) -> str:
    agents = [row["leg"] for row in report["agents"]]
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
                for a in report["agents"]
            ],
        )
    )
    lines += leg_lines(report, "agents", canary=True)
    if report["differences"]:
        lines += ["", "### Between models", ""]
        lines += [f"- {difference_line(row)}" for row in report["differences"]]
    if report["skill_differences"]:
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
                    for row in report["skill_differences"]
                ],
            )
        )
    lines += ["", "### Trigger accuracy, skills x legs", ""]
    lines.append(
        table(
            ["skill", *agents],
            [(skill, *(_cell(row.get(a)) for a in agents)) for skill, row in report["matrix"].items()],
        )
    )
    differing = [row for row in report["cases"] if row["differs"]]
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
                for row in report["cases"]
            ],
        )
    )
    lines += [
        "",
        f"Overall: **{'passed' if report['passed'] else 'failed'}** (every leg must pass its gate).",
    ]
    return "\n".join(lines)


def headline(report: dict) -> str:
    """One clause per leg: its correct/graded and whether it passed its gate; then each model's
    difference from its agent's first."""
    parts = []
    for name, run in legs(report, "agents"):
        totals = run["totals"]
        gate = "passed" if run["passed"] else "failed"
        gated = totals.get("gated", {})
        if left := notes.left_out(gated):  # the gate's own count, named, when it differs from the leg's
            gate += f" ({gated['passed']}/{gated['graded']} counted: {left})"
        from_cache = f" ({said})" if (said := routing.replayed(run)) else ""
        parts.append(
            f"{name} {totals['passed']}/{totals['graded']} {gate}{from_cache}{halt_note(run['meta'])}"
        )
    parts += [difference_line(row) for row in report["differences"]]
    moved = [row for row in report["skill_differences"] if row["beyond_noise"]]
    if moved:
        named = ", ".join(f"{row['skill']} {signed(row['difference'])} on {row['b']}" for row in moved)
        parts.append(f"{len(moved)} skill(s) beyond noise between models: {named}")
    return "; ".join(parts)


def statuses(report: dict) -> dict[str, str]:
    """`<leg>:<case id>` -> that leg's status word for the case."""
    return {
        f"{name}:{case_id}": word
        for name, run in legs(report, "agents")
        for case_id, word in routing.statuses(run).items()
    }


def findings(report: dict) -> list[Finding]:
    """Every leg's routing findings, each message naming its leg."""
    return [
        replace(f, message=f"{name}: {f.message}")
        for name, run in legs(report, "agents")
        for f in routing.findings(run)
    ]


def junit(report: dict) -> list[JUnitCase]:
    return [
        replace(case, classname=f"{name}.{case.classname}")
        for name, run in legs(report, "agents")
        for case in routing.junit(run)
    ]
