"""The reports of a run on several legs (agents, models): each leg's figures, each model against its
agent's first, then the cases that differ; statuses, findings and JUnit are each leg's run's, named."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from types import ModuleType

from harness.model import notes
from harness.model.envelope import Halt
from harness.model.findings import Finding
from harness.printable import clip
from harness.report import behavioral, compare, routing
from harness.report.cases import gate_words
from harness.report.format import percent as rate
from harness.report.format import signed_percent as signed
from harness.report.junit import JUnitCase
from harness.report.markdown import clauses, section, table, titled

percent = partial(rate, digits=0)  # a matrix's rates read whole: `62%`


LEG_HEADS = ["leg", "agent", "model", "version", "correct", "errors", "gate"]
SKILLS_BETWEEN = "Per skill between models (beyond noise first, then the largest drops)"
BEHAVIORAL_HEADS = ["leg", "model", "version", "passed", "failed", "errors", "judge"]
COMPARE_HEADS = ["leg", "model", "mode", "regressions", "improvements", "errors", "pass rate", "result"]
SKILL_HEADS = ["skill", "models", "accuracy", "difference", "95% interval", "reading"]


def _cell(cell: dict | None) -> str:
    return (
        f"{cell['passed']}/{cell['graded']} ({percent(cell['accuracy'])})"
        if cell and cell["graded"]
        else "n/a"
    )


def halt_note(run: dict) -> str:
    return clauses(Halt.of(run["meta"]).sentence())


def legs(report: dict, key: str = "legs") -> list[tuple[str, dict]]:
    """Each leg's label (from the matrix's `key` rows) and its own run's report, in the legs' order."""
    return list(zip((row["leg"] for row in report[key]), report["runs"], strict=True))


def leg_lines(report: dict, key: str = "legs", canary: bool = False) -> list[str]:
    """What each leg's run said beyond its figures: why it halted, its notes (routing: canary, replays)."""
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
    return f"{rates}: {figure} {signed(row['difference'])} {noise_words(row)}"


def noise_words(row: dict) -> str:
    """A difference's 95% interval and whether it lies beyond noise, in parentheses."""
    noise = "beyond noise" if row["beyond_noise"] else "within noise"
    return f"(95% interval {signed(row['low'])} to {signed(row['high'])}, {noise})"


def differences_lines(report: dict, heading: str, said: Callable[[dict], str]) -> list[str]:
    """The section listing each model against its agent's first, `said` of each; none without any."""
    if not report["differences"]:
        return []
    return ["", f"### {heading}", "", *(f"- {said(row)}" for row in report["differences"])]


def closing(
    lines: list[str], report: dict, differ: str, heads: list[str], cells: Callable[[dict], tuple], must: str
) -> str:
    """`lines`, then every case's `cells` (those that `differ` marked and counted), then the result."""
    differing = sum(1 for row in report["cases"] if row["differs"])
    rows = [(("**differs** " if row["differs"] else "") + row["id"], *cells(row)) for row in report["cases"]]
    overall = f"Overall: **{'passed' if report['passed'] else 'failed'}** ({must})."
    cases = ["", f"### Cases ({differing} {differ}, listed first)", "", table(heads, rows)]
    return "\n".join([*lines, *cases, "", overall])


def routing_markdown(report: dict) -> str:
    agents = [row["leg"] for row in report["agents"]]
    legs_rows = [
        (a["leg"], a["agent"], a["model"] or "default", a["agent_version"])
        + (f"{a['totals']['passed']}/{a['totals']['graded']}", a["totals"]["errors"])
        + (("passed" if a["passed"] else "failed") + f": {gate_words(a)}",)
        for a in report["agents"]
    ]
    lines = ["## Skill routing across agents and models", "", table(LEG_HEADS, legs_rows)]
    lines += leg_lines(report, "agents", canary=True)
    lines += differences_lines(report, "Between models", difference_line)
    skills = [
        (row["skill"], f"{row['b']} vs {row['a']}", f"{percent(row['rate_b'])} vs {percent(row['rate_a'])}")
        + (signed(row["difference"]), f"{signed(row['low'])} to {signed(row['high'])}")
        + ("**beyond noise**" if row["beyond_noise"] else "within noise",)
        for row in report["skill_differences"]
    ]
    lines += section(SKILLS_BETWEEN, SKILL_HEADS, skills)
    cells = [(skill, *(_cell(row.get(a)) for a in agents)) for skill, row in report["matrix"].items()]
    lines += titled("Trigger accuracy, skills x legs", table(["skill", *agents], cells))

    def observed(row: dict) -> tuple:
        seen = (row["by_agent"][a] for a in agents)
        return (
            row["expect"] or "no skill",
            *(clip(f"{routing.observation(v)} ({v['verdict']})", 60) for v in seen),
        )

    heads = ["case", "expected", *agents]
    return closing(lines, report, "differ between legs", heads, observed, "every leg must pass its gate")


