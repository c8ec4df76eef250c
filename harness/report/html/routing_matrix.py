"""The page of a routing run over several agents: where the agents differ, then each agent's own
routing sections (its matrix filtering its own case table)."""

from __future__ import annotations

from harness.jsonfields import array_at, object_at
from harness.report.html import routing
from harness.report.html.common import Transcripts
from harness.report.html.header import canary_word, header
from harness.report.html.shell import section, simple_table, text


def head(report: dict) -> str:
    agents = [a for a in array_at(report, "agents") if isinstance(a, dict)]
    figures = [
        (f"{a.get('agent')} accuracy", routing.fmt(object_at(a, "totals").get("accuracy"))) for a in agents
    ]
    differ = sum(1 for c in array_at(report, "cases") if isinstance(c, dict) and c.get("differs"))
    figures.append(("cases the agents differ on", str(differ)))
    gates = "; ".join(f"{a.get('agent')}: {object_at(a, 'gate').get('reason', '?')}" for a in agents)
    canaries = [f"{a.get('agent')} {word}" for a in agents if (word := canary_word(a))]
    return header(report, figures, gates, canary="; ".join(canaries) or None)


def differences(report: dict) -> str:
    agents = [str(a.get("agent")) for a in array_at(report, "agents") if isinstance(a, dict)]
    rows = []
    for case in array_at(report, "cases"):
        if not isinstance(case, dict) or not case.get("differs"):
            continue
        seen = object_at(case, "by_agent")
        rows.append(
            [str(case.get("id")), str(case.get("expect") or "no skill")]
            + [
                f"{object_at(seen, a).get('observed') or 'no skill'} ({object_at(seen, a).get('verdict')})"
                for a in agents
            ]
        )
    if not rows:
        return section("Where the agents differ", "<p>Nowhere: every agent routed every case alike.</p>")
    return section("Where the agents differ", simple_table(["case", "expected", *agents], rows))


def sections(report: dict, transcripts: Transcripts) -> list[str]:
    parts = [head(report), differences(report)]
    for run in array_at(report, "runs"):
        if not isinstance(run, dict):
            continue
        agent = str(object_at(run, "meta").get("agent", "agent"))
        own = {key.split("/", 1)[1]: logs for key, logs in transcripts.items() if key.startswith(f"{agent}/")}
        inner = routing.sections({**run, "command": "routing"}, own, table_id=f"cases-{agent}")
        parts.append(f'<section class="agent"><h2>Agent {text(agent)}</h2>{"".join(inner[1:])}</section>')
    return parts
