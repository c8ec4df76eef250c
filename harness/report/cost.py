"""A cost run's reports, from its JSON report: markdown, located findings and JUnit (one test case per
run)."""

from __future__ import annotations

from harness.model import findings as finding
from harness.model.envelope import ERROR, PASS
from harness.model.findings import Finding
from harness.printable import clip
from harness.report.format import dollars, seconds
from harness.report.junit import JUnitCase
from harness.report.markdown import halted, quoted, section, table

ROWS = (
    ("skill fired", "fired"),
    ("wall time", "elapsed_s"),
    ("turns", "turns"),
    ("tool calls", "tool_calls"),
    ("tokens in", "input_tokens"),
    ("tokens out", "output_tokens"),
    ("cache reads", "cache_read_tokens"),
    ("cost", "cost_usd"),
)


def _shown(key: str, value: object) -> str:
    if value is None:
        return "n/a"
    if key == "fired" and isinstance(value, list):  # the skill names that fired
        return ", ".join(value) or "no skill"
    if key == "elapsed_s":
        return seconds(value)
    if key == "cost_usd":
        return dollars(value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def markdown(report: dict) -> str:
    meta = report["meta"]
    lines = ["## Prompt cost", "", f"Prompt: {clip(meta['prompt'], 200)}", ""]
    installed = ", ".join(f"`{name}`" for name in meta["room"]) or "no skill"
    without = f"; without: the same minus `{meta['skill']}`" if meta["skill"] else ""
    lines += [f"Installed with: {installed}{without}. Means over each side's finished runs.", ""]
    lines += quoted(halted(meta))
    lines.append(table(*sides_table(report)))
    runs = report["runs"]
    lines += section(
        "Retried runs",
        ["side", "why"],
        [(r["side"], clip(r["retried"], 300)) for r in runs if r["retried"]],
        "A run failed the way its agent CLI is known to fail on its own, so it ran once more in a fresh "
        "workspace; its figures are the second run's.",
    )
    lines += section(
        "Runs that did not finish",
        ["side", "error"],
        [(r["side"], clip(r["error"], 300)) for r in runs if r["error"]],
    )
    return "\n".join(lines) + "\n"


def sides_table(report: dict) -> tuple[list[str], list[list[str]]]:
    """The means over each side's finished runs, a column a side (on each model when several), a row a
    figure: in the markdown and on the page."""
    models, skill = report.get("models", []), report["meta"]["skill"]  # models: optional in the schema
    several = len(models) > 1
    heads = [
        (f"{side} the skill" if skill else "run") + (on_model(entry["model"]) if several else "")
        for entry in models
        for side in entry["sides"]
    ]
    sides = [side for entry in models for side in entry["sides"].values()]
    rows = [[label, *(_shown(key, side[key]) for side in sides)] for label, key in ROWS]
    rows.append(["runs finished", *(f"{side['finished']}/{side['runs']}" for side in sides)])
    return ["", *heads], rows


def on_model(model: str | None) -> str:
    return f" on {model or 'the default model'}"


def headline(report: dict) -> str:
    runs, models = report["runs"], report["models"]
    finished = sum(1 for r in runs if not r["error"])
    several = len(models) > 1
    sides = "; ".join(
        f"{side}{on_model(entry['model']) if several else ''}: {_shown('cost_usd', v['cost_usd'])}, "
        f"{_shown('input_tokens', v['input_tokens'])} tokens in"
        for entry in models
        for side, v in entry["sides"].items()
    )
    return f"{finished}/{len(runs)} run(s) finished; {sides}"


def run_name(report: dict, run: dict, n: int) -> str:
    """A run's name: its side and number, and its model when several were measured."""
    on = f"@{run['model'] or 'default'}" if len(report["models"]) > 1 else ""
    return f"{run['side']}{on}-{n + 1}"


def statuses(report: dict) -> dict[str, str]:
    return {run_name(report, r, n): ERROR if r["error"] else PASS for n, r in enumerate(report["runs"])}


def findings(report: dict) -> list[Finding]:
    """Each run retried after its agent CLI failed on its own, then each that did not finish."""
    runs = report["runs"]
    said = [(r, f"was run once more, fresh: {r['retried']}") for r in runs if r["retried"]]
    said += [(r, f"did not finish: {r['error']}") for r in runs if r["error"]]
    return [finding.warning("cost", ".", f"a `{r['side']}` run of the prompt {what}") for r, what in said]


def junit(report: dict) -> list[JUnitCase]:
    return [
        JUnitCase(
            classname="cost",
            name=run_name(report, r, n),
            time_s=r["elapsed_s"],
            error=r["error"],
            output=f"retried once, fresh: {r['retried']}" if r["retried"] else None,
        )
        for n, r in enumerate(report["runs"])
    ]
