"""The reports of a run on several legs (agents, models): each leg's figures, each model against its
agent's first, then the cases that differ; statuses, findings and JUnit are each leg's run's, named."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from types import ModuleType

from harness.model import notes
from harness.model.envelope import Halt
from harness.model.findings import Finding
from harness.printable import clip
from harness.report import behavioral, columns, compare, routing
from harness.report.cases import gate_words
from harness.report.columns import Column, field
from harness.report.format import percent as rate
from harness.report.format import signed_percent as signed
from harness.report.junit import JUnitCase
from harness.report.markdown import clauses, section, table, titled

percent = partial(rate, digits=0)  # a matrix's rates read whole: `62%`


LEG_HEADS = ["leg", "agent", "model", "version", "correct", "errors", "gate"]
SKILLS_BETWEEN = "Per skill between models (beyond noise first, then the largest drops)"
BEHAVIORAL_HEADS = ["leg", "model", "version", "passed", "failed", "errors", "judge"]


def grid_cell(cell: dict | None) -> str:
    """A skill on a leg in the skills x legs grid: passed/graded (accuracy); n/a where none was graded."""
    if cell is None or not cell["graded"]:
        return "n/a"
    return f"{cell['passed']}/{cell['graded']} ({percent(cell['accuracy'])})"


def between(firsts: tuple[str, ...], figure: str) -> list[Column]:
    """The table of each later model against its agent's first (per agent, mode or skill: `firsts`)."""
    return [
        *((first, field(first)) for first in firsts),
        ("models", lambda row: f"{row['b']} vs {row['a']}"),
        (figure, lambda row: f"{percent(row['rate_b'])} vs {percent(row['rate_a'])}"),
        ("difference", lambda row: signed(row["difference"])),
        ("95% interval", interval),
        ("reading", reading),
    ]


def interval(row: dict) -> str:
    return "n/a" if row["low"] is None else f"{signed(row['low'])} to {signed(row['high'])}"


def reading(row: dict) -> str:
    if row["difference"] is None:
        return "no difference to give (a side graded no case)"
    return "beyond noise" if row["beyond_noise"] else "within noise"


SKILLS: list[Column] = between(("skill",), "accuracy")
# Per matrix command: the first columns and the figure of its between-models table.
BETWEEN = {
    "routing-matrix": between(("agent",), "accuracy"),
    "behavioral-matrix": between(("agent",), "pass rate"),
    "compare-matrix": between(("agent", "mode"), "candidate's pass rate"),
}


def case_columns(report: dict) -> list[Column]:
    """The case table of a matrix: the case, what it is, then what each leg said of it."""
    if report["command"] == "routing-matrix":
        agents = [row["leg"] for row in report["agents"]]

        def seen(name: str) -> Column:
            def cell(row: dict) -> str:
                said = row["by_agent"].get(name) or {}  # a leg that did not run the case said nothing
                return clip(f"{routing.observation(said)} ({said.get('verdict')})", 60)

            return name, cell

        first = [("case", field("id")), ("expected", lambda row: row["expect"] or "no skill")]
        return [*first, *(seen(name) for name in agents)]
    legs = [row["leg"] for row in report["legs"]]
    first = [("case", field("id"))]
    if report["command"] == "compare-matrix":
        first += [("mode", field("mode")), ("skill", lambda row: row["skill"] or "shared")]
    else:
        first += [("skill", field("skill"))]
    return [*first, *((name, lambda row, n=name: row["by_leg"].get(n)) for name in legs)]


# Each model of a compare matrix, a row per mode it compared.
COMPARE: list[Column] = [
    ("leg", field("leg")),
    ("model", lambda row: row["model"] or "default"),
    ("mode", field("mode")),
    ("regressions", lambda row: row["labels"]["regression"]),
    ("improvements", lambda row: row["labels"]["improvement"]),
    ("errors", lambda row: row["labels"]["error"]),
    ("pass rate", lambda row: change_words(row["side"]) if row["side"] else "nothing compared"),
    ("result", lambda row: "passed" if row["passed"] else "failed"),
]


def compare_rows(report: dict) -> list[dict]:
    """Each leg of a compare matrix once per mode, with that mode's side."""
    return [
        {**leg, "mode": mode, "side": side}
        for leg in report["legs"]
        for mode, side in list(leg["by_mode"].items()) or [("-", None)]
    ]


