"""A lexical routing run's reports: markdown, located findings (annotations, text, SARIF) and JUnit.

Long tables stop at a cap (a step summary holds 1 MiB); every case is in the JSON report.
"""

from __future__ import annotations

from harness.model import findings as finding
from harness.model.findings import Finding
from harness.report import jsontext
from harness.report.junit import JUnitCase
from harness.report.markdown import clip, findings_table, table
from harness.routing.forecast import Forecast
from harness.routing.lexical import LexicalOutcome
from harness.routing.lexical_result import LexicalResult, case_json
from harness.secrets import Redactor

ROWS_SHOWN = 200
MEANINGS = {
    "correct_trigger": "the case's skill ranked within its top_k; on a false case naming an owner, the owner "
    "alone ranked first",
    "true_negative": "the skill of a false case without an owner did not rank first",
    "missed_trigger": "no skill shares a word with the prompt",
    "wrong_skill": "other skills ranked above the case's skill; on a false case, a skill other than its "
    "owner ranked first",
    "false_trigger": "the skill ranked first (ties included) for a prompt it should not answer",
    "error": "the case could not be ranked (its skill or owner is not in the room): not graded",
}


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{value * 100:.1f}%"


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({_percent(part / whole if whole else None)})"


def markdown(result: LexicalResult) -> str:
    totals = result.totals()
    rank1 = totals["rank1"]
    lines = ["## Skill routing: lexical engine", "", f"> {result.approximation}", ""]
    lines.append(
        f"**{_share(totals['passed'], totals['graded'])} correct** across {totals['cases']} prompts"
        f"{_unranked(totals)} "
        f"ranked against {len(result.meta.room)} skill(s) by name and description. "
        f"Rank-1 rate: **{_share(rank1['rank1'], rank1['positives'])}** of positives rank their skill "
        f"first; top-k rate {_share(rank1['top_k'], rank1['positives'])}."
    )
    lines += ["", f"Gate: **{'passed' if result.passed else 'failed'}**: {result.gate.reason}.", ""]
    lines += [*(f"> {note}" for note in result.meta.notes), ""] if result.meta.notes else []
    hint = next_step(result)
    lines += [hint, ""] if hint else []
    lines.append(
        table(["verdict", "cases", "meaning"], [(v, n, MEANINGS[v]) for v, n in _verdicts(result).items()])
    )
    lines += ["", "### Per skill", "", _per_skill(result), "", "### Vocabulary gaps", ""]
    lines.append(
        findings_table(result.findings, "None. Every positive shares a word with its skill's description.")
    )
    lines += ["", "### Routing failures", "", _failures(result)]
    errored = [o for o in result.outcomes if not o.graded]
    if errored:
        lines += ["", "### Cases that could not be ranked (not graded)", ""]
        lines.append(
            table(["case", "error"], [(o.case.id, clip(o.error, 300)) for o in errored[:ROWS_SHOWN]])
        )
    if result.forecast is not None:
        lines += ["", *_forecast(result.forecast)]
    lines += ["", "<details><summary>All cases</summary>", "", _cases(result.outcomes), "", "</details>", ""]
    return "\n".join(lines) + "\n"


def headline(result: LexicalResult) -> str:
    totals = result.totals()
    rank1 = totals["rank1"]
    return (
        f"lexical engine, an approximation of the agent that never replaces it: "
        f"{totals['passed']}/{totals['graded']} correct, rank-1 "
        f"{rank1['rank1']}/{rank1['positives']} of {totals['cases']} case(s){_unranked(totals)}; "
        f"{result.gate.reason}"
    )


def _unranked(totals: dict) -> str:
    """The cases that could not be ranked, so the fractions beside them add up; "" when none."""
    return f", {totals['errors']} could not be ranked: not graded" if totals["errors"] else ""


def next_step(result: LexicalResult) -> str:
    """For a run the accuracy bar failed on near misses its own skill took: the report-only bars a
    first lexical run on a real catalog wants; empty otherwise."""
    if result.passed or not result.meta.min_accuracy:
        return ""
    near = sum(1 for o in result.outcomes if o.graded and not o.passed and near_miss_taken(o))
    if not near:
        return ""
    return (
        f"{near} of the misses are near misses their own skill ranked first: they share its words by "
        "design, so a lexical run rarely meets --min-accuracy 1; `--min-accuracy 0 --min-rank1 0.8` "
        "reports them and gates on the rank-1 rate instead."
    )


def near_miss_taken(o: LexicalOutcome) -> bool:
    return not o.case.should_trigger and not o.case.owner and o.rank == 1


def findings(result: LexicalResult) -> list[Finding]:
    """Each case that did not pass, at its dataset line; a vocabulary gap says so instead of the ranks.
    Errors when the gate failed, warnings when it passed all the same (`--min-accuracy 0`)."""
    found = misses(result)
    return found if not result.passed else finding.as_warnings(found)


