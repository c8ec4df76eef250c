"""A compare run's reports, from its JSON report: markdown, located findings (annotations, text, SARIF) and
JUnit."""

from __future__ import annotations

from harness.model import findings as finding
from harness.model.envelope import ERROR, FAIL, PASS, Halt
from harness.model.findings import Finding
from harness.printable import clip
from harness.report import replays
from harness.report.cases import PLACE, at
from harness.report.columns import Column, field
from harness.report.format import (
    dollars,
    number,
    percent,
    points,
    seconds,
    share,
    signed,
    signed_dollars,
    total,
)
from harness.report.junit import JUnitCase, case_at, halt_cases
from harness.report.markdown import case_table, halted, provisional_named, quoted, section, table

BOTH = "both"
SIDES = ("baseline", "candidate")
MEANINGS = {
    "regression": "passed on the baseline, fails on the candidate",
    "improvement": "failed on the baseline, passes on the candidate",
    "changed": "same verdict, but a different skill fired or other expectations held",
    "error": "a side graded nothing (crash, timeout, API error): never a regression",
    "same-fail": "fails on both sides (or a flip within noise that fails overall)",
    "same-pass": "passes on both sides (or a flip within noise that passes overall)",
}


def markdown(report: dict) -> str:
    meta, labels, cases = report["meta"], report["labels"], report["cases"]
    lines = [f"## Skill compare ({'routing and behavioral' if meta['mode'] == BOTH else meta['mode']})", ""]
    lines.append(
        f"**{labels['regression']} regressions, {labels['improvement']} improvements** over "
        f"{len(cases)} case(s): baseline `{meta['baseline']}` against candidate `{meta['candidate']}`"
        f"{repeats(meta)}."
    )
    if sides := sides_text(report):
        lines += ["", f"Sides: {sides}."]
    verdict = "passed" if report["passed"] else "failed"
    allowed = " (regressions allowed)" if meta["allow_regressions"] and regressions(report) else ""
    lines += ["", f"Result: **{verdict}**{allowed}.", ""]
    lines += quoted([*halted(meta), *meta["notes"]])
    lines.append(table(["label", "cases", "meaning"], [(k, v, MEANINGS[k]) for k, v in labels.items()]))
    lines.append("")
    lines += _spend_lines(report)
    lines += _provisional(report)
    for heading, part in totals_parts(report):
        lines += [f"### {heading}", "", table(TOTALS_HEADS, totals_rows(part)), ""]
    lines += _lift(report.get("lift"))
    lines += ["### Side by side", "", case_table(CASES, side_by_side(report))]
    lines += section(
        "Errored cases (not compared)",
        ["case", "side", "error"],
        [(name(report, c), *_error_row(c)) for c in cases if c["label"] == "error"],
    )
    lines += section(
        "Retried runs and failed SKILL.md reads",
        ["case", "side", "what", "why"],
        [(name(report, c), side, what, clip(why, 300)) for c in cases for side, what, why in caveats(c)],
        "A retried run failed the way its agent CLI is known to fail on its own and ran once more, fresh; "
        "its verdict is the second run's. A run decided by a failed SKILL.md read asked for the skill (its "
        "decision stands), but its tools failed to read it, often the agent's own sandbox.",
    )
    lines.append("")
    lines.append(f"Statistical rule: {meta['rule']}")
    return "\n".join(lines) + "\n"


def repeats(meta: dict) -> str:
    return f", {meta['repeat']} run(s) a side" if meta["repeat"] > 1 else ""


def name(report: dict, case: dict) -> str:
    """The case's name in lists and JUnit: its id, and its mode when both modes ran."""
    return case["id"] if report["meta"]["mode"] != BOTH else f"{case['id']} ({case['mode']})"


def regressions(report: dict) -> list[dict]:
    return [c for c in report["cases"] if c["label"] == "regression"]


def counts_toward_verdict(report: dict, case: dict) -> bool:
    """Provisional cases count only with --strict, or when no stable case ran."""
    provisional = [c.get("trust_level") == "provisional" for c in report["cases"]]
    return report["meta"]["strict"] or case.get("trust_level") != "provisional" or all(provisional)


def compared(report: dict) -> list[dict]:
    return [c for c in report["cases"] if counts_toward_verdict(report, c) and c["label"] != "error"]


TOTALS_HEADS = ["", "baseline", "candidate", "delta"]


def count(value: object) -> str:
    return number(value, "")