def halt_note(run: dict) -> str:
    return clauses(Halt.of(run["meta"]).sentence())


def leg_rows(report: dict) -> list[dict]:
    """A matrix report's leg rows: `agents` in a routing matrix, `legs` in the others."""
    return report["legs"] if "legs" in report else report["agents"]


def legs(report: dict) -> list[tuple[str, dict]]:
    """Each leg's label and its own run's report, in the legs' order."""
    return list(zip((row["leg"] for row in leg_rows(report)), report["runs"], strict=True))


def leg_lines(report: dict, canary: bool = False) -> list[str]:
    """What each leg's run said beyond its figures: why it halted, its notes (routing: canary, replays)."""
    lines = []
    for name, run in legs(report):
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
    return f"{rates}: {figure} {signed(row['difference'])} {noise_words(row)}"


def noise_words(row: dict) -> str:
    """A difference's 95% interval and whether it lies beyond noise, in parentheses."""
    noise = "beyond noise" if row["beyond_noise"] else "within noise"
    return f"(95% interval {signed(row['low'])} to {signed(row['high'])}, {noise})"


def differences_lines(report: dict) -> list[str]:
    """The table of each model against its agent's first; none without any."""
    spec = BETWEEN[report["command"]]
    return section("Between models", columns.heads(spec), columns.rows(spec, report["differences"]))


DIFFER = {
    "routing-matrix": "differ between legs",
    "behavioral-matrix": "differ between models",
    "compare-matrix": "labelled differently between models",
}


def cases_heading(report: dict) -> str:
    differing = sum(1 for row in report["cases"] if row["differs"])
    return f"Cases ({differing} {DIFFER[report['command']]}, listed first)"


def closing(lines: list[str], report: dict, must: str) -> str:
    """`lines`, then every case (those that differ marked), then the result."""
    rows = columns.rows(case_columns(report), report["cases"])
    for row, case in zip(rows, report["cases"], strict=True):
        row[0] = ("**differs** " if case["differs"] else "") + row[0]
    overall = f"Overall: **{'passed' if report['passed'] else 'failed'}** ({must})."
    cases = titled(cases_heading(report), table(columns.heads(case_columns(report)), rows))
    return "\n".join([*lines, *cases, "", overall])


def routing_markdown(report: dict) -> str:
    legs_rows = [
        (a["leg"], a["agent"], a["model"] or "default", a["agent_version"])
        + (f"{a['totals']['passed']}/{a['totals']['graded']}", a["totals"]["errors"])
        + (("passed" if a["passed"] else "failed") + f": {gate_words(a)}",)
        for a in report["agents"]
    ]
    lines = ["## Skill routing across agents and models", "", table(LEG_HEADS, legs_rows)]
    lines += leg_lines(report, canary=True)
    lines += differences_lines(report)
    lines += section(SKILLS_BETWEEN, columns.heads(SKILLS), columns.rows(SKILLS, report["skill_differences"]))
    lines += titled(GRID, table(*grid(report)))
    return closing(lines, report, "every leg must pass its gate")


GRID = "Trigger accuracy, skills x legs"


def grid(report: dict) -> tuple[list[str], list[list[str]]]:
    """Skills down, a column per leg (each agent on each model): passed/graded (accuracy) per cell."""
    agents = [row["leg"] for row in report["agents"]]
    cells = [[skill, *(grid_cell(row.get(a)) for a in agents)] for skill, row in report["matrix"].items()]
    return ["skill", *agents], cells


def routing_headline(report: dict) -> str:
    """Each leg's correct/graded and gate, then each model's difference from its agent's first."""
    parts = []
    for name, run in legs(report):
        totals = run["totals"]
        gate = "passed" if run["passed"] else "failed"
        gated = totals.get("gated", {})
        if left := notes.left_out(gated):  # the gate's own count, named, when it differs from the leg's
            gate += f" ({gated['passed']}/{gated['graded']} counted: {left})"
        from_cache = f" ({said})" if (said := routing.replayed(run)) else ""
        # "6/8 failed" read as six cases failing: the count says what it counts, the gate follows it.
        counted = f"{totals['passed']}/{totals['graded']} correct{notes.ungraded(totals)}"
        parts.append(f"{name} {counted}, {gate}{from_cache}{halt_note(run)}")
    parts += [difference_line(row) for row in report["differences"]]
    moved = [row for row in report["skill_differences"] if row["beyond_noise"]]
    if moved:
        named = ", ".join(f"{row['skill']} {signed(row['difference'])} on {row['b']}" for row in moved)
        parts.append(f"{len(moved)} skill(s) beyond noise between models: {named}")
    return "; ".join(parts)


