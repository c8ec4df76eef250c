"""The pages of a run over several legs (agents, models): each leg's figures, each model against its
agent's first, the cases by leg, then each leg's own sections with a case table of its own."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from harness.jsonfields import array_at, object_at, objects_at
from harness.report.format import dollars, signed_percent
from harness.report.html import behavioral, compare, routing
from harness.report.html.common import Transcripts, fields
from harness.report.html.header import UNKNOWN, canary_word, header, legs
from harness.report.html.shell import section, simple_table, text


def leg_name(leg: dict) -> str:
    """A leg's column: its `leg` name, or its agent in a report from before there were models."""
    return str(leg.get("leg") or leg.get("agent"))


def names(report: dict) -> list[str]:
    return [leg_name(leg) for leg in legs(report)]


def head(report: dict) -> str:
    shown = legs(report)
    figures = [
        (f"{leg_name(a)} accuracy", routing.fmt(object_at(a, "totals").get("accuracy"))) for a in shown
    ]
    differ = sum(1 for c in objects_at(report, "cases") if c.get("differs"))
    figures.append(("cases the legs differ on", str(differ)))
    gates = "; ".join(f"{leg_name(a)}: {object_at(a, 'gate').get('reason', '?')}" for a in shown)
    canaries = "; ".join(f"{leg_name(a)} {word}" for a in shown if (word := canary_word(a)))
    return header(report, figures, gates, spent(report, routing.run_spent), canary=canaries or None)


def spent(report: dict, spent_of: Callable[[dict], float | None]) -> str | None:
    """What the legs' runs spent (each read by `spent_of`), naming a leg whose cost is not known rather
    than hiding it in the sum; None without legs."""
    runs = objects_at(report, "runs")
    costs = [(name, spent_of(run)) for name, run in zip(names(report), runs, strict=False)]
    if not costs:
        return None
    known = [cost for _, cost in costs if cost is not None]
    unknown = [name for name, cost in costs if cost is None]
    if not unknown:
        return dollars(sum(known), UNKNOWN)
    if not known:
        return f"not known (no leg's CLI reported its cost: {', '.join(unknown)})"
    return (
        f"{dollars(sum(known), UNKNOWN)} for the other legs; not known for {', '.join(unknown)} "
        "(its CLI reported none)"
    )


def between_models(report: dict, figure: str = "accuracy", per_skill: bool = False) -> str:
    """Each later model of an agent against its first (`per_skill`: per skill): their `figure`, the
    difference with its 95 % interval, and whether it is beyond noise; '' when none."""
    key, first = ("skill_differences", "skill") if per_skill else ("differences", "agent")
    rows = [
        [
            str(row.get(first)),
            f"{row.get('a')} vs {row.get('b')}",
            f"{routing.fmt(row.get('rate_a'))} / {routing.fmt(row.get('rate_b'))}",
            signed_percent(row.get("difference")),
            f"{signed_percent(row.get('low'))} to {signed_percent(row.get('high'))}",
            "beyond noise" if row.get("beyond_noise") else "within noise",
        ]
        for row in objects_at(report, key)
    ]
    heads = [first, "models", figure, "difference", "95% interval", "reading"]
    title = "Per skill between models" if per_skill else "Between models"
    return section(title, simple_table(heads, rows)) if rows else ""


def differences(report: dict) -> str:
    rows = []
    for case in objects_at(report, "cases"):
        if not case.get("differs"):
            continue
        seen = object_at(case, "by_agent")
        rows.append(
            [str(case.get("id")), str(case.get("expect") or "no skill")]
            + [
                f"{object_at(seen, a).get('observed') or 'no skill'} ({object_at(seen, a).get('verdict')})"
                for a in names(report)
            ]
        )
    listed = simple_table(["case", "expected", *names(report)], rows)
    return section(
        "Where the legs differ", listed if rows else "<p>Nowhere: every leg routed every case alike.</p>"
    )


def grid(report: dict) -> str:
    """Skills down, a column per leg (each agent on each model): passed/graded per cell."""
    rows = []
    for skill, row in object_at(report, "matrix").items():
        cells = []
        for name in names(report):
            cell = object_at(row, name) if isinstance(row, dict) else {}
            graded, passed = cell.get("graded"), cell.get("passed")
            cells.append(f"{passed}/{graded} ({routing.fmt(cell.get('accuracy'))})" if graded else "n/a")
        rows.append([str(skill), *cells])
    listed = simple_table(["skill", *names(report)], rows)
    return section("Trigger accuracy, skills x legs", listed) if rows else ""


def routing_sections(report: dict, transcripts: Transcripts) -> list[str]:
    tables = [
        between_models(report),
        between_models(report, per_skill=True),
        grid(report),
        differences(report),
    ]
    return [head(report), *tables, *leg_sections(report, transcripts, "Leg", "routing", routing.sections)]


