"""A compare run's reports: markdown, located findings (annotations, text, SARIF) and JUnit."""

from __future__ import annotations

from harness.compare.result import BOTH, RULE, CaseComparison, CompareResult, status_of
from harness.compare.sides import SideRecord
from harness.model import findings as finding
from harness.model.dataset import located, origin_note
from harness.model.findings import Finding
from harness.report import replays
from harness.report.junit import JUnitCase, halt_cases, junit_file
from harness.report.markdown import clip, table

MEANINGS = {
    "regression": "passed on the baseline, fails on the candidate",
    "improvement": "failed on the baseline, passes on the candidate",
    "changed": "same verdict, but a different skill fired or other expectations held",
    "error": "a side graded nothing (crash, timeout, API error): never a regression",
    "same-fail": "fails on both sides (or a flip within noise that fails overall)",
    "same-pass": "passes on both sides (or a flip within noise that passes overall)",
}


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.1f}%"


def _signed(value: float | None, unit: str = "", digits: int = 0) -> str:
    return "n/a" if value is None else f"{value:+.{digits}f}{unit}"


def markdown(result: CompareResult) -> str:
    data = result.to_json()
    meta, labels, totals = result.meta, data["labels"], data["totals"]
    lines = [f"## Skill compare ({'routing and behavioral' if meta.mode == BOTH else meta.mode})", ""]
    lines.append(
        f"**{labels['regression']} regressions, {labels['improvement']} improvements** over "
        f"{len(result.cases)} case(s): baseline `{meta.baseline}` against candidate `{meta.candidate}`"
        f"{f', {meta.repeat} run(s) a side' if meta.repeat > 1 else ''}."
    )
    if sides := sides_text(result):
        lines += ["", f"Sides: {sides}."]
    verdict = "passed" if result.passed else "failed"
    allowed = " (regressions allowed)" if meta.allow_regressions and result.regressions else ""
    lines += ["", f"Result: **{verdict}**{allowed}.", ""]
    if meta.halt.halted:
        lines += [f"> **{meta.halt.sentence()}**", ""]
    lines += [f"> {note}\n" for note in meta.notes]
    lines.append(table(["label", "cases", "meaning"], [(k, v, MEANINGS[k]) for k, v in labels.items()]))
    lines.append("")
    lines += _spend_lines(result, totals)
    lines += _provisional(result)
    if meta.mode == BOTH:
        for mode, part in data["by_mode"].items():
            lines += [f"### Totals: {mode}", "", _totals_table(part), ""]
    else:
        lines += ["### Totals", "", _totals_table(totals), ""]
    lines += _lift(data["lift"])
    lines += ["### Side by side", "", _cases_table(result), ""]
    errored = [c for c in result.cases if c.label == "error"]
    if errored:
        lines += ["### Errored cases (not compared)", ""]
        lines.append(
            table(["case", "side", "error"], [(result.name(c), *_error_row(c)[1:]) for c in errored])
        )
        lines.append("")
    lines += _caveats(result)
    lines.append(f"Statistical rule: {RULE}")
    return "\n".join(lines) + "\n"


def _totals_table(totals: dict) -> str:
    base, cand, delta = totals["baseline"], totals["candidate"], totals["delta"]
    return table(
        ["", "baseline", "candidate", "delta"],
        [
            ("pass rate", _rate(base), _rate(cand), _rate_delta(delta)),
            ("errors", base["errors"], cand["errors"], ""),
            *(
                (
                    f"trigger rate `{skill}`",
                    _percent(rate),
                    _percent(cand["trigger_rate"][skill]),
                    _points(delta["trigger_rate"][skill]),
                )
                for skill, rate in base["trigger_rate"].items()
            ),
            ("input tokens", base["input_tokens"], cand["input_tokens"], _signed(delta["input_tokens"])),
            ("output tokens", base["output_tokens"], cand["output_tokens"], _signed(delta["output_tokens"])),
            ("cost", _usd(base["cost_usd"]), _usd(cand["cost_usd"]), _usd_delta(delta["cost_usd"])),
            (
                "agent time",
                f"{base['elapsed_s']:.1f}s",
                f"{cand['elapsed_s']:.1f}s",
                _signed(delta["elapsed_s"], "s", 1),
            ),
            ("tool calls", base["tool_calls"], cand["tool_calls"], _signed(delta["tool_calls"])),
            ("turns", _known(base["turns"]), _known(cand["turns"]), _signed(delta["turns"])),
        ],
    )


