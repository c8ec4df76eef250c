"""The pages of a run over several legs (agents, models): each leg's figures, each model against its
agent's first, the cases by leg, then each leg's own sections with a case table of its own."""

from __future__ import annotations

from collections.abc import Callable

from harness.report import columns, matrix
from harness.report.format import dollars
from harness.report.html import behavioral, common, compare, routing
from harness.report.html.common import Transcripts
from harness.report.html.header import UNKNOWN, canary_word, header
from harness.report.html.shell import section, simple_table, text


def head(report: dict) -> str:
    shown = matrix.leg_rows(report)
    figures = [(f"{a['leg']} accuracy", matrix.percent(a["totals"]["accuracy"])) for a in shown]
    differ = sum(1 for c in report["cases"] if c["differs"])
    figures.append(("cases the legs differ on", str(differ)))
    gates = "; ".join(f"{a['leg']}: {a['gate']['reason']}" for a in shown)
    canaries = "; ".join(f"{a['leg']} {word}" for a in shown if (word := canary_word(a)))
    return header(report, figures, gates, spent(report, routing.run_spent), canary=canaries or None)


def spent(report: dict, spent_of: Callable[[dict], float | None]) -> str:
    """What the legs' runs spent (each read by `spent_of`), naming a leg whose cost is not known rather
    than hiding it in the sum."""
    costs = [(name, spent_of(run)) for name, run in matrix.legs(report)]
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


def between_models(report: dict) -> str:
    """Each later model of an agent against its first: their figure, the difference with its 95 %
    interval, and whether it is beyond noise; '' when none."""
    spec = matrix.BETWEEN[report["command"]]
    rows = columns.rows(spec, report.get("differences", []))  # optional in a routing matrix's schema
    return section("Between models", simple_table(columns.heads(spec), rows)) if rows else ""


def per_skill_between(report: dict) -> str:
    rows = columns.rows(matrix.SKILLS, report.get("skill_differences", []))  # optional in the schema
    return section(matrix.SKILLS_BETWEEN, simple_table(columns.heads(matrix.SKILLS), rows)) if rows else ""


def grid(report: dict) -> str:
    heads, rows = matrix.grid(report)
    return section(matrix.GRID, simple_table(heads, rows)) if rows else ""


def cases(report: dict) -> str:
    """Every case and what each leg said of it, those the legs differ on marked."""
    spec = matrix.case_columns(report)
    heads, cells = common.drawn(spec, report["cases"], {"case": differs_mark})
    inner = simple_table(heads, cells, rendered=True) if cells else "<p>No case.</p>"
    return section(matrix.cases_heading(report), inner)


def differs_mark(plain: str, case: dict) -> str:
    return ("<b>differs</b> " if case["differs"] else "") + text(plain)


def routing_sections(report: dict, transcripts: Transcripts) -> list[str]:
    tables = [between_models(report), per_skill_between(report), grid(report), cases(report)]
    return [head(report), *tables, *leg_sections(report, transcripts, "Leg", "routing", routing.sections)]


def leg_sections(
    report: dict, transcripts: Transcripts, heading: str, command: str, draw: Callable[..., list[str]]
) -> list[str]:
    """Each leg's own run drawn by `draw` (its command's sections, header left out) under `heading`
    and its name, with the transcripts kept under `<leg>/` and a case table of its own."""
    parts = []
    for name, run in matrix.legs(report):
        own = {key.split("/", 1)[1]: logs for key, logs in transcripts.items() if key.startswith(f"{name}/")}
        inner = draw({**run, "command": command}, own, table_id=leg_anchor(name))
        parts.append(f'<section class="agent"><h2>{heading} {text(name)}</h2>{"".join(inner[1:])}</section>')
    return parts


def leg_anchor(name: str) -> str:
    """The id of a leg's case table: each leg's controls and matrix links act on its own table."""
    return "cases-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name)


def behavioral_head(report: dict) -> str:
    shown = matrix.leg_rows(report)
    figures = [(f"{leg['leg']} pass rate", matrix.percent(leg["pass_rate"])) for leg in shown]
    judges = "; ".join(
        f"{leg['leg']}: judged by {leg['judge_model'] or 'its default model'} on {leg['judge_agent']}"
        for leg in shown
    )
    return header(report, figures, judges, spent(report, behavioral.run_spent))


def behavioral_sections(report: dict, transcripts: Transcripts) -> list[str]:
    parts = [behavioral_head(report), between_models(report), cases(report)]
    return parts + leg_sections(report, transcripts, "Model", "behavioral", behavioral.sections)


def compare_head(report: dict) -> str:
    shown = matrix.leg_rows(report)
    figures = [
        (f"{leg['leg']} {label}s", str(leg["labels"][label]))
        for leg in shown
        for label in ("regression", "improvement")
    ]
    sides = [run["totals"][side] for run in report["runs"] for side in compare.SIDES]
    gate = "; ".join(f"{leg['leg']} {'passed' if leg['passed'] else 'failed'}" for leg in shown)
    cost = spent(report, compare.run_spent)
    return header(report, figures, f"every model must pass: {gate}", cost, compare.cached_runs(sides))


def by_model(report: dict) -> str:
    rows = columns.rows(matrix.COMPARE, matrix.compare_rows(report))
    return section("Each model", simple_table(columns.heads(matrix.COMPARE), rows, range(3, 6)))


def compare_sections(report: dict, transcripts: Transcripts) -> list[str]:
    parts = [compare_head(report), by_model(report), between_models(report), cases(report)]
    return parts + leg_sections(report, transcripts, "Model", "compare", compare.sections)