# The totals table's rows after the pass rate and trigger rates: (label, figure, a side's, the delta's).
FIGURES = (
    ("input tokens", "input_tokens", count, signed),
    ("output tokens", "output_tokens", count, signed),
    ("cost", "cost_usd", dollars, signed_dollars),
    ("agent time", "elapsed_s", seconds, lambda value: signed(value, "s", 1)),
    ("tool calls", "tool_calls", count, signed),
    ("turns", "turns", count, signed),
)


def totals_rows(totals: dict) -> list[list[str]]:
    """The totals table, a row per figure: each side's, and the candidate's difference."""
    base, cand, delta = (totals[key] for key in (*SIDES, "delta"))
    rate = points(delta["pass_rate"], 1, delta["pass_rate_ci95"])
    rows = [["pass rate", pass_rate(base), pass_rate(cand), rate]]
    rows += [[key, count(base[key]), count(cand[key]), ""] for key in ("errors", "runs")]
    # A skill one side's positives never graded has no rate on that side.
    rows += [
        [
            f"trigger rate ({skill})",
            percent(rate),
            percent(cand["trigger_rate"].get(skill)),
            points(delta["trigger_rate"].get(skill)),
        ]
        for skill, rate in base["trigger_rate"].items()
    ]
    rows += [
        [label, shown(base[key]), shown(cand[key]), moved(delta[key])] for label, key, shown, moved in FIGURES
    ]
    return rows


def totals_parts(report: dict) -> list[tuple[str, dict]]:
    """The totals tables with their headings: one a mode when both modes ran."""
    if report["meta"]["mode"] == BOTH:  # by_mode is optional in the schema (older reports lack it)
        return [(f"Totals: {mode}", part) for mode, part in (report.get("by_mode") or {}).items()]
    return [("Totals", report["totals"])]


def pass_rate(side: dict) -> str:
    return share(side["passed"], side["graded"], side["pass_rate_ci95"]) if side["graded"] else "n/a"


def _lift(lift: dict | None) -> list[str]:
    if lift is None:
        return []
    none = ", ".join(f"`{i}`" for i in lift["no_lift"]) or "none"
    needs = ", ".join(f"`{i}`" for i in lift["needs_skill"]) or "none"
    taken = ", ".join(f"`{i}` by `{s}`" for i, s in lift["taken_by"].items())
    return [
        "### Without the skill",
        "",
        f"- Pass without the skill (no lift: the skill is not needed for them): {none}.",
        f"- Fail without it and pass with it (the skill's value): {needs}.",
        *([f"- Taken by another skill without it: {taken}."] if taken else []),
        "",
    ]


def side_by_side(report: dict) -> list[dict]:
    """The cases as the side-by-side table reads them: their mode named only when both modes ran."""
    both = report["meta"]["mode"] == BOTH
    return [{**case, "mode": case["mode"] if both else ""} for case in report["cases"]]


def replayed(report: dict) -> str | None:
    """How many runs of both sides the result cache gave back, and which runs made them."""
    sides = [c[side] for c in report["cases"] for side in SIDES]
    origins = [r["cached_from"] for s in sides for r in s["replayed"]]
    return replays.summary(origins, sum(s["runs"] + s["errors"] for s in sides), "run")


def _spend_lines(report: dict) -> list[str]:
    """What the result cache saved and what the run's spend cap kept from running, when either did."""
    base, cand = report["totals"]["baseline"], report["totals"]["candidate"]
    lines = []
    from_cache = replayed(report)
    if from_cache:
        lines.append(f"{from_cache}.")
    skipped = base["not_run"] + cand["not_run"]
    if skipped:
        lines.append(f"**{skipped} run(s) did not start: the run reached its --max-run-usd.**")
    return [*lines, ""] if lines else []


def _provisional(report: dict) -> list[str]:
    """Provisional cases (trust_level: provisional) named apart, saying whether the verdict counted them."""
    cases = report["cases"]
    shown = [f"`{name(report, c)}` ({c['label']})" for c in cases if c.get("trust_level") == "provisional"]
    return provisional_named(shown, len(cases), report["meta"]["strict"], "verdict")


def caveats(case: dict) -> list[tuple[str, str, str]]:
    """What a side's runs carry that its verdict does not show: (side, what, why) for a run retried
    after its agent CLI failed on its own, and a routing decision made by a failed SKILL.md read."""
    out = []
    for side in SIDES:
        record = case[side]
        if record["retried"]:
            out.append((side, "retried once, fresh", record["retried"]))
        if record["read_failed"]:
            out.append((side, "decided by a SKILL.md read that failed", record["read_failed"]))
    return out