def leg_sections(
    report: dict, transcripts: Transcripts, heading: str, command: str, draw: Callable[..., list[str]]
) -> list[str]:
    """Each leg's own run drawn by `draw` (its command's sections, header left out) under `heading`
    and its name, with the transcripts kept under `<leg>/` and a case table of its own."""
    parts, shown = [], names(report)
    for i, run in enumerate(array_at(report, "runs")):
        if not isinstance(run, dict):
            continue
        name = shown[i] if i < len(shown) else f"leg {i + 1}"
        own = {key.split("/", 1)[1]: logs for key, logs in transcripts.items() if key.startswith(f"{name}/")}
        inner = draw({**run, "command": command}, own, table_id=leg_anchor(name))
        parts.append(f'<section class="agent"><h2>{heading} {text(name)}</h2>{"".join(inner[1:])}</section>')
    return parts


def leg_anchor(name: str) -> str:
    """The id of a leg's case table: each leg's controls and matrix links act on its own table."""
    return "cases-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name)


def by_leg(report: dict, title: str, heads: Sequence[str], first: Callable[[dict], list[str]]) -> str:
    """A case's first cells (`first`), then what each leg said of it (its `by_leg`), under `title`."""
    rows = [
        first(case) + [str(object_at(case, "by_leg").get(n)) for n in names(report)]
        for case in objects_at(report, "cases")
    ]
    return section(title, simple_table([*heads, *names(report)], rows))


def behavioral_head(report: dict) -> str:
    shown = legs(report)
    figures = [(f"{leg.get('leg')} pass rate", routing.fmt(leg.get("pass_rate"))) for leg in shown]
    judges = "; ".join(
        f"{leg.get('leg')}: judged by {leg.get('judge_model') or 'its default model'} "
        f"on {leg.get('judge_agent')}"
        for leg in shown
    )
    return header(report, figures, judges, spent(report, behavioral.run_spent))


def behavioral_sections(report: dict, transcripts: Transcripts) -> list[str]:
    cases = by_leg(
        report, "Cases by model", ["case", "skill"], lambda c: [str(c.get("id")), str(c.get("skill"))]
    )
    parts = [behavioral_head(report), between_models(report, "pass rate"), cases]
    return parts + leg_sections(report, transcripts, "Model", "behavioral", behavioral.sections)


def change(side: dict) -> str:
    """One mode's two pass rates on a compare leg, the candidate's difference and its interval."""
    rates = f"{routing.fmt(side.get('baseline_rate'))} → {routing.fmt(side.get('candidate_rate'))}"
    if side.get("difference") is None:
        return f"{rates} (a side graded no case)"
    noise = "beyond noise" if side.get("beyond_noise") else "within noise"
    return (
        f"{rates}, {signed_percent(side.get('difference'))} "
        f"({signed_percent(side.get('low'))} to {signed_percent(side.get('high'))}, {noise})"
    )


def compare_head(report: dict) -> str:
    shown = legs(report)
    figures = [
        (f"{leg.get('leg')} {label}s", str(object_at(leg, "labels").get(label, 0)))
        for leg in shown
        for label in ("regression", "improvement")
    ]
    runs = objects_at(report, "runs")
    sides = [object_at(object_at(run, "totals"), side) for run in runs for side in compare.SIDES]
    gate = "; ".join(f"{leg.get('leg')} {'passed' if leg.get('passed') else 'failed'}" for leg in shown)
    cost = spent(report, compare.run_spent)
    return header(report, figures, f"every model must pass: {gate}", cost, compare.cached_runs(sides))


def by_model(report: dict) -> str:
    rows = [
        [
            str(leg.get("leg")),
            str(mode),
            *fields(object_at(leg, "labels"), ("regression", "improvement", "error")),
            change(side) if isinstance(side, dict) else "—",
        ]
        for leg in legs(report)
        for mode, side in object_at(leg, "by_mode").items()
    ]
    heads = ["leg", "mode", "regressions", "improvements", "errors", "pass rate: baseline → candidate (95 %)"]
    return section("Each model", simple_table(heads, rows, range(2, 5)))


def compare_sections(report: dict, transcripts: Transcripts) -> list[str]:
    cases = by_leg(
        report,
        "Labels by model",
        ["case", "mode", "skill"],
        lambda c: [str(c.get("id")), str(c.get("mode")), str(c.get("skill") or "shared")],
    )
    parts = [compare_head(report), by_model(report), between_models(report, "candidate's pass rate"), cases]
    return parts + leg_sections(report, transcripts, "Model", "compare", compare.sections)
