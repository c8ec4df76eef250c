"""A tune run's reports: markdown (the verdict, the split, every candidate with its scores, intervals and
stop reason, the final estimate, the diff), the text headline, statuses and JUnit."""

from __future__ import annotations

from harness.model.findings import Finding
from harness.report.junit import JUnitCase
from harness.report.markdown import clip, table
from harness.tune.result import TuneResult
from harness.tune.split import PARTS, TRAIN, VALIDATION
from harness.tune.tuning import CHOSEN, REJECTED, STOPPED


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
        shown.append(f"{named}{judged['gain']:+.3f} [{low:+.3f}, {high:+.3f}]")
    return "; ".join(shown)


def markdown(result: TuneResult) -> str:
    data = result.to_json()
    meta = result.meta
    lines = [f"## Tuning `{meta.skill}`'s description", "", f"**{data['verdict'].capitalize()}.**", ""]
    engine = meta.engine if meta.engine == "lexical" else f"{meta.agent} {meta.agent_version or ''}".strip()
    lines += [
        f"Room: {', '.join(f'`{n}`' for n in meta.room)}; engine: {engine}; confidence {meta.confidence:g}, "
        f"corrected for {data['tried']} candidate(s) tried; seed {result.split.seed}.",
        "",
    ]
    counts = result.split.counts()
    lines.append(
        table(
            ["split", "positives", "negatives"],
            [(part, counts[part]["positive"], counts[part]["negative"]) for part in PARTS],
        )
    )
    rows = []
    for arm in [data["current"], *data["candidates"]]:
        scores = arm["scores"]
        rows.append(
            (
                arm["label"],
                arm["status"],
                _share(scores.get(TRAIN)),
                _share(scores.get(VALIDATION)),
                _gain(arm["validation"]),
                clip(arm["reason"] or "", 160),
                f"${arm['spend']['cost_usd']:.4f}",
            )
        )
    lines += ["", "### Candidates", ""]
    lines.append(
        table(["candidate", "status", "train", "validation", "gain (corrected)", "why", "spent"], rows)
    )
    if data["candidates"]:
        lines.append("")
    for arm in data["candidates"]:
        lines.append(f"- `{arm['label']}` ({arm['origin']}): {clip(arm['description'], 300)}")
    if data["final"]:
        final = data["final"]
        level = 100 * next(iter(final["gain"].values()))["confidence"]
        lines += [
            "",
            "### Final split (graded once; the honest estimate)",
            "",
            f"Current: {_share(final['current'])}; {final['candidate']}: {_share(final['chosen'])}; gain "
            f"{_gain(final['gain'])} at {level:g} %.",
        ]
    if result.diff:
        applied = "applied (--apply)" if result.applied else "not applied; pass --apply to write it"
        lines += ["", f"### SKILL.md ({applied})", "", "```diff", result.diff.rstrip("\n"), "```"]
    spend = data["spend"]
    lines += [
        "",
        f"Spent ${spend['cost_usd']:.4f} ({spend['samples_run']} sample(s) run, {spend['cached_samples']} "
        f"from the cache, ${spend['proposal_cost_usd']:.4f} on proposals).",
    ]
    for note in data["notes"]:
        lines.append(f"- {note}")
    lines += ["", f"<details><summary>How it decides</summary>\n\n{data['rule']}\n</details>"]
    return "\n".join(lines) + "\n"


def headline(result: TuneResult) -> str:
    return f"{result.meta.skill}: {result.verdict()}; ${result.total_cost():.4f} spent"


def statuses(result: TuneResult) -> dict[str, str]:
    return result.statuses()


def findings(result: TuneResult) -> list[Finding]:
    return []  # a tuning locates nothing in a file; its verdict is the headline


def junit(result: TuneResult) -> list[JUnitCase]:
    out = []
    for arm in result.tuned.arms:
        failure = None if arm.status == CHOSEN else (arm.reason or arm.status)
        error = None
        if arm.status not in (CHOSEN, REJECTED, STOPPED) and arm.label not in result.tuned.judged:
            failure, error = None, arm.reason or "not scored"
        out.append(
            JUnitCase(classname=f"tune.{result.meta.skill}", name=arm.label, failure=failure, error=error)
        )
    if result.tuned.halted:
        out.append(JUnitCase(classname=f"tune.{result.meta.skill}", name="run", error=result.tuned.halted))
    return out