def _side(record: dict) -> str:
    if not record["runs"]:
        return "error"
    runs = f" {record['passes']}/{record['runs']}" if record["runs"] > 1 else ""
    return f"{record['status']}{runs}: {clip(record['outcome'] or '-', 40)}"


def rate_delta(case: dict) -> str:
    return points(case["delta"]["rate"], 0, case["delta"]["rate_ci95"])


def sides_cost(case: dict) -> str:
    return " / ".join(dollars(case[side]["cost_usd"]) for side in SIDES)


# The side-by-side case table, in the markdown and on the page.
CASES: list[Column] = [
    ("case", field("id")),
    ("mode", field("mode")),
    ("label", field("label")),
    *((side, lambda case, side=side: _side(case[side])) for side in SIDES),
    ("rate delta [95%]", rate_delta),
    ("cost each side", sides_cost),
    *PLACE,
]


def _error_row(case: dict) -> tuple[str, str]:
    """Which sides graded nothing, and why the first of them did not."""
    which = [side for side in SIDES if not case[side]["runs"]]
    return " and ".join(which), clip(case[which[0]]["error"], 300)


def _summary(report: dict, case: dict) -> str:
    counted = "" if counts_toward_verdict(report, case) else " (provisional: not counted without --strict)"
    return (
        f"compare case `{name(report, case)}`: {case['label']}{counted}: baseline {_side(case['baseline'])}, "
        f"candidate {_side(case['candidate'])}"
    )


def sides_text(report: dict) -> str:
    """Which side ran where, when they ran on different agents or models; else empty."""
    agent = report["meta"]["agent"]  # free-form in the schema: what the run had of each side
    baseline = agent.get("baseline")
    if not isinstance(baseline, dict):
        return ""

    def where(side: dict) -> str:
        return f"{side.get('runtime')} on {side.get('model') or 'its default model'}"

    return f"baseline {where(baseline)}, candidate {where(agent)}"


def headline(report: dict) -> str:
    base, cand = report["totals"]["baseline"], report["totals"]["candidate"]
    from_cache = replayed(report)
    sides = sides_text(report)
    return (
        (
            f"{len(regressions(report))} regression(s) in {len(compared(report))} compared case(s); pass "
            f"rate {percent(base['pass_rate'])} -> {percent(cand['pass_rate'])}"
        )
        + (f"; {sides}" if sides else "")
        + (f"; {from_cache}" if from_cache else "")
        + (f"; {stopped}" if (stopped := Halt.of(report["meta"]).sentence()) else "")
    )


def status_of(label: str) -> str:
    """A compare label as a status: a regression fails, an error is an error, the rest pass."""
    return FAIL if label == "regression" else ERROR if label == "error" else PASS


def statuses(report: dict) -> dict[str, str]:
    """A regression fails, an uncompared case is an error, as the report's counts have it."""
    return {name(report, c): status_of(c["label"]) for c in report["cases"]}


def findings(report: dict) -> list[Finding]:
    """Each regression at its dataset line (an error unless allowed); an errored case a warning."""
    out = []
    for c in report["cases"]:
        if c["label"] == "regression":
            fails = not report["meta"]["allow_regressions"] and counts_toward_verdict(report, c)
            make = finding.error if fails else finding.warning
            out.append(make("compare", *at(c, _summary(report, c))))
        elif c["label"] == "error":
            shown = f"{_summary(report, c)} ({_error_row(c)[1]})"
            out.append(finding.warning("compare", *at(c, shown)))
        for side, what, why in caveats(c):
            shown = f"compare case `{name(report, c)}`: a {side} run was {what}: {why}"
            out.append(finding.warning("compare", *at(c, shown)))
    return out


def junit(report: dict) -> list[JUnitCase]:
    return [
        case_at(
            c,
            f"compare.{c['skill'] or 'shared'}",
            name(report, c),
            time_s=total((c["baseline"]["elapsed_s"], c["candidate"]["elapsed_s"])),
            error=_error_row(c)[1] if c["label"] == "error" else None,
            failure=_summary(report, c)
            if c["label"] == "regression" and counts_toward_verdict(report, c)
            else None,
            output="\n".join(
                [
                    f"label: {c['label']}",
                    *_replayed_runs(c),
                    *(f"{side} {what}: {why}" for side, what, why in caveats(c)),
                ]
            ),
        )
        for c in report["cases"]
    ] + halt_cases("compare", report["meta"])


def _replayed_runs(case: dict) -> list[str]:
    """A JUnit case's lines for each run the result cache gave back, side by side."""
    return [
        replays.sample_line(run["cached_from"], f"{side} run {run['run']} replayed")
        for side in SIDES
        for run in case[side]["replayed"]
    ]