def misses(result: LexicalResult) -> list[Finding]:
    gaps = {(f.path, f.line): f for f in result.findings}
    out = []
    for o in result.outcomes:
        if o.passed:
            continue
        if not o.graded:
            message = f"lexical routing case `{o.case.id}` could not be ranked: {o.error}"
            out.append(finding.warning("routing", o.case.source, message, o.case.line))
        elif o.vocabulary_gap and (o.case.source, o.case.line) in gaps:
            out.append(gaps[(o.case.source, o.case.line)])
        else:
            message = f"lexical routing case `{o.case.id}`: {o.summary} ({o.verdict})"
            out.append(finding.error("routing", o.case.source, message, o.case.line))
    return out


def junit(result: LexicalResult) -> list[JUnitCase]:
    return [
        JUnitCase(
            classname=f"routing.lexical.{o.case.skill or 'shared'}",
            name=o.case.id,
            error=o.error if not o.graded else None,
            failure=None if o.passed or not o.graded else f"{o.summary} ({o.verdict})",
            output=_top(o),
        )
        for o in result.outcomes
    ]


def _verdicts(result: LexicalResult) -> dict[str, int]:
    return {verdict: sum(1 for o in result.outcomes if o.verdict == verdict) for verdict in MEANINGS}


def _per_skill(result: LexicalResult) -> str:
    rows = result.per_skill()
    return table(
        ["skill", "positives", "rank 1", "in top k", "rank-1 rate", "top-k rate", "first when not expected"],
        [
            (
                name,
                v["positives"],
                v["rank1"],
                v["top_k"],
                _percent(v["rank1_rate"]),
                _percent(v["top_k_rate"]),
                v["fired_when_not_expected"],
            )
            for name, v in rows.items()
        ],
    )


def _failures(result: LexicalResult) -> str:
    failed = [o for o in result.outcomes if o.graded and not o.passed]
    if not failed:
        return "None. Every graded prompt ranked as expected."
    shown = table(
        ["case", "verdict", "what happened", "top three (score: shared words)", "prompt"],
        [(o.case.id, o.verdict, o.summary, _top(o), clip(o.case.prompt, 110)) for o in failed[:ROWS_SHOWN]],
    )
    return shown + _more(len(failed))


def _cases(outcomes: list[LexicalOutcome]) -> str:
    shown = table(
        ["case", "category", "verdict", "rank", "top three (score: shared words)"],
        [(o.case.id, o.case.category, o.verdict, _rank(o), _top(o)) for o in outcomes[:ROWS_SHOWN]],
    )
    return shown + _more(len(outcomes))


def _rank(o: LexicalOutcome) -> str:
    """The case skill's rank; a skill sharing no word with the prompt has none worth a number."""
    return str(o.rank) if o.score > 0 else "-"


def _top(o: LexicalOutcome) -> str:
    """`skill 0.42: word, word; ...` for the best three, or why there are none."""
    if not o.top:
        return "no skill shares a word" if o.graded else "not ranked"
    return "; ".join(f"{m.skill} {m.score:.2f}: {', '.join(m.shared)}" for m in o.top)


def _more(count: int) -> str:
    return f"\n\n{count - ROWS_SHOWN} more in the JSON report." if count > ROWS_SHOWN else ""


def _forecast(forecast: Forecast) -> list[str]:
    """Where the free tier's verdicts part from the agent's, so authors learn which skills it mispredicts."""
    lines = [f"### Forecast against `{forecast.source}`", ""]
    if not forecast.compared:
        lines.append(
            f"No case was graded by both engines ({forecast.not_in_report} not in that report, "
            f"{forecast.agent_errors} errored there)."
        )
        return lines
    lines.append(
        f"Of {forecast.compared} cases graded by both engines, the lexical verdict matched the agent's "
        f"(pass or fail) for {_share(forecast.agreed, forecast.compared)}; the lexical first pick was "
        f"the skill the agent fired for {_share(forecast.same_pick, forecast.compared)}. "
        f"Not compared: {forecast.not_in_report} not in that report, {forecast.agent_errors} errored there."
    )
    lines += ["", "By skill:", ""]
    lines.append(
        table(
            ["skill", "compared", "agreed", "agreement"],
            [
                (n, v["compared"], v["agreed"], _percent(v["agreed"] / v["compared"]))
                for n, v in _by_skill(forecast)
            ],
        )
    )
    if forecast.disagreements:
        lines += ["", "Cases the engines disagree on:", ""]
        rows = [
            (
                d.id,
                d.skill,
                f"{d.lexical_verdict} (first: {d.lexical_pick or 'none'})",
                f"{d.agent_verdict} (fired: {d.agent_pick or 'none'})",
            )
            for d in forecast.disagreements[:ROWS_SHOWN]
        ]
        lines.append(table(["case", "skill", "lexical", "agent"], rows) + _more(len(forecast.disagreements)))
    return lines


def _by_skill(forecast: Forecast) -> list[tuple[str, dict]]:
    return sorted(
        forecast.per_skill.items(), key=lambda item: (item[1]["agreed"] / item[1]["compared"], item[0])
    )


def case_lines(outcomes: list[LexicalOutcome], redact: Redactor) -> list[str]:
    """Each case's line of the JSON report, redacted as the report is: made by the process that graded
    the cases, so a forked child lays out its share while the caller lays out its own."""
    return [jsontext.line(redact.data(case_json(o))) for o in outcomes]
