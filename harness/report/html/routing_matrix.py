"""The page of a routing run over several legs (agents, models): where the legs differ, each model
against its agent's first (the difference of accuracy with its interval), then each leg's own routing
sections (its matrix filtering its own case table)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from harness.jsonfields import array_at, object_at
from harness.report.format import signed_percent
from harness.report.html import routing
from harness.report.html.common import Transcripts
from harness.report.html.header import canary_word, header, legs_cost
from harness.report.html.shell import section, simple_table, text


def legs(report: dict) -> list[dict]:
    return [a for a in array_at(report, "agents") if isinstance(a, dict)]


def leg_name(leg: dict) -> str:
    """A leg's column: its `leg` name, or its agent in a report from before there were models."""
    return str(leg.get("leg") or leg.get("agent"))


def head(report: dict) -> str:
    shown = legs(report)
    figures = [
        (f"{leg_name(a)} accuracy", routing.fmt(object_at(a, "totals").get("accuracy"))) for a in shown
    ]
    differ = sum(1 for c in array_at(report, "cases") if isinstance(c, dict) and c.get("differs"))
    figures.append(("cases the legs differ on", str(differ)))
    gates = "; ".join(f"{leg_name(a)}: {object_at(a, 'gate').get('reason', '?')}" for a in shown)
    canaries = [f"{leg_name(a)} {word}" for a in shown if (word := canary_word(a))]
    cost = legs_cost(leg_costs(report, [leg_name(a) for a in shown], routing.run_spent))
    return header(report, figures, gates, cost, canary="; ".join(canaries) or None)


def leg_costs(
    report: dict, names: Sequence[str], spent: Callable[[dict], float | None]
) -> list[tuple[str, float | None]]:
    """Each leg's name and what its own run (`runs`, in the legs' order) spent, read by its command's
    `spent`."""
    runs = [run for run in array_at(report, "runs") if isinstance(run, dict)]
    return [(name, spent(run)) for name, run in zip(names, runs, strict=False)]


def between_models(report: dict, figure: str = "accuracy") -> str:
    """Each later model of an agent against its first: their `figure` (routing's accuracy, behavioral's
    pass rate), the difference and its 95 % interval."""
    return difference_table(report, "differences", "Between models", "agent", figure)


def skill_differences(report: dict) -> str:
    """Per skill, each later model of an agent against its first, over the skill's own cases."""
    return difference_table(report, "skill_differences", "Per skill between models", "skill", "accuracy")


def difference_table(report: dict, key: str, title: str, first: str, figure: str) -> str:
    """The rows of `report[key]` (a model against its agent's first), headed by their `first` field:
    both rates, the difference, its 95 % interval and whether it is beyond noise; '' when none."""
    rows = [
        [
            str(row.get(first)),
            f"{row.get('a')} vs {row.get('b')}",
            f"{routing.fmt(row.get('rate_a'))} / {routing.fmt(row.get('rate_b'))}",
            signed_percent(row.get("difference")),
            f"{signed_percent(row.get('low'))} to {signed_percent(row.get('high'))}",
            "beyond noise" if row.get("beyond_noise") else "within noise",
        ]
        for row in array_at(report, key)
        if isinstance(row, dict)
    ]
    if not rows:
        return ""
    heads = [first, "models", figure, "difference", "95% interval", "reading"]
    return section(title, simple_table(heads, rows))


def differences(report: dict) -> str:
    names = [leg_name(a) for a in legs(report)]
    rows = []
    for case in array_at(report, "cases"):
        if not isinstance(case, dict) or not case.get("differs"):
            continue
        seen = object_at(case, "by_agent")
        rows.append(
            [str(case.get("id")), str(case.get("expect") or "no skill")]
            + [
                f"{object_at(seen, a).get('observed') or 'no skill'} ({object_at(seen, a).get('verdict')})"
                for a in names
            ]
        )
    if not rows:
        return section("Where the legs differ", "<p>Nowhere: every leg routed every case alike.</p>")
    return section("Where the legs differ", simple_table(["case", "expected", *names], rows))


def grid(report: dict) -> str:
    """Skills down, a column per leg (each agent on each model): passed/graded per cell."""
    names = [leg_name(a) for a in legs(report)]
    rows = []
    for skill, row in object_at(report, "matrix").items():
        cells = []
        for name in names:
            cell = object_at(row, name) if isinstance(row, dict) else {}
            graded, passed = cell.get("graded"), cell.get("passed")
            cells.append(f"{passed}/{graded} ({routing.fmt(cell.get('accuracy'))})" if graded else "n/a")
        rows.append([str(skill), *cells])
    if not rows:
        return ""
    return section("Trigger accuracy, skills x legs", simple_table(["skill", *names], rows))


def sections(report: dict, transcripts: Transcripts) -> list[str]:
    parts = [
        head(report),
        between_models(report),
        skill_differences(report),
        grid(report),
        differences(report),
    ]
    names = [leg_name(a) for a in legs(report)]
    return parts + leg_sections(report, transcripts, names, "Leg", "routing", routing.sections)


def leg_sections(
    report: dict,
    transcripts: Transcripts,
    names: Sequence[str],
    heading: str,
    command: str,
    draw: Callable[..., list[str]],
) -> list[str]:
    """Each leg's own run drawn by `draw` (its command's sections, header left out) under `heading`
    and its name, with the transcripts kept under `<leg>/` and a case table of its own."""
    parts = []
    for i, run in enumerate(array_at(report, "runs")):
        if not isinstance(run, dict):
            continue
        name = names[i] if i < len(names) else f"leg {i + 1}"
        own = {key.split("/", 1)[1]: logs for key, logs in transcripts.items() if key.startswith(f"{name}/")}
        inner = draw({**run, "command": command}, own, table_id=leg_anchor(name))
        parts.append(f'<section class="agent"><h2>{heading} {text(name)}</h2>{"".join(inner[1:])}</section>')
    return parts


def leg_anchor(name: str) -> str:
    """The id of a leg's case table: each leg's controls and matrix links act on its own table."""
    return "cases-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name)