def routing_headline(report: dict) -> str:
    """Each leg's correct/graded and gate, then each model's difference from its agent's first."""
    parts = []
    for name, run in legs(report, "agents"):
        totals = run["totals"]
        gate = "passed" if run["passed"] else "failed"
        gated = totals.get("gated", {})
        if left := notes.left_out(gated):  # the gate's own count, named, when it differs from the leg's
            gate += f" ({gated['passed']}/{gated['graded']} counted: {left})"
        from_cache = f" ({said})" if (said := routing.replayed(run)) else ""
        parts.append(f"{name} {totals['passed']}/{totals['graded']} {gate}{from_cache}{halt_note(run)}")
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
    lines += differences_lines(report, "Between models", lambda row: difference_line(row, "pass rate"))
    heads = ["case", "skill", *(row["leg"] for row in report["legs"])]
    return closing(lines, report, "differ between models", heads, skill_cells, "every model must pass")


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
    rows = [
        (leg["leg"], leg["model"] or "default", mode)
        + tuple(leg["labels"][label] for label in ("regression", "improvement", "error"))
        + (change_words(side) if side else "nothing compared", "passed" if leg["passed"] else "failed")
        for leg in report["legs"]
        for mode, side in list(leg["by_mode"].items()) or [("-", None)]
    ]
    lines += [table(COMPARE_HEADS, rows), *leg_lines(report)]
    between = "Between models (the candidate's pass rate)"
    lines += differences_lines(
        report, between, lambda row: f"{row['mode']}: {difference_line(row, 'pass rate')}"
    )
    heads = ["case", "mode", "skill", *(row["leg"] for row in report["legs"])]
    differ = "labelled differently between models"
    return closing(lines, report, differ, heads, mode_cells, "every model must pass")


def skill_cells(row: dict) -> tuple:
    return (row["skill"], *row["by_leg"].values())


def mode_cells(row: dict) -> tuple:
    return (row["mode"], row["skill"] or "shared", *row["by_leg"].values())


def compare_headline(report: dict) -> str:
    parts = []
    for leg, (name, run) in zip(report["legs"], legs(report), strict=True):
        rates = "; ".join(f"{mode} {change_words(side)}" for mode, side in leg["by_mode"].items())
        parts.append(
            f"{name}: {len(compare.regressions(run))} regression(s) in {len(compare.compared(run))} compared "
            "case(s)" + (f", {rates}" if rates else "") + halt_note(run)
        )
    return "; ".join(parts)


# Per matrix command: its legs' key, its one-run renderers, its markdown and its headline.
KINDS = {
    "routing-matrix": ("agents", routing, routing_markdown, routing_headline),
    "behavioral-matrix": ("legs", behavioral, behavioral_markdown, behavioral_headline),
    "compare-matrix": ("legs", compare, compare_markdown, compare_headline),
}


def per_leg(report: dict) -> tuple[list[tuple[str, dict]], ModuleType]:
    """Each leg's name and run, and the module rendering one run of the report's command."""
    key, one, _, _ = KINDS[report["command"]]
    return legs(report, key), one


def markdown(report: dict) -> str:
    return KINDS[report["command"]][2](report)


def headline(report: dict) -> str:
    return KINDS[report["command"]][3](report)


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
