"""A tune run's reports: markdown (the verdict, the split, every candidate with its scores, intervals and
stop reason, the final estimate, the diff), the text headline, statuses and JUnit."""

from __future__ import annotations

from harness.model.envelope import ERROR, FAIL, PASS
from harness.model.findings import Finding
from harness.printable import clip
from harness.report import columns
from harness.report.columns import Column, field
from harness.report.format import dollars, interval_of, number, share
from harness.report.junit import JUnitCase
from harness.report.markdown import table, titled

TRAIN, VALIDATION, FINAL = "train", "validation", "final"
PARTS = (TRAIN, VALIDATION, FINAL)
CHOSEN, REJECTED, STOPPED = "chosen", "rejected", "stopped-early"
UNSCORED = ("not-scored", "trained")  # a candidate status that graded nothing


def score(got: object) -> str:
    """A part's score: passed/graded, its rate and 95 % interval, and the samples it could not grade."""
    if not isinstance(got, dict) or not got.get("graded"):
        return "-"
    extra = f", {got['ungraded']} ungraded" if got.get("ungraded") else ""
    return share(got.get("passed", 0), got["graded"], got.get("ci95")) + extra


def part_counts(split: dict, part: str) -> tuple[object, object]:
    """The positives and negatives in one part of the split (untyped in the schema), in the markdown and
    on the page."""
    counted = split["counts"][part]
    return counted["positive"], counted["negative"]


def gain(judged: object, level: bool = True) -> str:
    """Each agent's gain over the current description and its bound (`level`: at which confidence),
    `agent: ` before it when there are several."""
    if not isinstance(judged, dict) or not judged:
        return "-"
    shown = []
    for agent, row in judged.items():
        named = f"{agent}: " if len(judged) > 1 else ""
        row = row if isinstance(row, dict) else {}
        bounds = interval_of(row.get("interval"))
        if not isinstance(row.get("gain"), (int, float)) or bounds is None:
            shown.append(f"{named}-")
            continue
        at = row.get("confidence") if level else None
        extra = f" at {100 * at:.4g} %" if isinstance(at, (int, float)) else ""
        low, high = bounds
        shown.append(f"{named}{row['gain']:+.3f} [{low:+.3f}, {high:+.3f}]{extra}")
    return "; ".join(shown)


def origin(arm: dict) -> str:
    """Where a candidate came from, and in which round of proposals."""
    return arm["origin"] + (f", round {arm['round']}" if arm["round"] else "")


# The candidates table, in the markdown and on the page.
CANDIDATES: list[Column] = [
    ("candidate", field("label")),
    ("origin", origin),
    ("status", field("status")),
    # A part the candidate never reached has no score.
    ("train", lambda arm: score(arm["scores"].get(TRAIN))),
    ("validation", lambda arm: score(arm["scores"].get(VALIDATION))),
    ("gain (corrected)", lambda arm: gain(arm["validation"])),
    ("why", lambda arm: clip(arm["reason"], 160)),
    ("spent", lambda arm: dollars(arm["spend"]["cost_usd"])),
]


def markdown(report: dict) -> str:
    meta, split, spend = report["meta"], report["split"], report["spend"]
    engine = (
        meta["engine"]
        if meta["engine"] == "lexical"
        else f"{meta['agent']} {meta['agent_version'] or ''}".strip()
    )
    counts = [(part, *part_counts(split, part)) for part in PARTS]
    lines = [
        f"## Tuning `{meta['skill']}`'s description",
        "",
        f"**{report['verdict'].capitalize()}.**",
        "",
        f"Room: {', '.join(f'`{n}`' for n in meta['room'])}; engine: {engine}; confidence "
        f"{number(meta['confidence'])}, corrected for {report['tried']} candidate(s) tried; "
        f"seed {split['seed']}.",
        "",
        table(["split", "positives", "negatives"], counts),
    ]
    arms = [report["current"], *report["candidates"]]
    lines += titled("Candidates", table(*columns.drawn(CANDIDATES, arms)))
    described = [
        f"- `{arm['label']}` ({arm['origin']}): {clip(arm['description'], 300)}"
        for arm in report["candidates"]
    ]
    lines += ["", *described] if described else []
    if final := report["final"]:
        level = next(iter(final["gain"].values()))["confidence"]
        at_level = f" at {number(100 * level)} %" if isinstance(level, (int, float)) else ""
        lines += titled(
            "Final split (graded once; the honest estimate)",
            f"Current: {score(final['current'])}; {final['candidate']}: {score(final['chosen'])}; gain "
            f"{gain(final['gain'], level=False)}{at_level}.",
        )
    if report["diff"]:
        applied = "applied (--apply)" if report["applied"] else "not applied; pass --apply to write it"
        diff = report["diff"].rstrip("\n")
        lines += titled(f"SKILL.md ({applied})", f"```diff\n{diff}\n```")
    lines += [
        "",
        f"Spent {dollars(spend['cost_usd'])} ({spend['samples_run']} sample(s) run, "
        f"{spend['cached_samples']} from the cache, {dollars(spend['proposal_cost_usd'])} on proposals).",
        *(f"- {note}" for note in report["notes"]),
        "",
        f"<details><summary>How it decides</summary>\n\n{report['rule']}\n</details>",
    ]
    return "\n".join(lines) + "\n"


def headline(report: dict) -> str:
    return f"{report['meta']['skill']}: {report['verdict']}; {dollars(report['spend']['cost_usd'])} spent"


def statuses(report: dict) -> dict[str, str]:
    """Each candidate's word: chosen passes, a refused or worse one fails, one never scored is an error."""
    words = {}
    for arm in report["candidates"]:
        status = arm["status"]
        words[arm["label"]] = ERROR if status in UNSCORED else PASS if status == CHOSEN else FAIL
    return words


def findings(report: dict) -> list[Finding]:
    return []  # a tuning locates nothing in a file; its verdict is the headline


def junit(report: dict) -> list[JUnitCase]:
    skill = report["meta"]["skill"]
    out = []
    for arm in report["candidates"]:
        failure = None if arm["status"] == CHOSEN else (arm["reason"] or arm["status"])
        error = None
        if arm["status"] not in (CHOSEN, REJECTED, STOPPED) and arm["validation"] is None:
            failure, error = None, arm["reason"] or "not scored"
        out.append(JUnitCase(classname=f"tune.{skill}", name=arm["label"], failure=failure, error=error))
    if report["halted"]:
        out.append(JUnitCase(classname=f"tune.{skill}", name="run", error=report["halted"]))
    return out