def behavioral_markdown(report: dict) -> str:
    rows = [
        (leg["leg"], leg["model"] or "default", leg["agent_version"])
        + (
            f"{leg['counts']['passed']}/{leg['counts']['cases']}",
            leg["counts"]["failed"],
            leg["counts"]["errors"],
        )
        + (behavioral.judge_words(run["meta"]),)
        for leg, run in zip(report["legs"], report["runs"], strict=True)
    ]
    lines = ["## Behavioral across models", "", table(BEHAVIORAL_HEADS, rows), *leg_lines(report)]
    lines += differences_lines(report)
    return closing(lines, report, "every model must pass")


def behavioral_headline(report: dict) -> str:
    parts = []
    for name, run in legs(report):
        counts = run["totals"]
        parts.append(f"{name} {counts['passed']}/{counts['cases']} passed{halt_note(run)}")
    parts += [difference_line(row, "pass rate") for row in report["differences"]]
    parts.append(f"judged by {behavioral.judge_words(report['runs'][0]['meta'])}")
    return "; ".join(parts)


def change_words(side: dict) -> str:
    """One mode's two pass rates on one leg and the candidate's difference with its interval."""
    rates = f"{percent(side['baseline_rate'])} → {percent(side['candidate_rate'])}"
    if side["difference"] is None:
        return f"{rates} (no difference to give: a side graded no case)"
    return f"{rates}, {signed(side['difference'])} {noise_words(side)}"


def compare_markdown(report: dict) -> str:
    first = report["runs"][0]["meta"]
    lines = ["## Skill compare across models", ""]
    lines += [
        f"Baseline `{first['baseline']}` against candidate `{first['candidate']}` on each model"
        f"{compare.repeats(first)}.",
        "",
    ]
    lines += [table(columns.heads(COMPARE), columns.rows(COMPARE, compare_rows(report))), *leg_lines(report)]
    lines += differences_lines(report)
    return closing(lines, report, "every model must pass")


def compare_headline(report: dict) -> str:
    parts = []
    for leg, (name, run) in zip(report["legs"], legs(report), strict=True):
        rates = "; ".join(f"{mode} {change_words(side)}" for mode, side in leg["by_mode"].items())
        parts.append(
            f"{name}: {len(compare.regressions(run))} regression(s) in {len(compare.compared(run))} compared "
            "case(s)" + (f", {rates}" if rates else "") + halt_note(run)
        )
    return "; ".join(parts)


# Per matrix command: its one-run renderers, its markdown and its headline.
KINDS = {
    "routing-matrix": (routing, routing_markdown, routing_headline),
    "behavioral-matrix": (behavioral, behavioral_markdown, behavioral_headline),
    "compare-matrix": (compare, compare_markdown, compare_headline),
}


def per_leg(report: dict) -> tuple[list[tuple[str, dict]], ModuleType]:
    """Each leg's name and run, and the module rendering one run of the report's command."""
    return legs(report), KINDS[report["command"]][0]


def markdown(report: dict) -> str:
    return KINDS[report["command"]][1](report)


def headline(report: dict) -> str:
    return KINDS[report["command"]][2](report)


def statuses(report: dict) -> dict[str, str]:
    """`<leg>:<case id>` -> that leg's status word for the case."""
    runs, one = per_leg(report)
    return {f"{name}:{case_id}": word for name, run in runs for case_id, word in one.statuses(run).items()}


def findings(report: dict) -> list[Finding]:
    """Every leg's findings, each message naming its leg."""
    runs, one = per_leg(report)
    return [replace(f, message=f"{name}: {f.message}") for name, run in runs for f in one.findings(run)]


def junit(report: dict) -> list[JUnitCase]:
    runs, one = per_leg(report)
    return [
        replace(case, classname=f"{name}.{case.classname}") for name, run in runs for case in one.junit(run)
    ]
