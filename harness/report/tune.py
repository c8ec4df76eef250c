"""A tune run's reports: markdown (the verdict, the split, every candidate with its scores, intervals and
stop reason, the final estimate, the diff), the text headline, statuses and JUnit."""

from __future__ import annotations

from harness.model.envelope import ERROR, FAIL, PASS
from harness.model.findings import Finding
from harness.printable import clip
from harness.report.format import dollars, number
from harness.report.junit import JUnitCase
from harness.report.markdown import table, titled

TRAIN, VALIDATION, FINAL = "train", "validation", "final"
PARTS = (TRAIN, VALIDATION, FINAL)
CHOSEN, REJECTED, STOPPED = "chosen", "rejected", "stopped-early"
CANDIDATE_HEADS = ["candidate", "status", "train", "validation", "gain (corrected)", "why", "spent"]
UNSCORED = ("not-scored", "trained")  # a candidate status that graded nothing


def _share(score: dict | None) -> str:
    if not score or score["accuracy"] is None:
        return "-"
    low, high = score["ci95"]
    extra = f", {score['ungraded']} ungraded" if score["ungraded"] else ""
    return f"{score['passed']}/{score['graded']} [{low:.2f}, {high:.2f}]{extra}"


def _gain(validation: dict | None) -> str:
    """Each agent's gain and its bound, `agent: ` before it when there are several."""
    if not validation:
        return "-"
    shown = []
    for agent, judged in validation.items():
        named = f"{agent}: " if len(validation) > 1 else ""
        if judged["gain"] is None:
            shown.append(f"{named}-")
            continue
        low, high = judged["interval"]
        shown.append(f"{named}{judged['gain']:+.3f} [{number(low, '+.3f')}, {number(high, '+.3f')}]")
    return "; ".join(shown)


def markdown(report: dict) -> str:
    meta, split, spend = report["meta"], report["split"], report["spend"]
    engine = (
        meta["engine"]
        if meta["engine"] == "lexical"
        else f"{meta['agent']} {meta['agent_version'] or ''}".strip()
    )
    counts = [(part, split["counts"][part]["positive"], split["counts"][part]["negative"]) for part in PARTS]
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
    rows = [
        (arm["label"], arm["status"], _share(arm["scores"].get(TRAIN)), _share(arm["scores"].get(VALIDATION)))
        + (_gain(arm["validation"]), clip(arm["reason"] or "", 160), dollars(arm["spend"]["cost_usd"]))
        for arm in [report["current"], *report["candidates"]]
    ]
    lines += titled("Candidates", table(CANDIDATE_HEADS, rows))
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
            f"Current: {_share(final['current'])}; {final['candidate']}: {_share(final['chosen'])}; gain "
            f"{_gain(final['gain'])}{at_level}.",
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
