"""The cost page's sections: one prompt run with the skill and without it, per side and per run, in
tokens, turns, tool calls and dollars."""

from __future__ import annotations

from harness.jsonfields import object_at, objects_at
from harness.report.format import DASH, dollars, number
from harness.report.html.common import fields
from harness.report.html.header import header
from harness.report.html.shell import section, simple_table, text

TOKENS = ("turns", "tool_calls", "input_tokens", "output_tokens")  # what one run used, a column each
HEADS = [key.replace("_", " ") for key in TOKENS]
SIDE_NAMES = {"with": "with the skill", "without": "without the skill"}


def head(report: dict) -> str:
    sides, meta = object_at(report, "sides"), object_at(report, "meta")
    costs = {key: object_at(sides, key).get("cost_usd") for key in SIDE_NAMES}
    figures = [(f"cost {name}", dollars(costs[key], DASH)) for key, name in SIDE_NAMES.items()]
    a, b = costs["with"], costs["without"]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        figures.append(("the skill adds", f"{'+' if a >= b else '-'}${abs(a - b):.4f} a run"))
    gate = (
        f"skill {meta.get('skill', '?')}: {'every run finished' if report.get('passed') else 'a run failed'}"
    )
    return header(report, figures, gate, spent(report))


def spent(report: dict) -> float:
    """What every run of the prompt cost, a run that said nothing counting as $0."""
    return sum(r.get("cost_usd") or 0 for r in objects_at(report, "runs"))


def fired(skills: object) -> str:
    """The skills a run (or a side's runs) fired: its `fired`, or none."""
    return ", ".join(map(str, skills)) if isinstance(skills, list) and skills else "none"


def sides_table(report: dict) -> str:
    rows = []
    for key in ("with", "without"):
        side = object_at(object_at(report, "sides"), key)
        used = [number(side.get(key), "g", DASH) for key in (*TOKENS, "cache_read_tokens")]
        finished = f"{side.get('finished', 0)}/{side.get('runs', 0)}"
        rows.append(
            [SIDE_NAMES[key], finished, fired(side.get("fired")), *used, dollars(side.get("cost_usd"), DASH)]
        )
    headers = ["side", "finished", "skills fired", *HEADS, "cache-read tokens", "cost (mean a run)"]
    prompt = object_at(report, "meta").get("prompt")
    lead = f"<p>Prompt: <q>{text(prompt)}</q></p>" if isinstance(prompt, str) else ""
    return section("With and without the skill", lead + simple_table(headers, rows, range(3, 9)))


def runs_table(report: dict) -> str:
    rows = [
        [
            SIDE_NAMES.get(str(r.get("side")), str(r.get("side"))),
            str(r.get("status")),
            fired(r.get("fired")),
            *fields(r, TOKENS, None),
            dollars(r.get("cost_usd"), DASH),
            str(r.get("error") or ""),
        ]
        for r in objects_at(report, "runs")
    ]
    headers = ["side", "outcome", "skills fired", *HEADS, "cost", "error"]
    foot = f"<p>Total spent: {text(dollars(spent(report), DASH))}</p>"
    return section(f"Runs ({len(rows)})", simple_table(headers, rows, range(3, 8)) + foot)


def models_table(report: dict) -> str:
    """A run on several models: each side on each model, a column each, in means a run."""
    models = objects_at(report, "models")
    if len(models) < 2:
        return ""
    columns = [
        (str(m.get("model") or "default"), key, object_at(object_at(m, "sides"), key))
        for m in models
        for key in object_at(m, "sides")
    ]
    rows = [
        [label, *(shown(side.get(key)) for _model, _key, side in columns)]
        for label, key, shown in (
            ("skills fired", "fired", fired),
            ("turns", "turns", number),
            ("input tokens", "input_tokens", number),
            ("cost (mean a run)", "cost_usd", dollars),
        )
    ]
    headers = ["", *(f"{SIDE_NAMES.get(key, key)} on {model}" for model, key, _side in columns)]
    return section("Per model", simple_table(headers, rows))


def sections(report: dict, transcripts: object = None) -> list[str]:
    return [head(report), models_table(report), sides_table(report), runs_table(report)]