def _rate(side: dict) -> str:
    if side["pass_rate"] is None:
        return "n/a"
    low, high = side["pass_rate_ci95"]
    return (
        f"{side['passed']}/{side['graded']} {_percent(side['pass_rate'])} [{low * 100:.0f}–{high * 100:.0f}%]"
    )


def _rate_delta(delta: dict) -> str:
    if delta["pass_rate"] is None:
        return "n/a"
    low, high = delta["pass_rate_ci95"]
    return f"{delta['pass_rate'] * 100:+.1f} pts [{low * 100:+.0f}, {high * 100:+.0f}]"


def _points(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:+.1f} pts"


def _usd_delta(value: float | None) -> str:
    return "n/a" if value is None else f"{'-' if value < 0 else '+'}${abs(value):.4f}"


def _known(value: int | None) -> str:
    return "n/a" if value is None else str(value)


def _usd(value: float | None) -> str:
    return "n/a" if value is None else f"${value:.4f}"


def _lift(lift: dict | None) -> list[str]:
    if lift is None:
        return []
    none = ", ".join(f"`{i}`" for i in lift["no_lift"]) or "none"
    needs = ", ".join(f"`{i}`" for i in lift["needs_skill"]) or "none"
    return [
        "### Without the skill",
        "",
        f"- Pass without the skill (no lift: the skill is not needed for them): {none}.",
        f"- Fail without it and pass with it (the skill's value): {needs}.",
        *_taken(lift["taken_by"]),
        "",
    ]


def _taken(taken: dict[str, str]) -> list[str]:
    if not taken:
        return []
    return [
        "- Taken by another skill without it: " + ", ".join(f"`{i}` by `{s}`" for i, s in taken.items()) + "."
    ]


def _cases_table(result: CompareResult) -> str:
    return table(
        ["case", "label", "baseline", "candidate", "rate delta", "prompt"],
        [
            (
                result.name(c),
                c.label,
                _side(c.baseline),
                _side(c.candidate),
                _case_delta(c),
                clip(c.prompt, 80),
            )
            for c in result.cases
        ],
    )


def replayed(result: CompareResult) -> str | None:
    """How many runs of both sides the result cache gave back, and which runs made them."""
    runs = [run for c in result.cases for record in (c.baseline, c.candidate) for run in record.runs]
    return replays.summary([r.cached_from for r in runs if r.cached], len(runs), "run")


def _spend_lines(result: CompareResult, totals: dict) -> list[str]:
    """What the result cache saved and what the run's spend cap kept from running, when either did."""
    base, cand = totals["baseline"], totals["candidate"]
    lines = []
    from_cache = replayed(result)
    if from_cache:
        lines.append(f"{from_cache}.")
    skipped = base["not_run"] + cand["not_run"]
    if skipped:
        lines.append(f"**{skipped} run(s) did not start: the run reached its --max-run-usd.**")
    return [*lines, ""] if lines else []


def _provisional(result: CompareResult) -> list[str]:
    """Provisional cases (trust_level: provisional) named apart, saying whether the verdict counted them."""
    shown = [f"`{result.name(c)}` ({c.label})" for c in result.cases if c.provisional]
    if not shown:
        return []
    if result.meta.strict:
        how = "counted by the verdict (--strict)"
    elif len(shown) == len(result.cases):
        how = "counted by the verdict, since no stable case ran"
    else:
        how = "reported apart and not counted by the verdict; --strict counts them"
    return [f"Provisional case(s), {how}: {', '.join(shown)}.", ""]


def caveats(case: CaseComparison) -> list[tuple[str, str, str]]:
    """What a side's runs carry that its verdict does not show: (side, what, why) for a run retried
    after its agent CLI failed on its own, and a routing decision made by a failed SKILL.md read."""
    out = []
    for name in ("baseline", "candidate"):
        record: SideRecord = getattr(case, name)
        if record.retried:
            out.append((name, "retried once, fresh", record.retried))
        if record.read_failed:
            out.append((name, "decided by a SKILL.md read that failed", record.read_failed))
    return out


def _caveats(result: CompareResult) -> list[str]:
    rows = [
        (result.name(c), side, what, clip(why, 300)) for c in result.cases for side, what, why in caveats(c)
    ]
    if not rows:
        return []
    return [
        "### Retried runs and failed SKILL.md reads",
        "",
        "A retried run failed the way its agent CLI is known to fail on its own and ran once more, fresh; "
        "its verdict is the second run's. A run decided by a failed SKILL.md read asked for the skill (its "
        "decision stands), but its tools failed to read it, often the agent's own sandbox.",
        "",
        table(["case", "side", "what", "why"], rows),
        "",
    ]


def _side(record: SideRecord) -> str:
    side = record.side
    if not side.graded:
        return "error"
    runs = f" {side.passes}/{side.runs}" if side.runs > 1 else ""
    return f"{record.status}{runs}: {clip(record.outcome or '-', 40)}"


def _case_delta(case: CaseComparison) -> str:
    delta = case.delta()
    return "n/a" if delta["rate"] is None else f"{delta['rate'] * 100:+.0f} pts"


def _error_row(case: CaseComparison) -> tuple[str, str, str]:
    which = [name for name in ("baseline", "candidate") if not getattr(case, name).side.graded]
    record = getattr(case, which[0])
    return case.id, " and ".join(which), clip(record.error, 300)


def _summary(result: CompareResult, case: CaseComparison) -> str:
    counted = "" if result.counts_toward_verdict(case) else " (provisional: not counted without --strict)"
    return (
        f"compare case `{result.name(case)}`: {case.label}{counted}: baseline {_side(case.baseline)}, "
        f"candidate {_side(case.candidate)}"
    )


def sides_text(result: CompareResult) -> str:
    """When the sides ran on different agents or models (--baseline-agent, --baseline-model): which
    ran where; else empty."""
    agent = result.meta.agent
    baseline = agent.get("baseline")
    if not isinstance(baseline, dict):
        return ""

    def where(side: dict) -> str:
        return f"{side.get('runtime')} on {side.get('model') or 'its default model'}"

    return f"baseline {where(baseline)}, candidate {where(agent)}"


def headline(result: CompareResult) -> str:
    totals = result.totals()
    base, cand = totals["baseline"], totals["candidate"]
    from_cache = replayed(result)
    sides = sides_text(result)
    return (
        (
            f"{len(result.regressions)} regression(s) in {len(result.compared)} compared case(s); pass rate "
            f"{_percent(base['pass_rate'])} -> {_percent(cand['pass_rate'])}"
        )
        + (f"; {sides}" if sides else "")
        + (f"; {from_cache}" if from_cache else "")
    )


def statuses(result: CompareResult) -> dict[str, str]:
    """A regression fails, an uncompared case is an error, as the report's counts have it."""
    return {result.name(c): status_of(c.label) for c in result.cases}


def findings(result: CompareResult) -> list[Finding]:
    """Each regression at its line in the dataset (an error unless regressions are allowed); errored
    cases as warnings, since they were not compared."""
    out = []
    for c in result.cases:
        if c.label == "regression":
            fails = not result.meta.allow_regressions and result.counts_toward_verdict(c)
            make = finding.error if fails else finding.warning
            out.append(make("compare", *_at(c, _summary(result, c))))
        elif c.label == "error":
            shown = f"{_summary(result, c)} ({_error_row(c)[2]})"
            out.append(finding.warning("compare", *_at(c, shown)))
        for side, what, why in caveats(c):
            shown = f"compare case `{result.name(c)}`: a {side} run was {what}: {why}"
            out.append(finding.warning("compare", *_at(c, shown)))
    return out


def _at(c: CaseComparison, message: str) -> tuple[str, str, int | None]:
    """A finding's path, message and line for a compared case (a built-in shared negative: the repo)."""
    path, line = located(c.source, c.line)
    return path, message + origin_note(c.source, c.id), line


def junit(result: CompareResult) -> list[JUnitCase]:
    return [
        JUnitCase(
            classname=f"compare.{c.skill or 'shared'}",
            name=result.name(c),
            time_s=c.baseline.figures()["elapsed_s"] + c.candidate.figures()["elapsed_s"],
            error=_error_row(c)[2] if c.label == "error" else None,
            failure=_summary(result, c)
            if c.label == "regression" and result.counts_toward_verdict(c)
            else None,
            output="\n".join(
                [
                    f"label: {c.label}",
                    *_replayed_runs(c),
                    *(f"{side} {what}: {why}" for side, what, why in caveats(c)),
                ]
            ),
            file=junit_file(c.source),
            line=located(c.source, c.line)[1],
        )
        for c in result.cases
    ] + halt_cases("compare", result.meta.halt)


def _replayed_runs(case: CaseComparison) -> list[str]:
    """A JUnit case's lines for each run the result cache gave back, side by side."""
    return [
        replays.sample_line(run.cached_from, f"{side} run {n} replayed")
        for side, record in (("baseline", case.baseline), ("candidate", case.candidate))
        for n, run in enumerate(record.runs, 1)
        if run.cached
    ]
